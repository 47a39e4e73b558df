// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Status, errors, version, the names the configuration takes, and byte runs (merklize.h's
//! first section).

use std::os::raw::{c_char, c_int};

/// `MERKLIZE_ABI_VERSION`: the ABI these declarations are of (the soname's number).
pub const MERKLIZE_ABI_VERSION: u32 = 1;
/// `MERKLIZE_DIGEST_SIZE`: bytes of a node, a root or a leaf.
pub const MERKLIZE_DIGEST_SIZE: usize = 32;

/// `enum merklize_status`.
pub type merklize_status = c_int;
pub const MERKLIZE_OK: merklize_status = 0;
pub const MERKLIZE_ERROR_ARGUMENT: merklize_status = 1;
pub const MERKLIZE_ERROR_NO_DEVICE: merklize_status = 2;
pub const MERKLIZE_ERROR_OPENCL: merklize_status = 3;
pub const MERKLIZE_ERROR_IO: merklize_status = 4;
pub const MERKLIZE_ERROR_DECODE: merklize_status = 5;
pub const MERKLIZE_ERROR_NO_MEMORY: merklize_status = 6;
pub const MERKLIZE_ERROR_INTERNAL: merklize_status = 7;
pub const MERKLIZE_ERROR_UNUSABLE: merklize_status = 8;

opaque! {
    /// A run of bytes the library made (an encoded proof, a hash tree, an outboard).
    merklize_bytes;
}

extern "C" {
    pub fn merklize_last_error() -> *const c_char;
    pub fn merklize_status_name(status: merklize_status) -> *const c_char;
    pub fn merklize_version() -> *const c_char;
    pub fn merklize_abi_version() -> u32;
    pub fn merklize_hash_names() -> *const c_char;
    pub fn merklize_shape_names() -> *const c_char;
    pub fn merklize_leaf_hash_names() -> *const c_char;

    pub fn merklize_bytes_data(bytes: *const merklize_bytes) -> *const u8;
    pub fn merklize_bytes_size(bytes: *const merklize_bytes) -> usize;
    pub fn merklize_bytes_free(bytes: *mut merklize_bytes);
}
