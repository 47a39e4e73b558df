// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`Builder`]: a tree configuration checked and bound to a device.

use std::fmt;
use std::path::Path;
use std::ptr::NonNull;

#[cfg(unix)]
use std::os::unix::io::AsFd;

use crate::config::TreeConfig;
use crate::device::Device;
use crate::error::{check, Result};
use crate::handle::created;
use crate::proof::Proof;
use crate::source::Source;
use crate::tree::Tree;
use merklize_sys as sys;

/// A tree configuration checked and bound to a device, with its compiled programs and memory
/// pools: build many trees with one builder.
///
/// A builder may be used from several threads at once (it is `Send` and `Sync`): libmerklize
/// serialises its calls. It keeps its device alive.
pub struct Builder {
    pub(crate) raw: NonNull<sys::merklize_builder>, // many.rs's roots_many calls with it too
    config: TreeConfig,
}

// SAFETY: merklize.h: a builder's calls are serialised; the handle is not tied to a thread.
unsafe impl Send for Builder {}
unsafe impl Sync for Builder {}

impl Builder {
    /// Checks `config` and binds it to `device`; a configuration the tree does not allow is
    /// [`crate::Status::Argument`], with the item named.
    pub fn new(device: &Device, config: &TreeConfig) -> Result<Builder> {
        let c = config.to_c()?;
        // SAFETY: a live device; c.raw is initialised and its pointers live during the call
        // (the builder copies what it needs).
        let raw =
            created(|out| unsafe { sys::merklize_builder_create(device.as_ptr(), &c.raw, out) })?;
        Ok(Builder {
            raw,
            config: config.clone(),
        })
    }

    /// The configuration this builder was made with.
    pub fn config(&self) -> &TreeConfig {
        &self.config
    }

    /// Builds the tree of a source, keeping the levels the configuration's
    /// [`crate::TreeConfig::keep`] asks for (from a file or descriptor with
    /// [`crate::Keep::RootOnly`] the input is streamed; with any other it is read whole).
    pub fn build(&self, source: Source<'_>) -> Result<Tree> {
        let source = source.to_c()?;
        // SAFETY: a live builder; the source's memory, path or descriptor live during the call.
        let raw =
            created(|out| unsafe { sys::merklize_build(self.raw.as_ptr(), &source.raw, out) })?;
        Tree::from_raw(raw)
    }

    /// The root alone, streamed from any source.
    pub fn root(&self, source: Source<'_>) -> Result<[u8; 32]> {
        let source = source.to_c()?;
        let mut root = [0u8; 32];
        // SAFETY: as in build; root has room for 32 bytes.
        check(unsafe { sys::merklize_root(self.raw.as_ptr(), &source.raw, root.as_mut_ptr()) })?;
        Ok(root)
    }

    /// The root of the file at `path`, streamed.
    pub fn root_file<P: AsRef<Path>>(&self, path: P) -> Result<[u8; 32]> {
        self.root(Source::Path(path.as_ref()))
    }

    /// The root of what an open file descriptor holds from its position, streamed.
    #[cfg(unix)]
    pub fn root_fd<F: AsFd>(&self, fd: F) -> Result<[u8; 32]> {
        self.root(Source::Fd(fd.as_fd()))
    }

    /// The inclusion proof of leaf `index` of a source, streamed (only the part of the tree
    /// that holds the leaf is kept), as `merklize proof` prints it.
    pub fn prove(&self, source: Source<'_>, index: u64) -> Result<Proof> {
        let source = source.to_c()?;
        // SAFETY: as in build.
        let raw = created(|out| unsafe {
            sys::merklize_prove_source(self.raw.as_ptr(), &source.raw, index, out)
        })?;
        Ok(Proof::from_raw(raw))
    }

    /// The C handle, for calls of merklize-sys. It stays owned by this `Builder`.
    pub fn as_ptr(&self) -> *mut sys::merklize_builder {
        self.raw.as_ptr()
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by this value and freed once.
        unsafe { sys::merklize_builder_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("config", &self.config)
            .finish()
    }
}
