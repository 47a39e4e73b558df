// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Raw declarations of libmerklize's C ABI, `include/merklize.h`, written by hand and checked
//! against the header by this crate's tests (every function, parameter, constant and struct
//! member, and the structs' layout as the C compiler lays them out).
//!
//! Use the `merklize` crate for a safe API; this one is its foundation. The contract of each
//! function is the header's and docs/C_API.md's. In short: every function that can fail returns
//! a [`merklize_status`] and leaves its message in [`merklize_last_error`] for this thread;
//! handles are released by their `_free` function; configuration structs are set up by their
//! `_init` function before any member is set.
//!
//! C enums are declared as their integer type with one constant a value (as bindgen does), so
//! that a value this crate does not know, from a later libmerklize, is no undefined behaviour.
//!
//! The library is linked from `MERKLIZE_LIB_DIR` if set, else as `pkg-config --libs merklize`
//! says (build.rs).
#![allow(non_camel_case_types)]

/// Declares opaque C types: never made or moved in Rust, only pointed at.
macro_rules! opaque {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
            _marker: std::marker::PhantomData<(*mut u8, std::marker::PhantomPinned)>,
        }
    )*};
}

mod commitments;
mod device_trees;
mod devices;
mod errors;
mod formats;
mod hashing;
mod many;
mod mmcs;
mod proofs;
mod sources;
mod sparse;
mod trees;

pub use commitments::*;
pub use device_trees::*;
pub use devices::*;
pub use errors::*;
pub use formats::*;
pub use hashing::*;
pub use many::*;
pub use mmcs::*;
pub use proofs::*;
pub use sources::*;
pub use sparse::*;
pub use trees::*;
