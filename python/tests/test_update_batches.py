# SPDX-License-Identifier: Apache-2.0 OR MIT
"""DeviceTree's update batches filled in place (merklize.UpdateBatch over page-locked memory),
against the trees computed here (oracles.py) and a twin tree updated by DeviceTree.update, at 1,
2, 3, 255, 256 and 257 leaves: batches of one leaf, the last leaf, every leaf, repeats (the last
value wins), written through the numpy views in place and reused; the views are the batch's
memory (a write shows through a second view) and keep it alive; and the refusals, which leave the
tree as it was. Snapshots and rollbacks (DeviceTree.snapshot, rollback): after updates and appends
past the room, the tree rolled back equals the tree at the snapshot (levels, root, size, proofs)
and a fresh merklize.build; another tree's snapshot is refused, changing nothing. Trees of arity
k (4 and 16) take batches and roll back the same, against a fresh merklize.build."""
from __future__ import annotations

import gc
import random

import numpy as np
import oracles
import pytest

import merklize

SIZES = (1, 2, 3, 255, 256, 257)


def as_list(level: np.ndarray) -> list:
    return [bytes(row) for row in level]


@pytest.mark.parametrize("hash,shape,depth", [("sha256", "promote", None),
                                              ("blake3", "promote", None),
                                              ("keccak256", "zero", 10)])
def test_batches_against_the_oracle_and_ordinary_updates(hash, shape, depth):
    rng = random.Random(34)
    for n in SIZES:
        leaves = oracles.split(oracles.random_leaves(n))
        tree = merklize.DeviceTree(b"".join(leaves), hash=hash, shape=shape, depth=depth)
        twin = merklize.DeviceTree(b"".join(leaves), hash=hash, shape=shape, depth=depth)
        batch = tree.make_update_batch(n + 5)
        assert batch.capacity == len(batch) == n + 5
        assert batch.indices.dtype == np.uint64 and batch.indices.shape == (n + 5,)
        assert batch.leaves.dtype == np.uint8 and batch.leaves.shape == (n + 5, 32)
        every = list(range(n))
        rng.shuffle(every)
        for indices in ([0], [n - 1], every, [0, n // 2, 0, n - 1, 0]):
            values = [rng.randbytes(32) for _ in indices]
            for i, value in zip(indices, values):
                leaves[i] = value  # in order: a repeated index ends with its last value
            count = len(indices)
            batch.indices[:count] = indices
            batch.leaves[:count] = np.frombuffer(b"".join(values), np.uint8).reshape(-1, 32)
            root = tree.update_batch(batch, count)
            expected = oracles.levels(leaves, oracles.NODE[hash], shape, depth)
            assert root == tree.root == expected[-1][0]
            assert twin.update(indices, b"".join(values)) == root
            for k, level in enumerate(tree.levels()):
                assert as_list(level) == as_list(twin.level(k)), k


def test_the_views_are_the_batch_s_memory_and_keep_it_alive():
    leaves = oracles.split(oracles.random_leaves(4))
    tree = merklize.DeviceTree(b"".join(leaves), hash="sha256")
    batch = tree.make_update_batch(2)
    indices, rows = batch.indices, batch.leaves
    indices[:] = [3, 1]
    rows[:] = 7
    assert list(batch._impl.indices()) == [3, 1]  # a second view sees the writes
    assert bytes(batch._impl.leaves()[1]) == bytes([7] * 32)
    del batch
    gc.collect()
    rows[0] = 9  # the views alone keep the memory alive
    with pytest.raises(TypeError, match="merklize.UpdateBatch"):
        tree.update_batch(object(), 1)
    assert tree.update_batch(tree.make_update_batch(1), 0) == tree.root  # none: the root as is


def test_refused_batches_leave_the_tree_unchanged():
    leaves = oracles.split(oracles.random_leaves(257))
    tree = merklize.DeviceTree(b"".join(leaves), hash="blake3")
    before = tree.root
    batch = tree.make_update_batch(3)
    batch.indices[:] = [0, 257, 1]
    batch.leaves[:] = 5
    with pytest.raises(merklize.ArgumentError, match="update 1 of 3: leaf index 257"):
        tree.update_batch(batch)
    with pytest.raises(merklize.ArgumentError, match="4 updates from a batch of room for 3"):
        tree.update_batch(batch, 4)
    with pytest.raises(merklize.ArgumentError, match="count is -1"):
        tree.update_batch(batch, -1)
    with pytest.raises(merklize.ArgumentError, match="a capacity of 0"):
        tree.make_update_batch(0)
    assert tree.root == before
    assert as_list(tree.level(0)) == leaves
    batch.indices[1] = 256  # and the same batch updates right after
    leaves[0], leaves[256], leaves[1] = (bytes([5] * 32),) * 3
    assert tree.update_batch(batch) == oracles.root(leaves, oracles.blake3)


@pytest.mark.parametrize("hash,shape,depth", [("sha256", "promote", None),
                                              ("blake3-parent", "zero", None),
                                              ("keccak256", "zero", 10)])
def test_rollbacks_restore_the_snapshot_s_tree(hash, shape, depth):
    rng = random.Random(7)
    for n in SIZES:
        leaves = oracles.split(oracles.random_leaves(n))
        tree = merklize.DeviceTree(b"".join(leaves), hash=hash, shape=shape, depth=depth)
        snapshot = tree.snapshot()
        assert snapshot.leaf_count == n and snapshot.root == tree.root
        levels = [as_list(level) for level in tree.levels()]
        proof = tree.prove(n - 1)
        indices = [rng.randrange(n) for _ in range(n // 2 + 1)]
        tree.update(indices, b"".join(rng.randbytes(32) for _ in indices))
        tree.append(oracles.random_leaves(n + 3, seed=9))  # past the room: the memory grows
        assert tree.rollback(snapshot) == snapshot.root == tree.root
        assert tree.leaf_count == n
        assert [as_list(level) for level in tree.levels()] == levels
        assert tree.prove(n - 1) == proof
        fresh = merklize.build(b"".join(leaves), hash=hash, shape=shape, depth=depth)
        assert tree.root == fresh.root
        tree.update([n - 1], bytes(32))  # and on from there
        leaves[n - 1] = bytes(32)
        assert tree.root == merklize.build(b"".join(leaves), hash=hash, shape=shape,
                                           depth=depth).root


def test_another_tree_s_snapshot_is_refused_and_changes_nothing():
    data = oracles.random_leaves(9)
    tree = merklize.DeviceTree(data, hash="sha256")
    other = merklize.DeviceTree(data, hash="sha256")
    theirs = other.snapshot()
    tree.update([3], bytes(32))
    before = tree.root
    with pytest.raises(merklize.ArgumentError, match="another tree"):
        tree.rollback(theirs)
    with pytest.raises(TypeError, match="merklize.TreeSnapshot"):
        tree.rollback(object())
    assert tree.root == before
    del other  # a snapshot outlives its tree
    assert theirs.leaf_count == 9 and "TreeSnapshot of 9 leaves" in repr(theirs)


@pytest.mark.parametrize("arity,hash,shape", [(4, "sha256", "promote"), (16, "blake3", "zero")])
def test_trees_of_arity_k_take_batches_and_roll_back(arity, hash, shape):
    rng = random.Random(38)
    for n in (1, arity - 1, arity, arity + 1, arity * arity + 1):
        leaves = oracles.split(oracles.random_leaves(n))
        tree = merklize.DeviceTree(b"".join(leaves), hash=hash, shape=shape, arity=arity)

        def same() -> None:
            fresh = merklize.build(b"".join(leaves), hash=hash, shape=shape, arity=arity)
            assert tree.root == fresh.root and tree.leaf_count == len(leaves)
            for k, level in enumerate(tree.levels()):
                assert as_list(level) == as_list(fresh.level(k)), k

        snapshot = tree.snapshot()
        at_snapshot = list(leaves)
        batch = tree.make_update_batch(n + 4)
        for indices in ([0], [n - 1], list(range(n))[::-1], [0, n // 2, 0, n - 1]):
            values = [rng.randbytes(32) for _ in indices]
            for i, value in zip(indices, values):
                leaves[i] = value  # in order: a repeated index ends with its last value
            batch.indices[:len(indices)] = indices
            batch.leaves[:len(indices)] = np.frombuffer(b"".join(values), np.uint8).reshape(-1, 32)
            assert tree.update_batch(batch, len(indices)) == tree.root
            same()
        before = tree.root
        batch.indices[0] = n
        with pytest.raises(merklize.ArgumentError, match="out of range"):
            tree.update_batch(batch, 1)
        assert tree.root == before
        more = [rng.randbytes(32) for _ in range(arity + 1)]
        tree.append(b"".join(more))  # past the room: the memory grows
        leaves += more
        same()
        assert tree.rollback(snapshot) == snapshot.root == tree.root
        leaves = at_snapshot
        same()
        root, proof = tree.update_proved([0], bytes(32))  # after a rollback too
        leaves[0] = bytes(32)
        assert proof.kind == "kary-multiproof" and proof.verify([leaves[0]], root)
        same()
