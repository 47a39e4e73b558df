// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Trees kept on the device, updated in place and appended to (`merklize_device_tree_*`).

use std::os::raw::c_void;

use crate::{_cl_event, _cl_mem, merklize_builder, merklize_proof, merklize_status};

opaque! {
    /// A binary tree built once on a device and kept there, updated in place.
    merklize_device_tree;
    /// Page-locked memory of a device tree's device, filled in place with a batch of updates.
    merklize_update_batch;
    /// A copy of a device tree kept on its device, to roll the tree back to.
    merklize_tree_snapshot;
}

extern "C" {
    pub fn merklize_device_tree_create(
        builder: *mut merklize_builder,
        leaves: *const c_void,
        size: u64,
        tree: *mut *mut merklize_device_tree,
    ) -> merklize_status;
    pub fn merklize_device_tree_free(tree: *mut merklize_device_tree);
    pub fn merklize_device_tree_root(
        tree: *mut merklize_device_tree,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_device_tree_leaf_count(tree: *const merklize_device_tree) -> u64;
    pub fn merklize_device_tree_depth(tree: *const merklize_device_tree) -> u32;
    pub fn merklize_device_tree_update(
        tree: *mut merklize_device_tree,
        indices: *const u64,
        leaves: *const c_void,
        count: u64,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_device_tree_update_proved(
        tree: *mut merklize_device_tree,
        indices: *const u64,
        leaves: *const c_void,
        count: u64,
        root: *mut u8,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;
    pub fn merklize_device_tree_append(
        tree: *mut merklize_device_tree,
        leaves: *const c_void,
        count: u64,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_device_tree_append_cl(
        tree: *mut merklize_device_tree,
        leaves: *mut _cl_mem,
        count: u64,
        wait_count: u32,
        wait: *const *mut _cl_event,
        done: *mut *mut _cl_event,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_device_tree_update_cl(
        tree: *mut merklize_device_tree,
        indices: *mut _cl_mem,
        leaves: *mut _cl_mem,
        count: u64,
        wait_count: u32,
        wait: *const *mut _cl_event,
        done: *mut *mut _cl_event,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_device_tree_prove_consistency(
        tree: *mut merklize_device_tree,
        old_size: u64,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;
    pub fn merklize_device_tree_prove(
        tree: *mut merklize_device_tree,
        index: u64,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;
    pub fn merklize_device_tree_level_size(
        tree: *mut merklize_device_tree,
        level: u32,
        count: *mut u64,
    ) -> merklize_status;
    pub fn merklize_device_tree_read_level(
        tree: *mut merklize_device_tree,
        level: u32,
        first: u64,
        count: u64,
        nodes: *mut u8,
    ) -> merklize_status;
    pub fn merklize_device_tree_batch_create(
        tree: *mut merklize_device_tree,
        capacity: u64,
        batch: *mut *mut merklize_update_batch,
    ) -> merklize_status;
    pub fn merklize_update_batch_free(batch: *mut merklize_update_batch);
    pub fn merklize_update_batch_capacity(batch: *const merklize_update_batch) -> u64;
    pub fn merklize_update_batch_indices(batch: *mut merklize_update_batch) -> *mut u64;
    pub fn merklize_update_batch_leaves(batch: *mut merklize_update_batch) -> *mut u8;
    pub fn merklize_device_tree_update_batch(
        tree: *mut merklize_device_tree,
        batch: *const merklize_update_batch,
        count: u64,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_device_tree_snapshot(
        tree: *mut merklize_device_tree,
        snapshot: *mut *mut merklize_tree_snapshot,
    ) -> merklize_status;
    pub fn merklize_tree_snapshot_free(snapshot: *mut merklize_tree_snapshot);
    pub fn merklize_tree_snapshot_leaf_count(snapshot: *const merklize_tree_snapshot) -> u64;
    pub fn merklize_device_tree_rollback(
        tree: *mut merklize_device_tree,
        snapshot: *const merklize_tree_snapshot,
        root: *mut u8,
    ) -> merklize_status;
}
