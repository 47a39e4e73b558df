# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Hashing on a device: full BLAKE3, the SHA-256 layer, and RFC 6962 leaf hashes of log
entries."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _args, _merklize, _sources
from ._devices import DeviceArg, resolve
from ._digest import DIGEST_SIZE, Digest
from ._errors import ArgumentError

_HASH, _KEYED, _DERIVE_KEY = 0, 1, 2  # merklize_blake3_kind


class blake3:
    """BLAKE3 as hashlib's objects hash, on the host (no device): a drop-in for blake3-py's
    ``blake3.blake3``. ``blake3(data=b"", /, *, key=None, derive_key_context=None,
    max_threads=1, usedforsecurity=True)``: the plain hash; with ``key`` (32 bytes) the keyed
    hash; with ``derive_key_context`` (a str) derive_key, what is given being the key material.
    ``max_threads`` and ``usedforsecurity`` are taken as blake3-py takes them and change nothing
    (one thread hashes). Each call holds the hasher's lock; large updates release the GIL."""

    name = "blake3"
    digest_size = 32
    block_size = 64
    key_size = 32
    AUTO = -1

    def __init__(self, data: Any = b"", /, *, key: Any = None,
                 derive_key_context: Union[str, bytes, None] = None, max_threads: int = 1,
                 usedforsecurity: bool = True) -> None:
        if key is not None and derive_key_context is not None:
            raise ArgumentError("blake3: key (keyed_hash) and derive_key_context exclude each "
                                "other")
        if max_threads != self.AUTO and (not isinstance(max_threads, int) or max_threads < 1):
            raise ArgumentError(f"blake3: max_threads is {max_threads!r}: 1 or more, or "
                                "blake3.AUTO")
        mode = _HASH
        if key is not None:
            key, mode = _args.byte_string(key, "key"), _KEYED
        context = None
        if derive_key_context is not None:
            context, mode = _context(derive_key_context), _DERIVE_KEY
        self._hasher = _merklize._Blake3Hasher(mode, key, context)
        self.update(data)

    def update(self, data: Any, /) -> "blake3":
        """Adds ``data`` (any bytes-like object) to what is hashed; returns the hasher."""
        if isinstance(data, str):
            raise TypeError("Strings must be encoded before hashing")
        self._hasher.update(data)
        return self

    def digest(self, length: int = DIGEST_SIZE, *, seek: int = 0) -> bytes:
        """``length`` bytes of BLAKE3's extendable output of what was given, from byte ``seek``;
        more may be given after."""
        return self._hasher.finalize(_args.count(length, "length", 2**62),
                                     _args.count(seek, "seek", 2**64 - 1))

    def hexdigest(self, length: int = DIGEST_SIZE, *, seek: int = 0) -> str:
        """:meth:`digest` as lowercase hexadecimal."""
        return self.digest(length, seek=seek).hex()

    def copy(self) -> "blake3":
        """A hasher in the same state, which goes its own way."""
        twin = blake3.__new__(blake3)
        twin._hasher = self._hasher.copy()
        return twin

    def reset(self) -> None:
        """Back to no input, keeping the key or context."""
        self._hasher.reset()


def blake3_device(data: Any, key: Any = None, context: Union[str, bytes, None] = None,
                  length: int = DIGEST_SIZE, device: DeviceArg = None) -> Union[Digest, bytes]:
    """Full BLAKE3 of ``data`` on the device (what ``b3sum`` prints): the plain hash; with
    ``key`` (32 bytes) the keyed hash; with ``context`` (a str) derive_key, ``data`` being the
    key material. ``length`` bytes of BLAKE3's extendable output: a :class:`Digest` for 32, else
    ``bytes``. ``data`` is taken as :func:`merklize.root` takes it (a path or a file is
    streamed)."""
    if key is not None and context is not None:
        raise ArgumentError("blake3: key (keyed_hash) and context (derive_key) exclude each other")
    mode = _HASH
    if key is not None:
        key, mode = _args.byte_string(key, "key"), _KEYED
    if context is not None:
        context, mode = _context(context), _DERIVE_KEY
    length = _args.count(length, "length", 2**62)
    with _sources.opened(data) as (kind, payload):
        out = _merklize.blake3_device(resolve(device)._impl, kind, payload, mode, key, context, length)
    return Digest(out) if length == DIGEST_SIZE else out


def _context(context: Union[str, bytes]) -> str:
    if isinstance(context, (bytes, bytearray)):
        try:
            context = bytes(context).decode("utf-8")
        except UnicodeDecodeError:
            raise ArgumentError("context: bytes that are not UTF-8 (pass a str)") from None
    return _args.name(context, "context")


def sha256_layer(chunks: Any, device: DeviceArg = None) -> Union[bytes, np.ndarray]:
    """hashtree's layer: n 64-byte blocks in (each two 32-byte nodes), their n SHA-256 digests
    out, the level above a level of SHA-256 nodes. ``chunks`` is ``64 * n`` bytes of any
    bytes-like object, read in place; a numpy array gives an (n, 32) ``uint8`` array, anything
    else ``bytes``."""
    digests = _merklize.sha256_layer(resolve(device)._impl, chunks)
    if isinstance(chunks, np.ndarray):
        return np.frombuffer(digests, dtype=np.uint8).reshape(-1, DIGEST_SIZE)
    return digests


def log_leaves(entries: Any, framing: Optional[str] = "lines",
               device: DeviceArg = None) -> np.ndarray:
    """RFC 6962 leaf hashes, SHA-256(0x00 || entry), of a log's entries: the leaves of a tree of
    hash ``"rfc6962"``. ``entries`` is data (as :func:`merklize.root` takes it) framed by
    ``framing``, ``"lines"`` (each line an entry, without its newline) or ``"length-prefixed"``
    (each entry after its length, 4 bytes big-endian), or a list of bytes-like entries (framed
    here, ``framing`` then ignored). Returns a read-only ``uint8`` array of shape (n, 32), over
    the library's memory."""
    if isinstance(entries, (list, tuple)):
        entries, framing = _length_prefixed(entries), "length-prefixed"
    framing = _args.name(framing, "framing")
    with _sources.opened(entries) as (kind, payload):
        return _merklize.log_leaves(resolve(device)._impl, kind, payload, framing)


def _length_prefixed(entries: Sequence[Any]) -> bytes:
    parts = []
    for i, entry in enumerate(entries):
        data = _args.byte_string(entry, f"entries[{i}]")
        if len(data) >= 2**32:
            raise ArgumentError(f"entries[{i}] is {len(data)} bytes: at most 2**32 - 1")
        parts += [len(data).to_bytes(4, "big"), data]
    return b"".join(parts)
