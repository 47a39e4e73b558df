// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Hashing on the device against sha256sum and b3sum: BLAKE3 in its three modes with extended
//! output from memory, paths and descriptors; hashtree's SHA-256 layer; RFC 6962 leaf hashes
//! (also against `merklize leaf-hash`). The tests' own SHA-256 and one-block BLAKE3, which make
//! leaves elsewhere, are held against the same commands here.

mod common;

use std::fs::File;
use std::io::Write;
use std::process::{Command, Stdio};

use common::commands::{available, cli, run, sums};
use common::hashes::{blake3_small, sha256, sha256_of};
use common::{device, hex, random_bytes, TempDir};
use merklize::{Blake3Mode, Framing, Source, Status};

/// b3sum's hex output for a file, with extra arguments, the key (if any) on its stdin.
fn b3sum(args: &[&str], path: &std::path::Path, key: Option<&[u8; 32]>) -> String {
    let mut child = Command::new("b3sum")
        .args(args)
        .arg("--no-names")
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("b3sum runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(key.map_or(&[][..], |k| &k[..]))
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "b3sum {:?} failed", args);
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

#[test]
fn the_tests_own_hashes_equal_sha256sum_and_b3sum() {
    let dir = TempDir::new("own-hashes");
    let inputs: Vec<Vec<u8>> = (0..=64)
        .chain([65, 119, 120, 1000])
        .map(|n| random_bytes(n, n as u64))
        .collect();
    let paths: Vec<_> = inputs
        .iter()
        .enumerate()
        .map(|(i, d)| dir.file(&format!("in{}", i), d))
        .collect();
    if available("sha256sum") {
        let want = sums(&run("sha256sum", &paths));
        let got: Vec<String> = inputs.iter().map(|d| hex(&sha256(d))).collect();
        assert_eq!(got, want);
    }
    if available("b3sum") {
        let small = &paths[..=64];
        let want = sums(&run("b3sum", small));
        let got: Vec<String> = inputs[..=64]
            .iter()
            .map(|d| hex(&blake3_small(d)))
            .collect();
        assert_eq!(got, want);
    }
}

/// A mode, b3sum's arguments for it, and the key it reads on stdin.
type Mode<'a> = (Blake3Mode<'a>, Vec<&'a str>, Option<&'a [u8; 32]>);

#[test]
fn blake3_of_memory_paths_and_descriptors_equals_b3sum_in_every_mode() {
    if !available("b3sum") {
        return;
    }
    let device = device();
    let dir = TempDir::new("blake3");
    let key: [u8; 32] = random_bytes(32, 77).try_into().unwrap();
    let context = "merklize-rs 2024-01-01 test context";
    for &size in &[0usize, 1, 64, 1023, 1024, 1025, 65_536, 1_000_007] {
        let data = random_bytes(size, size as u64 + 1);
        let path = dir.file("data", &data);
        let modes: [Mode; 3] = [
            (Blake3Mode::Hash, vec![], None),
            (Blake3Mode::Keyed(&key), vec!["--keyed"], Some(&key)),
            (
                Blake3Mode::DeriveKey(context),
                vec!["--derive-key", context],
                None,
            ),
        ];
        for (mode, args, stdin_key) in modes.iter() {
            let what = format!("{:?} of {} bytes", mode, size);
            let want = b3sum(args, &path, *stdin_key);
            assert_eq!(
                hex(&device.blake3_with(*mode, Source::Memory(&data)).unwrap()),
                want,
                "{}",
                what
            );
            assert_eq!(
                hex(&device.blake3_with(*mode, Source::path(&path)).unwrap()),
                want,
                "{} (path)",
                what
            );
            let file = File::open(&path).unwrap();
            assert_eq!(
                hex(&device.blake3_with(*mode, Source::fd(&file)).unwrap()),
                want,
                "{} (fd)",
                what
            );
            let mut long = vec![0u8; 200];
            device
                .blake3_xof(*mode, Source::Memory(&data), &mut long)
                .unwrap();
            let mut length_args = args.clone();
            length_args.extend(["--length", "200"]);
            assert_eq!(
                hex(&long),
                b3sum(&length_args, &path, *stdin_key),
                "{}, 200 bytes out",
                what
            );
        }
        if size == 0 {
            assert_eq!(
                hex(&device.blake3(Source::Memory(&[])).unwrap()),
                b3sum(&[], &path, None)
            );
        }
    }
}

#[test]
fn the_sha256_layer_equals_sha256sum_of_each_block() {
    let device = device();
    let dir = TempDir::new("layer");
    for &count in &[1usize, 2, 63, 1000] {
        let chunks: Vec<[u8; 64]> = random_bytes(64 * count, count as u64)
            .chunks(64)
            .map(|c| c.try_into().unwrap())
            .collect();
        let digests = device.sha256_layer(&chunks).unwrap();
        assert_eq!(digests.len(), count);
        for (chunk, digest) in chunks.iter().zip(&digests) {
            assert_eq!(digest, &sha256(chunk));
        }
        if count <= 63 && available("sha256sum") {
            let paths: Vec<_> = chunks
                .iter()
                .enumerate()
                .map(|(i, c)| dir.file(&format!("c{}", i), c))
                .collect();
            let want = sums(&run("sha256sum", &paths));
            assert_eq!(
                digests.iter().map(|d| hex(d)).collect::<Vec<_>>(),
                want,
                "{} blocks",
                count
            );
        }
    }
    assert_eq!(device.sha256_layer(&[]).unwrap(), Vec::<[u8; 32]>::new());
}

#[test]
fn log_leaves_are_rfc6962_leaf_hashes_as_the_tool_writes_them() {
    let device = device();
    let entries: [&[u8]; 5] = [
        b"first",
        b"",
        b"a longer entry, with spaces",
        b"\x00\x01\xff",
        b"last",
    ];
    let mut lines = Vec::new();
    let mut prefixed = Vec::new();
    for e in &entries {
        lines.extend_from_slice(e);
        lines.push(b'\n');
        prefixed.extend_from_slice(&(e.len() as u32).to_be_bytes());
        prefixed.extend_from_slice(e);
    }
    let want: Vec<[u8; 32]> = entries.iter().map(|e| sha256_of(&[&[0u8], e])).collect();
    assert_eq!(
        device
            .log_leaves(Source::Memory(&lines), Framing::Lines)
            .unwrap(),
        want
    );
    assert_eq!(
        device
            .log_leaves(Source::Memory(&prefixed), Framing::LengthPrefixed)
            .unwrap(),
        want
    );
    assert!(device
        .log_leaves(Source::Memory(&[]), Framing::Lines)
        .unwrap()
        .is_empty());
    let dir = TempDir::new("log");
    let path = dir.file("entries", &lines);
    assert_eq!(
        device
            .log_leaves(Source::path(&path), Framing::Lines)
            .unwrap(),
        want
    );
    if let Some(cli) = cli() {
        let out = dir.path("leaves");
        run(
            &cli,
            &[
                "leaf-hash".as_ref(),
                "--entries".as_ref(),
                "lines".as_ref(),
                "-o".as_ref(),
                out.as_os_str(),
                path.as_os_str(),
            ],
        );
        assert_eq!(std::fs::read(&out).unwrap(), want.concat());
    }
    let e = device
        .log_leaves(
            Source::Memory(&prefixed[..prefixed.len() - 1]),
            Framing::LengthPrefixed,
        )
        .unwrap_err();
    assert_eq!(e.status(), Status::Argument, "{}", e);
}
