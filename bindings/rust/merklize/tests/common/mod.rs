// SPDX-License-Identifier: Apache-2.0 OR MIT
//! What the tests share: the device, the oracles (the merklize command-line tool, sha256sum,
//! b3sum, tests/vectors, a SHA-256 and a one-block BLAKE3 written here and held against the
//! commands), temporary files and deterministic data.
#![allow(dead_code)]

pub mod commands;
pub mod hashes;
pub mod json;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use merklize::{Device, Hash};

/// The default device ($MERKLIZE_DEVICE, else the first GPU, else the first device).
pub fn device() -> Device {
    Device::open_default().unwrap_or_else(|e| {
        panic!(
            "no OpenCL device to test on ({}): install pocl-opencl-icd, or set MERKLIZE_DEVICE",
            e
        )
    })
}

/// tests/vectors/NAME of the repository.
pub fn vector_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../tests/vectors")
        .join(name)
}

/// A fresh directory for one test's files, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "merklize-{}-{}-{}",
            name,
            std::process::id(),
            n
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    /// Writes `bytes` to the file `name` in the directory and returns its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("a temporary file");
        path
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `n` deterministic pseudo-random bytes (xorshift64*), different for each seed.
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        out.extend_from_slice(&state.wrapping_mul(0x2545_f491_4f6c_dd1d).to_le_bytes());
    }
    out.truncate(n);
    out
}

/// `n` pseudo-random leaves.
pub fn random_leaves(n: usize, seed: u64) -> Vec<[u8; 32]> {
    random_bytes(32 * n, seed)
        .chunks(32)
        .map(|c| c.try_into().unwrap())
        .collect()
}

/// `n` pseudo-random leaves that `hash` takes: for a Poseidon2 hash (over field elements) each
/// 4-byte word's top byte below 0x20, which puts every limb below p (BabyBear, KoalaBear and
/// Goldilocks: little-endian limbs of 4 or 8 bytes) and the 32-byte value below BN254's p
/// (0x30644e...); any 32 bytes for the other hashes.
pub fn leaves_for(hash: Hash, n: usize, seed: u64) -> Vec<[u8; 32]> {
    let mut leaves = random_leaves(n, seed);
    if hash.as_str().starts_with("poseidon2-") {
        for leaf in &mut leaves {
            for top in (3..32).step_by(4) {
                leaf[top] &= 0x1f;
            }
        }
    }
    leaves
}

/// The bytes of leaves, back to back.
pub fn leaf_bytes(leaves: &[[u8; 32]]) -> Vec<u8> {
    leaves.concat()
}

pub fn hex(bytes: &[u8]) -> String {
    merklize::hex::encode(bytes)
}
