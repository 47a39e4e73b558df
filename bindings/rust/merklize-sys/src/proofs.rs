// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Proofs: made from trees or streamed from sources, encoded, decoded and verified.

use std::os::raw::{c_char, c_int, c_void};

use crate::{merklize_builder, merklize_bytes, merklize_source, merklize_status, merklize_tree};

/// `enum merklize_proof_kind`.
pub type merklize_proof_kind = c_int;
pub const MERKLIZE_PROOF_INCLUSION: merklize_proof_kind = 1;
pub const MERKLIZE_PROOF_MULTI: merklize_proof_kind = 2;
pub const MERKLIZE_PROOF_CONSISTENCY: merklize_proof_kind = 3;
pub const MERKLIZE_PROOF_KARY: merklize_proof_kind = 4;
pub const MERKLIZE_PROOF_KARY_MULTI: merklize_proof_kind = 5;

/// `enum merklize_encoding`.
pub type merklize_encoding = c_int;
pub const MERKLIZE_ENCODING_JSON: merklize_encoding = 0;
pub const MERKLIZE_ENCODING_BINARY: merklize_encoding = 1;

opaque! {
    /// An inclusion, multi, consistency or k-ary proof.
    merklize_proof;
}

/// `struct merklize_proof_expectations`: set up by [`merklize_proof_expectations_init`] (which
/// pins nothing), then set the members the verifier knows.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct merklize_proof_expectations {
    pub size: u32,
    pub kind: i32,
    pub hash: *const c_char,
    pub shape: *const c_char,
    pub depth: i32,
    pub arity: u32,
    pub leaf_count: u64,
}

extern "C" {
    pub fn merklize_prove(
        tree: *const merklize_tree,
        index: u64,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;
    pub fn merklize_prove_multi(
        tree: *const merklize_tree,
        indices: *const u64,
        count: usize,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;
    pub fn merklize_prove_consistency(
        tree: *const merklize_tree,
        old_size: u64,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;
    pub fn merklize_prove_source(
        builder: *mut merklize_builder,
        source: *const merklize_source,
        index: u64,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;

    pub fn merklize_proof_free(proof: *mut merklize_proof);
    pub fn merklize_proof_get_kind(proof: *const merklize_proof) -> merklize_proof_kind;
    pub fn merklize_proof_leaf_count(proof: *const merklize_proof) -> u64;
    pub fn merklize_proof_hash(proof: *const merklize_proof) -> *const c_char;
    pub fn merklize_proof_shape(proof: *const merklize_proof) -> *const c_char;
    pub fn merklize_proof_depth(proof: *const merklize_proof) -> u32;
    pub fn merklize_proof_arity(proof: *const merklize_proof) -> u32;
    pub fn merklize_proof_mixed_length(proof: *const merklize_proof, length: *mut u64) -> c_int;
    pub fn merklize_proof_indices(
        proof: *const merklize_proof,
        indices: *mut *const u64,
        count: *mut usize,
    ) -> merklize_status;
    pub fn merklize_proof_nodes(
        proof: *const merklize_proof,
        nodes: *mut *const u8,
        count: *mut usize,
    ) -> merklize_status;

    pub fn merklize_proof_encode(
        proof: *const merklize_proof,
        encoding: merklize_encoding,
        encoded: *mut *mut merklize_bytes,
    ) -> merklize_status;
    pub fn merklize_proof_decode(
        data: *const c_void,
        size: usize,
        encoding: merklize_encoding,
        proof: *mut *mut merklize_proof,
    ) -> merklize_status;

    pub fn merklize_proof_verify(
        proof: *const merklize_proof,
        leaves: *const u8,
        leaf_count: usize,
        root: *const u8,
        valid: *mut c_int,
    ) -> merklize_status;
    pub fn merklize_verify_consistency(
        proof: *const merklize_proof,
        old_root: *const u8,
        new_root: *const u8,
        valid: *mut c_int,
    ) -> merklize_status;

    pub fn merklize_proof_expectations_init(expect: *mut merklize_proof_expectations);
    pub fn merklize_proof_verify_pinned(
        proof: *const merklize_proof,
        leaves: *const u8,
        leaf_count: usize,
        root: *const u8,
        expect: *const merklize_proof_expectations,
        valid: *mut c_int,
    ) -> merklize_status;
    pub fn merklize_verify_consistency_pinned(
        proof: *const merklize_proof,
        old_root: *const u8,
        new_root: *const u8,
        expect: *const merklize_proof_expectations,
        valid: *mut c_int,
    ) -> merklize_status;
}
