# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Many small trees at once: roots_many, the roots of consecutive trees of ``tree_size`` leaves
built together on the device (a launch a level over all of them)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _args, _merklize
from ._devices import DeviceArg
from ._digest import DIGEST_SIZE
from ._trees import _cached_builder, _config


def roots_many(leaves: Any, tree_size: int, hash: str = "blake3", shape: str = "promote",
               depth: Optional[int] = None, device: DeviceArg = None) -> np.ndarray:
    """The roots of B trees of ``tree_size`` leaves each, built at once: tree k is the binary
    tree (``hash``, ``shape``, ``depth`` as :class:`merklize.Builder` takes them) over leaves
    ``[k * tree_size, (k + 1) * tree_size)``, its root bit for bit :func:`merklize.root`'s of
    those leaves.

    ``leaves``: any bytes-like object or C-contiguous numpy array of ``B * tree_size`` 32-byte
    leaves (read in place, without a copy), e.g. a ``(B * tree_size, 32)`` ``uint8`` array.
    Returns a read-only ``uint8`` array of shape ``(B, 32)``: ``roots[k]`` is tree k's root
    (``bytes(roots[k])`` its bytes). A length that is no whole number of trees raises
    :class:`merklize.ArgumentError` saying what is left over.
    """
    tree_size = _args.count(tree_size, "tree_size")
    options = _config(hash, shape, depth, 2, 0, None, b"", None, "root")
    roots = _merklize.roots_many(_cached_builder(device, options)._impl, leaves, tree_size)
    return np.frombuffer(roots, dtype=np.uint8).reshape(-1, DIGEST_SIZE)
