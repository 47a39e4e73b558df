// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Times the crate's calls against the C calls under them, in one process on one builder:
//! `Builder::root` against `merklize_root`, and `Builder::build` (every level kept) against
//! `merklize_build` + `merklize_tree_free`, over 2^LOG2 leaves in host memory. Alternates the
//! two sides, after a warm-up, and prints each one's median and minimum. No assertion: a tool.
//!
//! cargo run --release --example root_bench [-- LOG2 [REPEATS [HASH]]]   (default 20 15 sha256)
//! The device is the default one ($MERKLIZE_DEVICE).

use std::ptr;
use std::time::{Duration, Instant};

use merklize::sys;
use merklize::{Builder, Device, Hash, Source, TreeConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let log2: u32 = args.get(1).map_or(Ok(20), |a| a.parse())?;
    let repeats: usize = args.get(2).map_or(Ok(15), |a| a.parse())?;
    let hash: Hash = args.get(3).map_or(Ok(Hash::Sha256), |a| a.parse())?;

    let device = Device::open_default()?;
    let info = device.info()?;
    let builder = Builder::new(&device, &TreeConfig::new().hash(hash))?;
    let n = 1usize << log2;
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let leaves: Vec<[u8; 32]> = (0..n)
        .map(|_| {
            let mut leaf = [0u8; 32];
            for chunk in leaf.chunks_mut(8) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                chunk.copy_from_slice(&state.to_le_bytes());
            }
            leaf
        })
        .collect();
    let bytes = leaves.concat();
    let c_source = sys::merklize_source_memory(bytes.as_ptr().cast(), bytes.len() as u64);

    let rust_root = || builder.root(Source::leaves(&leaves)).map(|_| ());
    let c_root = || {
        let mut root = [0u8; 32];
        // SAFETY: a live builder; the source's bytes live; root has 32 bytes.
        let status = unsafe { sys::merklize_root(builder.as_ptr(), &c_source, root.as_mut_ptr()) };
        assert_eq!(status, sys::MERKLIZE_OK);
    };
    let rust_build = || builder.build(Source::leaves(&leaves)).map(drop);
    let c_build = || {
        let mut tree = ptr::null_mut();
        // SAFETY: as above; the tree is freed at once.
        unsafe {
            assert_eq!(
                sys::merklize_build(builder.as_ptr(), &c_source, &mut tree),
                sys::MERKLIZE_OK
            );
            sys::merklize_tree_free(tree);
        }
    };
    // Both sides give the same root.
    let mut c = [0u8; 32];
    // SAFETY: as above.
    unsafe { sys::merklize_root(builder.as_ptr(), &c_source, c.as_mut_ptr()) };
    assert_eq!(builder.root(Source::leaves(&leaves))?, c);

    println!(
        "device: {} [{}]; {} leaves (2^{}), hash {}, {} repeats each, alternating",
        info.name, info.platform, n, log2, hash, repeats
    );
    let (rust, c) = pair(repeats, || rust_root().unwrap(), c_root);
    report(
        "root  Builder::root       ",
        &rust,
        "merklize_root       ",
        &c,
    );
    let (rust, c) = pair(repeats, || rust_build().unwrap(), c_build);
    report(
        "build Builder::build      ",
        &rust,
        "merklize_build+free ",
        &c,
    );
    Ok(())
}

/// Times `a` and `b` alternately, `repeats` times each after one warm-up of each.
fn pair(
    repeats: usize,
    mut a: impl FnMut(),
    mut b: impl FnMut(),
) -> (Vec<Duration>, Vec<Duration>) {
    a();
    b();
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for i in 0..repeats {
        let time = |f: &mut dyn FnMut(), into: &mut Vec<Duration>| {
            let start = Instant::now();
            f();
            into.push(start.elapsed());
        };
        if i % 2 == 0 {
            time(&mut a, &mut ta);
            time(&mut b, &mut tb);
        } else {
            time(&mut b, &mut tb);
            time(&mut a, &mut ta);
        }
    }
    (ta, tb)
}

fn report(a_name: &str, a: &[Duration], b_name: &str, b: &[Duration]) {
    let (ma, mb) = (median(a), median(b));
    println!(
        "{} median {:8.2} ms  min {:8.2} ms | {} median {:8.2} ms  min {:8.2} ms | crate/C {:+.1}%",
        a_name,
        ms(ma),
        ms(*a.iter().min().unwrap()),
        b_name,
        ms(mb),
        ms(*b.iter().min().unwrap()),
        100.0 * (ms(ma) / ms(mb) - 1.0)
    );
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
