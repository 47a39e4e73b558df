// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Matrix commitments, Plonky3's MerkleTreeMmcs (`merklize_mmcs_*`).

use std::os::raw::{c_char, c_int, c_void};

use crate::{merklize_bytes, merklize_device, merklize_status};

/// A row-major matrix of `height` x `width` field elements at `data`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct merklize_matrix {
    pub data: *const c_void,
    pub height: u64,
    pub width: u64,
}

/// A matrix's dimensions, all a verifier knows of it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct merklize_matrix_shape {
    pub height: u64,
    pub width: u64,
}

opaque! {
    /// A commitment to the rows of matrices: its cap, and on the host the matrices and layers.
    merklize_mmcs;
}

extern "C" {
    pub fn merklize_mmcs_element_size(hash: *const c_char, size: *mut usize) -> merklize_status;
    pub fn merklize_mmcs_commit(
        device: *mut merklize_device,
        hash: *const c_char,
        matrices: *const merklize_matrix,
        matrix_count: usize,
        cap_height: u32,
        mmcs: *mut *mut merklize_mmcs,
    ) -> merklize_status;
    pub fn merklize_mmcs_commit_dropping(
        device: *mut merklize_device,
        hash: *const c_char,
        matrices: *const merklize_matrix,
        matrix_count: usize,
        cap_height: u32,
        drop_layers: u32,
        mmcs: *mut *mut merklize_mmcs,
    ) -> merklize_status;
    pub fn merklize_mmcs_free(mmcs: *mut merklize_mmcs);
    pub fn merklize_mmcs_cap_count(mmcs: *const merklize_mmcs) -> u64;
    pub fn merklize_mmcs_height(mmcs: *const merklize_mmcs) -> u64;
    pub fn merklize_mmcs_path_length(mmcs: *const merklize_mmcs) -> u32;
    pub fn merklize_mmcs_row_size(mmcs: *const merklize_mmcs) -> u64;
    pub fn merklize_mmcs_cap(
        mmcs: *const merklize_mmcs,
        cap: *mut u8,
        cap_size: usize,
    ) -> merklize_status;
    pub fn merklize_mmcs_open(
        mmcs: *const merklize_mmcs,
        indices: *const u64,
        count: u64,
        rows: *mut *mut merklize_bytes,
        paths: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_mmcs_verify(
        hash: *const c_char,
        cap_height: u32,
        cap: *const u8,
        cap_count: u64,
        shapes: *const merklize_matrix_shape,
        matrix_count: usize,
        index: u64,
        rows: *const c_void,
        rows_size: usize,
        path: *const u8,
        path_size: usize,
        valid: *mut c_int,
    ) -> merklize_status;
}
