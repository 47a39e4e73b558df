// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`Tree`]: a built tree in host memory.

use std::fmt;
use std::ptr::{self, NonNull};

use crate::error::{check, Error, Result};
use crate::handle::{created, digests, length};
use crate::hex;
use crate::proof::Proof;
use merklize_sys as sys;

/// A built tree: its root and the levels its configuration kept, read in place (no copy).
///
/// Level 0 is the leaves and level [`Tree::depth`] the root (a fixed depth or a mixed-in length
/// adds levels above the stored ones, which are not stored: [`Tree::root`] is the tree's root).
/// A tree is read-only, so it is `Send` and `Sync`.
pub struct Tree {
    raw: NonNull<sys::merklize_tree>,
    root: [u8; 32],
}

// SAFETY: merklize.h: trees are read-only after creation and can be read concurrently.
unsafe impl Send for Tree {}
unsafe impl Sync for Tree {}

impl Tree {
    pub(crate) fn from_raw(raw: NonNull<sys::merklize_tree>) -> Result<Tree> {
        let mut tree = Tree { raw, root: [0; 32] }; // freed on the error path too
                                                    // SAFETY: a live tree; root has room for 32 bytes.
        check(unsafe { sys::merklize_tree_root(raw.as_ptr(), tree.root.as_mut_ptr()) })?;
        Ok(tree)
    }

    /// The tree's root (with a length mixed in, the list's root).
    pub fn root(&self) -> [u8; 32] {
        self.root
    }

    /// The number of leaves the input had.
    pub fn leaf_count(&self) -> u64 {
        // SAFETY: a live tree.
        unsafe { sys::merklize_tree_leaf_count(self.raw.as_ptr()) }
    }

    /// The stored levels above the leaves: the top stored level is `depth()`.
    pub fn depth(&self) -> u32 {
        // SAFETY: a live tree.
        unsafe { sys::merklize_tree_depth(self.raw.as_ptr()) }
    }

    /// The lowest level kept: 0 when the leaves are ([`crate::Keep`]).
    pub fn first_level(&self) -> u32 {
        // SAFETY: a live tree.
        unsafe { sys::merklize_tree_first_level(self.raw.as_ptr()) }
    }

    /// The nodes of level `level` (0: the leaves), borrowed from the tree. A level out of range
    /// or not kept is [`crate::Status::Argument`].
    pub fn level(&self, level: u32) -> Result<&[[u8; 32]]> {
        let mut nodes: *const u8 = ptr::null();
        let mut count = 0u64;
        // SAFETY: a live tree and valid out-pointers.
        check(unsafe {
            sys::merklize_tree_level(self.raw.as_ptr(), level, &mut nodes, &mut count)
        })?;
        let count = length(count, "nodes")?;
        // SAFETY: the library gives count nodes in the tree's own memory, unchanged while the
        // tree lives, which the returned borrow of self guarantees.
        Ok(unsafe { digests(nodes, count) })
    }

    /// Every kept level, from [`Tree::first_level`] up to [`Tree::depth`].
    pub fn levels(&self) -> Result<Vec<&[[u8; 32]]>> {
        (self.first_level()..=self.depth())
            .map(|k| self.level(k))
            .collect()
    }

    /// Node `index` of level `level`.
    pub fn node(&self, level: u32, index: u64) -> Result<[u8; 32]> {
        let mut node = [0u8; 32];
        // SAFETY: a live tree; node has room for 32 bytes.
        check(unsafe {
            sys::merklize_tree_node(self.raw.as_ptr(), level, index, node.as_mut_ptr())
        })?;
        Ok(node)
    }

    /// The inclusion proof of leaf `index` (a k-ary proof for a k-ary tree). The tree must
    /// have kept every level.
    pub fn prove(&self, index: u64) -> Result<Proof> {
        // SAFETY: a live tree and a valid out-pointer.
        let raw = created(|out| unsafe { sys::merklize_prove(self.raw.as_ptr(), index, out) })?;
        Ok(Proof::from_raw(raw))
    }

    /// The multiproof of several leaves, in any order, repeats allowed (the proof holds them
    /// sorted, without repeats: verify with the leaves in [`Proof::indices`]' order); a
    /// [`crate::ProofKind::KaryMulti`] for a k-ary tree.
    pub fn prove_multi(&self, indices: &[u64]) -> Result<Proof> {
        if indices.is_empty() {
            return Err(Error::argument(
                "prove_multi: no leaf index given: no leaf to prove",
            ));
        }
        // SAFETY: a live tree; indices.len() readable u64s.
        let raw = created(|out| unsafe {
            sys::merklize_prove_multi(self.raw.as_ptr(), indices.as_ptr(), indices.len(), out)
        })?;
        Ok(Proof::from_raw(raw))
    }

    /// The consistency proof (RFC 9162 2.1.4) that the tree of the first `old_size` leaves is a
    /// prefix of this one ([`crate::Hash::Rfc6962`] trees).
    pub fn prove_consistency(&self, old_size: u64) -> Result<Proof> {
        // SAFETY: a live tree and a valid out-pointer.
        let raw = created(|out| unsafe {
            sys::merklize_prove_consistency(self.raw.as_ptr(), old_size, out)
        })?;
        Ok(Proof::from_raw(raw))
    }

    /// The C handle, for calls of merklize-sys. It stays owned by this `Tree`.
    pub fn as_ptr(&self) -> *const sys::merklize_tree {
        self.raw.as_ptr()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by this value and freed once.
        unsafe { sys::merklize_tree_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tree")
            .field("root", &hex::encode(&self.root))
            .field("leaf_count", &self.leaf_count())
            .field("depth", &self.depth())
            .field("first_level", &self.first_level())
            .finish()
    }
}
