// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`TreeConfig`]: which tree a [`crate::Builder`] builds.

use std::ffi::CString;
use std::mem::MaybeUninit;
use std::ptr;

use crate::error::{Error, Result};
use crate::handle::c_string;
use crate::names::{Hash, LeafHash, Shape};
use merklize_sys as sys;

/// Which levels a tree built from host memory keeps ([`TreeConfig::keep`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// Every level, leaves included (the default; what proofs from the tree need).
    All,
    /// The root alone. From a file or a descriptor the input is then streamed.
    RootOnly,
    /// Levels `k` up to the root.
    FromLevel(u32),
}

/// The configuration of a tree: builder-style, each setter taking and returning the value.
/// Unset, each item is libmerklize's default: BLAKE3, shape promote, the natural depth, arity
/// 2, 32-byte leaves, every level kept.
///
/// ```
/// use merklize::{Hash, Shape, TreeConfig};
/// // SSZ's list root: SHA-256, leaves padded to 2^10, the list's length mixed in.
/// let config = TreeConfig::new().hash(Hash::Sha256).shape(Shape::Zero).depth(10).mix_in_length(3);
/// # let _ = config;
/// ```
///
/// Nothing is checked until [`crate::Builder::new`], which refuses a configuration the tree
/// does not allow with libmerklize's message naming the item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeConfig {
    hash: Option<Hash>,
    shape: Option<Shape>,
    depth: Option<u32>,
    arity: Option<u32>,
    leaf_size: Option<u64>,
    leaf_hash: Option<LeafHash>,
    salt: Option<Vec<u8>>,
    mix_in_length: Option<u64>,
    keep: Option<Keep>,
}

impl TreeConfig {
    /// The defaults.
    pub fn new() -> TreeConfig {
        TreeConfig::default()
    }

    /// The node hash.
    pub fn hash(mut self, hash: Hash) -> TreeConfig {
        self.hash = Some(hash);
        self
    }

    /// What a level of odd length does.
    pub fn shape(mut self, shape: Shape) -> TreeConfig {
        self.shape = Some(shape);
        self
    }

    /// The root's fixed depth (with [`Shape::Zero`], SSZ's limit): the tree of 2^depth leaves,
    /// zero leaves after the input's.
    pub fn depth(mut self, depth: u32) -> TreeConfig {
        self.depth = Some(depth);
        self
    }

    /// Children per node: 2, or 2..128 for a k-ary tree (no fixed depth).
    pub fn arity(mut self, arity: u32) -> TreeConfig {
        self.arity = Some(arity);
        self
    }

    /// The input is data cut into blocks of `bytes` (the last one shorter), each hashed into a
    /// leaf; 0: the input is leaves of 32 bytes (the default).
    pub fn leaf_size(mut self, bytes: u64) -> TreeConfig {
        self.leaf_size = Some(bytes);
        self
    }

    /// With [`TreeConfig::leaf_size`]: the hash of the blocks (default: SHA-256 for SHA-256
    /// trees, else BLAKE3).
    pub fn leaf_hash(mut self, hash: LeafHash) -> TreeConfig {
        self.leaf_hash = Some(hash);
        self
    }

    /// With [`TreeConfig::leaf_size`]: bytes hashed before every block.
    pub fn salt(mut self, salt: &[u8]) -> TreeConfig {
        self.salt = Some(salt.to_vec());
        self
    }

    /// The root is SSZ's list root: the tree's root with `length` mixed in (SHA-256,
    /// [`Shape::Zero`] and a [`depth`](TreeConfig::depth), the depth of the list's limit,
    /// ceil(log2 LIMIT)); proofs end with the length chunk.
    pub fn mix_in_length(mut self, length: u64) -> TreeConfig {
        self.mix_in_length = Some(length);
        self
    }

    /// Which levels a build keeps.
    pub fn keep(mut self, keep: Keep) -> TreeConfig {
        self.keep = Some(keep);
        self
    }

    /// The C struct of this configuration, and the strings it points into.
    pub(crate) fn to_c(&self) -> Result<CConfig<'_>> {
        let mut raw = MaybeUninit::<sys::merklize_tree_config>::uninit();
        // SAFETY: merklize_tree_config_init writes every member of the struct.
        let mut raw = unsafe {
            sys::merklize_tree_config_init(raw.as_mut_ptr());
            raw.assume_init()
        };
        let name = |what: &str, name: Option<&'static str>| -> Result<Option<CString>> {
            name.map(|n| c_string(what, n)).transpose()
        };
        let hash = name("config.hash", self.hash.map(Hash::as_str))?;
        let shape = name("config.shape", self.shape.map(Shape::as_str))?;
        let leaf_hash = name("config.leaf_hash", self.leaf_hash.map(LeafHash::as_str))?;
        raw.hash = hash.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw.shape = shape.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw.leaf_hash = leaf_hash.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        if let Some(depth) = self.depth {
            raw.depth = i32::try_from(depth).map_err(|_| {
                Error::argument(format!(
                    "config.depth is {}: a fixed depth is at most 64",
                    depth
                ))
            })?;
        }
        if let Some(arity) = self.arity {
            raw.arity = arity;
        }
        if let Some(bytes) = self.leaf_size {
            raw.leaf_size = bytes;
        }
        if let Some(salt) = &self.salt {
            raw.salt = salt.as_ptr();
            raw.salt_size = salt.len();
        }
        if let Some(length) = self.mix_in_length {
            raw.mix_in_length = 1;
            raw.length = length;
        }
        match self.keep {
            None => {}
            Some(Keep::All) => raw.keep = sys::MERKLIZE_KEEP_ALL,
            Some(Keep::RootOnly) => raw.keep = sys::MERKLIZE_KEEP_ROOT_ONLY,
            Some(Keep::FromLevel(level)) => raw.keep = level,
        }
        Ok(CConfig {
            raw,
            _strings: [hash, shape, leaf_hash],
            _config: self,
        })
    }
}

/// A `merklize_tree_config` and what its pointers point into, alive as long as it is.
pub(crate) struct CConfig<'a> {
    pub(crate) raw: sys::merklize_tree_config,
    _strings: [Option<CString>; 3],
    _config: &'a TreeConfig, // the salt
}
