// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`Source`]: where an input comes from.

use std::ffi::CString;
#[cfg(unix)]
use std::fs::File;
use std::marker::PhantomData;
use std::path::Path;

#[cfg(unix)]
use std::os::unix::io::{AsFd, AsRawFd, BorrowedFd};

use crate::error::{Error, Result};
use crate::handle::digest_bytes;
use merklize_sys as sys;

/// Where an input comes from: bytes in memory, a file by path, or an open file descriptor.
///
/// Files and descriptors are streamed: a root or a proof of a file holds a few pieces of it in
/// memory, whatever its size. A descriptor is read from its current position to its end (a
/// pipe works) and is not closed.
///
/// For a tree of 32-byte leaves the input is the leaves back to back ([`Source::leaves`]); with
/// [`crate::TreeConfig::leaf_size`] it is data, cut into blocks.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Bytes in memory.
    Memory(&'a [u8]),
    /// The file at a path.
    Path(&'a Path),
    /// An open file descriptor, read from its position.
    #[cfg(unix)]
    Fd(BorrowedFd<'a>),
}

impl<'a> Source<'a> {
    /// Leaves in memory: their bytes, back to back, without a copy.
    pub fn leaves(leaves: &'a [[u8; 32]]) -> Source<'a> {
        Source::Memory(digest_bytes(leaves))
    }

    /// The file at `path`.
    pub fn path<P: AsRef<Path> + ?Sized>(path: &'a P) -> Source<'a> {
        Source::Path(path.as_ref())
    }

    /// An open file, a pipe or a socket, read from its position.
    #[cfg(unix)]
    pub fn fd<F: AsFd>(fd: &'a F) -> Source<'a> {
        Source::Fd(fd.as_fd())
    }

    /// The C struct of this source, and the path string it points into.
    pub(crate) fn to_c(self) -> Result<CSource<'a>> {
        let (raw, path) = match self {
            Source::Memory(bytes) => (
                sys::merklize_source_memory(bytes.as_ptr().cast(), bytes.len() as u64),
                None,
            ),
            Source::Path(path) => {
                let c = path_string(path)?;
                (sys::merklize_source_path(c.as_ptr()), Some(c))
            }
            #[cfg(unix)]
            Source::Fd(fd) => (sys::merklize_source_fd(fd.as_raw_fd()), None),
        };
        Ok(CSource {
            raw,
            _path: path,
            _borrow: PhantomData,
        })
    }
}

impl<'a> From<&'a [u8]> for Source<'a> {
    fn from(bytes: &'a [u8]) -> Source<'a> {
        Source::Memory(bytes)
    }
}

impl<'a> From<&'a Vec<u8>> for Source<'a> {
    fn from(bytes: &'a Vec<u8>) -> Source<'a> {
        Source::Memory(bytes)
    }
}

impl<'a> From<&'a [[u8; 32]]> for Source<'a> {
    fn from(leaves: &'a [[u8; 32]]) -> Source<'a> {
        Source::leaves(leaves)
    }
}

impl<'a> From<&'a Path> for Source<'a> {
    fn from(path: &'a Path) -> Source<'a> {
        Source::Path(path)
    }
}

#[cfg(unix)]
impl<'a> From<&'a File> for Source<'a> {
    fn from(file: &'a File) -> Source<'a> {
        Source::Fd(file.as_fd())
    }
}

/// A `merklize_source` and the path string it points into; it borrows the source's memory or
/// descriptor for `'a`.
pub(crate) struct CSource<'a> {
    pub(crate) raw: sys::merklize_source,
    _path: Option<CString>,
    _borrow: PhantomData<Source<'a>>,
}

#[cfg(unix)]
fn path_string(path: &Path) -> Result<CString> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(path.as_os_str().as_bytes()).map_err(|_| nul_in(path))
}

#[cfg(not(unix))]
fn path_string(path: &Path) -> Result<CString> {
    let text = path.to_str().ok_or_else(|| {
        Error::argument(format!("the path {} is not valid Unicode", path.display()))
    })?;
    CString::new(text).map_err(|_| nul_in(path))
}

fn nul_in(path: &Path) -> Error {
    Error::argument(format!("the path {:?} holds a NUL byte", path))
}
