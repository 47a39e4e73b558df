// SPDX-License-Identifier: Apache-2.0 OR MIT
//! A [`Proof`]'s header (what it claims of its tree) and [`Expectations`], what a verifier knows
//! of the tree apart from the proof: a root binds none of the header, so a proof relabelled with
//! another hash, shape, depth, arity or leaf count can verify where its nodes drive the same
//! computation (docs/PROOFS.md, "What a proof binds"). [`Proof::verify_pinned`] refuses one that
//! claims other values than those pinned.

use std::ffi::{CStr, CString};
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_int};
use std::ptr;

use crate::error::Result;
use crate::handle::{c_string, digest_bytes};
use crate::names::{Hash, Shape};
use crate::proof::{verdict, Proof, ProofKind};
use merklize_sys as sys;

/// What the verifier knows of the tree (`struct merklize_proof_expectations`): each member that
/// is `None` pins nothing. Pin all you know: the tree's configuration gives the hash, shape,
/// depth and arity, a signed tree head or a header the leaf count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expectations {
    /// The kind of proof.
    pub kind: Option<ProofKind>,
    /// The node hash.
    pub hash: Option<Hash>,
    /// The shape.
    pub shape: Option<Shape>,
    /// The root's depth (a k-ary tree's height).
    pub depth: Option<u32>,
    /// The children per node: 2 for a binary tree, k for a k-ary one.
    pub arity: Option<u32>,
    /// The tree's leaves (the new tree's for a consistency proof).
    pub leaf_count: Option<u64>,
}

/// The C struct of some expectations, and the strings it points into.
struct CExpectations {
    raw: sys::merklize_proof_expectations,
    _strings: [Option<CString>; 2],
}

fn kind_number(kind: ProofKind) -> i32 {
    match kind {
        ProofKind::Inclusion => sys::MERKLIZE_PROOF_INCLUSION,
        ProofKind::Multi => sys::MERKLIZE_PROOF_MULTI,
        ProofKind::Consistency => sys::MERKLIZE_PROOF_CONSISTENCY,
        ProofKind::Kary => sys::MERKLIZE_PROOF_KARY,
        ProofKind::KaryMulti => sys::MERKLIZE_PROOF_KARY_MULTI,
        ProofKind::Other(number) => number,
    }
}

impl Expectations {
    fn to_c(&self) -> Result<CExpectations> {
        let mut raw = MaybeUninit::<sys::merklize_proof_expectations>::uninit();
        // SAFETY: merklize_proof_expectations_init writes every member of the struct.
        let mut raw = unsafe {
            sys::merklize_proof_expectations_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        let hash = self
            .hash
            .map(|h| c_string("expect.hash", h.as_str()))
            .transpose()?;
        let shape = self
            .shape
            .map(|s| c_string("expect.shape", s.as_str()))
            .transpose()?;
        raw.hash = hash.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw.shape = shape.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw.kind = self.kind.map_or(0, kind_number);
        if let Some(depth) = self.depth {
            raw.depth = i32::try_from(depth).unwrap_or(i32::MAX);
        }
        raw.arity = self.arity.unwrap_or(0);
        raw.leaf_count = self.leaf_count.unwrap_or(0);
        Ok(CExpectations {
            raw,
            _strings: [hash, shape],
        })
    }
}

/// A name the library returned (a static string of its own).
fn name_of(text: *const c_char) -> &'static str {
    if text.is_null() {
        return "";
    }
    // SAFETY: merklize_proof_hash and _shape return NUL-terminated static names.
    unsafe { CStr::from_ptr(text) }.to_str().unwrap_or("")
}

impl Proof {
    /// The node hash the proof claims, by its CLI name ("sha256", "blake3", ...): a name this
    /// crate's [`Hash`] may not know yet, so a string.
    pub fn hash(&self) -> &'static str {
        // SAFETY: a live proof.
        name_of(unsafe { sys::merklize_proof_hash(self.as_ptr()) })
    }

    /// The shape the proof claims: "promote" or "zero".
    pub fn shape(&self) -> &'static str {
        // SAFETY: a live proof.
        name_of(unsafe { sys::merklize_proof_shape(self.as_ptr()) })
    }

    /// The levels from the leaves to the root the proof claims (a k-ary tree's height).
    pub fn depth(&self) -> u32 {
        // SAFETY: a live proof.
        unsafe { sys::merklize_proof_depth(self.as_ptr()) }
    }

    /// The children per node the proof claims: 2 for a binary tree, k for a k-ary one.
    pub fn arity(&self) -> u32 {
        // SAFETY: a live proof.
        unsafe { sys::merklize_proof_arity(self.as_ptr()) }
    }

    /// The list's length of an SSZ list element's proof, mixed into the root; else `None`.
    pub fn mixed_length(&self) -> Option<u64> {
        let mut length = 0u64;
        // SAFETY: a live proof and a valid out-pointer.
        let has = unsafe { sys::merklize_proof_mixed_length(self.as_ptr(), &mut length) };
        (has != 0).then_some(length)
    }

    /// [`Proof::verify`] with what the verifier knows: a proof whose header differs from a
    /// pinned value is `Err` with [`crate::Status::InvalidProof`] naming it.
    pub fn verify_pinned(
        &self,
        leaves: &[[u8; 32]],
        root: &[u8; 32],
        expect: &Expectations,
    ) -> Result<()> {
        let pins = expect.to_c()?;
        let bytes = digest_bytes(leaves);
        let mut valid: c_int = 0;
        // SAFETY: a live proof; leaves.len() leaves of 32 bytes; a 32-byte root; the struct and
        // the strings it points into live for the call.
        let status = unsafe {
            sys::merklize_proof_verify_pinned(
                self.as_ptr(),
                bytes.as_ptr(),
                leaves.len(),
                root.as_ptr(),
                &pins.raw,
                &mut valid,
            )
        };
        verdict(status, valid)
    }

    /// [`Proof::verify_consistency`] with what the verifier knows (`leaf_count`: the new
    /// tree's size).
    pub fn verify_consistency_pinned(
        &self,
        old_root: &[u8; 32],
        new_root: &[u8; 32],
        expect: &Expectations,
    ) -> Result<()> {
        let pins = expect.to_c()?;
        let mut valid: c_int = 0;
        // SAFETY: a live proof, two 32-byte roots, the struct alive for the call.
        let status = unsafe {
            sys::merklize_verify_consistency_pinned(
                self.as_ptr(),
                old_root.as_ptr(),
                new_root.as_ptr(),
                &pins.raw,
                &mut valid,
            )
        };
        verdict(status, valid)
    }
}
