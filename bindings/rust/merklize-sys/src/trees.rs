// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Tree configuration, builders and trees, and builds from and into OpenCL buffers.

use std::os::raw::c_char;

use crate::{merklize_device, merklize_source, merklize_status};

opaque! {
    /// OpenCL's `cl_context` points at this (declared here as merklize.h declares it, so that no
    /// OpenCL crate is needed: cast another crate's handle with `as`).
    _cl_context;
    /// OpenCL's `cl_device_id` points at this.
    _cl_device_id;
    /// OpenCL's `cl_mem` points at this.
    _cl_mem;
    /// OpenCL's `cl_event` points at this.
    _cl_event;
}

/// `MERKLIZE_KEEP_ALL`: a build from host memory keeps every level, leaves included.
pub const MERKLIZE_KEEP_ALL: u32 = 0;
/// `MERKLIZE_KEEP_ROOT_ONLY`: a build keeps the root alone.
pub const MERKLIZE_KEEP_ROOT_ONLY: u32 = 0xffff_ffff;

/// `struct merklize_tree_config`: set up by [`merklize_tree_config_init`], then change the
/// members you need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct merklize_tree_config {
    pub size: u32,
    pub hash: *const c_char,
    pub shape: *const c_char,
    pub depth: i32,
    pub arity: u32,
    pub leaf_size: u64,
    pub leaf_hash: *const c_char,
    pub salt: *const u8,
    pub salt_size: usize,
    pub mix_in_length: i32,
    pub length: u64,
    pub keep: u32,
}

opaque! {
    /// A tree configuration checked and bound to a device.
    merklize_builder;
    /// A built tree in host memory.
    merklize_tree;
}

extern "C" {
    pub fn merklize_tree_config_init(config: *mut merklize_tree_config);

    pub fn merklize_builder_create(
        device: *mut merklize_device,
        config: *const merklize_tree_config,
        builder: *mut *mut merklize_builder,
    ) -> merklize_status;
    pub fn merklize_builder_free(builder: *mut merklize_builder);

    pub fn merklize_build(
        builder: *mut merklize_builder,
        source: *const merklize_source,
        tree: *mut *mut merklize_tree,
    ) -> merklize_status;
    pub fn merklize_root(
        builder: *mut merklize_builder,
        source: *const merklize_source,
        root: *mut u8,
    ) -> merklize_status;

    pub fn merklize_tree_free(tree: *mut merklize_tree);
    pub fn merklize_tree_root(tree: *const merklize_tree, root: *mut u8) -> merklize_status;
    pub fn merklize_tree_leaf_count(tree: *const merklize_tree) -> u64;
    pub fn merklize_tree_depth(tree: *const merklize_tree) -> u32;
    pub fn merklize_tree_first_level(tree: *const merklize_tree) -> u32;
    pub fn merklize_tree_level(
        tree: *const merklize_tree,
        level: u32,
        nodes: *mut *const u8,
        count: *mut u64,
    ) -> merklize_status;
    pub fn merklize_tree_node(
        tree: *const merklize_tree,
        level: u32,
        index: u64,
        node: *mut u8,
    ) -> merklize_status;

    pub fn merklize_output_node_count(leaf_count: u64) -> u64;
    pub fn merklize_build_cl(
        builder: *mut merklize_builder,
        leaves: *mut _cl_mem,
        leaf_count: u64,
        nodes: *mut _cl_mem,
        wait_count: u32,
        wait: *const *mut _cl_event,
        done: *mut *mut _cl_event,
    ) -> merklize_status;
}
