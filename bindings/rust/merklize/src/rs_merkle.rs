// SPDX-License-Identifier: Apache-2.0 OR MIT
//! rs_merkle's way of naming a tree's hash, without the rs_merkle crate (this crate downloads
//! nothing): [`Hasher`] has the shape of `rs_merkle::Hasher` (`hash`, `concat_and_hash` with a
//! lone node moved up, `hash_size`), and [`Blake3`] implements it with libmerklize's BLAKE3 on the
//! host, so a tree folded with it is merklize's `blake3` tree of shape promote (`merklize root`'s
//! root over the leaves). Code written for rs_merkle takes it with a few lines:
//!
//! ```ignore
//! #[derive(Clone)]
//! struct MerklizeBlake3;
//! impl rs_merkle::Hasher for MerklizeBlake3 {
//!     type Hash = [u8; 32];
//!     fn hash(data: &[u8]) -> [u8; 32] { <merklize::rs_merkle::Blake3 as merklize::rs_merkle::Hasher>::hash(data) }
//! }
//! ```

use crate::hashing::Blake3Hasher;

/// The shape of `rs_merkle::Hasher`: a hash of bytes, and of two nodes.
pub trait Hasher: Clone {
    /// A node.
    type Hash: Copy + PartialEq + Into<Vec<u8>> + TryFrom<Vec<u8>>;

    /// The hash of `data`.
    fn hash(data: &[u8]) -> Self::Hash;

    /// The parent of `left` and `right`: the hash of their bytes back to back; a left node
    /// without a right one moves up unchanged (shape promote, as rs_merkle's default).
    fn concat_and_hash(left: &Self::Hash, right: Option<&Self::Hash>) -> Self::Hash {
        match right {
            Some(right) => {
                let mut both: Vec<u8> = (*left).into();
                both.extend_from_slice(&(*right).into());
                Self::hash(&both)
            }
            None => *left,
        }
    }

    /// The bytes of a node.
    fn hash_size() -> usize {
        std::mem::size_of::<Self::Hash>()
    }
}

/// BLAKE3 on the host (libmerklize's `merklize_blake3_hasher`): nodes are BLAKE3 of the 64
/// bytes `left ‖ right`, merklize's `blake3` node hash.
#[derive(Clone, Copy, Debug, Default)]
pub struct Blake3;

impl Hasher for Blake3 {
    type Hash = [u8; 32];

    fn hash(data: &[u8]) -> [u8; 32] {
        let mut hasher = Blake3Hasher::new();
        hasher.update(data);
        hasher.finalize()
    }
}
