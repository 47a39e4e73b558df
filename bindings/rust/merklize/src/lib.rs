// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Merkle trees, proofs and BLAKE3 on OpenCL devices (GPUs, and CPUs through PoCL): the safe
//! Rust API of libmerklize, the C library of merklize.
//!
//! Open a [`Device`], bind a [`TreeConfig`] to it in a [`Builder`], and build from a
//! [`Source`]: bytes in memory, a file (streamed), or a file descriptor. A [`Tree`] gives its
//! root and levels (borrowed, no copy) and [`Proof`]s, which encode to JSON or bytes and verify
//! on the host. Every call returns a [`Result`] whose [`Error`] carries a [`Status`] and the
//! library's message.
//!
//! The root and an inclusion proof of a file of 32-byte leaves (as `merklize root FILE` and
//! `merklize proof -i 2 FILE` print them):
//!
//! ```no_run
//! use merklize::{hex, Builder, Device, Hash, Source, TreeConfig};
//!
//! fn main() -> Result<(), merklize::Error> {
//!     let device = Device::open_default()?; // $MERKLIZE_DEVICE, else the first GPU, else any
//!     let builder = Builder::new(&device, &TreeConfig::new().hash(Hash::Sha256))?;
//!
//!     let root = builder.root_file("leaves.bin")?; // streamed: any size
//!     println!("{}", hex::encode(&root));
//!
//!     let proof = builder.prove(Source::path("leaves.bin"), 2)?;
//!     println!("{}", proof.to_json()?);
//!
//!     // Anyone holding leaf 2 and the root checks the proof, with no device.
//!     let leaf = [0u8; 32]; // leaf 2's 32 bytes, as read from the file
//!     match proof.verify(&[leaf], &root) {
//!         Ok(()) => println!("leaf 2 is in the tree"),
//!         Err(e) => println!("not proven: {}", e), // "invalid proof: ..."
//!     }
//!     Ok(())
//! }
//! ```
//!
//! A tree in memory, its levels read in place, and a proof's round trip through JSON (this one
//! runs with the tests, on the default device):
//!
//! ```
//! use merklize::{Builder, Device, Proof, Source, TreeConfig};
//!
//! # fn main() -> Result<(), merklize::Error> {
//! let leaves: Vec<[u8; 32]> = (0..1000u32).map(|i| [i as u8; 32]).collect();
//! let device = Device::open_default()?;
//! let tree = Builder::new(&device, &TreeConfig::new())?.build(Source::leaves(&leaves))?;
//! assert_eq!(tree.level(0)?, &leaves[..]);
//! assert_eq!(tree.level(tree.depth())?, &[tree.root()]);
//! let proof = Proof::from_json(&tree.prove(7)?.to_json()?)?;
//! proof.verify(&[leaves[7]], &tree.root())?;
//! # Ok(())
//! # }
//! ```
//!
//! Linking: merklize-sys links libmerklize from `MERKLIZE_LIB_DIR`, else where
//! `pkg-config --libs merklize` says; see the crate's README.
//!
//! Threads: [`Device`] and [`Builder`] are `Send` and `Sync` (libmerklize serialises their
//! calls); [`Tree`], [`Proof`] and [`Bytes`] are read-only, `Send` and `Sync`; a [`DeviceTree`]
//! (a tree kept on the device, updated in place) is `Send` and `Sync`, its updates `&mut self`.

mod builder;
mod bytes;
mod cl;
mod commitments;
mod config;
mod device;
mod device_tree;
mod error;
mod formats;
mod handle;
mod hashing;
pub mod hex;
mod many;
mod mmcs;
mod names;
mod pins;
mod proof;
pub mod rs_merkle;
mod source;
mod sparse;
mod tree;

pub use builder::Builder;
pub use bytes::Bytes;
pub use cl::{output_node_count, ClContext, ClDeviceId, ClEvent, ClMem};
pub use commitments::filecoin_piece_cid;
pub use config::{Keep, TreeConfig};
pub use device::{devices, Device, DeviceInfo};
pub use device_tree::DeviceTree;
pub use error::{Error, Result, Status};
pub use formats::VerityConfig;
pub use hashing::{Blake3Hasher, Blake3Mode};
pub use mmcs::{verify_matrix_opening, Element, Matrix, MatrixShape, Mmcs, MmcsOpening};
pub use names::{hash_names, leaf_hash_names, shape_names, Framing, Hash, LeafHash, Shape};
pub use pins::Expectations;
pub use proof::{Proof, ProofKind};
pub use source::Source;
pub use sparse::{SparseProof, SparseTree};
pub use tree::Tree;

/// The sys crate, for what this one does not wrap.
pub use merklize_sys as sys;

/// The loaded libmerklize's version, "MAJOR.MINOR.PATCH".
pub fn version() -> String {
    // SAFETY: returns a NUL-terminated constant.
    unsafe { error::copied(sys::merklize_version()) }
}

/// The ABI the loaded libmerklize implements (`sys::MERKLIZE_ABI_VERSION` is the one this crate
/// was written for).
pub fn abi_version() -> u32 {
    // SAFETY: no arguments.
    unsafe { sys::merklize_abi_version() }
}
