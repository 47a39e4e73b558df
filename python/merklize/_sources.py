# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The inputs of the library: what a ``data`` argument may be, and how it is handed over.

- A bytes-like object or a numpy array (anything of the buffer protocol, C-contiguous): read in
  place, without a copy, while the library works.
- A ``str`` or an ``os.PathLike``: a file's path, which the library opens and streams.
- A file object with a working ``fileno()`` (``open(path, "rb")``, a socket's file, a pipe): the
  library reads its descriptor from the object's current position to its end, and a seekable
  object is left at its end. An ``io.BytesIO`` is read in place from its position; any other
  object with ``read()`` is read whole first.
"""
from __future__ import annotations

import contextlib
import io
import os
from typing import Any, Iterator, Tuple

MEMORY, PATH, FD = 0, 1, 2  # merklize_source_kind

Source = Tuple[int, Any]

_BYTES_LIKE = (bytes, bytearray, memoryview)


@contextlib.contextmanager
def opened(data: Any) -> Iterator[Source]:
    """Yields ``(kind, payload)`` for the extension module, held for the call's duration."""
    if isinstance(data, _BYTES_LIKE):
        yield MEMORY, data
    elif isinstance(data, (str, os.PathLike)):
        yield PATH, os.fsencode(data)
    elif hasattr(data, "__buffer__") or _has_buffer(data):
        yield MEMORY, data
    elif hasattr(data, "fileno") or hasattr(data, "read"):
        with _file(data) as source:
            yield source
    else:
        raise TypeError("data must be bytes-like (or a numpy array), a path (str or os.PathLike) "
                        f"or a binary file object, not {type(data).__name__}")


def _has_buffer(data: Any) -> bool:
    if isinstance(data, int):  # memoryview(int) fails anyway; an int is no file descriptor here
        return False
    try:
        memoryview(data).release()
        return True
    except TypeError:
        return False


def _descriptor(file: Any) -> int | None:
    try:
        return file.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None


def _seekable(file: Any) -> bool:
    try:
        return bool(file.seekable())
    except (AttributeError, OSError, ValueError):
        return False


@contextlib.contextmanager
def _file(file: Any) -> Iterator[Source]:
    fd = _descriptor(file)
    if fd is not None:
        seekable = _seekable(file)
        if seekable:  # the descriptor from where Python's buffered reader stands
            os.lseek(fd, file.tell(), os.SEEK_SET)
        try:
            yield FD, fd
        finally:
            if seekable:
                file.seek(0, os.SEEK_END)
    elif isinstance(file, io.BytesIO):
        with file.getbuffer() as whole, whole[file.tell():] as rest:
            yield MEMORY, rest
        file.seek(0, os.SEEK_END)
    elif hasattr(file, "read"):
        data = file.read()
        if isinstance(data, str):
            raise TypeError("data: a text file object gives str: open the file in binary mode")
        yield MEMORY, data
    else:
        raise TypeError(f"data: a {type(file).__name__} has neither a working fileno() nor read()")
