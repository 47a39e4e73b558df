# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The exceptions of merklize: one class for each status of the C library (include/merklize.h).

Each carries the library's message (``merklize_last_error()``), which names the input and the
reason, as ``str(e)``, and the status's name as ``e.status``. Each derives from :class:`Error`
and from the built-in exception a caller would expect: an :class:`ArgumentError` is a
``ValueError``, a :class:`FileError` an ``OSError``, and so on.
"""
from __future__ import annotations


class Error(Exception):
    """Base of every exception that merklize raises for a failure of the library."""

    #: The name of the library's status, e.g. ``"MERKLIZE_ERROR_ARGUMENT"``.
    status: str | None = None


class ArgumentError(Error, ValueError):
    """A bad argument: an unknown name, a configuration the tree does not allow, data of the
    wrong length, an index out of range (``MERKLIZE_ERROR_ARGUMENT``)."""

    status = "MERKLIZE_ERROR_ARGUMENT"


class DeviceError(Error, RuntimeError):
    """No OpenCL device is installed, or none matches the spec (``MERKLIZE_ERROR_NO_DEVICE``)."""

    status = "MERKLIZE_ERROR_NO_DEVICE"


class OpenCLError(Error, RuntimeError):
    """An OpenCL call failed; the message names the call and its code
    (``MERKLIZE_ERROR_OPENCL``)."""

    status = "MERKLIZE_ERROR_OPENCL"


class FileError(Error, OSError):
    """A file could not be opened or read, or changed while it was read
    (``MERKLIZE_ERROR_IO``)."""

    status = "MERKLIZE_ERROR_IO"


class DecodeError(Error, ValueError):
    """An encoded proof or a JSON text could not be decoded (``MERKLIZE_ERROR_DECODE``)."""

    status = "MERKLIZE_ERROR_DECODE"


class OutOfMemoryError(Error, MemoryError):
    """Host memory ran out (``MERKLIZE_ERROR_NO_MEMORY``)."""

    status = "MERKLIZE_ERROR_NO_MEMORY"


class InternalError(Error, RuntimeError):
    """A bug of libmerklize: please report the message (``MERKLIZE_ERROR_INTERNAL``)."""

    status = "MERKLIZE_ERROR_INTERNAL"


class UnusableTreeError(Error, RuntimeError):
    """A device tree that an earlier failed call left unusable, every later call refused: free it
    and build it again (``MERKLIZE_ERROR_UNUSABLE``)."""

    status = "MERKLIZE_ERROR_UNUSABLE"


class InvalidProofError(Error, ValueError):
    """A proof that does not verify, raised by ``verify(..., raise_on_failure=True)`` with the
    library's reason. Not a failure of the library: its status is ``None``."""


_BY_STATUS = {
    1: ArgumentError,
    2: DeviceError,
    3: OpenCLError,
    4: FileError,
    5: DecodeError,
    6: OutOfMemoryError,
    7: InternalError,
    8: UnusableTreeError,
}


def error_class(status: int) -> type[Error]:
    """The exception class of a status of the library (the extension module raises it)."""
    return _BY_STATUS.get(status, InternalError)
