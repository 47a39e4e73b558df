// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`DeviceTree`]: a binary tree kept on the device, updated in place and appended to.

use std::fmt;
use std::ptr::{self, NonNull};

use crate::builder::Builder;
use crate::cl::{given, wait_list, ClEvent, ClMem};
use crate::error::{check, Error, Result};
use crate::handle::{created, digest_bytes, length};
use crate::hex;
use crate::proof::Proof;
use merklize_sys as sys;

/// A tree of 32-byte leaves built once on the builder's device and kept there: each
/// [`DeviceTree::update`] writes its leaves and recomputes only the nodes above them, each
/// [`DeviceTree::append`] adds leaves after the last (a log: the old tree stays a prefix).
///
/// The builder's configuration gives the tree (any hash, shape promote or zero, a fixed depth;
/// or an arity k, whose tree takes every call but consistency proofs, which are refused naming
/// the arity, its update's multiproof a [`crate::ProofKind::KaryMulti`]; 32-byte leaves only).
/// The tree outlives its builder and device. It is `Send` and `Sync` (libmerklize serialises its calls); updates and appends take `&mut self`.
pub struct DeviceTree {
    raw: NonNull<sys::merklize_device_tree>,
    root: [u8; 32],
}

// SAFETY: merklize.h: a device tree's calls are serialised; the handle is not tied to a thread.
unsafe impl Send for DeviceTree {}
unsafe impl Sync for DeviceTree {}

impl DeviceTree {
    /// The tree of `leaves` (at least one), copied to the device.
    pub fn new(builder: &Builder, leaves: &[[u8; 32]]) -> Result<DeviceTree> {
        DeviceTree::from_bytes(builder, digest_bytes(leaves))
    }

    /// The tree of 32-byte leaves back to back (a multiple of 32 bytes, at least one leaf).
    pub fn from_bytes(builder: &Builder, leaves: &[u8]) -> Result<DeviceTree> {
        // SAFETY: a live builder; leaves.len() readable bytes, only read during the call.
        let raw = created(|out| unsafe {
            sys::merklize_device_tree_create(
                builder.as_ptr(),
                leaves.as_ptr().cast(),
                leaves.len() as u64,
                out,
            )
        })?;
        let mut tree = DeviceTree { raw, root: [0; 32] }; // freed on the error path too
                                                          // SAFETY: a live tree; root has room for 32 bytes.
        check(unsafe { sys::merklize_device_tree_root(raw.as_ptr(), tree.root.as_mut_ptr()) })?;
        Ok(tree)
    }

    /// The root after the last update (at the fixed depth where the configuration has one).
    pub fn root(&self) -> [u8; 32] {
        self.root
    }

    /// The number of leaves now (an update never changes it, an append grows it).
    pub fn leaf_count(&self) -> u64 {
        // SAFETY: a live tree.
        unsafe { sys::merklize_device_tree_leaf_count(self.raw.as_ptr()) }
    }

    /// The top stored level: levels 0 (the leaves) to `depth()` are on the device.
    pub fn depth(&self) -> u32 {
        // SAFETY: a live tree.
        unsafe { sys::merklize_device_tree_depth(self.raw.as_ptr()) }
    }

    /// Leaf `indices[k]` becomes `leaves[k]`; returns the new root. Within one batch a repeated
    /// index takes its last value. A refused batch (an index out of range, another number of
    /// leaves than of indices) is [`crate::Status::Argument`] and leaves the tree as it was.
    pub fn update(&mut self, indices: &[u64], leaves: &[[u8; 32]]) -> Result<[u8; 32]> {
        check_batch(indices, leaves)?;
        let mut root = [0u8; 32];
        // SAFETY: a live tree; indices.len() indices and as many leaves, read during the call.
        check(unsafe {
            sys::merklize_device_tree_update(
                self.raw.as_ptr(),
                indices.as_ptr(),
                leaves.as_ptr().cast(),
                indices.len() as u64,
                root.as_mut_ptr(),
            )
        })?;
        self.root = root;
        Ok(root)
    }

    /// [`DeviceTree::update`], and the multiproof of the updated leaves in the new tree
    /// (indices sorted, once each): [`crate::Tree::prove_multi`]'s of a tree built over them
    /// (at arity k a [`crate::ProofKind::KaryMulti`]).
    pub fn update_proved(
        &mut self,
        indices: &[u64],
        leaves: &[[u8; 32]],
    ) -> Result<([u8; 32], Proof)> {
        check_batch(indices, leaves)?;
        let mut root = [0u8; 32];
        let proof = created(|out| unsafe {
            // SAFETY: as in update; out is the proof's out-pointer.
            sys::merklize_device_tree_update_proved(
                self.raw.as_ptr(),
                indices.as_ptr(),
                leaves.as_ptr().cast(),
                indices.len() as u64,
                root.as_mut_ptr(),
                out,
            )
        })?;
        self.root = root;
        Ok((root, Proof::from_raw(proof)))
    }

    /// Adds `leaves` after the last leaf; returns the new root, the root of a tree built over all
    /// the leaves (only the new leaves' paths are recomputed). With a fixed depth d the tree
    /// holds at most 2^d leaves, else 2^32: an append past that is [`crate::Status::Argument`]
    /// and leaves the tree as it was. No leaves change nothing.
    pub fn append(&mut self, leaves: &[[u8; 32]]) -> Result<[u8; 32]> {
        let mut root = [0u8; 32];
        // SAFETY: a live tree; leaves.len() leaves, only read during the call.
        check(unsafe {
            sys::merklize_device_tree_append(
                self.raw.as_ptr(),
                leaves.as_ptr().cast(),
                leaves.len() as u64,
                root.as_mut_ptr(),
            )
        })?;
        self.root = root;
        Ok(root)
    }

    /// [`DeviceTree::append`] from the caller's device buffer: `count` leaves of 32 bytes from
    /// the start of `leaves`, a buffer of the context of the builder's device (opened with
    /// [`crate::Device::from_cl`]), copied on the device once the events of `wait` (the
    /// caller's writes of it) complete. Returns the new root, and an event of the tree's queue
    /// that completes after `wait` and the call (by its return where count > 0), retained for
    /// the caller, who releases it (`clReleaseEvent`). A buffer of another context or smaller
    /// than `count` leaves is [`crate::Status::Argument`], the tree as it was.
    ///
    /// # Safety
    /// `leaves` is a valid buffer (or null where `count` is 0), the events of `wait` valid events
    /// of the same context.
    pub unsafe fn append_cl(
        &mut self,
        leaves: ClMem,
        count: u64,
        wait: &[ClEvent],
    ) -> Result<([u8; 32], ClEvent)> {
        self.on_buffers(
            wait,
            "merklize_device_tree_append_cl",
            |tree, n, events, done, root| {
                sys::merklize_device_tree_append_cl(tree, leaves, count, n, events, done, root)
            },
        )
    }

    /// [`DeviceTree::update`] from the caller's device buffers: `count` indices (`u64`) and
    /// `count` leaves of 32 bytes, as [`DeviceTree::append_cl`] takes its buffer; an index past
    /// the tree is found on the device, which then writes nothing ([`crate::Status::Argument`]).
    ///
    /// # Safety
    /// As [`DeviceTree::append_cl`], for both buffers.
    pub unsafe fn update_cl(
        &mut self,
        indices: ClMem,
        leaves: ClMem,
        count: u64,
        wait: &[ClEvent],
    ) -> Result<([u8; 32], ClEvent)> {
        self.on_buffers(
            wait,
            "merklize_device_tree_update_cl",
            |tree, n, events, done, root| {
                sys::merklize_device_tree_update_cl(
                    tree, indices, leaves, count, n, events, done, root,
                )
            },
        )
    }

    /// A call on the caller's buffers: `call` given the tree, the wait list and the out-pointers
    /// of the done event and the root; the root kept and the event returned on success.
    unsafe fn on_buffers(
        &mut self,
        wait: &[ClEvent],
        function: &str,
        call: impl FnOnce(
            *mut sys::merklize_device_tree,
            u32,
            *const ClEvent,
            *mut ClEvent,
            *mut u8,
        ) -> sys::merklize_status,
    ) -> Result<([u8; 32], ClEvent)> {
        let (wait_count, wait_ptr) = wait_list(wait, function)?;
        let (mut root, mut done) = ([0u8; 32], ptr::null_mut());
        check(call(
            self.raw.as_ptr(),
            wait_count,
            wait_ptr,
            &mut done,
            root.as_mut_ptr(),
        ))?;
        self.root = root;
        Ok((root, given(done, function)?))
    }

    /// The proof that the tree of the first `old_size` leaves is a prefix of the tree as it is
    /// now (RFC 9162 2.1.4), [`crate::Tree::prove_consistency`]'s of a tree built over the same
    /// leaves; [`Proof::verify_consistency`] checks it against the root the tree had then.
    /// Trees of shape promote without a fixed depth, of any hash but blake3-parent.
    pub fn prove_consistency(&self, old_size: u64) -> Result<Proof> {
        // SAFETY: a live tree and an out-pointer.
        let raw = created(|out| unsafe {
            sys::merklize_device_tree_prove_consistency(self.raw.as_ptr(), old_size, out)
        })?;
        Ok(Proof::from_raw(raw))
    }

    /// The inclusion proof of leaf `index` in the tree as it is now.
    pub fn prove(&self, index: u64) -> Result<Proof> {
        // SAFETY: a live tree and an out-pointer.
        let raw = created(|out| unsafe {
            sys::merklize_device_tree_prove(self.raw.as_ptr(), index, out)
        })?;
        Ok(Proof::from_raw(raw))
    }

    /// Level `level`'s nodes (0: the leaves), read back from the device.
    pub fn level(&self, level: u32) -> Result<Vec<[u8; 32]>> {
        let mut count = 0u64;
        // SAFETY: a live tree and an out-pointer.
        check(unsafe {
            sys::merklize_device_tree_level_size(self.raw.as_ptr(), level, &mut count)
        })?;
        let mut nodes = vec![[0u8; 32]; length(count, "nodes")?];
        // SAFETY: nodes has room for count nodes.
        check(unsafe {
            sys::merklize_device_tree_read_level(
                self.raw.as_ptr(),
                level,
                0,
                count,
                nodes.as_mut_ptr().cast(),
            )
        })?;
        Ok(nodes)
    }

    /// Every level, leaves first, read back from the device.
    pub fn levels(&self) -> Result<Vec<Vec<[u8; 32]>>> {
        (0..=self.depth()).map(|k| self.level(k)).collect()
    }
}

fn check_batch(indices: &[u64], leaves: &[[u8; 32]]) -> Result<()> {
    if indices.len() != leaves.len() {
        return Err(Error::argument(format!(
            "DeviceTree::update: {} indices but {} leaves: give a leaf for each index",
            indices.len(),
            leaves.len()
        )));
    }
    Ok(())
}

impl Drop for DeviceTree {
    fn drop(&mut self) {
        // SAFETY: the tree is owned here and freed once.
        unsafe { sys::merklize_device_tree_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for DeviceTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceTree")
            .field("leaf_count", &self.leaf_count())
            .field("depth", &self.depth())
            .field("root", &hex::encode(&self.root))
            .finish()
    }
}
