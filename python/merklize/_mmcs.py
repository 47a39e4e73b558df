# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Plonky3's MerkleTreeMmcs: mmcs_commit (the commitment to the rows of matrices of field
elements, on the device), MmcsCommitment.open (rows and their proofs, on the host) and
mmcs_verify (on the host)."""
from __future__ import annotations

import operator
from typing import Any, Iterable, List, Sequence, Tuple

import numpy as np

from . import _args, _merklize
from ._devices import DeviceArg, resolve
from ._errors import InvalidProofError

#: The hashes with a matrix commitment, and the dtype of their elements (little-endian).
MMCS_HASHES = {"poseidon2-babybear": np.dtype("<u4"), "poseidon2-koalabear": np.dtype("<u4"),
               "poseidon2-goldilocks": np.dtype("<u8")}


def _dtype(hash: Any) -> np.dtype:
    """The elements' dtype of ``hash``; other hashes are refused by the library with the reason."""
    _merklize.mmcs_element_size(_args.name(hash, "hash"))  # ArgumentError: why it has none
    return MMCS_HASHES[hash]


def _matrix(array: Any, dtype: np.dtype, m: int) -> np.ndarray:
    """Matrix ``m`` as a C-contiguous 2-D array of ``dtype`` (copied only if not contiguous)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"matrices[{m}] must be a 2-D numpy array of {dtype.name}, not "
                        f"{type(array).__name__}")
    if array.ndim != 2:
        raise ValueError(f"matrices[{m}] has {array.ndim} dimensions, not 2 (rows, columns)")
    if array.dtype != dtype:
        raise TypeError(f"matrices[{m}] has dtype {array.dtype}: this hash's elements are "
                        f"{dtype} (canonical field elements, below p)")
    return np.ascontiguousarray(array)


class MmcsOpening:
    """The opening of row ``index``: ``rows``, each matrix's opened row (a read-only 1-D array
    of the elements' dtype; row ``index >> k`` of a matrix entering ``k`` layers up), and
    ``path``, the siblings from the leaves' layer up to the cap's (a list of 32-byte
    ``bytes``)."""

    __slots__ = ("index", "rows", "path")

    def __init__(self, index: int, rows: List[np.ndarray], path: List[bytes]) -> None:
        self.index, self.rows, self.path = index, rows, path

    def __repr__(self) -> str:
        return (f"<merklize.MmcsOpening of row {self.index}: {len(self.rows)} rows, "
                f"{len(self.path)} siblings>")


class MmcsCommitment:
    """A commitment made by :func:`mmcs_commit`: its ``cap`` (a list of 32-byte ``bytes``, the
    root alone at cap height 0), ``hash``, ``cap_height``, ``shapes`` (each matrix's (height,
    width)) and ``height`` (the tallest matrix's: the rows that open). It keeps a copy of the
    matrices and every digest layer, so it opens rows without a device."""

    __slots__ = ("_impl", "hash", "cap_height", "shapes", "cap", "height", "_dtype")

    def __init__(self, impl: Any, hash: str, cap_height: int, shapes: List[Tuple[int, int]],
                 dtype: np.dtype) -> None:
        self._impl, self.hash, self.cap_height, self.shapes = impl, hash, cap_height, shapes
        self._dtype = dtype
        raw = impl.cap()
        self.cap: List[bytes] = [raw[i:i + 32] for i in range(0, len(raw), 32)]
        self.height: int = impl.height()

    def open(self, index: int) -> MmcsOpening:
        """The opening of row ``index`` (below :attr:`height`): :meth:`open_batch` of one."""
        return self.open_batch([index])[0]

    def open_batch(self, indices: Iterable[int]) -> List[MmcsOpening]:
        """The openings of ``indices``, in their order (an index past the tallest matrix raises
        :class:`merklize.ArgumentError` and opens nothing)."""
        wanted = np.ascontiguousarray(
            [_args.count(i, "index") for i in indices], dtype=np.uint64)
        rows, paths = self._impl.open(wanted)
        count = len(wanted)
        row_size = sum(w for _, w in self.shapes) * self._dtype.itemsize
        rows = rows.reshape(count, row_size).view(self._dtype)
        paths = paths.reshape(count, self._impl.path_length() * 32)
        out = []
        for k, index in enumerate(wanted.tolist()):
            split, at = [], 0
            for _, width in self.shapes:
                split.append(rows[k, at:at + width])
                at += width
            path = bytes(paths[k])
            out.append(MmcsOpening(index, split, [path[i:i + 32] for i in range(0, len(path), 32)]))
        return out

    def verify(self, opening: MmcsOpening, *, raise_on_failure: bool = False) -> bool:
        """:func:`mmcs_verify` of an opening against this commitment's cap and shapes."""
        return mmcs_verify(self.cap, self.shapes, opening, hash=self.hash,
                           cap_height=self.cap_height, raise_on_failure=raise_on_failure)

    def __repr__(self) -> str:
        return (f"<merklize.MmcsCommitment of {len(self.shapes)} matrices, hash {self.hash}, "
                f"cap of {len(self.cap)}>")


def mmcs_commit(matrices: Sequence[Any], hash: str = "poseidon2-babybear", cap_height: int = 0,
                device: DeviceArg = None, drop_layers: int = 0) -> MmcsCommitment:
    """The commitment of Plonky3's MerkleTreeMmcs to the rows of ``matrices``, bit for bit
    Plonky3's (docs/LIBRARY.md, "Matrix commitments"), computed on ``device``.

    ``matrices``: a list of 2-D numpy arrays (rows, columns) of canonical field elements:
    ``uint32`` for ``poseidon2-babybear`` and ``poseidon2-koalabear``, ``uint64`` for
    ``poseidon2-goldilocks``. A C-contiguous array is read in place, without a copy; any other
    layout (a slice, a transpose) is copied first; another dtype is refused (``TypeError``: no
    silent cast). Other hashes, ``poseidon2-bn254`` included, are refused. The library copies
    the matrices into the commitment, so the arrays may change after the call.
    ``cap_height``: the cap holds up to ``2**cap_height`` digests (0: the root).
    ``drop_layers``: keep the digest layers from this one up only (about ``2**-drop_layers`` of
    them); openings recompute the siblings below from the matrices and are the same. No higher
    than the cap's layer (``ArgumentError``).

    Refused, with :class:`merklize.ArgumentError` naming the matrix and the reason: no matrix,
    every height 0, a height Plonky3 refuses beside the tallest (7 beside 8), an element at or
    above p (naming its row and column).
    """
    dtype = _dtype(hash)
    if isinstance(matrices, np.ndarray):
        raise TypeError("matrices must be a list of 2-D arrays (one array: [array])")
    arrays = [_matrix(a, dtype, m) for m, a in enumerate(matrices)]
    cap_height = _args.count(cap_height, "cap_height", _args.UINT32_MAX)
    drop_layers = _args.count(drop_layers, "drop_layers", _args.UINT32_MAX)
    shapes = [(int(a.shape[0]), int(a.shape[1])) for a in arrays]
    impl = _merklize._Mmcs(resolve(device)._impl, hash, arrays, [h for h, _ in shapes],
                           [w for _, w in shapes], cap_height, drop_layers)
    return MmcsCommitment(impl, hash, cap_height, shapes, dtype)


def _row(row: Any, dtype: np.dtype) -> Any:
    """An opened row as an array of ``dtype``; None if a value does not fit it (a cast would wrap
    it around, and a row other than the one committed could verify)."""
    array = np.asarray(row)
    if array.dtype == dtype:
        return array
    values = [operator.index(v) for v in array.reshape(-1).tolist()]
    if any(not 0 <= v < 1 << (8 * dtype.itemsize) for v in values):
        return None
    return np.array(values, dtype=dtype).reshape(array.shape)


def _invalid(reason: str, raise_on_failure: bool) -> bool:
    if raise_on_failure:
        raise InvalidProofError(reason)
    return False


def mmcs_verify(cap: Sequence[Any], shapes: Sequence[Tuple[int, int]], opening: MmcsOpening, *,
                hash: str = "poseidon2-babybear", cap_height: int = 0,
                raise_on_failure: bool = False) -> bool:
    """Whether ``opening`` opens row ``opening.index`` of a commitment with ``cap`` (a list of
    32-byte objects) and ``cap_height`` to matrices of ``shapes`` ((height, width) each), as
    Plonky3's verify_batch, on the host. Returns ``False`` for an opening that does not hold
    (its rows, path, index, or the shapes), or with ``raise_on_failure=True`` raises
    :class:`merklize.InvalidProofError` with the reason. An opening whose rows are not as wide
    as ``shapes`` says fails too."""
    dtype = _dtype(hash)
    if not isinstance(opening, MmcsOpening):
        raise TypeError(f"opening must be a merklize.MmcsOpening, not {type(opening).__name__}")
    shapes = [(_args.count(h, "height"), _args.count(w, "width")) for h, w in shapes]
    rows = [_row(r, dtype) for r in opening.rows]
    if any(r is None for r in rows):
        return _invalid(f"invalid opening of row {opening.index}: a row holds a value that is "
                        f"not a {dtype.name}", raise_on_failure)
    if len(rows) != len(shapes) or any(r.shape != (w,) for r, (_, w) in zip(rows, shapes)):
        return _invalid(f"invalid opening of row {opening.index}: its rows have "
                        f"{[r.size for r in rows]} elements, the matrices' widths "
                        f"{[w for _, w in shapes]}", raise_on_failure)
    joined = np.concatenate(rows) if rows else np.zeros(0, dtype)
    valid, reason = _merklize.mmcs_verify(
        hash, _args.count(cap_height, "cap_height", _args.UINT32_MAX),
        b"".join(bytes(d) for d in cap), shapes, _args.count(opening.index, "index"),
        np.ascontiguousarray(joined), b"".join(bytes(p) for p in opening.path))
    return valid or _invalid(reason, raise_on_failure)
