# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The cost of merklize.DeviceTree.update against the C call behind it,
merklize_device_tree_update of libmerklize.so through ctypes, on two trees of the same leaves on
the default device, interleaved (python_overhead.compare): PCT% of 2^LOG2 leaves at random
indices, one batch applied again each call (the work of an update does not depend on the values).

    python bench/device_tree_python.py --library build/libmerklize.so [--leaves-log2 25]
        [--repetitions 9] [--hash blake3] [--percent 1]

Needs the package installed (pip install .) and the shared library built (target
merklize_shared). Prints the median and the fastest of each and Python's overhead over C.
"""
from __future__ import annotations

import argparse
import ctypes

import numpy as np

import merklize
from python_overhead import CLibrary, compare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", required=True)
    parser.add_argument("--leaves-log2", type=int, default=25)
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--hash", default="blake3")
    parser.add_argument("--percent", type=float, default=1.0)
    args = parser.parse_args()
    n = 1 << args.leaves_log2
    rng = np.random.default_rng(31)
    leaves = rng.integers(0, 256, (n, 32), dtype=np.uint8)
    batch = max(1, int(n * args.percent / 100))
    indices = rng.integers(0, n, batch, dtype=np.uint64)
    values = rng.integers(0, 256, (batch, 32), dtype=np.uint8)

    c = CLibrary(args.library, args.hash)
    builder, c_tree = c.builder(0), ctypes.c_void_p()
    c.check(c.lib.merklize_device_tree_create(builder, leaves.ctypes.data_as(ctypes.c_void_p),
                                              ctypes.c_uint64(leaves.nbytes),
                                              ctypes.byref(c_tree)), "device tree")
    py_tree = merklize.DeviceTree(leaves, hash=args.hash)
    root = ctypes.create_string_buffer(32)

    def c_update() -> bytes:
        c.check(c.lib.merklize_device_tree_update(
            c_tree, indices.ctypes.data_as(ctypes.c_void_p), values.ctypes.data_as(ctypes.c_void_p),
            ctypes.c_uint64(batch), root), "update")
        return root.raw

    print(f"{merklize.devices()[0].name if merklize.devices() else '?'}: {args.hash}, "
          f"2^{args.leaves_log2} leaves, batches of {batch}")
    compare("update", {"C": c_update, "DeviceTree": lambda: py_tree.update(indices, values)},
            args.repetitions)
    c.lib.merklize_device_tree_free(c_tree)
    c.lib.merklize_builder_free(builder)


if __name__ == "__main__":
    main()
