// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Formats of trees over data blocks: dm-verity's hash device, fs-verity's digest and tree,
//! Bao's outboard (docs/FORMATS.md).

use std::mem::MaybeUninit;
use std::ptr;

use crate::bytes::Bytes;
use crate::device::Device;
use crate::error::{check, Result};
use crate::source::Source;
use merklize_sys as sys;

/// Block sizes and salt of dm-verity and fs-verity; unset, libmerklize's defaults (4096-byte
/// blocks, no salt).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerityConfig {
    data_block_size: Option<u32>,
    hash_block_size: Option<u32>,
    salt: Option<Vec<u8>>,
}

impl VerityConfig {
    /// The defaults.
    pub fn new() -> VerityConfig {
        VerityConfig::default()
    }

    /// dm-verity: bytes a data block.
    pub fn data_block_size(mut self, bytes: u32) -> VerityConfig {
        self.data_block_size = Some(bytes);
        self
    }

    /// dm-verity: bytes a hash block; fs-verity: its one block size.
    pub fn hash_block_size(mut self, bytes: u32) -> VerityConfig {
        self.hash_block_size = Some(bytes);
        self
    }

    /// The salt: up to 256 bytes for dm-verity, 32 for fs-verity.
    pub fn salt(mut self, salt: &[u8]) -> VerityConfig {
        self.salt = Some(salt.to_vec());
        self
    }

    /// The C struct, pointing into self's salt.
    fn to_c(&self) -> sys::merklize_verity_config {
        let mut raw = MaybeUninit::<sys::merklize_verity_config>::uninit();
        // SAFETY: merklize_verity_config_init writes every member.
        let mut raw = unsafe {
            sys::merklize_verity_config_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        if let Some(bytes) = self.data_block_size {
            raw.data_block_size = bytes;
        }
        if let Some(bytes) = self.hash_block_size {
            raw.hash_block_size = bytes;
        }
        if let Some(salt) = &self.salt {
            raw.salt = salt.as_ptr();
            raw.salt_size = salt.len();
        }
        raw
    }
}

impl Device {
    /// dm-verity's hash tree of a source, as `veritysetup format --no-superblock` writes it to
    /// the hash device, and its root hash.
    pub fn dm_verity(
        &self,
        config: &VerityConfig,
        source: Source<'_>,
    ) -> Result<([u8; 32], Bytes)> {
        let (config, source) = (config.to_c(), source.to_c()?);
        // SAFETY: a live device; the config (and its salt) and the source live during the call.
        with_bytes(|root, out| unsafe {
            sys::merklize_dm_verity(self.as_ptr(), &config, &source.raw, root, out)
        })
    }

    /// dm-verity's root hash alone.
    pub fn dm_verity_root(&self, config: &VerityConfig, source: Source<'_>) -> Result<[u8; 32]> {
        let (config, source) = (config.to_c(), source.to_c()?);
        // SAFETY: as in dm_verity; no hash tree asked for.
        digest_only(|root| unsafe {
            sys::merklize_dm_verity(self.as_ptr(), &config, &source.raw, root, ptr::null_mut())
        })
    }

    /// fs-verity's file digest (as `fsverity digest` prints it) and its Merkle tree (as
    /// `fsverity digest --out-merkle-tree` writes it); the block size is
    /// [`VerityConfig::hash_block_size`].
    pub fn fs_verity(
        &self,
        config: &VerityConfig,
        source: Source<'_>,
    ) -> Result<([u8; 32], Bytes)> {
        let (config, source) = (config.to_c(), source.to_c()?);
        // SAFETY: as in dm_verity.
        with_bytes(|digest, out| unsafe {
            sys::merklize_fs_verity(self.as_ptr(), &config, &source.raw, digest, out)
        })
    }

    /// fs-verity's file digest alone.
    pub fn fs_verity_digest(&self, config: &VerityConfig, source: Source<'_>) -> Result<[u8; 32]> {
        let (config, source) = (config.to_c(), source.to_c()?);
        // SAFETY: as in dm_verity; no tree asked for.
        digest_only(|digest| unsafe {
            sys::merklize_fs_verity(self.as_ptr(), &config, &source.raw, digest, ptr::null_mut())
        })
    }

    /// Bao's outboard encoding of a source (as `bao encode --outboard` writes it) and its root,
    /// the BLAKE3 hash of the data.
    pub fn bao_outboard(&self, source: Source<'_>) -> Result<([u8; 32], Bytes)> {
        let source = source.to_c()?;
        // SAFETY: a live device; the source lives during the call.
        with_bytes(|root, out| unsafe {
            sys::merklize_bao_outboard(self.as_ptr(), &source.raw, root, out)
        })
    }
}

/// Calls `call` with a 32-byte output and an out-pointer for bytes.
fn with_bytes(
    call: impl FnOnce(*mut u8, *mut *mut sys::merklize_bytes) -> sys::merklize_status,
) -> Result<([u8; 32], Bytes)> {
    let mut digest = [0u8; 32];
    let bytes = Bytes::made(|out| call(digest.as_mut_ptr(), out))?;
    Ok((digest, bytes))
}

/// Calls `call` with a 32-byte output.
fn digest_only(call: impl FnOnce(*mut u8) -> sys::merklize_status) -> Result<[u8; 32]> {
    let mut digest = [0u8; 32];
    check(call(digest.as_mut_ptr()))?;
    Ok(digest)
}
