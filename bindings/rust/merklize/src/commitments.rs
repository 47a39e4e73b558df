// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The commitments other systems publish (docs/FORMATS.md): OpenZeppelin's StandardMerkleTree,
//! Bitcoin's merkle root and Filecoin's piece commitment, as `merklize root|proof --format
//! oz-standard|bitcoin|filecoin-tree-d` prints them.

use std::os::raw::{c_char, c_int};
use std::ptr;

use crate::bytes::Bytes;
use crate::device::Device;
use crate::error::{check, Error, Result};
use crate::source::Source;
use merklize_sys as sys;

/// Text the library made (JSON), as a `String`.
fn text(bytes: Bytes) -> String {
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Device {
    /// The root of OpenZeppelin's StandardMerkleTree (`"0x"` and its hex is what OpenZeppelin
    /// prints) and the tree's dump, as `JSON.stringify(tree.dump())` writes it. `json` is the
    /// tree's dump, or `{"leafEncoding": [types], "values": [[...], ...]}`; `sort_leaves` sorts
    /// the leaves by hash, OpenZeppelin's default (false: `sortLeaves: false`); a dump places its
    /// leaves itself. Malformed JSON, unknown types and values that do not fit them are
    /// [`Status::Decode`](crate::Status::Decode), naming the place.
    pub fn oz_standard_tree(&self, json: &str, sort_leaves: bool) -> Result<([u8; 32], String)> {
        let mut root = [0u8; 32];
        let dump = Bytes::made(|out| self.oz_tree_call(json, sort_leaves, &mut root, out))?;
        Ok((root, text(dump)))
    }

    /// The root alone.
    pub fn oz_standard_root(&self, json: &str, sort_leaves: bool) -> Result<[u8; 32]> {
        let mut root = [0u8; 32];
        check(self.oz_tree_call(json, sort_leaves, &mut root, ptr::null_mut()))?;
        Ok(root)
    }

    /// merklize_oz_standard_tree, the dump asked for where `dump` is not null.
    fn oz_tree_call(
        &self,
        json: &str,
        sort_leaves: bool,
        root: &mut [u8; 32],
        dump: *mut *mut sys::merklize_bytes,
    ) -> sys::merklize_status {
        // SAFETY: a live device; json's bytes and root live during the call; dump is null or an
        // out-pointer.
        unsafe {
            sys::merklize_oz_standard_tree(
                self.as_ptr(),
                json.as_ptr() as *const c_char,
                json.len(),
                sort_leaves as c_int,
                root.as_mut_ptr(),
                dump,
            )
        }
    }

    /// The proof of value `indices[0]` (its place in `"values"`), `{"value", "leaf", "proof"}`,
    /// or for several indices OpenZeppelin's `getMultiProof`, `{"leaves", "proof",
    /// "proofFlags"}`: JSON either way.
    pub fn oz_standard_proof(
        &self,
        json: &str,
        sort_leaves: bool,
        indices: &[u64],
    ) -> Result<String> {
        if indices.is_empty() {
            return Err(Error::argument(
                "oz_standard_proof: no index: a proof proves a value",
            ));
        }
        // SAFETY: a live device; json's bytes and the indices live during the call.
        let proof = Bytes::made(|out| unsafe {
            sys::merklize_oz_standard_proof(
                self.as_ptr(),
                json.as_ptr() as *const c_char,
                json.len(),
                sort_leaves as c_int,
                indices.as_ptr(),
                indices.len(),
                out,
            )
        })?;
        Ok(text(proof))
    }

    /// Bitcoin's merkle root of a block's txids and whether the tree is mutated (CVE-2012-2459:
    /// a level pairs two equal nodes, so a shorter txid list has the same root; Bitcoin Core
    /// rejects such a block). `txids`: 32 bytes each in internal byte order, the root in that
    /// order too; with `display_order`, hex lines as block explorers and `bitcoin-cli` show them,
    /// byte-reversed, and the root reversed as they print it.
    pub fn bitcoin_root(&self, txids: Source<'_>, display_order: bool) -> Result<([u8; 32], bool)> {
        let source = txids.to_c()?;
        let (mut root, mut mutated) = ([0u8; 32], 0 as c_int);
        // SAFETY: a live device; the source and the outputs live during the call.
        check(unsafe {
            sys::merklize_bitcoin_root(
                self.as_ptr(),
                &source.raw,
                display_order as c_int,
                root.as_mut_ptr(),
                &mut mutated,
            )
        })?;
        Ok((root, mutated != 0))
    }

    /// Txid `index`'s merkle branch, as Electrum's `blockchain.transaction.get_merkle` gives
    /// it, with the txid and the root beside it: `{"txid", "pos", "merkle", "root"}`, JSON, hex
    /// in the byte order of `txids` (see [`Device::bitcoin_root`]).
    pub fn bitcoin_proof(
        &self,
        txids: Source<'_>,
        display_order: bool,
        index: u64,
    ) -> Result<String> {
        let source = txids.to_c()?;
        // SAFETY: a live device; the source lives during the call.
        let proof = Bytes::made(|out| unsafe {
            sys::merklize_bitcoin_proof(
                self.as_ptr(),
                &source.raw,
                display_order as c_int,
                index,
                out,
            )
        })?;
        Ok(text(proof))
    }

    /// Filecoin's piece commitment (CommP, the root of tree_d) of a source of the raw, unpadded
    /// bytes of a piece, and the padded piece's size in bytes: Fr32-padded, zero-padded to a
    /// power of two of at least 128 bytes, SHA-256 truncated to 254 bits. No data is
    /// [`Status::Argument`](crate::Status::Argument).
    pub fn filecoin_commitment(&self, data: Source<'_>) -> Result<([u8; 32], u64)> {
        let source = data.to_c()?;
        let (mut commitment, mut padded) = ([0u8; 32], 0u64);
        // SAFETY: a live device; the source and the outputs live during the call.
        check(unsafe {
            sys::merklize_filecoin_commitment(
                self.as_ptr(),
                &source.raw,
                commitment.as_mut_ptr(),
                &mut padded,
            )
        })?;
        Ok((commitment, padded))
    }
}

/// The piece CID of a Filecoin commitment, as Lotus prints it (`baga6ea4sea...`: CIDv1,
/// fil-commitment-unsealed, sha2-256-trunc254-padded, base32).
pub fn filecoin_piece_cid(commitment: &[u8; 32]) -> Result<String> {
    let mut cid = [0 as c_char; sys::MERKLIZE_PIECE_CID_SIZE];
    // SAFETY: 32 bytes in, a buffer of cid.len() bytes out.
    check(unsafe {
        sys::merklize_filecoin_piece_cid(commitment.as_ptr(), cid.as_mut_ptr(), cid.len())
    })?;
    let bytes: Vec<u8> = cid
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
