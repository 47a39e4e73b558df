// SPDX-License-Identifier: Apache-2.0 OR MIT
//! [`Mmcs`]: Plonky3's MerkleTreeMmcs, a commitment to the rows of matrices of field elements
//! made on a device, its openings, and [`verify_matrix_opening`], their check on the host.

use std::fmt;
use std::marker::PhantomData;
use std::os::raw::c_int;
use std::ptr::{self, NonNull};

use crate::bytes::Bytes;
use crate::device::Device;
use crate::error::{check, Error, Result};
use crate::handle::{c_string, created, digest_bytes};
use crate::names::Hash;
use crate::proof::verdict;
use merklize_sys as sys;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The elements of a matrix commitment's field: `u32` for [`Hash::Poseidon2BabyBear`] and
/// [`Hash::Poseidon2KoalaBear`], `u64` for [`Hash::Poseidon2Goldilocks`].
pub trait Element: sealed::Sealed + Copy + Default + fmt::Debug + PartialEq {
    /// The element's bytes.
    const SIZE: usize;
    /// The element of `SIZE` little-endian bytes.
    fn from_le(bytes: &[u8]) -> Self;
}

impl Element for u32 {
    const SIZE: usize = 4;
    fn from_le(bytes: &[u8]) -> u32 {
        u32::from_le_bytes(bytes.try_into().expect("4 bytes"))
    }
}

impl Element for u64 {
    const SIZE: usize = 8;
    fn from_le(bytes: &[u8]) -> u64 {
        u64::from_le_bytes(bytes.try_into().expect("8 bytes"))
    }
}

/// A row-major matrix: `height` rows of `width` canonical field elements in `elements`.
#[derive(Clone, Copy, Debug)]
pub struct Matrix<'a, E: Element> {
    /// The `height` × `width` elements, row after row.
    pub elements: &'a [E],
    /// The number of rows.
    pub height: u64,
    /// The elements of a row.
    pub width: u64,
}

/// A matrix's dimensions, all a verifier knows of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatrixShape {
    /// The number of rows.
    pub height: u64,
    /// The elements of a row.
    pub width: u64,
}

/// The opening of row `index`: each matrix's opened row (row `index >> k` of a matrix entering
/// `k` layers up) and the siblings from the leaves' layer up to the cap's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmcsOpening<E: Element> {
    /// The opened row index.
    pub index: u64,
    /// Each matrix's opened row, in the matrices' order.
    pub rows: Vec<Vec<E>>,
    /// The siblings, bottom up.
    pub path: Vec<[u8; 32]>,
}

/// A commitment of Plonky3's MerkleTreeMmcs to the rows of matrices, bit for bit Plonky3's
/// (docs/LIBRARY.md, "Matrix commitments"). It keeps a copy of the matrices and every digest
/// layer on the host, so it opens rows without a device and outlives it; read-only, so `Send`
/// and `Sync`.
pub struct Mmcs<E: Element> {
    raw: NonNull<sys::merklize_mmcs>,
    hash: Hash,
    cap_height: u32,
    shapes: Vec<MatrixShape>,
    element: PhantomData<E>,
}

// SAFETY: merklize.h: a commitment is read-only once made and can be read concurrently.
unsafe impl<E: Element> Send for Mmcs<E> {}
unsafe impl<E: Element> Sync for Mmcs<E> {}

/// Refuses a hash with no matrix commitment, or whose elements are not `E`.
fn check_element<E: Element>(hash: Hash) -> Result<()> {
    let name = c_string("hash", hash.as_str())?;
    let mut size = 0usize;
    // SAFETY: a NUL-terminated name and an out-pointer.
    check(unsafe { sys::merklize_mmcs_element_size(name.as_ptr(), &mut size) })?;
    if size != E::SIZE {
        return Err(Error::argument(format!(
            "{}'s elements are {} bytes, not the {} of {}",
            hash.as_str(),
            size,
            E::SIZE,
            std::any::type_name::<E>()
        )));
    }
    Ok(())
}

impl<E: Element> Mmcs<E> {
    /// The commitment to `matrices` with `hash` and a cap of up to 2^`cap_height` digests (0:
    /// the root), computed on `device`; the matrices are copied. Refused, with
    /// [`crate::Status::Argument`] naming the matrix and the reason: no matrix, every height 0,
    /// a height Plonky3 refuses beside the tallest (7 beside 8), an element at or above p, a
    /// matrix whose elements are not `height` × `width`, another hash.
    pub fn commit(
        device: &Device,
        hash: Hash,
        matrices: &[Matrix<'_, E>],
        cap_height: u32,
    ) -> Result<Mmcs<E>> {
        Self::commit_dropping(device, hash, matrices, cap_height, 0)
    }

    /// [`Mmcs::commit`] keeping the digest layers from `drop_layers` up only (about
    /// 2^-`drop_layers` of them): openings recompute the siblings below from the matrices and
    /// are the same. `drop_layers` above the cap's layer (the length of an opening's path) is
    /// refused.
    pub fn commit_dropping(
        device: &Device,
        hash: Hash,
        matrices: &[Matrix<'_, E>],
        cap_height: u32,
        drop_layers: u32,
    ) -> Result<Mmcs<E>> {
        check_element::<E>(hash)?;
        let mut list = Vec::with_capacity(matrices.len());
        for (m, x) in matrices.iter().enumerate() {
            if x.height.checked_mul(x.width) != Some(x.elements.len() as u64) {
                return Err(Error::argument(format!(
                    "Mmcs::commit: matrix {} holds {} elements, not its {} x {}",
                    m,
                    x.elements.len(),
                    x.height,
                    x.width
                )));
            }
            list.push(sys::merklize_matrix {
                data: x.elements.as_ptr().cast(),
                height: x.height,
                width: x.width,
            });
        }
        let name = c_string("hash", hash.as_str())?;
        // SAFETY: a live device, a NUL-terminated name, matrices.len() matrices whose elements
        // are read during the call, and an out-pointer.
        let raw = created(|out| unsafe {
            sys::merklize_mmcs_commit_dropping(
                device.as_ptr(),
                name.as_ptr(),
                list.as_ptr(),
                list.len(),
                cap_height,
                drop_layers,
                out,
            )
        })?;
        let shapes = matrices
            .iter()
            .map(|x| MatrixShape {
                height: x.height,
                width: x.width,
            })
            .collect();
        Ok(Mmcs {
            raw,
            hash,
            cap_height,
            shapes,
            element: PhantomData,
        })
    }

    /// The hash, cap height and matrices' shapes of the commitment.
    pub fn hash(&self) -> Hash {
        self.hash
    }
    /// See [`Mmcs::hash`].
    pub fn cap_height(&self) -> u32 {
        self.cap_height
    }
    /// See [`Mmcs::hash`].
    pub fn shapes(&self) -> &[MatrixShape] {
        &self.shapes
    }

    /// The tallest matrix's height: the rows that open.
    pub fn height(&self) -> u64 {
        // SAFETY: a live commitment.
        unsafe { sys::merklize_mmcs_height(self.raw.as_ptr()) }
    }

    /// The commitment: up to 2^cap_height digests (the root alone at cap height 0).
    pub fn cap(&self) -> Result<Vec<[u8; 32]>> {
        // SAFETY: a live commitment.
        let count = unsafe { sys::merklize_mmcs_cap_count(self.raw.as_ptr()) } as usize;
        let mut cap = vec![[0u8; 32]; count];
        // SAFETY: cap has room for count digests.
        check(unsafe {
            sys::merklize_mmcs_cap(self.raw.as_ptr(), cap.as_mut_ptr().cast(), 32 * count)
        })?;
        Ok(cap)
    }

    /// The openings of rows `indices`, in their order; an index at or past
    /// [`Mmcs::height`] is [`crate::Status::Argument`] and opens nothing.
    pub fn open(&self, indices: &[u64]) -> Result<Vec<MmcsOpening<E>>> {
        let mut paths_raw: *mut sys::merklize_bytes = ptr::null_mut();
        // SAFETY: a live commitment, indices.len() indices and two out-pointers.
        let rows = Bytes::made(|out| unsafe {
            sys::merklize_mmcs_open(
                self.raw.as_ptr(),
                indices.as_ptr(),
                indices.len() as u64,
                out,
                &mut paths_raw,
            )
        })?;
        let paths = Bytes::made(|out| {
            // SAFETY: out is Bytes::made's out-pointer; paths_raw the library's, owned here.
            unsafe { *out = paths_raw };
            sys::MERKLIZE_OK
        })?;
        // SAFETY: a live commitment.
        let length = unsafe { sys::merklize_mmcs_path_length(self.raw.as_ptr()) } as usize;
        let mut row_bytes = rows.chunks_exact(E::SIZE);
        let mut path_bytes = paths.chunks_exact(32);
        let mut opening = |index: u64| MmcsOpening {
            index,
            rows: self
                .shapes
                .iter()
                .map(|s| {
                    (0..s.width)
                        .map(|_| E::from_le(row_bytes.next().expect("an element")))
                        .collect()
                })
                .collect(),
            path: (0..length)
                .map(|_| {
                    path_bytes
                        .next()
                        .expect("a sibling")
                        .try_into()
                        .expect("32")
                })
                .collect(),
        };
        Ok(indices.iter().map(|&i| opening(i)).collect())
    }

    /// [`verify_matrix_opening`] against this commitment's cap and shapes.
    pub fn verify(&self, opening: &MmcsOpening<E>) -> Result<()> {
        verify_matrix_opening(
            self.hash,
            self.cap_height,
            &self.cap()?,
            &self.shapes,
            opening,
        )
    }
}

/// Checks on the host (no device), as Plonky3's verify_batch, that `opening` opens its row of
/// the commitment with `cap` and `cap_height` to matrices of `shapes` with `hash`: `Ok(())`
/// where it does, else [`crate::Status::InvalidProof`] with the reason (its rows, path, index,
/// the shapes). A hash with no matrix commitment, or whose elements are not `E`, is
/// [`crate::Status::Argument`].
pub fn verify_matrix_opening<E: Element>(
    hash: Hash,
    cap_height: u32,
    cap: &[[u8; 32]],
    shapes: &[MatrixShape],
    opening: &MmcsOpening<E>,
) -> Result<()> {
    check_element::<E>(hash)?;
    let name = c_string("hash", hash.as_str())?;
    let widths_match = opening.rows.len() == shapes.len()
        && opening
            .rows
            .iter()
            .zip(shapes)
            .all(|(r, s)| r.len() as u64 == s.width);
    if !widths_match {
        return Err(Error::new(
            crate::Status::InvalidProof,
            format!(
                "invalid opening of row {}: its rows are not as wide as the matrices",
                opening.index
            ),
        ));
    }
    let joined: Vec<E> = opening.rows.concat();
    let c_shapes: Vec<sys::merklize_matrix_shape> = shapes
        .iter()
        .map(|s| sys::merklize_matrix_shape {
            height: s.height,
            width: s.width,
        })
        .collect();
    let path = digest_bytes(&opening.path);
    let mut valid: c_int = 0;
    // SAFETY: a NUL-terminated name; cap.len() digests, shapes.len() shapes, joined.len()
    // elements and path.len() bytes, read during the call.
    let status = unsafe {
        sys::merklize_mmcs_verify(
            name.as_ptr(),
            cap_height,
            digest_bytes(cap).as_ptr(),
            cap.len() as u64,
            c_shapes.as_ptr(),
            c_shapes.len(),
            opening.index,
            joined.as_ptr().cast(),
            joined.len() * E::SIZE,
            path.as_ptr(),
            path.len(),
            &mut valid,
        )
    };
    verdict(status, valid)
}

impl<E: Element> Drop for Mmcs<E> {
    fn drop(&mut self) {
        // SAFETY: the commitment is owned here and freed once.
        unsafe { sys::merklize_mmcs_free(self.raw.as_ptr()) }
    }
}

impl<E: Element> fmt::Debug for Mmcs<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mmcs")
            .field("hash", &self.hash)
            .field("cap_height", &self.cap_height)
            .field("shapes", &self.shapes)
            .finish()
    }
}
