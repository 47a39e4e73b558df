# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Digest: the 32 bytes of a root or a node, printed as the command-line tool prints them."""
from __future__ import annotations

from ._errors import ArgumentError

DIGEST_SIZE = 32


class Digest(bytes):
    """32 bytes: a root, a node or a hash. A ``bytes`` object in every way, except that
    ``str(d)`` is its 64 lowercase hex digits (so ``print(merklize.root(data))`` prints what
    ``merklize root FILE`` prints) and ``repr(d)`` is ``Digest('<hex>')``.

    ``Digest(value)`` takes 32 bytes (any bytes-like object) or 64 hex digits.
    """

    __slots__ = ()

    def __new__(cls, value: bytes | bytearray | memoryview | str) -> "Digest":
        if isinstance(value, int):  # bytes(n) would be n zero bytes
            raise TypeError(f"a digest is 32 bytes or 64 hex digits, not an int ({value})")
        if isinstance(value, str):
            try:
                value = bytes.fromhex(value)
            except ValueError:
                raise ArgumentError(f"digest {value!r} is not hex digits") from None
        digest = super().__new__(cls, value)
        if len(digest) != DIGEST_SIZE:
            raise ArgumentError(f"a digest is 32 bytes, not {len(digest)}")
        return digest

    def __str__(self) -> str:
        return self.hex()

    def __repr__(self) -> str:
        return f"Digest('{self.hex()}')"
