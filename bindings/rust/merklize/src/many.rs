// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Many small trees at once: [`Builder::roots_many`].

use crate::error::{check, Result};
use crate::handle::digest_bytes;
use crate::Builder;
use merklize_sys as sys;

impl Builder {
    /// The roots of many trees of `tree_size` leaves each, built at once on the device (a
    /// launch a level over all of them): `leaves` holds B * `tree_size` leaves, tree k being the
    /// builder's tree of leaves `[k * tree_size, (k + 1) * tree_size)`, its root bit for bit
    /// [`Builder::root`]'s of those leaves. The builder's trees must be binary trees of 32-byte
    /// leaves (no arity, leaf size or mixed-in length). A number of leaves that is no whole
    /// number of trees is an [`crate::Error`] of [`crate::Status::Argument`] saying what is
    /// left over.
    ///
    /// ```
    /// use merklize::{Builder, Device, Hash, Source, TreeConfig};
    ///
    /// # fn main() -> Result<(), merklize::Error> {
    /// let leaves: Vec<[u8; 32]> = (0..4 * 256u32).map(|i| [i as u8; 32]).collect();
    /// let builder = Builder::new(&Device::open_default()?, &TreeConfig::new().hash(Hash::Sha256))?;
    /// let roots = builder.roots_many(&leaves, 256)?; // 4 trees of 256 leaves
    /// assert_eq!(roots[3], builder.root(Source::leaves(&leaves[768..]))?);
    /// # Ok(())
    /// # }
    /// ```
    pub fn roots_many(&self, leaves: &[[u8; 32]], tree_size: u64) -> Result<Vec<[u8; 32]>> {
        self.roots_many_of_bytes(digest_bytes(leaves), tree_size)
    }

    /// The same over the leaves' bytes, back to back (a length the library checks: a multiple
    /// of 32 * `tree_size`).
    pub fn roots_many_of_bytes(&self, leaves: &[u8], tree_size: u64) -> Result<Vec<[u8; 32]>> {
        let trees = if tree_size == 0 {
            0
        } else {
            leaves.len() as u64 / 32 / tree_size
        };
        let mut roots = vec![[0u8; 32]; trees as usize];
        let mut none = 0u8; // where a refused call, which writes nothing, may point
        let out = if roots.is_empty() {
            &mut none as *mut u8
        } else {
            roots.as_mut_ptr().cast::<u8>()
        };
        // SAFETY: the builder is alive; `leaves` is read for leaves.len() bytes and `out` has
        // room for roots.len() * 32 bytes, as the call is told.
        check(unsafe {
            sys::merklize_roots_many(
                self.raw.as_ptr(),
                leaves.as_ptr().cast(),
                leaves.len() as u64,
                tree_size,
                out,
                roots.len() as u64 * 32,
            )
        })?;
        Ok(roots)
    }
}
