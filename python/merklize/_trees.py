# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Trees: Builder (a tree configuration bound to a device), Tree (a built tree whose levels are
numpy arrays over its own memory), and the functions root, build and prove."""
from __future__ import annotations

import collections
import threading
from typing import Any, Iterable, List, Optional, Tuple, Union

import numpy as np

from . import _args, _merklize, _sources
from ._errors import ArgumentError
from ._devices import Device, DeviceArg, resolve
from ._digest import Digest
from ._proofs import Proof

#: What ``keep`` may name besides a level: every level, or the root alone.
KEEP_ALL, KEEP_ROOT = 0, 0xFFFFFFFF
Keep = Union[str, int]


def _keep(keep: Keep) -> int:
    if keep == "all":
        return KEEP_ALL
    if keep == "root":
        return KEEP_ROOT
    if isinstance(keep, str):
        raise ArgumentError(f"keep {keep!r}: \"all\", \"root\" or a level (an int)")
    return _args.count(keep, "keep", KEEP_ROOT - 1)


def _config(hash: str, shape: str, depth: Optional[int], arity: int, leaf_size: int,
            leaf_hash: Optional[str], salt: Any, mix_in_length: Optional[int],
            keep: Keep) -> Tuple[Any, ...]:
    """The options checked for type and range, as a hashable tuple; the library checks the rest
    (names, and which options go together) and says what is wrong."""
    return (_args.name(hash, "hash"), _args.name(shape, "shape"),
            -1 if depth is None else _args.count(depth, "depth", 2**31 - 1),
            _args.count(arity, "arity", _args.UINT32_MAX),
            _args.count(leaf_size, "leaf_size"), _args.optional_name(leaf_hash, "leaf_hash"),
            _args.byte_string(salt, "salt"),
            None if mix_in_length is None else _args.count(mix_in_length, "mix_in_length"),
            _keep(keep))


class Builder:
    """A tree configuration checked once and bound to a device, with its compiled programs and
    memory pools: build many trees with one builder.

    Options (the command-line tool's, ``merklize root --help``):

    - ``hash``: the node hash, ``"blake3"``, ``"blake3-parent"``, ``"sha256"``, ``"rfc6962"``,
      ``"keccak256"`` (Ethereum's Keccak-256), ``"sha3-256"``, or a Poseidon2 compression of
      field elements: ``"poseidon2-babybear"``, ``"poseidon2-koalabear"``,
      ``"poseidon2-goldilocks"`` or ``"poseidon2-bn254"`` (:data:`merklize.HASHES`).
    - ``shape``: ``"promote"`` (a lone last node moves up) or ``"zero"`` (leaves padded with zero
      leaves to a full tree, SSZ's shape).
    - ``depth``: ``None`` for the natural depth, else the root's fixed depth (shape ``"zero"``:
      the tree of ``2**depth`` leaves, SSZ's limit).
    - ``arity``: children per node, 2, or a power of two up to 128 for a k-ary tree.
    - ``leaf_size``: 0, the data is N 32-byte leaves; else the data is cut into blocks of
      ``leaf_size`` bytes (the last one shorter), each hashed into a leaf by ``leaf_hash``
      (``"sha256"``, ``"blake3"``, ``"keccak256"`` or ``"sha3-256"``; ``None``: the tree's hash
      where it is one of those, else blake3), SHA-256 leaves after ``salt`` (at most 256 bytes).
    - ``mix_in_length``: ``None``, or an SSZ list's length N: the root is then the list's root,
      SHA-256(tree root || N as 32 bytes little-endian) (hash ``"sha256"``, shape ``"zero"`` and
      ``depth`` the depth of the list's limit, ceil(log2 LIMIT)); proofs end with the length chunk.
    - ``keep``: the levels :meth:`build` keeps: ``"all"`` (needed for proofs), ``"root"``, or
      the lowest level kept (an int). From a file, ``"root"`` streams the input.
    - ``device``: a :class:`merklize.Device`, a device spec, or ``None`` for the default device.

    A bad option raises :class:`merklize.ArgumentError` with the library's reason. A builder may
    be used from several threads: the library serialises its builds.
    """

    __slots__ = ("_impl", "_options", "device")

    def __init__(self, hash: str = "blake3", shape: str = "promote", depth: Optional[int] = None,
                 arity: int = 2, leaf_size: int = 0, leaf_hash: Optional[str] = None,
                 salt: Any = b"", mix_in_length: Optional[int] = None, keep: Keep = "all",
                 device: DeviceArg = None) -> None:
        options = _config(hash, shape, depth, arity, leaf_size, leaf_hash, salt, mix_in_length,
                          keep)
        self.device: Device = resolve(device)
        self._options = options
        self._impl = _builder_impl(self.device, options)

    def root(self, data: Any) -> Digest:
        """The root of the tree over ``data`` (bytes-like, numpy array, path or file; see
        :mod:`merklize`), streamed: only a few pieces of a file are held at once."""
        with _sources.opened(data) as (kind, payload):
            return Digest(self._impl.root(kind, payload))

    def build(self, data: Any) -> "Tree":
        """The tree over ``data``, with the levels ``keep`` names kept in host memory."""
        with _sources.opened(data) as (kind, payload):
            return Tree(self._impl.build(kind, payload))

    def prove(self, data: Any, index: int) -> Proof:
        """The inclusion proof of leaf ``index`` of the tree over ``data``, streamed: only the
        piece that holds the leaf and the other pieces' tops are kept."""
        index = _args.count(index, "index")
        with _sources.opened(data) as (kind, payload):
            return Proof(self._impl.prove(kind, payload, index))

    def __repr__(self) -> str:
        names = ("hash", "shape", "depth", "arity", "leaf_size", "leaf_hash", "salt",
                 "mix_in_length", "keep")
        shown = dict(zip(names, self._options))
        shown["depth"] = None if shown["depth"] < 0 else shown["depth"]
        shown["keep"] = {KEEP_ALL: "all", KEEP_ROOT: "root"}.get(shown["keep"], shown["keep"])
        return "Builder(" + ", ".join(f"{n}={v!r}" for n, v in shown.items()) + ")"


def _builder_impl(device: Device, options: Tuple[Any, ...]) -> Any:
    config = _merklize._TreeConfig()
    (config.hash, config.shape, config.depth, config.arity, config.leaf_size, config.leaf_hash,
     config.salt, config.mix_in_length, config.keep) = options
    return _merklize._Builder(device._impl, config)


class Tree:
    """A built tree in host memory: its root, and the levels its builder kept.

    Level 0 is the leaves, level :attr:`depth` the top stored level (a fixed depth or a mixed-in
    length adds levels above it that are not stored). The arrays of :meth:`level` and
    :attr:`levels` are read-only views of the tree's own memory (no copy), each keeping the tree
    alive. Trees are immutable and may be read from several threads.
    """

    __slots__ = ("_impl",)

    def __init__(self, impl: Any) -> None:
        self._impl = impl

    @property
    def root(self) -> Digest:
        """The root (with the length mixed in, for an SSZ list)."""
        return Digest(self._impl.root())

    @property
    def leaf_count(self) -> int:
        """The number of leaves."""
        return self._impl.leaf_count()

    @property
    def depth(self) -> int:
        """The top stored level: levels are 0 (the leaves) to ``depth``."""
        return self._impl.depth()

    @property
    def first_level(self) -> int:
        """The lowest level kept: 0 when the leaves are; ``depth + 1`` where only a root above
        the stored levels is."""
        return self._impl.first_level()

    def level(self, level: int) -> np.ndarray:
        """Level ``level``'s nodes: a read-only ``uint8`` array of shape (n, 32) over the tree's
        memory. A level that was not kept raises :class:`merklize.ArgumentError`."""
        return self._impl.level(_args.count(level, "level", _args.UINT32_MAX))

    @property
    def levels(self) -> List[Optional[np.ndarray]]:
        """Every level, ``levels[k]`` being level k (as :meth:`level`), ``None`` where not
        kept."""
        first = self.first_level
        return [self._impl.level(k) if k >= first else None for k in range(self.depth + 1)]

    def node(self, level: int, index: int) -> Digest:
        """Node ``index`` of level ``level``."""
        return Digest(self._impl.node(_args.count(level, "level", _args.UINT32_MAX),
                                      _args.count(index, "index")))

    def prove(self, index: int) -> Proof:
        """The inclusion proof of leaf ``index`` (a tree that kept every level)."""
        return Proof(self._impl.prove(_args.count(index, "index")))

    def prove_multi(self, indices: Iterable[int]) -> Proof:
        """One proof of several leaves (any order, repeats allowed; the proof holds them
        sorted), of a tree that kept every level: a "multiproof", or at arity k a
        "kary-multiproof" (docs/PROOFS.md)."""
        checked = [_args.count(i, f"indices[{k}]") for k, i in enumerate(indices)]
        return Proof(self._impl.prove_multi(checked))

    def prove_consistency(self, old_size: int) -> Proof:
        """That the tree of the first ``old_size`` leaves is a prefix of this one (RFC 9162
        2.1.4; rfc6962 trees)."""
        return Proof(self._impl.prove_consistency(_args.count(old_size, "old_size")))

    def __repr__(self) -> str:
        return f"<merklize.Tree of {self.leaf_count} leaves, depth {self.depth}, root {self.root}>"


# Builders of the module-level functions, one for each device and configuration, kept for the
# next call (their programs are compiled once): the most recently used few.
_BUILDERS: "collections.OrderedDict[Tuple[Any, ...], Builder]" = collections.OrderedDict()
_BUILDERS_KEPT = 16
_builders_lock = threading.Lock()


def _cached_builder(device: DeviceArg, options: Tuple[Any, ...]) -> Builder:
    resolved = resolve(device)
    key = (id(resolved),) + options
    with _builders_lock:
        builder = _BUILDERS.get(key)
        if builder is not None and builder.device is resolved:
            _BUILDERS.move_to_end(key)
            return builder
    builder = Builder.__new__(Builder)
    builder.device, builder._options = resolved, options
    builder._impl = _builder_impl(resolved, options)
    with _builders_lock:
        _BUILDERS[key] = builder
        while len(_BUILDERS) > _BUILDERS_KEPT:
            _BUILDERS.popitem(last=False)
    return builder


def root(data: Any, hash: str = "blake3", shape: str = "promote", depth: Optional[int] = None,
         arity: int = 2, leaf_size: int = 0, leaf_hash: Optional[str] = None, salt: Any = b"",
         mix_in_length: Optional[int] = None, device: DeviceArg = None) -> Digest:
    """The root of the Merkle tree over ``data``, as ``merklize root`` prints it.

    ``data``: any bytes-like object or numpy array (read in place, without a copy), a path
    (``str`` or ``os.PathLike``, streamed by the library), or a binary file object. Without
    ``leaf_size`` the data is N 32-byte leaves. The options are :class:`Builder`'s; builders are
    kept between calls, so repeated calls compile nothing.
    """
    options = _config(hash, shape, depth, arity, leaf_size, leaf_hash, salt, mix_in_length,
                      "root")
    return _cached_builder(device, options).root(data)


def build(data: Any, hash: str = "blake3", shape: str = "promote", depth: Optional[int] = None,
          arity: int = 2, leaf_size: int = 0, leaf_hash: Optional[str] = None, salt: Any = b"",
          mix_in_length: Optional[int] = None, keep: Keep = "all",
          device: DeviceArg = None) -> Tree:
    """The :class:`Tree` over ``data`` (as :func:`root` takes it), keeping the levels ``keep``
    names (``"all"`` by default, which proofs need)."""
    options = _config(hash, shape, depth, arity, leaf_size, leaf_hash, salt, mix_in_length, keep)
    return _cached_builder(device, options).build(data)


def prove(data: Any, index: int, hash: str = "blake3", shape: str = "promote",
          depth: Optional[int] = None, arity: int = 2, leaf_size: int = 0,
          leaf_hash: Optional[str] = None, salt: Any = b"", mix_in_length: Optional[int] = None,
          device: DeviceArg = None) -> Proof:
    """The inclusion proof of leaf ``index`` of the tree over ``data``, streamed from a file
    (only the piece holding the leaf and the tops of the others are kept), as ``merklize proof``
    prints it."""
    options = _config(hash, shape, depth, arity, leaf_size, leaf_hash, salt, mix_in_length,
                      "root")
    return _cached_builder(device, options).prove(data, index)
