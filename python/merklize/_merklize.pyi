# SPDX-License-Identifier: Apache-2.0 OR MIT
"""
The C ABI of libmerklize (include/merklize.h) for the package merklize: use merklize.
"""

from collections.abc import Sequence
from typing import Annotated

import numpy
from numpy.typing import NDArray


def version() -> str:
    """merklize_version()."""

def abi_version() -> int:
    """merklize_abi_version()."""

def status_name(status: int) -> str:
    """merklize_status_name(status)."""

def hash_names() -> str:
    """merklize_hash_names()."""

def shape_names() -> str:
    """merklize_shape_names()."""

def leaf_hash_names() -> str:
    """merklize_leaf_hash_names()."""

def device_count() -> int:
    """merklize_device_count()."""

def device_info(index: int) -> tuple:
    """merklize_device_get_info(index): (spec, name, vendor, platform, type)."""

class _Device:
    """merklize_device: merklize.Device's handle."""

    def __init__(self, spec: str | None) -> None:
        """merklize_device_open(spec)."""

    def info(self) -> tuple:
        """merklize_device_describe(): (spec, name, vendor, platform, type)."""

class _TreeConfig:
    """merklize_tree_config's members, as merklize/_trees.py checked them."""

    def __init__(self) -> None: ...

    @property
    def hash(self) -> str | None: ...

    @hash.setter
    def hash(self, value: str | None) -> None: ...

    @property
    def shape(self) -> str | None: ...

    @shape.setter
    def shape(self, value: str | None) -> None: ...

    @property
    def leaf_hash(self) -> str | None: ...

    @leaf_hash.setter
    def leaf_hash(self, value: str | None) -> None: ...

    @property
    def depth(self) -> int: ...

    @depth.setter
    def depth(self, arg: int, /) -> None: ...

    @property
    def arity(self) -> int: ...

    @arity.setter
    def arity(self, arg: int, /) -> None: ...

    @property
    def leaf_size(self) -> int: ...

    @leaf_size.setter
    def leaf_size(self, arg: int, /) -> None: ...

    @property
    def salt(self) -> bytes: ...

    @salt.setter
    def salt(self, arg: bytes, /) -> None: ...

    @property
    def mix_in_length(self) -> int | None: ...

    @mix_in_length.setter
    def mix_in_length(self, value: int | None) -> None: ...

    @property
    def keep(self) -> int: ...

    @keep.setter
    def keep(self, arg: int, /) -> None: ...

class _Builder:
    """merklize_builder: merklize.Builder's handle."""

    def __init__(self, device: _Device, config: _TreeConfig) -> None:
        """merklize_builder_create(device, config)."""

    def root(self, kind: int, payload: object) -> bytes:
        """merklize_root(source)."""

    def build(self, kind: int, payload: object) -> _Tree:
        """merklize_build(source)."""

    def prove(self, kind: int, payload: object, index: int) -> _Proof:
        """merklize_prove_source(source, index)."""

class _Tree:
    """merklize_tree: merklize.Tree's handle."""

    def root(self) -> bytes:
        """merklize_tree_root()."""

    def leaf_count(self) -> int:
        """merklize_tree_leaf_count()."""

    def depth(self) -> int:
        """merklize_tree_depth()."""

    def first_level(self) -> int:
        """merklize_tree_first_level()."""

    def level(self, level: int) -> Annotated[NDArray[numpy.uint8], dict(shape=(None, None), writable=False)]:
        """
        merklize_tree_level(level): a read-only (n, 32) uint8 array over the tree's memory.
        """

    def node(self, level: int, index: int) -> bytes:
        """merklize_tree_node()."""

    def prove(self, index: int) -> _Proof:
        """merklize_prove(index)."""

    def prove_multi(self, indices: Sequence[int]) -> _Proof:
        """merklize_prove_multi(indices)."""

    def prove_consistency(self, old_size: int) -> _Proof:
        """merklize_prove_consistency(old_size)."""

class _DeviceTree:
    """merklize_device_tree: merklize.DeviceTree's handle."""

    def __init__(self, builder: _Builder, leaves: object) -> None:
        """merklize_device_tree_create(builder, leaves)."""

    def root(self) -> bytes:
        """merklize_device_tree_root()."""

    def leaf_count(self) -> int:
        """merklize_device_tree_leaf_count()."""

    def depth(self) -> int:
        """merklize_device_tree_depth()."""

    def update(self, indices: object, leaves: object) -> bytes:
        """merklize_device_tree_update(indices, leaves): the new root."""

    def update_proved(self, indices: object, leaves: object) -> tuple[bytes, _Proof]:
        """
        merklize_device_tree_update_proved(indices, leaves): the new root and the multiproof.
        """

    def append(self, leaves: object) -> bytes:
        """merklize_device_tree_append(leaves): the new root."""

    def prove_consistency(self, old_size: int) -> _Proof:
        """merklize_device_tree_prove_consistency(old_size)."""

    def prove(self, index: int) -> _Proof:
        """merklize_device_tree_prove(index)."""

    def level(self, level: int) -> Annotated[NDArray[numpy.uint8], dict(shape=(None, None), writable=False)]:
        """
        merklize_device_tree_read_level(level): an (n, 32) uint8 array read back.
        """

    def make_update_batch(self, capacity: int) -> _UpdateBatch:
        """merklize_device_tree_batch_create(capacity)."""

    def update_batch(self, batch: _UpdateBatch, count: int) -> bytes:
        """merklize_device_tree_update_batch(batch, count): the new root."""

    def snapshot(self) -> _TreeSnapshot:
        """merklize_device_tree_snapshot()."""

    def rollback(self, snapshot: _TreeSnapshot) -> bytes:
        """merklize_device_tree_rollback(snapshot): the root rolled back to."""

class _TreeSnapshot:
    """merklize_tree_snapshot: merklize.TreeSnapshot's handle."""

    def leaf_count(self) -> int:
        """merklize_tree_snapshot_leaf_count()."""

class _UpdateBatch:
    """merklize_update_batch: merklize.UpdateBatch's handle."""

    def capacity(self) -> int:
        """merklize_update_batch_capacity()."""

    def indices(self) -> Annotated[NDArray[numpy.uint64], dict(shape=(None,))]:
        """
        merklize_update_batch_indices(): a writable uint64 array over the batch's memory.
        """

    def leaves(self) -> Annotated[NDArray[numpy.uint8], dict(shape=(None, None))]:
        """
        merklize_update_batch_leaves(): a writable (capacity, 32) uint8 array over it.
        """

class _Proof:
    """merklize_proof: merklize.Proof's handle."""

    def kind(self) -> int:
        """
        merklize_proof_get_kind(): 1 inclusion, 2 multi, 3 consistency, 4 k-ary, 5 k-ary multi.
        """

    def leaf_count(self) -> int:
        """merklize_proof_leaf_count()."""

    def indices(self) -> list[int]:
        """merklize_proof_indices()."""

    def nodes(self) -> Annotated[NDArray[numpy.uint8], dict(shape=(None, None), writable=False)]:
        """
        merklize_proof_nodes(): a read-only (n, 32) uint8 array over the proof's memory.
        """

    def encode(self, encoding: int) -> bytes:
        """merklize_proof_encode(encoding)."""

    @staticmethod
    def decode(data: object, encoding: int) -> _Proof:
        """merklize_proof_decode(data, encoding)."""

    def hash(self) -> str:
        """merklize_proof_hash()."""

    def shape(self) -> str:
        """merklize_proof_shape()."""

    def depth(self) -> int:
        """merklize_proof_depth()."""

    def arity(self) -> int:
        """merklize_proof_arity()."""

    def mixed_length(self) -> int | None:
        """merklize_proof_mixed_length(): the length, or None."""

    def verify(self, leaves: object, root: object, kind: int | None, hash: str | None, shape: str | None, depth: int | None, arity: int | None, leaf_count: int | None) -> tuple[bool, str]:
        """
        merklize_proof_verify_pinned(leaves, root, expectations): (valid, the reason if not).
        """

    def verify_consistency(self, old_root: object, new_root: object, hash: str | None, leaf_count: int | None) -> tuple[bool, str]:
        """
        merklize_verify_consistency_pinned(old_root, new_root, expectations): (valid, the reason if not).
        """

class _Blake3Hasher:
    """merklize_blake3_hasher: merklize.blake3's state."""

    def __init__(self, mode: int, key: bytes | None, context: str | None) -> None:
        """merklize_blake3_hasher_create(mode)."""

    def update(self, data: object) -> None:
        """merklize_blake3_hasher_update(data)."""

    def finalize(self, length: int, seek: int) -> bytes:
        """merklize_blake3_hasher_finalize(seek, length bytes out)."""

    def copy(self) -> _Blake3Hasher:
        """merklize_blake3_hasher_copy()."""

    def reset(self) -> None:
        """merklize_blake3_hasher_reset()."""

def blake3_device(device: _Device, kind: int, payload: object, mode: int, key: bytes | None, context: str | None, length: int) -> bytes:
    """merklize_blake3(device, mode, source, length bytes out)."""

def sha256_layer(device: _Device, chunks: object) -> bytes:
    """merklize_sha256_layer(device, chunks): the digests as bytes."""

def log_leaves(device: _Device, kind: int, payload: object, framing: str) -> Annotated[NDArray[numpy.uint8], dict(shape=(None, None), writable=False)]:
    """merklize_log_leaves(device, source, framing): an (n, 32) array."""

def dm_verity(device: _Device, kind: int, payload: object, data_block_size: int, hash_block_size: int, salt: bytes, want_tree: bool) -> tuple[bytes, object]:
    """merklize_dm_verity(): (root, hash tree or None)."""

def fs_verity(device: _Device, kind: int, payload: object, block_size: int, salt: bytes, want_tree: bool) -> tuple[bytes, object]:
    """merklize_fs_verity(): (file digest, Merkle tree or None)."""

def bao_outboard(device: _Device, kind: int, payload: object, want_outboard: bool) -> tuple[bytes, object]:
    """merklize_bao_outboard(): (root, outboard or None)."""

def oz_standard_tree(device: _Device, json: object, sort_leaves: bool, want_dump: bool) -> tuple[bytes, object]:
    """merklize_oz_standard_tree(): (root, dump or None)."""

def oz_standard_proof(device: _Device, json: object, sort_leaves: bool, indices: Sequence[int]) -> object:
    """merklize_oz_standard_proof(): the proof, or multiproof, as JSON."""

def bitcoin_root(device: _Device, kind: int, payload: object, display_order: bool) -> tuple[bytes, bool]:
    """merklize_bitcoin_root(): (root, mutated)."""

def bitcoin_proof(device: _Device, kind: int, payload: object, display_order: bool, index: int) -> object:
    """merklize_bitcoin_proof(): the branch as JSON."""

def filecoin_commitment(device: _Device, kind: int, payload: object) -> tuple[bytes, int]:
    """merklize_filecoin_commitment(): (commitment, padded size)."""

def filecoin_piece_cid(commitment: object) -> str:
    """merklize_filecoin_piece_cid()."""

def roots_many(builder: _Builder, leaves: object, tree_size: int) -> bytes:
    """
    merklize_roots_many(builder, leaves, tree_size): the roots as bytes, 32 each.
    """

class _SparseTree:
    """merklize_sparse_tree: merklize.SparseTree's handle."""

    def __init__(self, device: _Device, hash: str, depth: int) -> None:
        """merklize_sparse_tree_create(device, hash, depth)."""

    def root(self) -> bytes:
        """merklize_sparse_tree_root()."""

    def size(self) -> int:
        """merklize_sparse_tree_size()."""

    def update(self, keys: object, values: object) -> bytes:
        """merklize_sparse_tree_update(keys, values): the new root."""

    def value(self, key: object) -> bytes:
        """merklize_sparse_tree_value(key)."""

    def prove(self, key: object) -> tuple[bytes, Annotated[NDArray[numpy.uint8], dict(shape=(None, None), writable=False)]]:
        """
        merklize_sparse_tree_prove(key): (value, siblings as a (depth, 32) uint8 array).
        """

def sparse_verify(hash: str, depth: int, root: object, key: object, value: object, siblings: object) -> tuple[bool, str]:
    """
    merklize_sparse_verify(hash, depth, root, key, value, siblings): (valid, the reason if not).
    """

class _Mmcs:
    """merklize_mmcs: merklize.MmcsCommitment's handle."""

    def __init__(self, device: _Device, hash: str, arrays: Sequence[object], heights: Sequence[int], widths: Sequence[int], cap_height: int, drop_layers: int) -> None:
        """
        merklize_mmcs_commit_dropping(device, hash, arrays, heights, widths, cap_height, drop_layers).
        """

    def cap(self) -> bytes:
        """merklize_mmcs_cap(): the cap's digests as bytes, 32 each."""

    def height(self) -> int:
        """merklize_mmcs_height()."""

    def path_length(self) -> int:
        """merklize_mmcs_path_length()."""

    def open(self, indices: object) -> tuple[Annotated[NDArray[numpy.uint8], dict(shape=(None, None), writable=False)], Annotated[NDArray[numpy.uint8], dict(shape=(None, None), writable=False)]]:
        """
        merklize_mmcs_open(indices): (rows, paths) as (count, bytes) uint8 arrays.
        """

def mmcs_element_size(hash: str) -> int:
    """merklize_mmcs_element_size(hash)."""

def mmcs_verify(hash: str, cap_height: int, cap: object, shapes: Sequence[tuple[int, int]], index: int, rows: object, path: object) -> tuple[bool, str]:
    """
    merklize_mmcs_verify(hash, cap_height, cap, [(height, width)], index, rows, path): (valid, the reason if not).
    """
