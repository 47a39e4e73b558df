// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`Proof`]: inclusion proofs, multiproofs, consistency proofs, k-ary proofs and k-ary
//! multiproofs; their encodings (docs/PROOFS.md) and their verification on the host.

use std::fmt;
use std::os::raw::c_int;
use std::ptr::{self, NonNull};

use crate::bytes::Bytes;
use crate::error::{check, Error, Result, Status};
use crate::handle::{created, digest_bytes, digests};
use merklize_sys as sys;

/// What a [`Proof`] proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProofKind {
    /// One leaf of a binary tree (RFC 9162's audit path for rfc6962; the consensus specs'
    /// branch for an SSZ list).
    Inclusion,
    /// Several leaves of a binary tree.
    Multi,
    /// An old tree is a prefix of a new one (RFC 9162 2.1.4).
    Consistency,
    /// One leaf of a k-ary tree.
    Kary,
    /// Several leaves of a k-ary tree (docs/PROOFS.md, "k-ary multiproofs").
    KaryMulti,
    /// A kind this crate does not know (from a later libmerklize), by its number.
    Other(i32),
}

/// A proof: made from a [`crate::Tree`] or streamed from a source ([`crate::Builder::prove`]),
/// or decoded from its JSON or binary encoding, which is untrusted input checked as it is read.
/// Verifying needs no device. Read-only, so `Send` and `Sync`.
pub struct Proof {
    raw: NonNull<sys::merklize_proof>,
}

// SAFETY: merklize.h: proofs are read-only after creation and can be read concurrently.
unsafe impl Send for Proof {}
unsafe impl Sync for Proof {}

impl Proof {
    pub(crate) fn from_raw(raw: NonNull<sys::merklize_proof>) -> Proof {
        Proof { raw }
    }

    /// What the proof proves.
    pub fn kind(&self) -> ProofKind {
        // SAFETY: a live proof.
        match unsafe { sys::merklize_proof_get_kind(self.raw.as_ptr()) } {
            sys::MERKLIZE_PROOF_INCLUSION => ProofKind::Inclusion,
            sys::MERKLIZE_PROOF_MULTI => ProofKind::Multi,
            sys::MERKLIZE_PROOF_CONSISTENCY => ProofKind::Consistency,
            sys::MERKLIZE_PROOF_KARY => ProofKind::Kary,
            sys::MERKLIZE_PROOF_KARY_MULTI => ProofKind::KaryMulti,
            other => ProofKind::Other(other),
        }
    }

    /// The leaves of the tree the proof is about (the new tree's for a consistency proof).
    pub fn leaf_count(&self) -> u64 {
        // SAFETY: a live proof.
        unsafe { sys::merklize_proof_leaf_count(self.raw.as_ptr()) }
    }

    /// The proven leaf indices, sorted (one for inclusion and k-ary proofs; the old size for a
    /// consistency proof), borrowed from the proof.
    pub fn indices(&self) -> &[u64] {
        let mut indices: *const u64 = ptr::null();
        let mut count = 0usize;
        // SAFETY: a live proof and valid out-pointers.
        let status =
            unsafe { sys::merklize_proof_indices(self.raw.as_ptr(), &mut indices, &mut count) };
        if status != sys::MERKLIZE_OK || indices.is_null() || count == 0 {
            return &[];
        }
        // SAFETY: count aligned u64s in the proof's own memory, unchanged while it lives.
        unsafe { std::slice::from_raw_parts(indices, count) }
    }

    /// The nodes the proof carries (siblings, from the leaves up; for a k-ary proof every
    /// level's siblings, back to back; for a k-ary multiproof its nodes in proof order),
    /// borrowed from the proof.
    pub fn nodes(&self) -> &[[u8; 32]] {
        let mut nodes: *const u8 = ptr::null();
        let mut count = 0usize;
        // SAFETY: a live proof and valid out-pointers.
        let status =
            unsafe { sys::merklize_proof_nodes(self.raw.as_ptr(), &mut nodes, &mut count) };
        if status != sys::MERKLIZE_OK {
            return &[];
        }
        // SAFETY: count nodes in the proof's own memory, unchanged while it lives.
        unsafe { digests(nodes, count) }
    }

    /// The proof as one line of JSON, as `merklize proof` prints it (without the newline).
    pub fn to_json(&self) -> Result<String> {
        let bytes = self.encoded(sys::MERKLIZE_ENCODING_JSON)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| {
            Error::new(
                Status::Internal,
                "libmerklize encoded a proof as JSON that is not UTF-8",
            )
        })
    }

    /// The proof in docs/PROOFS.md's binary form (a k-ary proof, inclusion or multi, has none:
    /// [`crate::Status::Argument`]).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        Ok(self.encoded(sys::MERKLIZE_ENCODING_BINARY)?.to_vec())
    }

    fn encoded(&self, encoding: sys::merklize_encoding) -> Result<Bytes> {
        // SAFETY: a live proof and a valid out-pointer.
        Bytes::made(|out| unsafe { sys::merklize_proof_encode(self.raw.as_ptr(), encoding, out) })
    }

    /// A proof of any kind from its JSON; a malformed or oversized one is
    /// [`crate::Status::Decode`] with the place and the reason.
    pub fn from_json(text: &str) -> Result<Proof> {
        Proof::decoded(text.as_bytes(), sys::MERKLIZE_ENCODING_JSON)
    }

    /// A proof of any kind from its binary form, checked as [`Proof::from_json`] is.
    pub fn from_bytes(bytes: &[u8]) -> Result<Proof> {
        Proof::decoded(bytes, sys::MERKLIZE_ENCODING_BINARY)
    }

    fn decoded(bytes: &[u8], encoding: sys::merklize_encoding) -> Result<Proof> {
        // SAFETY: bytes.len() readable bytes; a valid out-pointer.
        let raw = created(|out| unsafe {
            sys::merklize_proof_decode(bytes.as_ptr().cast(), bytes.len(), encoding, out)
        })?;
        Ok(Proof { raw })
    }

    /// Checks that the proof shows `leaves` under `root`: one leaf per proven index, in the
    /// order of [`Proof::indices`] (an inclusion, multi, k-ary or k-ary multi proof).
    ///
    /// `Ok(())` if it does. A proof that does not is `Err` with [`Status::InvalidProof`] and
    /// the library's reason ("invalid proof: ..."); a call that cannot be made (the wrong number
    /// of leaves, a consistency proof) is `Err` with [`Status::Argument`].
    pub fn verify(&self, leaves: &[[u8; 32]], root: &[u8; 32]) -> Result<()> {
        let bytes = digest_bytes(leaves);
        let mut valid: c_int = 0;
        // SAFETY: a live proof; leaves.len() leaves of 32 bytes; a 32-byte root.
        let status = unsafe {
            sys::merklize_proof_verify(
                self.raw.as_ptr(),
                bytes.as_ptr(),
                leaves.len(),
                root.as_ptr(),
                &mut valid,
            )
        };
        verdict(status, valid)
    }

    /// Checks a consistency proof: that the tree whose root is `old_root` is a prefix of the
    /// one whose root is `new_root` (their sizes are the proof's). Results as [`Proof::verify`].
    pub fn verify_consistency(&self, old_root: &[u8; 32], new_root: &[u8; 32]) -> Result<()> {
        let mut valid: c_int = 0;
        // SAFETY: a live proof and two 32-byte roots.
        let status = unsafe {
            sys::merklize_verify_consistency(
                self.raw.as_ptr(),
                old_root.as_ptr(),
                new_root.as_ptr(),
                &mut valid,
            )
        };
        verdict(status, valid)
    }

    /// The C handle, for calls of merklize-sys. It stays owned by this `Proof`.
    pub fn as_ptr(&self) -> *const sys::merklize_proof {
        self.raw.as_ptr()
    }
}

/// A verification's outcome: the call's failure, or the reason the proof is invalid, which
/// merklize.h leaves in merklize_last_error() though the call succeeded.
pub(crate) fn verdict(status: sys::merklize_status, valid: c_int) -> Result<()> {
    check(status)?;
    if valid == 1 {
        Ok(())
    } else {
        Err(Error::last(Status::InvalidProof))
    }
}

impl Drop for Proof {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by this value and freed once.
        unsafe { sys::merklize_proof_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proof")
            .field("kind", &self.kind())
            .field("leaf_count", &self.leaf_count())
            .field("indices", &self.indices())
            .field("nodes", &self.nodes().len())
            .finish()
    }
}
