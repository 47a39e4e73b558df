# SPDX-License-Identifier: Apache-2.0 OR MIT
"""SparseTree: a sparse Merkle tree kept on the device, changed by batches; SparseProof and
sparse_verify, which checks a proof on the host."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _args, _merklize
from ._devices import DeviceArg, resolve
from ._digest import Digest
from ._errors import InvalidProofError


def _digests(value: Any, what: str) -> Any:
    """A batch's keys or values as one buffer: a list or tuple of 32-byte objects joined, any
    other bytes-like object or C-contiguous array as it is (read in place)."""
    if isinstance(value, (list, tuple)):
        return b"".join(bytes(item) for item in value)
    if isinstance(value, str):
        raise TypeError(f"{what} must be bytes-like, an array or a list of 32-byte keys, not str")
    return value


class SparseProof:
    """A key's proof in a :class:`SparseTree`: its ``value`` (32 zero bytes: the proof shows the
    key absent) and the ``depth`` ``siblings`` of its path, bottom up (a read-only ``uint8`` array
    of shape (depth, 32)); ``hash`` and ``depth`` are the tree's."""

    __slots__ = ("hash", "depth", "key", "value", "siblings")

    def __init__(self, hash: str, depth: int, key: bytes, value: bytes,
                 siblings: np.ndarray) -> None:
        self.hash, self.depth = hash, depth
        self.key, self.value, self.siblings = Digest(key), Digest(value), siblings

    @property
    def proves_absence(self) -> bool:
        """Whether the proof shows the key absent (its value is zero)."""
        return self.value == bytes(32)

    def verify(self, root: Any, *, raise_on_failure: bool = False) -> bool:
        """:func:`merklize.sparse_verify` of this proof."""
        return sparse_verify(self, root, raise_on_failure=raise_on_failure)

    def __repr__(self) -> str:
        return (f"<merklize.SparseProof of key {self.key}, "
                f"{'absent' if self.proves_absence else f'value {self.value}'}>")


def sparse_verify(proof: SparseProof, root: Any, *, raise_on_failure: bool = False) -> bool:
    """Whether ``proof`` shows its key holding its value (absent, for a zero value) under
    ``root`` (32 bytes or 64 hex digits), on the host. Returns ``False`` for a proof that does
    not hold, or with ``raise_on_failure=True`` raises :class:`merklize.InvalidProofError` with
    the reason."""
    if not isinstance(proof, SparseProof):
        raise TypeError(f"proof must be a merklize.SparseProof, not {type(proof).__name__}")
    valid, reason = _merklize.sparse_verify(proof.hash, proof.depth, Digest(root), proof.key,
                                            proof.value, np.ascontiguousarray(proof.siblings))
    if not valid and raise_on_failure:
        raise InvalidProofError(reason)
    return valid


class SparseTree:
    """A sparse Merkle tree of ``2**depth`` leaves addressed by key, almost all empty, kept on
    the device and changed by batches (docs/LIBRARY.md, "Sparse Merkle trees", has the rule): a
    key is a ``depth``-bit number written as 32 bytes big-endian; a zero value deletes its key.

    ``hash``: any node hash of :data:`merklize.HASHES`; ``depth``: 1 to 256. A refused batch (a
    key past the depth, not as many values as keys) raises :class:`merklize.ArgumentError` and
    leaves the tree as it was. A tree may be used from several threads: the library serialises
    its calls.
    """

    __slots__ = ("_impl", "hash", "depth")

    def __init__(self, hash: str = "blake3", depth: int = 256,
                 device: DeviceArg = None) -> None:
        if not isinstance(hash, str):
            raise TypeError(f"hash must be a str, not {type(hash).__name__}")
        self.hash: str = hash
        self.depth: int = _args.count(depth, "depth", _args.UINT32_MAX)
        self._impl = _merklize._SparseTree(resolve(device)._impl, hash, self.depth)

    @property
    def root(self) -> Digest:
        """The root after the last batch (the empty tree's at first)."""
        return Digest(self._impl.root())

    @property
    def size(self) -> int:
        """The number of keys holding a nonzero value."""
        return self._impl.size()

    def __len__(self) -> int:
        return self.size

    def update(self, keys: Any, values: Any) -> Digest:
        """Key ``keys[k]`` takes ``values[k]`` (a zero value deletes it; a repeated key takes its
        last value); returns the new root. ``keys`` and ``values``: lists of 32-byte objects, or
        bytes-like objects or numpy arrays of n x 32 bytes (read in place)."""
        return Digest(self._impl.update(_digests(keys, "keys"), _digests(values, "values")))

    def value(self, key: Any) -> Digest:
        """The value ``key`` holds (32 zero bytes: absent)."""
        return Digest(self._impl.value(key))

    def prove(self, key: Any) -> SparseProof:
        """``key``'s :class:`SparseProof` under the root now: of presence, or of absence."""
        value, siblings = self._impl.prove(key)
        return SparseProof(self.hash, self.depth, bytes(Digest(key)), value, siblings)

    def __repr__(self) -> str:
        return (f"<merklize.SparseTree of {self.size} keys, hash {self.hash}, depth "
                f"{self.depth}, root {self.root}>")
