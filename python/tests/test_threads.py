# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The GIL is released while the library works: another Python thread runs meanwhile, and
several threads build at once, each getting its own right root."""
from __future__ import annotations

import threading
import time

import oracles

import merklize


def test_python_runs_while_the_library_builds():
    data = oracles.random_leaves(2**20)
    builder = merklize.Builder(hash="sha256")
    builder.root(data[:32 * 1024])  # programs compiled before the timing
    done = threading.Event()
    spans = []

    def build():
        start = time.perf_counter()
        for _ in range(3):
            builder.root(data)
        spans.append(time.perf_counter() - start)
        done.set()

    worker = threading.Thread(target=build)
    ticks, gaps, last = 0, [], time.perf_counter()
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        gaps.append(now - last)
        last, ticks = now, ticks + 1
    worker.join()
    # Had the build held the GIL, this loop would have stood still for a whole build.
    assert ticks > 1000 and max(gaps) < spans[0] / 2, (ticks, max(gaps), spans)


def test_threads_build_at_once():
    sizes = [1000, 3000, 5000, 7000]
    expected = {n: oracles.root(oracles.split(oracles.random_leaves(n)), oracles.sha256)
                for n in sizes}
    results, errors = {}, []

    def build(n):
        try:
            builder = merklize.Builder(hash="sha256")
            shared = merklize.build(oracles.random_leaves(n), hash="sha256").root
            results[n] = (builder.root(oracles.random_leaves(n)), shared)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=build, args=(n,)) for n in sizes for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == {n: (expected[n], expected[n]) for n in sizes}
