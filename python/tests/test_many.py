# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Many small trees at once (merklize.roots_many) against the oracle tree of each run of leaves
(hashlib, blake3, pycryptodome) and merklize.root: every hash (the Poseidon2 ones over canonical
leaves, test_poseidon2.py holding them to a model), both shapes and a fixed depth, at
awkward tree sizes and numbers of trees, from bytes and numpy arrays; and the refusals."""
from __future__ import annotations

import numpy as np
import oracles
import pytest

import merklize

SIZES = [1, 2, 3, 7, 8, 9, 255, 256, 257]


def _cases():
    for hash in merklize.HASHES:
        yield hash, "promote", None
        if hash != "rfc6962":
            yield hash, "zero", None
    yield "sha256", "zero", 10


@pytest.mark.parametrize("hash,shape,depth", list(_cases()))
def test_roots_against_the_oracle(hash, shape, depth):
    for n in SIZES:
        for trees in (1, 2, 3):
            data = oracles.leaves_for(hash, n * trees, seed=trees)
            roots = merklize.roots_many(data, n, hash=hash, shape=shape, depth=depth)
            assert roots.shape == (trees, 32) and roots.dtype == np.uint8
            for k in range(trees):
                run = data[k * n * 32:(k + 1) * n * 32]
                assert bytes(roots[k]) == merklize.root(run, hash=hash, shape=shape, depth=depth)
                if hash in oracles.NODE:
                    expected = oracles.root(oracles.split(run), oracles.NODE[hash], shape, depth)
                    assert bytes(roots[k]) == expected, (hash, shape, n, trees, k)


def test_a_thousand_trees_from_a_numpy_array():
    data = np.frombuffer(oracles.random_leaves(9 * 1000), dtype=np.uint8).reshape(-1, 32)
    roots = merklize.roots_many(data, 9, hash="sha256")
    assert roots.shape == (1000, 32)
    for k in (0, 1, 500, 999):
        leaves = [bytes(row) for row in data[k * 9:(k + 1) * 9]]
        assert bytes(roots[k]) == oracles.root(leaves, oracles.sha256)


def test_refusals_say_what_is_wrong():
    data = bytes(320)
    with pytest.raises(merklize.ArgumentError, match="tree_size is 0"):
        merklize.roots_many(data, 0)
    with pytest.raises(merklize.ArgumentError, match="31 bytes left over"):
        merklize.roots_many(data[:319], 5)
    with pytest.raises(merklize.ArgumentError, match="3 trees and 1 leaves left over"):
        merklize.roots_many(data, 3)
    with pytest.raises(merklize.ArgumentError, match="needs shape zero"):
        merklize.roots_many(data, 5, depth=4)
    with pytest.raises(merklize.ArgumentError, match="leaves"):
        merklize.roots_many("not bytes", 5)
