// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Formats: dm-verity, fs-verity, Bao.

use crate::{merklize_bytes, merklize_device, merklize_source, merklize_status};

/// `struct merklize_verity_config`: set up by [`merklize_verity_config_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct merklize_verity_config {
    pub size: u32,
    pub data_block_size: u32,
    pub hash_block_size: u32,
    pub salt: *const u8,
    pub salt_size: usize,
}

extern "C" {
    pub fn merklize_verity_config_init(config: *mut merklize_verity_config);
    pub fn merklize_dm_verity(
        device: *mut merklize_device,
        config: *const merklize_verity_config,
        source: *const merklize_source,
        root: *mut u8,
        hash_tree: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_fs_verity(
        device: *mut merklize_device,
        config: *const merklize_verity_config,
        source: *const merklize_source,
        file_digest: *mut u8,
        tree: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_bao_outboard(
        device: *mut merklize_device,
        source: *const merklize_source,
        root: *mut u8,
        outboard: *mut *mut merklize_bytes,
    ) -> merklize_status;
}
