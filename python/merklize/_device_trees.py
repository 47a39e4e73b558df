# SPDX-License-Identifier: Apache-2.0 OR MIT
"""DeviceTree: a binary tree kept in the device's memory, updated in place and appended to."""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from . import _args, _merklize
from ._devices import DeviceArg
from ._digest import Digest
from ._errors import ArgumentError
from ._proofs import Proof
from ._trees import _cached_builder, _config


def _indices(indices: Any) -> np.ndarray:
    """A batch's indices as a C-contiguous uint64 array (a uint64 array as it is, without a
    copy): a list or a 1-D array of non-negative integers."""
    if isinstance(indices, np.ndarray) and indices.dtype == np.uint64 and indices.ndim == 1:
        return np.ascontiguousarray(indices)
    if isinstance(indices, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"indices must be a list or an array of ints, not "
                        f"{type(indices).__name__}")
    array = np.asarray(indices if isinstance(indices, np.ndarray) else list(indices))
    if array.size == 0:
        return np.zeros(0, dtype=np.uint64)
    if array.ndim != 1:
        raise ArgumentError(f"indices: an array of shape {array.shape}; give one index a leaf "
                            f"(1-D)")
    if array.dtype == object or array.dtype.kind not in "iu" or array.dtype == np.bool_:
        raise TypeError(f"indices must be ints, not {array.dtype}")
    if array.dtype.kind == "i" and (array < 0).any():
        k = int(np.argmax(array < 0))
        raise ArgumentError(f"indices[{k}] is {int(array[k])}: a leaf index is not negative")
    return np.ascontiguousarray(array, dtype=np.uint64)


class UpdateBatch:
    """A batch of leaf updates filled in place, in page-locked memory of a :class:`DeviceTree`'s
    device (made by :meth:`DeviceTree.make_update_batch`): :attr:`indices` (``uint64``) and
    :attr:`leaves` (``uint8``, shape ``(capacity, 32)``) are numpy arrays over that memory, so
    ``batch.indices[:count] = ...`` and ``batch.leaves[:count] = ...`` write it where
    :meth:`DeviceTree.update_batch` sends it to the device from, nothing copied on the host
    first. Reuse one batch for every update; do not write it while an update reads it."""

    __slots__ = ("_impl", "indices", "leaves")

    def __init__(self, impl: Any) -> None:
        self._impl = impl
        #: The batch's ``capacity`` indices: update k is leaf ``indices[k]``.
        self.indices: np.ndarray = impl.indices()
        #: The batch's leaves, a row of 32 bytes an update: leaf ``indices[k]`` becomes
        #: ``leaves[k]``.
        self.leaves: np.ndarray = impl.leaves()

    @property
    def capacity(self) -> int:
        """The most updates the batch holds."""
        return self._impl.capacity()

    def __len__(self) -> int:
        return self.capacity

    def __repr__(self) -> str:
        return f"<merklize.UpdateBatch of room for {self.capacity} updates>"


class TreeSnapshot:
    """A copy of a :class:`DeviceTree` as it was, kept on its device (made by
    :meth:`DeviceTree.snapshot`), for :meth:`DeviceTree.rollback`: as much device memory as the
    tree held then."""

    __slots__ = ("_impl", "root")

    def __init__(self, impl: Any, root: Digest) -> None:
        self._impl = impl
        #: The tree's root when the snapshot was taken.
        self.root: Digest = root

    @property
    def leaf_count(self) -> int:
        """The tree's leaf count when the snapshot was taken."""
        return self._impl.leaf_count()

    def __repr__(self) -> str:
        return f"<merklize.TreeSnapshot of {self.leaf_count} leaves, root {self.root}>"


class DeviceTree:
    """A tree of 32-byte leaves built once on the device and kept there: each
    :meth:`update` writes its leaves and recomputes only the nodes above them, each
    :meth:`append` adds leaves after the last (a log: the old tree stays a prefix).

    ``leaves``: any bytes-like object or C-contiguous numpy array of ``n x 32`` bytes (read in
    place, without a copy; the tree keeps its own copy on the device). The options are
    :class:`merklize.Builder`'s: ``hash``, ``shape``, ``depth``, ``arity`` and ``device``. A tree
    of arity k (a power of two up to 128; hash sha256, blake3, keccak256 or sha3-256, no depth)
    updates, appends, reads its levels, proves its leaves, takes update batches and snapshots,
    and its :meth:`update_proved` gives a k-ary multiproof ("kary-multiproof"); consistency
    proofs (RFC 6962's) are binary trees' only (refused).

    Within one batch a repeated index takes its last value. A refused batch (an index out of
    range, a leaf count that is not the index count) or append (past a fixed depth) raises
    :class:`merklize.ArgumentError` and leaves the tree as it was. A tree may be used from several threads: the library serialises
    its calls.
    """

    __slots__ = ("_impl", "hash")

    def __init__(self, leaves: Any, hash: str = "blake3", shape: str = "promote",
                 depth: Optional[int] = None, device: DeviceArg = None, arity: int = 2) -> None:
        options = _config(hash, shape, depth, arity, 0, None, b"", None, "all")
        self.hash: str = hash
        self._impl = _merklize._DeviceTree(_cached_builder(device, options)._impl, leaves)

    @property
    def root(self) -> Digest:
        """The root after the last update (at the fixed depth where ``depth`` is given)."""
        return Digest(self._impl.root())

    @property
    def leaf_count(self) -> int:
        """The number of leaves now (an update never changes it, an append grows it)."""
        return self._impl.leaf_count()

    def __len__(self) -> int:
        return self.leaf_count

    @property
    def depth(self) -> int:
        """The top stored level: levels are 0 (the leaves) to ``depth``."""
        return self._impl.depth()

    def update(self, indices: Any, new_leaves: Any) -> Digest:
        """Leaf ``indices[k]`` becomes the k-th 32 bytes of ``new_leaves``; returns the new root.

        ``indices``: a list or a 1-D numpy array of ints (a ``uint64`` array is read in place).
        ``new_leaves``: bytes-like or a numpy array of ``len(indices) x 32`` bytes."""
        return Digest(self._impl.update(_indices(indices), new_leaves))

    def update_proved(self, indices: Any, new_leaves: Any) -> Tuple[Digest, Proof]:
        """:meth:`update`, and the multiproof of the updated leaves in the new tree (indices
        sorted, once each), :meth:`merklize.Tree.prove_multi`'s of a tree built over them: a
        "multiproof", or at arity k a "kary-multiproof". A refused batch raises and changes
        nothing."""
        root, proof = self._impl.update_proved(_indices(indices), new_leaves)
        return Digest(root), Proof(proof)

    def make_update_batch(self, capacity: int) -> UpdateBatch:
        """A batch of room for ``capacity`` updates (1 to ``2**32 - 1``), filled in place and
        given to :meth:`update_batch`: 40 bytes of page-locked memory an update."""
        return UpdateBatch(self._impl.make_update_batch(
            _args.count(capacity, "capacity")))

    def update_batch(self, batch: UpdateBatch, count: Optional[int] = None) -> Digest:
        """:meth:`update` of the batch's first ``count`` updates (all of them by default), written
        to the device straight from the batch's memory; returns the new root. The indices are
        checked on the device (at arity k on the host, which plans the update): one out of range raises :class:`merklize.ArgumentError` and leaves
        the tree as it was, as does a count past the batch's capacity."""
        if not isinstance(batch, UpdateBatch):
            raise TypeError(f"batch must be a merklize.UpdateBatch, not {type(batch).__name__}")
        n = batch.capacity if count is None else _args.count(count, "count")
        return Digest(self._impl.update_batch(batch._impl, n))

    def snapshot(self) -> TreeSnapshot:
        """A copy of the tree as it is now, kept on the device (device to device), to
        :meth:`rollback` to; a device without room for it raises, the tree unchanged."""
        return TreeSnapshot(self._impl.snapshot(), self.root)

    def rollback(self, snapshot: TreeSnapshot) -> Digest:
        """The tree as it was at ``snapshot`` (one of this tree's), bit for bit: leaves, levels,
        leaf count, root and proofs, the updates and appends since undone; returns that root.
        Another tree's snapshot raises :class:`merklize.ArgumentError` and changes nothing."""
        if not isinstance(snapshot, TreeSnapshot):
            raise TypeError(f"snapshot must be a merklize.TreeSnapshot, not "
                            f"{type(snapshot).__name__}")
        return Digest(self._impl.rollback(snapshot._impl))

    def append(self, leaves: Any) -> Digest:
        """Adds ``leaves`` after the last leaf and returns the new root: the root of a tree built
        over all the leaves, the old tree of the first :attr:`leaf_count` leaves its prefix.

        ``leaves``: bytes-like or a C-contiguous numpy array of ``n x 32`` bytes (read in place,
        without a copy); no leaves change nothing. With a fixed ``depth`` the tree holds at most
        ``2**depth`` leaves, else ``2**32``: an append past that raises
        :class:`merklize.ArgumentError` and changes nothing."""
        return Digest(self._impl.append(leaves))

    def prove_consistency(self, old_size: int) -> Proof:
        """The proof that the tree of the first ``old_size`` leaves is a prefix of this one (RFC
        9162 2.1.4), :meth:`merklize.Tree.prove_consistency`'s of a tree built over the same
        leaves; check it with :func:`merklize.verify_consistency` against the root the tree had
        at ``old_size`` leaves. Trees of shape ``promote`` without a fixed depth, of any hash but
        ``blake3-parent``."""
        return Proof(self._impl.prove_consistency(_args.count(old_size, "old_size")))

    def prove(self, index: int) -> Proof:
        """The inclusion proof of leaf ``index`` in the tree as it is now."""
        return Proof(self._impl.prove(_args.count(index, "index")))

    def level(self, level: int) -> np.ndarray:
        """Level ``level``'s nodes read back from the device: a ``uint8`` array of shape
        (n, 32) of its own."""
        return self._impl.level(_args.count(level, "level", _args.UINT32_MAX))

    def levels(self) -> List[np.ndarray]:
        """Every level, leaves first, read back from the device (as :meth:`level`)."""
        return [self._impl.level(k) for k in range(self.depth + 1)]

    def __repr__(self) -> str:
        return (f"<merklize.DeviceTree of {self.leaf_count} leaves, hash {self.hash}, "
                f"root {self.root}>")

