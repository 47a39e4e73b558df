# SPDX-License-Identifier: Apache-2.0 OR MIT
"""DeviceTree: trees kept on the device and updated in place, against the trees computed here
(oracles.py) and a fresh merklize.build of the updated leaves, at 1, 2, 3, 255, 256 and 257
leaves: batches of one leaf, the last leaf, every leaf, repeats (the last value wins), from lists
and numpy arrays, with their multiproofs; an SSZ-shaped tree against remerkleable; and the
refusals, which leave the tree as it was."""
from __future__ import annotations

import random
import threading

import numpy as np
import oracles
import pytest

import merklize

SIZES = (1, 2, 3, 255, 256, 257)


def as_list(level: np.ndarray) -> list:
    return [bytes(row) for row in level]


def check(tree: merklize.DeviceTree, leaves: list, hash: str, shape: str, depth=None) -> None:
    expected = oracles.levels(leaves, oracles.NODE[hash], shape, depth)
    assert tree.root == expected[-1][0]
    fresh = merklize.build(b"".join(leaves), hash=hash, shape=shape, depth=depth)
    assert tree.root == fresh.root
    assert len(tree) == tree.leaf_count == len(leaves) and tree.depth == fresh.depth
    for k, level in enumerate(tree.levels()):
        assert as_list(level) == as_list(fresh.level(k)), k
    assert tree.prove(len(leaves) - 1) == fresh.prove(len(leaves) - 1)


def batches(n: int, rng: random.Random) -> list:
    every = list(range(n))
    rng.shuffle(every)
    return [[0], [n - 1], every, [0, n // 2, 0, n - 1, 0], [rng.randrange(n) for _ in range(9)]]


@pytest.mark.parametrize("hash,shape,depth", [("sha256", "promote", None),
                                              ("sha256", "zero", None), ("sha256", "zero", 10),
                                              ("rfc6962", "promote", None),
                                              ("blake3", "promote", None),
                                              ("keccak256", "zero", None)])
def test_updates_against_the_oracle(hash, shape, depth):
    rng = random.Random(31)
    for n in SIZES:
        leaves = oracles.split(oracles.random_leaves(n))
        tree = merklize.DeviceTree(b"".join(leaves), hash=hash, shape=shape, depth=depth)
        check(tree, leaves, hash, shape, depth)
        for k, indices in enumerate(batches(n, rng)):
            values = [rng.randbytes(32) for _ in indices]
            for i, value in zip(indices, values):
                leaves[i] = value  # in order: a repeated index ends with its last value
            as_array = k % 2 == 1  # numpy indices and leaves every other batch
            given = np.array(indices, dtype=np.uint64) if as_array else indices
            data = np.frombuffer(b"".join(values), np.uint8).reshape(-1, 32) if as_array else \
                b"".join(values)
            if k >= 2:
                root, proof = tree.update_proved(given, data)
                fresh = merklize.build(b"".join(leaves), hash=hash, shape=shape, depth=depth)
                assert proof == fresh.prove_multi(indices)
                assert proof.verify([leaves[i] for i in proof.indices], root)
            else:
                root = tree.update(given, data)
            assert root == tree.root, (n, k)
            check(tree, leaves, hash, shape, depth)


def test_ssz_shaped_tree_against_remerkleable():
    from remerkleable.byte_arrays import Bytes32
    from remerkleable.complex import Vector

    n = 64
    chunks = oracles.split(oracles.random_leaves(n))
    tree = merklize.DeviceTree(np.frombuffer(b"".join(chunks), np.uint8).reshape(n, 32),
                               hash="sha256", shape="zero")
    value = Vector[Bytes32, n](*map(Bytes32, chunks))
    assert tree.root == value.hash_tree_root()
    for i in (0, 17, 63):
        chunks[i] = bytes([i]) * 32
        value[i] = Bytes32(chunks[i])
    assert tree.update([0, 17, 63], b"".join(chunks[i] for i in (0, 17, 63))) == \
        value.hash_tree_root()


def test_refused_updates_leave_the_tree_unchanged():
    leaves = oracles.split(oracles.random_leaves(257))
    tree = merklize.DeviceTree(b"".join(leaves), hash="sha256")
    before = tree.root
    with pytest.raises(merklize.ArgumentError, match="leaf index 257"):
        tree.update([3, 257], bytes(64))
    with pytest.raises(merklize.ArgumentError, match="leaf index"):
        tree.update_proved(np.array([1000], dtype=np.uint64), bytes(32))
    with pytest.raises(merklize.ArgumentError, match="new_leaves is 32 bytes, and 2 indices"):
        tree.update([1, 2], bytes(32))
    with pytest.raises(merklize.ArgumentError, match=r"indices\[1\] is -1"):
        tree.update([1, -1], bytes(64))
    with pytest.raises(TypeError, match="indices must be ints"):
        tree.update([1.5], bytes(32))
    with pytest.raises(merklize.ArgumentError, match="level 10 out of range"):
        tree.level(10)
    with pytest.raises(merklize.ArgumentError, match="out of range"):
        tree.prove(257)
    assert tree.root == before
    assert as_list(tree.level(0)) == leaves
    assert tree.update([], b"") == before  # an empty batch changes nothing


def test_refused_trees():
    with pytest.raises(merklize.ArgumentError, match="leaves"):
        merklize.DeviceTree(bytes(33), hash="sha256")
    with pytest.raises(merklize.ArgumentError, match="leaves"):
        merklize.DeviceTree(b"", hash="sha256")
    with pytest.raises(merklize.ArgumentError, match="hash"):
        merklize.DeviceTree(bytes(64), hash="md5")


def test_the_callers_data_is_read_in_place_and_not_written():
    data = bytearray(oracles.random_leaves(300))
    original = bytes(data)
    tree = merklize.DeviceTree(data, hash="sha256")
    indices = np.array([5, 299], dtype=np.uint64)
    values = np.frombuffer(oracles.random_leaves(2, seed=9), np.uint8).reshape(2, 32).copy()
    tree.update(indices, values)
    assert bytes(data) == original
    assert indices.tolist() == [5, 299] and bytes(values) == oracles.random_leaves(2, seed=9)


def test_threads_share_one_tree():
    n = 256
    leaves = oracles.split(oracles.random_leaves(n))
    tree = merklize.DeviceTree(b"".join(leaves), hash="sha256")
    errors = []

    def work(part: int) -> None:
        try:
            for i in range(part, n, 4):  # each thread its own leaves
                tree.update([i], bytes([part]) * 32)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(p,)) for p in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    expected = [bytes([i % 4]) * 32 for i in range(n)]
    assert tree.root == oracles.root(expected, oracles.sha256)
