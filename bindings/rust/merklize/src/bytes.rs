// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`Bytes`]: a run of bytes libmerklize made, read in place.

use std::fmt;
use std::ops::Deref;
use std::ptr::NonNull;

use crate::error::Result;
use crate::handle::created;
use merklize_sys as sys;

/// Bytes the library made (a dm-verity hash tree, an fs-verity tree, a Bao outboard), held in
/// the library's memory and read as a `[u8]` without a copy; read-only, so `Send` and `Sync`.
pub struct Bytes {
    raw: NonNull<sys::merklize_bytes>,
}

// SAFETY: merklize.h: byte buffers are read-only after creation and can be read concurrently.
unsafe impl Send for Bytes {}
unsafe impl Sync for Bytes {}

impl Bytes {
    /// Calls `make` with an out-pointer and takes the bytes it wrote.
    pub(crate) fn made(
        make: impl FnOnce(*mut *mut sys::merklize_bytes) -> sys::merklize_status,
    ) -> Result<Bytes> {
        created(make).map(|raw| Bytes { raw })
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: a live handle: size bytes at data, unchanged while self lives.
        unsafe {
            let data = sys::merklize_bytes_data(self.raw.as_ptr());
            let size = sys::merklize_bytes_size(self.raw.as_ptr());
            if data.is_null() || size == 0 {
                return &[];
            }
            std::slice::from_raw_parts(data, size)
        }
    }
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by this value and freed once.
        unsafe { sys::merklize_bytes_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bytes({} bytes)", self.len())
    }
}
