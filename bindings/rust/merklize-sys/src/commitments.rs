// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Commitments other systems publish: OpenZeppelin's StandardMerkleTree, Bitcoin's merkle root,
//! Filecoin's piece commitment.

use std::os::raw::{c_char, c_int};

use crate::{merklize_bytes, merklize_device, merklize_source, merklize_status};

/// `MERKLIZE_PIECE_CID_SIZE`: bytes that hold a piece CID and its NUL.
pub const MERKLIZE_PIECE_CID_SIZE: usize = 65;

extern "C" {
    pub fn merklize_oz_standard_tree(
        device: *mut merklize_device,
        json: *const c_char,
        size: usize,
        sort_leaves: c_int,
        root: *mut u8,
        dump: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_oz_standard_proof(
        device: *mut merklize_device,
        json: *const c_char,
        size: usize,
        sort_leaves: c_int,
        indices: *const u64,
        count: usize,
        proof: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_bitcoin_root(
        device: *mut merklize_device,
        source: *const merklize_source,
        display_order: c_int,
        root: *mut u8,
        mutated: *mut c_int,
    ) -> merklize_status;
    pub fn merklize_bitcoin_proof(
        device: *mut merklize_device,
        source: *const merklize_source,
        display_order: c_int,
        index: u64,
        proof: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_filecoin_commitment(
        device: *mut merklize_device,
        source: *const merklize_source,
        commitment: *mut u8,
        padded_size: *mut u64,
    ) -> merklize_status;
    pub fn merklize_filecoin_piece_cid(
        commitment: *const u8,
        cid: *mut c_char,
        cid_size: usize,
    ) -> merklize_status;
}
