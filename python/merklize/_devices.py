# SPDX-License-Identifier: Apache-2.0 OR MIT
"""OpenCL devices: the list, an opened device, and the device a ``device=`` argument names."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Dict, List, Optional, Union

from . import _merklize


@dataclass(frozen=True)
class DeviceInfo:
    """Facts of an OpenCL device, as ``merklize devices`` lists them."""

    #: ``"P:D"``, the spec that selects exactly this device ("" for a device that is not listed).
    spec: str
    #: The device's name.
    name: str
    #: The device's vendor.
    vendor: str
    #: The platform's name.
    platform: str
    #: ``"gpu"``, ``"cpu"``, ``"accelerator"`` or ``"other"``.
    type: str


def devices() -> List[DeviceInfo]:
    """The OpenCL devices of every platform, in the order ``merklize devices`` lists them; an
    empty list where no OpenCL platform is installed."""
    return [DeviceInfo(*_merklize.device_info(i)) for i in range(_merklize.device_count())]


class Device:
    """An OpenCL device and its context, opened once and used by many calls.

    ``spec`` is what the command-line tool's ``--device`` takes: ``"P:D"`` as :func:`devices`
    lists them, a case-insensitive part of a device's or platform's name or vendor, or ``"gpu"``
    / ``"cpu"``. ``None`` (or ``""``): the default device, ``$MERKLIZE_DEVICE`` if set, else the
    first GPU, else the first device. Raises :class:`merklize.DeviceError` where none matches.

    A device may be used from several threads; the library serialises its calls.
    """

    __slots__ = ("_impl", "info")

    def __init__(self, spec: Optional[str] = None) -> None:
        if spec is not None and not isinstance(spec, str):
            raise TypeError(f"spec must be a str or None, not {type(spec).__name__}")
        self._impl = _merklize._Device(spec)
        #: The device's :class:`DeviceInfo`.
        self.info = DeviceInfo(*self._impl.info())

    def __repr__(self) -> str:
        return f"Device({self.info.spec!r})  # {self.info.name}, {self.info.platform}"


DeviceArg = Union[Device, str, None]

_opened: Dict[str, Device] = {}
_lock = threading.Lock()


def resolve(device: DeviceArg) -> Device:
    """The device a ``device=`` argument names: a :class:`Device` as it is; a spec or ``None``
    (the default device) opened on first use and kept for the next calls."""
    if isinstance(device, Device):
        return device
    if device is not None and not isinstance(device, str):
        raise TypeError(f"device must be a merklize.Device, a spec str or None, not "
                        f"{type(device).__name__}")
    key = device or ""
    with _lock:
        found = _opened.get(key)
        if found is None:
            found = _opened[key] = Device(device or None)
        return found
