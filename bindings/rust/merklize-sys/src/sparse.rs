// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Sparse Merkle trees (`merklize_sparse_tree_*`, `merklize_sparse_verify`).

use std::os::raw::{c_char, c_int};

use crate::{merklize_bytes, merklize_device, merklize_status};

opaque! {
    /// A sparse Merkle tree kept on a device, changed by batches.
    merklize_sparse_tree;
}

extern "C" {
    pub fn merklize_sparse_tree_create(
        device: *mut merklize_device,
        hash: *const c_char,
        depth: u32,
        tree: *mut *mut merklize_sparse_tree,
    ) -> merklize_status;
    pub fn merklize_sparse_tree_free(tree: *mut merklize_sparse_tree);
    pub fn merklize_sparse_tree_root(
        tree: *mut merklize_sparse_tree,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_sparse_tree_size(tree: *const merklize_sparse_tree) -> u64;
    pub fn merklize_sparse_tree_update(
        tree: *mut merklize_sparse_tree,
        keys: *const u8,
        values: *const u8,
        count: u64,
        root: *mut u8,
    ) -> merklize_status;
    pub fn merklize_sparse_tree_value(
        tree: *mut merklize_sparse_tree,
        key: *const u8,
        value: *mut u8,
    ) -> merklize_status;
    pub fn merklize_sparse_tree_prove(
        tree: *mut merklize_sparse_tree,
        key: *const u8,
        value: *mut u8,
        siblings: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_sparse_verify(
        hash: *const c_char,
        depth: u32,
        root: *const u8,
        key: *const u8,
        value: *const u8,
        siblings: *const u8,
        siblings_size: usize,
        valid: *mut c_int,
    ) -> merklize_status;
}
