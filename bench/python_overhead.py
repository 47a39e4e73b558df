# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The cost of the Python package: merklize.root / merklize.build (and a Builder's root / build)
against the C calls behind them, merklize_root and merklize_build of libmerklize.so called
through ctypes, in one run on the same device and the same leaves, interleaved so that both see
the same machine. Each call is timed whole by the host's clock: the tree built and back in host
memory (every level, or the root alone), its handle freed.

    python bench/python_overhead.py --library build/libmerklize.so [--leaves-log2 20]
        [--repetitions 15] [--hash blake3] [--clock wall|cpu]

Needs the package installed (pip install .) and the shared library built (target
merklize_shared). Prints the median and the fastest of each, and Python's overhead over C.
"""
from __future__ import annotations

import argparse
import ctypes
import statistics
import time

import merklize

KEEP_ALL, KEEP_ROOT_ONLY = 0, 0xFFFFFFFF


class TreeConfig(ctypes.Structure):
    """merklize_tree_config of include/merklize.h."""

    _fields_ = [("size", ctypes.c_uint32), ("hash", ctypes.c_char_p),
                ("shape", ctypes.c_char_p), ("depth", ctypes.c_int32),
                ("arity", ctypes.c_uint32), ("leaf_size", ctypes.c_uint64),
                ("leaf_hash", ctypes.c_char_p), ("salt", ctypes.c_void_p),
                ("salt_size", ctypes.c_size_t), ("mix_in_length", ctypes.c_int32),
                ("length", ctypes.c_uint64), ("keep", ctypes.c_uint32)]


class Source(ctypes.Structure):
    """merklize_source of include/merklize.h."""

    _fields_ = [("kind", ctypes.c_int), ("data", ctypes.c_void_p), ("size", ctypes.c_uint64),
                ("path", ctypes.c_char_p), ("fd", ctypes.c_int)]


class CLibrary:
    """The C calls, on the default device, through ctypes."""

    def __init__(self, path: str, hash: str) -> None:
        self.lib = ctypes.CDLL(path)
        self.lib.merklize_last_error.restype = ctypes.c_char_p
        self.device = ctypes.c_void_p()
        self.check(self.lib.merklize_device_open(None, ctypes.byref(self.device)), "device")
        self.hash = hash.encode()

    def check(self, status: int, what: str) -> None:
        if status != 0:
            raise RuntimeError(f"{what}: {self.lib.merklize_last_error().decode()}")

    def builder(self, keep: int) -> ctypes.c_void_p:
        config = TreeConfig()
        self.lib.merklize_tree_config_init(ctypes.byref(config))
        config.hash, config.keep = self.hash, keep
        builder = ctypes.c_void_p()
        self.check(self.lib.merklize_builder_create(self.device, ctypes.byref(config),
                                                    ctypes.byref(builder)), "builder")
        return builder

    def root(self, builder: ctypes.c_void_p, source: Source) -> bytes:
        root = ctypes.create_string_buffer(32)
        self.check(self.lib.merklize_root(builder, ctypes.byref(source), root), "root")
        return root.raw

    def build(self, builder: ctypes.c_void_p, source: Source) -> bytes:
        tree, root = ctypes.c_void_p(), ctypes.create_string_buffer(32)
        self.check(self.lib.merklize_build(builder, ctypes.byref(source), ctypes.byref(tree)),
                   "build")
        self.check(self.lib.merklize_tree_root(tree, root), "tree root")
        self.lib.merklize_tree_free(tree)
        return root.raw


#: The clock of the timings: wall time, or with --clock cpu the CPU time of the whole process
#: (PoCL's threads included), which other processes on a shared machine disturb less.
CLOCK = time.perf_counter


def timed(call) -> tuple:
    start = CLOCK()
    result = call()
    return (CLOCK() - start) * 1e3, result


def compare(what: str, calls: dict, repetitions: int) -> None:
    """Runs each call once untimed, then `repetitions` rounds of all of them, interleaved."""
    times = {name: [] for name in calls}
    roots = {name: call() for name, call in calls.items()}  # warm-up
    for _ in range(repetitions):
        for name, call in calls.items():
            ms, roots[name] = timed(call)
            times[name].append(ms)
    if len({bytes(r) for r in roots.values()}) != 1:
        raise SystemExit(f"python_overhead: the roots of {what} differ: {roots}")
    c_median = statistics.median(times["C"])
    c_fastest = min(times["C"])
    for name, ms in times.items():
        median, fastest = statistics.median(ms), min(ms)
        print(f"  {what:<12} {name:<15} {median:9.3f} ms (fastest {fastest:9.3f})  vs C "
              f"{100 * (median / c_median - 1):+7.2f}% "
              f"(fastest {100 * (fastest / c_fastest - 1):+7.2f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", default="build/libmerklize.so")
    parser.add_argument("--leaves-log2", type=int, default=20)
    parser.add_argument("--repetitions", type=int, default=15)
    parser.add_argument("--hash", default="blake3")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    c = CLibrary(args.library, args.hash)
    device = merklize.Device()
    print(f"python_overhead: hash {args.hash}, {args.clock} clock, on {device.info.name} "
          f"[{device.info.platform}], merklize {merklize.__version__}")
    c_all, c_root = c.builder(KEEP_ALL), c.builder(KEEP_ROOT_ONLY)
    b_all = merklize.Builder(hash=args.hash, device=device)
    # The fixed cost of a call, on one leaf (no device work), then the given size.
    for log2, repetitions in ((0, 200), (args.leaves_log2, args.repetitions)):
        print(f"2^{log2} leaves, {repetitions} repetitions:")
        run_size(c, (c_all, c_root), b_all, device, pattern(32 << log2), args.hash, repetitions)


def run_size(c: CLibrary, c_builders: tuple, builder: merklize.Builder, device: merklize.Device,
             leaves: bytes, hash: str, repetitions: int) -> None:
    """Every level, then the root, of `leaves` by each caller."""
    source = Source(0, ctypes.cast(ctypes.c_char_p(leaves), ctypes.c_void_p), len(leaves), None,
                    -1)
    compare("every level", {
        "C": lambda: c.build(c_builders[0], source),
        "merklize.build": lambda: merklize.build(leaves, hash=hash, device=device).root,
        "Builder.build": lambda: builder.build(leaves).root,
    }, repetitions)
    compare("root", {
        "C": lambda: c.root(c_builders[1], source),
        "merklize.root": lambda: merklize.root(leaves, hash=hash, device=device),
        "Builder.root": lambda: builder.root(leaves),
    }, repetitions)


def pattern(size: int) -> bytes:
    """`size` bytes of leaves, as bench/capi_bench.cpp makes them."""
    block = bytes((i * 7 + (i >> 12)) & 0xFF for i in range(min(size, 1 << 17)))
    return (block * (size // len(block)))[:size]


if __name__ == "__main__":
    main()
