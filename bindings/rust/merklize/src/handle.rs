// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Helpers of the wrappers: handles written through out-pointers, C strings, and slices of the
//! library's memory.

use std::ffi::CString;
use std::ptr::{self, NonNull};

use crate::error::{check, Error, Result};
use merklize_sys as sys;

/// Calls `create` with an out-pointer and returns the handle it wrote, or its error.
pub(crate) fn created<T>(
    create: impl FnOnce(*mut *mut T) -> sys::merklize_status,
) -> Result<NonNull<T>> {
    let mut out: *mut T = ptr::null_mut();
    check(create(&mut out))?;
    NonNull::new(out).ok_or_else(|| {
        Error::new(
            crate::Status::Internal,
            "libmerklize reported success and gave no handle",
        )
    })
}

/// `text` as a C string; `what` names it in the error if it holds a NUL byte.
pub(crate) fn c_string(what: &str, text: &str) -> Result<CString> {
    CString::new(text).map_err(|e| {
        Error::argument(format!(
            "{} holds a NUL byte at byte {}: {:?}",
            what,
            e.nul_position(),
            text
        ))
    })
}

/// `count` digests at `nodes`, in memory the caller keeps alive for `'a`.
///
/// # Safety
/// `nodes` points at `count` × 32 readable bytes, unchanged for `'a`, or `count` is 0.
pub(crate) unsafe fn digests<'a>(nodes: *const u8, count: usize) -> &'a [[u8; 32]] {
    if count == 0 || nodes.is_null() {
        return &[];
    }
    // [u8; 32] has the alignment of u8, so any byte pointer is aligned for it.
    std::slice::from_raw_parts(nodes.cast::<[u8; 32]>(), count)
}

/// The bytes of digests, back to back.
pub(crate) fn digest_bytes(digests: &[[u8; 32]]) -> &[u8] {
    // SAFETY: [[u8; 32]] is laid out as its bytes back to back, with no padding.
    unsafe { std::slice::from_raw_parts(digests.as_ptr().cast::<u8>(), digests.len() * 32) }
}

/// A length of the library's memory as usize (a 32-bit target could not hold it).
pub(crate) fn length(count: u64, what: &str) -> Result<usize> {
    usize::try_from(count).map_err(|_| {
        Error::argument(format!(
            "{} of {} do not fit this target's memory",
            count, what
        ))
    })
}
