// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Inputs: host memory, a file by path, or an open file descriptor.

use std::os::raw::{c_char, c_int, c_void};
use std::ptr;

/// `enum merklize_source_kind`.
pub type merklize_source_kind = c_int;
pub const MERKLIZE_SOURCE_MEMORY: merklize_source_kind = 0;
pub const MERKLIZE_SOURCE_PATH: merklize_source_kind = 1;
pub const MERKLIZE_SOURCE_FD: merklize_source_kind = 2;

/// `struct merklize_source`: where an input comes from (the header's `static inline`
/// constructors are the functions below, of the same names).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct merklize_source {
    pub kind: merklize_source_kind,
    pub data: *const c_void,
    pub size: u64,
    pub path: *const c_char,
    pub fd: c_int,
}

/// The header's `merklize_source_memory`: `size` bytes at `data`.
pub fn merklize_source_memory(data: *const c_void, size: u64) -> merklize_source {
    merklize_source {
        kind: MERKLIZE_SOURCE_MEMORY,
        data,
        size,
        path: ptr::null(),
        fd: -1,
    }
}

/// The header's `merklize_source_path`: the file at the NUL-terminated `path`.
pub fn merklize_source_path(path: *const c_char) -> merklize_source {
    merklize_source {
        kind: MERKLIZE_SOURCE_PATH,
        path,
        ..merklize_source_memory(ptr::null(), 0)
    }
}

/// The header's `merklize_source_fd`: an open file descriptor, read from its position.
pub fn merklize_source_fd(fd: c_int) -> merklize_source {
    merklize_source {
        kind: MERKLIZE_SOURCE_FD,
        fd,
        ..merklize_source_memory(ptr::null(), 0)
    }
}
