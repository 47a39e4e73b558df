// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`SparseTree`]: a sparse Merkle tree kept on the device; [`SparseProof`] and its check.

use std::fmt;
use std::os::raw::c_int;
use std::ptr::NonNull;

use crate::bytes::Bytes;
use crate::device::Device;
use crate::error::{check, Error, Result};
use crate::handle::{c_string, created, digest_bytes};
use crate::hex;
use crate::names::Hash;
use crate::proof::verdict;
use merklize_sys as sys;

/// A sparse Merkle tree of 2^depth leaves addressed by 32-byte big-endian keys, almost all
/// empty, kept on a device and changed by batches (docs/LIBRARY.md, "Sparse Merkle trees", has
/// the rule): a zero value deletes its key, a repeated key in a batch takes its last value.
///
/// The tree outlives its device. It is `Send` and `Sync` (libmerklize serialises its calls);
/// updates take `&mut self`.
pub struct SparseTree {
    raw: NonNull<sys::merklize_sparse_tree>,
    hash: Hash,
    depth: u32,
}

// SAFETY: merklize.h: a sparse tree's calls are serialised; the handle is not tied to a thread.
unsafe impl Send for SparseTree {}
unsafe impl Sync for SparseTree {}

/// A key's proof: its value (zero: the proof shows the key absent) and the `depth` siblings of
/// its path, bottom up, with the tree's hash and depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseProof {
    /// The tree's node hash.
    pub hash: Hash,
    /// The tree's depth: the number of siblings.
    pub depth: u32,
    /// The proven key, 32 bytes big-endian.
    pub key: [u8; 32],
    /// Its value; zero: the key is absent.
    pub value: [u8; 32],
    /// The siblings of the key's path, bottom up.
    pub siblings: Vec<[u8; 32]>,
}

impl SparseTree {
    /// The empty tree of node hash `hash` and `depth` (1 to 256 key bits) on `device`.
    pub fn new(device: &Device, hash: Hash, depth: u32) -> Result<SparseTree> {
        let name = c_string("hash", hash.as_str())?;
        // SAFETY: a live device, a NUL-terminated name and an out-pointer.
        let raw = created(|out| unsafe {
            sys::merklize_sparse_tree_create(device.as_ptr(), name.as_ptr(), depth, out)
        })?;
        Ok(SparseTree { raw, hash, depth })
    }

    /// The root after the last batch (the empty tree's at first).
    pub fn root(&self) -> Result<[u8; 32]> {
        let mut root = [0u8; 32];
        // SAFETY: a live tree; root has room for 32 bytes.
        check(unsafe { sys::merklize_sparse_tree_root(self.raw.as_ptr(), root.as_mut_ptr()) })?;
        Ok(root)
    }

    /// The number of keys holding a nonzero value.
    pub fn size(&self) -> u64 {
        // SAFETY: a live tree.
        unsafe { sys::merklize_sparse_tree_size(self.raw.as_ptr()) }
    }

    /// Key `keys[k]` takes `values[k]`; returns the new root. A refused batch (a key past the
    /// depth, another number of values than of keys) is [`crate::Status::Argument`] and leaves
    /// the tree as it was.
    pub fn update(&mut self, keys: &[[u8; 32]], values: &[[u8; 32]]) -> Result<[u8; 32]> {
        if keys.len() != values.len() {
            return Err(Error::argument(format!(
                "SparseTree::update: {} keys but {} values: give a value for each key",
                keys.len(),
                values.len()
            )));
        }
        let mut root = [0u8; 32];
        // SAFETY: a live tree; keys.len() keys and as many values, read during the call.
        check(unsafe {
            sys::merklize_sparse_tree_update(
                self.raw.as_ptr(),
                digest_bytes(keys).as_ptr(),
                digest_bytes(values).as_ptr(),
                keys.len() as u64,
                root.as_mut_ptr(),
            )
        })?;
        Ok(root)
    }

    /// The value `key` holds (zero: absent).
    pub fn value(&self, key: &[u8; 32]) -> Result<[u8; 32]> {
        let mut value = [0u8; 32];
        // SAFETY: a live tree and two 32-byte buffers.
        check(unsafe {
            sys::merklize_sparse_tree_value(self.raw.as_ptr(), key.as_ptr(), value.as_mut_ptr())
        })?;
        Ok(value)
    }

    /// `key`'s proof under the root now: of presence, or of absence.
    pub fn prove(&self, key: &[u8; 32]) -> Result<SparseProof> {
        let mut value = [0u8; 32];
        // SAFETY: a live tree, two 32-byte buffers and an out-pointer.
        let siblings = Bytes::made(|out| unsafe {
            sys::merklize_sparse_tree_prove(
                self.raw.as_ptr(),
                key.as_ptr(),
                value.as_mut_ptr(),
                out,
            )
        })?;
        let siblings = siblings
            .chunks_exact(32)
            .map(|c| c.try_into().expect("32 bytes"))
            .collect();
        Ok(SparseProof {
            hash: self.hash,
            depth: self.depth,
            key: *key,
            value,
            siblings,
        })
    }
}

impl SparseProof {
    /// Whether the proof shows its key absent (its value is zero).
    pub fn proves_absence(&self) -> bool {
        self.value == [0; 32]
    }

    /// Checks the proof on the host: `Ok(())` where it leads to `root`, else
    /// [`crate::Status::InvalidProof`] with the reason (as [`crate::Proof::verify`]).
    pub fn verify(&self, root: &[u8; 32]) -> Result<()> {
        let name = c_string("hash", self.hash.as_str())?;
        let siblings = digest_bytes(&self.siblings);
        let mut valid: c_int = 0;
        // SAFETY: a NUL-terminated name, 32-byte root, key and value, siblings.len() bytes.
        let status = unsafe {
            sys::merklize_sparse_verify(
                name.as_ptr(),
                self.depth,
                root.as_ptr(),
                self.key.as_ptr(),
                self.value.as_ptr(),
                siblings.as_ptr(),
                siblings.len(),
                &mut valid,
            )
        };
        verdict(status, valid)
    }
}

impl Drop for SparseTree {
    fn drop(&mut self) {
        // SAFETY: the tree is owned here and freed once.
        unsafe { sys::merklize_sparse_tree_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for SparseTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let root = self.root().map(|r| hex::encode(&r)).unwrap_or_default();
        f.debug_struct("SparseTree")
            .field("hash", &self.hash)
            .field("depth", &self.depth)
            .field("size", &self.size())
            .field("root", &root)
            .finish()
    }
}
