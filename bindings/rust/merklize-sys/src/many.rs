// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Many small trees at once: the roots of consecutive trees of `tree_size` leaves.

use std::os::raw::c_void;

use crate::{merklize_builder, merklize_status};

extern "C" {
    pub fn merklize_roots_many(
        builder: *mut merklize_builder,
        leaves: *const c_void,
        leaves_size: u64,
        tree_size: u64,
        roots: *mut u8,
        roots_size: u64,
    ) -> merklize_status;
}
