// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`Error`]: a [`Status`] and the library's message.

use std::ffi::CStr;
use std::fmt;

use merklize_sys as sys;

/// What kind of failure an [`Error`] is: libmerklize's `merklize_status`, and
/// [`Status::InvalidProof`] for a proof that does not verify.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// A bad argument: an unknown name, a configuration the tree does not allow, an index out
    /// of range, a length that does not fit (`MERKLIZE_ERROR_ARGUMENT`).
    Argument,
    /// No OpenCL device installed, or none matches the spec (`MERKLIZE_ERROR_NO_DEVICE`).
    NoDevice,
    /// An OpenCL call failed; the message names the call and code (`MERKLIZE_ERROR_OPENCL`).
    OpenCl,
    /// A file could not be opened or read, or changed while read (`MERKLIZE_ERROR_IO`).
    Io,
    /// An encoded proof could not be decoded (`MERKLIZE_ERROR_DECODE`).
    Decode,
    /// Host memory ran out (`MERKLIZE_ERROR_NO_MEMORY`).
    NoMemory,
    /// A bug of libmerklize: please report the message (`MERKLIZE_ERROR_INTERNAL`).
    Internal,
    /// A device tree that an earlier failed call left unusable, every later call refused: free
    /// it and build it again (`MERKLIZE_ERROR_UNUSABLE`).
    Unusable,
    /// The proof was read and checked and does not prove its claim: the message says why. Not
    /// a status of the C ABI, where this is a call that succeeds with `*valid == 0`.
    InvalidProof,
    /// A status this crate does not know (from a later libmerklize), by its number.
    Other(i32),
}

impl Status {
    pub(crate) fn from_code(code: sys::merklize_status) -> Status {
        match code {
            sys::MERKLIZE_ERROR_ARGUMENT => Status::Argument,
            sys::MERKLIZE_ERROR_NO_DEVICE => Status::NoDevice,
            sys::MERKLIZE_ERROR_OPENCL => Status::OpenCl,
            sys::MERKLIZE_ERROR_IO => Status::Io,
            sys::MERKLIZE_ERROR_DECODE => Status::Decode,
            sys::MERKLIZE_ERROR_NO_MEMORY => Status::NoMemory,
            sys::MERKLIZE_ERROR_INTERNAL => Status::Internal,
            sys::MERKLIZE_ERROR_UNUSABLE => Status::Unusable,
            other => Status::Other(other),
        }
    }

    /// The C ABI's number for this status; None for [`Status::InvalidProof`].
    pub fn code(self) -> Option<i32> {
        Some(match self {
            Status::Argument => sys::MERKLIZE_ERROR_ARGUMENT,
            Status::NoDevice => sys::MERKLIZE_ERROR_NO_DEVICE,
            Status::OpenCl => sys::MERKLIZE_ERROR_OPENCL,
            Status::Io => sys::MERKLIZE_ERROR_IO,
            Status::Decode => sys::MERKLIZE_ERROR_DECODE,
            Status::NoMemory => sys::MERKLIZE_ERROR_NO_MEMORY,
            Status::Internal => sys::MERKLIZE_ERROR_INTERNAL,
            Status::Unusable => sys::MERKLIZE_ERROR_UNUSABLE,
            Status::InvalidProof => return None,
            Status::Other(code) => code,
        })
    }

    /// The C ABI's name of the status, as `merklize_status_name` gives it
    /// ("MERKLIZE_ERROR_ARGUMENT", ...; "unknown status" for other numbers), or "invalid proof".
    pub fn name(self) -> String {
        match self.code() {
            // SAFETY: merklize_status_name returns a NUL-terminated constant for any value.
            Some(code) => unsafe { copied(sys::merklize_status_name(code)) },
            None => "invalid proof".to_string(),
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A failure of libmerklize, or of a check this crate makes before calling it: its [`Status`]
/// and a message naming the input and the reason. `Display` shows the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    status: Status,
    message: String,
}

/// `std::result::Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn argument(message: impl Into<String>) -> Error {
        Error::new(Status::Argument, message)
    }

    /// The failure that libmerklize reported for this thread's last call.
    pub(crate) fn last(status: Status) -> Error {
        // SAFETY: merklize_last_error returns a NUL-terminated string, valid until the next
        // failing call on this thread; it is copied at once.
        let message = unsafe { copied(sys::merklize_last_error()) };
        Error::new(status, message)
    }

    /// What kind of failure this is.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The message: the input and the reason, in libmerklize's words.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.status)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Ok for `MERKLIZE_OK`, else the error with this thread's message.
pub(crate) fn check(code: sys::merklize_status) -> Result<()> {
    if code == sys::MERKLIZE_OK {
        Ok(())
    } else {
        Err(Error::last(Status::from_code(code)))
    }
}

/// A copy of a NUL-terminated string from the library ("" for NULL).
///
/// # Safety
/// `text` is NULL or points at a NUL-terminated string that stays valid during the call.
pub(crate) unsafe fn copied(text: *const std::os::raw::c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    CStr::from_ptr(text).to_string_lossy().into_owned()
}
