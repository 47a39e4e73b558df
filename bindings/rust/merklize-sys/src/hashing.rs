// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Hashing on a device: full BLAKE3, the SHA-256 layer, RFC 6962 leaf hashes; on the host:
//! hashtree's call, BLAKE3 in pieces.

use std::os::raw::{c_char, c_int, c_void};

use crate::{merklize_bytes, merklize_device, merklize_source, merklize_status};

/// `enum merklize_blake3_kind`.
pub type merklize_blake3_kind = c_int;
pub const MERKLIZE_BLAKE3_HASH: merklize_blake3_kind = 0;
pub const MERKLIZE_BLAKE3_KEYED: merklize_blake3_kind = 1;
pub const MERKLIZE_BLAKE3_DERIVE_KEY: merklize_blake3_kind = 2;

/// `struct merklize_blake3_mode`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct merklize_blake3_mode {
    pub kind: merklize_blake3_kind,
    pub key: *const u8,
    pub context: *const c_char,
}

opaque! {
    /// BLAKE3 given in pieces, on the host.
    merklize_blake3_hasher;
}

extern "C" {
    pub fn merklize_hashtree_hash(output: *mut u8, input: *const u8, count: u64);
    pub fn merklize_blake3_hasher_create(
        mode: *const merklize_blake3_mode,
        hasher: *mut *mut merklize_blake3_hasher,
    ) -> merklize_status;
    pub fn merklize_blake3_hasher_update(
        hasher: *mut merklize_blake3_hasher,
        data: *const c_void,
        size: usize,
    ) -> merklize_status;
    pub fn merklize_blake3_hasher_finalize(
        hasher: *mut merklize_blake3_hasher,
        seek: u64,
        out: *mut u8,
        out_size: usize,
    ) -> merklize_status;
    pub fn merklize_blake3_hasher_copy(
        hasher: *mut merklize_blake3_hasher,
        copy: *mut *mut merklize_blake3_hasher,
    ) -> merklize_status;
    pub fn merklize_blake3_hasher_reset(hasher: *mut merklize_blake3_hasher) -> merklize_status;
    pub fn merklize_blake3_hasher_free(hasher: *mut merklize_blake3_hasher);
    pub fn merklize_blake3(
        device: *mut merklize_device,
        mode: *const merklize_blake3_mode,
        source: *const merklize_source,
        out: *mut u8,
        out_size: usize,
    ) -> merklize_status;
    pub fn merklize_sha256_layer(
        device: *mut merklize_device,
        digests: *mut u8,
        chunks: *const u8,
        count: u64,
    ) -> merklize_status;
    pub fn merklize_log_leaves(
        device: *mut merklize_device,
        source: *const merklize_source,
        framing: *const c_char,
        leaves: *mut *mut merklize_bytes,
    ) -> merklize_status;
}
