# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The commitments other systems publish (docs/FORMATS.md): OpenZeppelin's StandardMerkleTree,
Bitcoin's merkle root and Filecoin's piece commitment, as ``merklize root|proof --format
oz-standard|bitcoin|filecoin-tree-d`` prints them."""
from __future__ import annotations

import json as _json
import os
from collections.abc import Mapping
from typing import Any, Optional, Sequence, Tuple

from . import _args, _merklize, _sources
from ._devices import DeviceArg, resolve
from ._digest import Digest


def _json_text(value: Any) -> bytes:
    """A StandardMerkleTree's JSON: a ``str`` of JSON text, its UTF-8 bytes (any bytes-like
    object), a mapping (written with :func:`json.dumps`) or an ``os.PathLike`` of a file."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, Mapping):
        return _json.dumps(value, ensure_ascii=False).encode("utf-8")
    if isinstance(value, os.PathLike):
        with open(value, "rb") as f:
            return f.read()
    return _args.byte_string(value, "json")


def oz_standard_tree(json: Any, sort_leaves: bool = True, device: DeviceArg = None,
                     dump: bool = True) -> Tuple[Digest, Optional[str]]:
    """The root of OpenZeppelin's StandardMerkleTree (``str(root)`` without its ``0x``;
    ``"0x" + str(root)`` is what OpenZeppelin prints) and the tree's dump, as
    ``JSON.stringify(tree.dump())`` writes it (``dump=False``: ``None``). ``json``: the tree's
    dump, or ``{"leafEncoding": [types], "values": [[...], ...]}``, as a str, bytes, a mapping or
    a path (``os.PathLike``). ``sort_leaves=False`` keeps the values' order (OpenZeppelin's
    ``sortLeaves: false``); a dump places its leaves itself. Malformed JSON, unknown types and
    values that do not fit them raise :class:`DecodeError`, naming the place."""
    root, written = _merklize.oz_standard_tree(resolve(device)._impl, _json_text(json),
                                               bool(sort_leaves), bool(dump))
    return Digest(root), written


def oz_standard_proof(json: Any, indices: int | Sequence[int], sort_leaves: bool = True,
                      device: DeviceArg = None) -> dict:
    """The proof of value ``indices`` (an int, its place in ``values``): ``{"value", "leaf",
    "proof"}``; or, for a sequence of several, OpenZeppelin's ``getMultiProof``: ``{"leaves",
    "proof", "proofFlags"}``. ``json`` and ``sort_leaves`` as :func:`oz_standard_tree` takes
    them."""
    if isinstance(indices, (list, tuple, range)):
        chosen = [_args.count(i, "indices[]") for i in indices]
    else:
        chosen = [_args.count(indices, "indices")]
    text = _merklize.oz_standard_proof(resolve(device)._impl, _json_text(json), bool(sort_leaves),
                                       chosen)
    return _json.loads(text)


def bitcoin_root(txids: Any, display_order: bool = False,
                 device: DeviceArg = None) -> Tuple[Digest, bool]:
    """Bitcoin's merkle root of a block's txids and whether the tree is mutated (CVE-2012-2459:
    a level pairs two equal nodes, so that a shorter txid list has the same root; Bitcoin Core
    rejects such a block). ``txids``: as :func:`merklize.root` takes data, 32 bytes a txid in
    internal byte order (the root in that order too); with ``display_order``, hex lines as block
    explorers and ``bitcoin-cli`` show them, byte-reversed, and the root reversed as they print
    it."""
    with _sources.opened(txids) as (kind, payload):
        root, mutated = _merklize.bitcoin_root(resolve(device)._impl, kind, payload,
                                               bool(display_order))
    return Digest(root), mutated


def bitcoin_proof(txids: Any, index: int, display_order: bool = False,
                  device: DeviceArg = None) -> dict:
    """Txid ``index``'s merkle branch, as Electrum's ``blockchain.transaction.get_merkle`` gives
    it, with the txid and the root beside it: ``{"txid", "pos", "merkle", "root"}``, hex in the
    byte order of ``txids`` (see :func:`bitcoin_root`)."""
    index = _args.count(index, "index")
    with _sources.opened(txids) as (kind, payload):
        text = _merklize.bitcoin_proof(resolve(device)._impl, kind, payload, bool(display_order),
                                       index)
    return _json.loads(text)


def filecoin_commitment(data: Any, device: DeviceArg = None) -> Tuple[Digest, int]:
    """Filecoin's piece commitment (CommP, the root of tree_d) of ``data``, the raw unpadded
    bytes of a piece (as :func:`merklize.root` takes data), and the padded piece's size in bytes:
    Fr32-padded, zero-padded to a power of two of at least 128 bytes, SHA-256 truncated to 254
    bits. No data raises :class:`ArgumentError`."""
    with _sources.opened(data) as (kind, payload):
        commitment, padded = _merklize.filecoin_commitment(resolve(device)._impl, kind, payload)
    return Digest(commitment), padded


def filecoin_piece_cid(commitment: Any) -> str:
    """The piece CID of a commitment, as Lotus prints it (``baga6ea4sea...``: CIDv1,
    fil-commitment-unsealed, sha2-256-trunc254-padded, base32)."""
    return _merklize.filecoin_piece_cid(_args.byte_string(commitment, "commitment"))
