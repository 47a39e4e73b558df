// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Hashing on a device: full BLAKE3 (b3sum's result, keyed and derive_key modes, extendable
//! output), hashtree's SHA-256 layer, and RFC 6962 leaf hashes of log entries.

use std::ptr;

use crate::bytes::Bytes;
use crate::device::Device;
use crate::error::{check, Error, Result};
use crate::handle::{c_string, digests};
use crate::names::Framing;
use crate::source::Source;
use merklize_sys as sys;

/// BLAKE3's modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blake3Mode<'a> {
    /// The plain hash (b3sum's).
    Hash,
    /// keyed_hash with a 32-byte key.
    Keyed(&'a [u8; 32]),
    /// derive_key with a context string; the input is the key material.
    DeriveKey(&'a str),
}

impl Device {
    /// BLAKE3 of a source, hashed on the device: the 32 bytes b3sum prints.
    pub fn blake3(&self, source: Source<'_>) -> Result<[u8; 32]> {
        self.blake3_with(Blake3Mode::Hash, source)
    }

    /// BLAKE3 of a source in a mode: 32 bytes.
    pub fn blake3_with(&self, mode: Blake3Mode<'_>, source: Source<'_>) -> Result<[u8; 32]> {
        let mut out = [0u8; 32];
        self.blake3_xof(mode, source, &mut out)?;
        Ok(out)
    }

    /// BLAKE3's extendable output: `out.len()` bytes of it (their first 32 are the digest).
    /// `out` is written only if the call succeeds.
    pub fn blake3_xof(
        &self,
        mode: Blake3Mode<'_>,
        source: Source<'_>,
        out: &mut [u8],
    ) -> Result<()> {
        let context = match mode {
            Blake3Mode::DeriveKey(context) => Some(c_string("the derive_key context", context)?),
            _ => None,
        };
        let raw = sys::merklize_blake3_mode {
            kind: match mode {
                Blake3Mode::Hash => sys::MERKLIZE_BLAKE3_HASH,
                Blake3Mode::Keyed(_) => sys::MERKLIZE_BLAKE3_KEYED,
                Blake3Mode::DeriveKey(_) => sys::MERKLIZE_BLAKE3_DERIVE_KEY,
            },
            key: match mode {
                Blake3Mode::Keyed(key) => key.as_ptr(),
                _ => ptr::null(),
            },
            context: context.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
        };
        let source = source.to_c()?;
        // SAFETY: a live device; the mode's key and context and the source live during the
        // call; out has out.len() writable bytes.
        check(unsafe {
            sys::merklize_blake3(
                self.as_ptr(),
                &raw,
                &source.raw,
                out.as_mut_ptr(),
                out.len(),
            )
        })
    }

    /// hashtree's layer: SHA-256 of each 64-byte block (two 32-byte nodes), the level above a
    /// level of SHA-256 nodes.
    pub fn sha256_layer(&self, chunks: &[[u8; 64]]) -> Result<Vec<[u8; 32]>> {
        let mut digests = vec![[0u8; 32]; chunks.len()];
        self.sha256_layer_into(chunks, &mut digests)?;
        Ok(digests)
    }

    /// [`Device::sha256_layer`] into a slice of the same length as `chunks`; a slice of
    /// another length is [`crate::Status::Argument`], nothing written.
    pub fn sha256_layer_into(&self, chunks: &[[u8; 64]], digests: &mut [[u8; 32]]) -> Result<()> {
        if digests.len() != chunks.len() {
            return Err(Error::argument(format!(
                "sha256_layer: {} chunks of 64 bytes need {} digests, and the output has room \
                 for {}",
                chunks.len(),
                chunks.len(),
                digests.len()
            )));
        }
        // SAFETY: a live device; chunks.len() blocks of 64 bytes in, as many digests of 32
        // bytes out; the borrows keep them apart.
        check(unsafe {
            sys::merklize_sha256_layer(
                self.as_ptr(),
                digests.as_mut_ptr().cast(),
                chunks.as_ptr().cast(),
                chunks.len() as u64,
            )
        })
    }

    /// RFC 6962 leaf hashes, SHA-256(0x00 || entry), of the entries of a source (the leaves of
    /// a [`crate::Hash::Rfc6962`] tree, as `merklize leaf-hash` writes them).
    pub fn log_leaves(&self, source: Source<'_>, framing: Framing) -> Result<Vec<[u8; 32]>> {
        let framing = c_string("framing", framing.as_str())?;
        let source = source.to_c()?;
        // SAFETY: a live device; the source and framing live during the call.
        let bytes = Bytes::made(|out| unsafe {
            sys::merklize_log_leaves(self.as_ptr(), &source.raw, framing.as_ptr(), out)
        })?;
        // SAFETY: the bytes are count leaves of 32 bytes, alive while `bytes` is.
        Ok(unsafe { digests(bytes.as_ptr(), bytes.len() / 32) }.to_vec())
    }
}

/// BLAKE3 given in pieces, on the host (no device): libmerklize's `merklize_blake3_hasher`, as
/// the `blake3` crate's `Hasher` is used. `Send`; a clone goes its own way.
pub struct Blake3Hasher {
    raw: std::ptr::NonNull<sys::merklize_blake3_hasher>,
}

// SAFETY: libmerklize serialises a hasher's calls; the handle is not tied to a thread.
unsafe impl Send for Blake3Hasher {}

impl Blake3Hasher {
    /// The plain hash.
    pub fn new() -> Blake3Hasher {
        Self::with(Blake3Mode::Hash).expect("BLAKE3's plain mode needs no argument")
    }

    /// In a mode: keyed_hash or derive_key (a context with a NUL byte is an error).
    pub fn with(mode: Blake3Mode<'_>) -> Result<Blake3Hasher> {
        let context = match mode {
            Blake3Mode::DeriveKey(context) => Some(c_string("the derive_key context", context)?),
            _ => None,
        };
        let raw = sys::merklize_blake3_mode {
            kind: match mode {
                Blake3Mode::Hash => sys::MERKLIZE_BLAKE3_HASH,
                Blake3Mode::Keyed(_) => sys::MERKLIZE_BLAKE3_KEYED,
                Blake3Mode::DeriveKey(_) => sys::MERKLIZE_BLAKE3_DERIVE_KEY,
            },
            key: match mode {
                Blake3Mode::Keyed(key) => key.as_ptr(),
                _ => ptr::null(),
            },
            context: context.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
        };
        // SAFETY: the mode's key and context live during the call.
        let handle =
            crate::handle::created(|out| unsafe { sys::merklize_blake3_hasher_create(&raw, out) })?;
        Ok(Blake3Hasher { raw: handle })
    }

    /// Adds `data` to what is hashed.
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        // SAFETY: a live hasher; data.len() readable bytes. It fails only for a NULL argument.
        unsafe {
            sys::merklize_blake3_hasher_update(self.raw.as_ptr(), data.as_ptr().cast(), data.len())
        };
        self
    }

    /// The 32-byte digest of what was given so far; more may be given after.
    pub fn finalize(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        self.finalize_xof(0, &mut out);
        out
    }

    /// `out.len()` bytes of the extendable output, from byte `seek` of it.
    pub fn finalize_xof(&self, seek: u64, out: &mut [u8]) {
        // SAFETY: a live hasher; out.len() writable bytes (seek + len past 2^64 is refused).
        unsafe {
            sys::merklize_blake3_hasher_finalize(
                self.raw.as_ptr(),
                seek,
                out.as_mut_ptr(),
                out.len(),
            )
        };
    }

    /// Back to no input, in its mode.
    pub fn reset(&mut self) -> &mut Self {
        // SAFETY: a live hasher.
        unsafe { sys::merklize_blake3_hasher_reset(self.raw.as_ptr()) };
        self
    }
}

impl Default for Blake3Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for Blake3Hasher {
    fn clone(&self) -> Self {
        // SAFETY: a live hasher; only memory running out fails, as Vec's clone would abort.
        let raw = crate::handle::created(|out| unsafe {
            sys::merklize_blake3_hasher_copy(self.raw.as_ptr(), out)
        })
        .expect("out of memory copying a BLAKE3 hasher");
        Blake3Hasher { raw }
    }
}

impl Drop for Blake3Hasher {
    fn drop(&mut self) {
        // SAFETY: the hasher is ours and freed once.
        unsafe { sys::merklize_blake3_hasher_free(self.raw.as_ptr()) };
    }
}
