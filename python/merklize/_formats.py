# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The formats of trees over data blocks: dm-verity, fs-verity and Bao's outboard
(docs/FORMATS.md), each a root and the bytes the format's own tool writes."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from . import _args, _merklize, _sources
from ._devices import DeviceArg, resolve
from ._digest import Digest


def _rooted(result: Tuple[bytes, Optional[bytes]]) -> Tuple[Digest, Optional[bytes]]:
    return Digest(result[0]), result[1]


def dm_verity(data: Any, data_block_size: int = 4096, hash_block_size: int = 4096,
              salt: Any = b"", device: DeviceArg = None,
              tree: bool = True) -> Tuple[Digest, Optional[bytes]]:
    """dm-verity's root hash of ``data`` and its hash tree, as ``veritysetup format
    --no-superblock`` prints the one and writes the other to the hash device (``tree=False``:
    ``None`` for the tree, which is then not kept). ``salt``: up to 256 bytes. ``data`` as
    :func:`merklize.root` takes it, whole data blocks."""
    salt = _args.byte_string(salt, "salt")
    sizes = (_args.count(data_block_size, "data_block_size", _args.UINT32_MAX),
             _args.count(hash_block_size, "hash_block_size", _args.UINT32_MAX))
    with _sources.opened(data) as (kind, payload):
        return _rooted(_merklize.dm_verity(resolve(device)._impl, kind, payload, *sizes, salt,
                                           bool(tree)))


def fs_verity(data: Any, block_size: int = 4096, salt: Any = b"", device: DeviceArg = None,
              tree: bool = True) -> Tuple[Digest, Optional[bytes]]:
    """fs-verity's file digest of ``data`` (SHA-256, as ``fsverity digest`` prints it) and its
    Merkle tree (as ``fsverity digest --out-merkle-tree`` writes it; ``tree=False``: ``None``).
    ``salt``: up to 32 bytes."""
    salt = _args.byte_string(salt, "salt")
    block_size = _args.count(block_size, "block_size", _args.UINT32_MAX)
    with _sources.opened(data) as (kind, payload):
        return _rooted(_merklize.fs_verity(resolve(device)._impl, kind, payload, block_size, salt,
                                           bool(tree)))


def bao_outboard(data: Any, device: DeviceArg = None,
                 outboard: bool = True) -> Tuple[Digest, Optional[bytes]]:
    """Bao's root of ``data`` (its BLAKE3 hash) and its outboard encoding, as ``bao encode
    --outboard`` writes it (``outboard=False``: ``None``)."""
    with _sources.opened(data) as (kind, payload):
        return _rooted(_merklize.bao_outboard(resolve(device)._impl, kind, payload,
                                              bool(outboard)))
