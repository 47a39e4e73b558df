# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Checks of the arguments that Python hands to the library: each refuses a bad value with an
exception naming the argument (a TypeError for a wrong type, an ArgumentError for a wrong value),
before any work."""
from __future__ import annotations

import operator
from typing import Any

from ._errors import ArgumentError

UINT32_MAX = 2**32 - 1
UINT64_MAX = 2**64 - 1


def count(value: Any, what: str, maximum: int = UINT64_MAX, minimum: int = 0) -> int:
    """An integer from ``minimum`` to ``maximum`` (an index, a size, a length)."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not a bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, not {type(value).__name__}") from None
    if not minimum <= number <= maximum:
        raise ArgumentError(f"{what} is {number}: it must be from {minimum} to {maximum}")
    return number


def name(value: Any, what: str) -> str:
    """A name the library takes (a hash, a shape, a framing): a str without NUL."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise ArgumentError(f"{what} {value!r} has a NUL character")
    return value


def optional_name(value: Any, what: str) -> str | None:
    return None if value is None else name(value, what)


def byte_string(value: Any, what: str) -> bytes:
    """Bytes of any bytes-like object (a salt, a key), copied."""
    if isinstance(value, str):
        raise TypeError(f"{what} must be bytes-like, not str (encode it, or bytes.fromhex)")
    try:
        return bytes(memoryview(value))
    except TypeError:
        raise TypeError(f"{what} must be bytes-like, not {type(value).__name__}") from None
