// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The names a tree configuration takes, as typed enums: each spelled as the command-line tool
//! and the C ABI spell it (`Display`, [`Hash::as_str`]) and parsed from that spelling
//! (`FromStr`, whose error lists the names known).

use std::fmt;
use std::str::FromStr;

use crate::error::{copied, Error};
use merklize_sys as sys;

macro_rules! named {
    ($(#[$doc:meta])* $name:ident, $what:literal { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// Every value, in the library's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The name, as the command-line tool and the C ABI spell it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = Error;

            fn from_str(text: &str) -> Result<$name, Error> {
                $name::ALL.iter().copied().find(|v| v.as_str() == text).ok_or_else(|| {
                    let known: Vec<&str> = $name::ALL.iter().map(|v| v.as_str()).collect();
                    Error::argument(format!(
                        "unknown {} {:?}: known are {}", $what, text, known.join(", ")
                    ))
                })
            }
        }
    };
}

named! {
    /// The node hash of a tree.
    Hash, "hash" {
        /// BLAKE3 of the 64 bytes of two children (the default).
        Blake3 = "blake3",
        /// BLAKE3's own parent compression: the tree of BLAKE3 itself over chunk digests.
        Blake3Parent = "blake3-parent",
        /// SHA-256 of the two children (SSZ's hash_tree_root with [`Shape::Zero`]).
        Sha256 = "sha256",
        /// RFC 6962's SHA-256(0x01 || left || right), shape promote (Certificate Transparency).
        Rfc6962 = "rfc6962",
        /// Keccak-256 of the two children, Ethereum's `keccak256` (padding byte 0x01).
        Keccak256 = "keccak256",
        /// SHA3-256 (FIPS 202) of the two children.
        Sha3_256 = "sha3-256",
        /// Plonky3's Poseidon2 2-to-1 compression over BabyBear (width 16): leaves of eight
        /// canonical elements, 4 bytes each, little-endian; binary trees of such leaves only.
        Poseidon2BabyBear = "poseidon2-babybear",
        /// Plonky3's Poseidon2 2-to-1 compression over KoalaBear (width 16), leaves as BabyBear's.
        Poseidon2KoalaBear = "poseidon2-koalabear",
        /// Plonky3's Poseidon2 2-to-1 compression over Goldilocks (width 8): leaves of four
        /// canonical elements, 8 bytes each, little-endian.
        Poseidon2Goldilocks = "poseidon2-goldilocks",
        /// HorizenLabs' Poseidon2 over BN254's scalar field (width 3): each leaf one canonical
        /// element, 32 bytes little-endian.
        Poseidon2Bn254 = "poseidon2-bn254",
    }
}

named! {
    /// What a level of odd length does.
    Shape, "shape" {
        /// A lone last node moves up unchanged (the default).
        Promote = "promote",
        /// The leaves are padded with zero leaves to a full tree (SSZ).
        Zero = "zero",
    }
}

named! {
    /// The hash of data blocks into leaves ([`crate::TreeConfig::leaf_size`]).
    LeafHash, "leaf hash" {
        /// SHA-256 of the block (after the salt).
        Sha256 = "sha256",
        /// BLAKE3 of the block (after the salt).
        Blake3 = "blake3",
        /// Keccak-256 of the block (no salt).
        Keccak256 = "keccak256",
        /// SHA3-256 of the block (no salt).
        Sha3_256 = "sha3-256",
    }
}

named! {
    /// How the entries of a log are cut from its bytes ([`crate::Device::log_leaves`]).
    Framing, "framing" {
        /// Each line an entry, without its newline.
        Lines = "lines",
        /// Each entry after its length, 4 bytes big-endian.
        LengthPrefixed = "length-prefixed",
    }
}

fn names(list: *const std::os::raw::c_char) -> Vec<String> {
    // SAFETY: the name lists are NUL-terminated constants of the library.
    let text = unsafe { copied(list) };
    text.split(',')
        .map(|name| name.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

/// The node hashes the loaded libmerklize accepts (`merklize_hash_names`).
pub fn hash_names() -> Vec<String> {
    // SAFETY: no arguments; returns a constant.
    names(unsafe { sys::merklize_hash_names() })
}

/// The shapes the loaded libmerklize accepts (`merklize_shape_names`).
pub fn shape_names() -> Vec<String> {
    // SAFETY: no arguments; returns a constant.
    names(unsafe { sys::merklize_shape_names() })
}

/// The leaf hashes of data blocks the loaded libmerklize accepts (`merklize_leaf_hash_names`).
pub fn leaf_hash_names() -> Vec<String> {
    // SAFETY: no arguments; returns a constant.
    names(unsafe { sys::merklize_leaf_hash_names() })
}
