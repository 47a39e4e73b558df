# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Tree objects: their levels and nodes against the trees computed here, levels as numpy views of
the tree's memory (no copies, the tree kept alive), what `keep` keeps, and Builders reused."""
from __future__ import annotations

import gc
import weakref

import numpy as np
import oracles
import pytest

import merklize


def as_list(level: np.ndarray) -> list:
    return [bytes(row) for row in level]


@pytest.mark.parametrize("hash,shape", [("sha256", "promote"), ("sha256", "zero"),
                                        ("blake3", "promote"), ("rfc6962", "promote")])
def test_levels_and_nodes_against_the_oracle(hash, shape):
    for n in (1, 2, 3, 7, 8, 9, 100, 1025):
        data = oracles.random_leaves(n)
        expected = oracles.levels(oracles.split(data), oracles.NODE[hash], shape)
        tree = merklize.build(data, hash=hash, shape=shape)
        assert tree.leaf_count == n and tree.depth == len(expected) - 1
        assert tree.first_level == 0 and tree.root == expected[-1][0]
        for k, level in enumerate(tree.levels):
            # Shape zero keeps a level's own nodes, not the padding above the leaves.
            assert as_list(level) == expected[k][:len(level)], (n, k)
            assert len(level) == -(-n // 2**k)
        last = len(tree.level(0)) - 1
        assert tree.node(0, last) == expected[0][last]
        assert tree.node(tree.depth, 0) == tree.root


def test_levels_are_views_of_the_trees_memory():
    data = oracles.random_leaves(1000)
    tree = merklize.build(data, hash="sha256")
    first, again = tree.level(1), tree.level(1)
    assert first.dtype == np.uint8 and first.shape == (500, 32)
    assert np.shares_memory(first, again)
    assert first.__array_interface__["data"][0] == again.__array_interface__["data"][0]
    assert np.shares_memory(tree.levels[1], first)
    assert not first.flags.writeable and not first.flags.owndata
    with pytest.raises(ValueError):
        first[0, 0] = 1  # read-only: the tree is immutable
    leaves = tree.level(0)
    assert not np.shares_memory(leaves, np.frombuffer(data, dtype=np.uint8))  # the tree's own
    assert memoryview(first).nbytes == 500 * 32  # the buffer protocol


def test_a_level_keeps_its_tree_alive():
    data = oracles.random_leaves(257)
    expected = oracles.levels(oracles.split(data), oracles.sha256)
    tree = merklize.build(data, hash="sha256")
    alive = weakref.ref(tree._impl)
    level = tree.level(2)
    del tree
    gc.collect()
    assert alive() is not None  # the array holds the tree
    assert as_list(level) == expected[2]
    del level
    gc.collect()
    assert alive() is None  # and lets it go


def test_keep_root_and_keep_a_level(write):
    data = oracles.random_leaves(100)
    expected = oracles.levels(oracles.split(data), oracles.blake3)
    only_root = merklize.build(data, keep="root")
    assert only_root.root == expected[-1][0]
    assert only_root.levels[:-1] == [None] * (len(expected) - 1)
    with pytest.raises(merklize.ArgumentError, match="was not kept"):
        only_root.level(0)
    streamed = merklize.build(write(data), keep="root")  # a file streamed for its root
    assert streamed.root == expected[-1][0] and streamed.leaf_count == 100
    upper = merklize.build(data, keep=3)
    assert upper.first_level == 3 and as_list(upper.level(3)) == expected[3]
    with pytest.raises(merklize.ArgumentError, match="keeps levels 3"):
        upper.level(2)
    with pytest.raises(merklize.ArgumentError, match="reads every level"):
        upper.prove(0)


def test_builder_reused_across_sizes_and_threads_of_calls():
    builder = merklize.Builder(hash="sha256", shape="zero")
    for n in (1, 5, 64, 65, 3000):
        data = oracles.random_leaves(n)
        expected = oracles.root(oracles.split(data), oracles.sha256, "zero")
        assert builder.root(data) == expected
        assert builder.build(data).root == expected
    assert repr(builder) == ("Builder(hash='sha256', shape='zero', depth=None, arity=2, "
                             "leaf_size=0, leaf_hash=None, salt=b'', mix_in_length=None, "
                             "keep='all')")


def test_ssz_list_tree_root_and_depth():
    data = oracles.random_leaves(5)
    tree = merklize.build(data, hash="sha256", shape="zero", depth=10, mix_in_length=5)
    inner = oracles.root(oracles.split(data), oracles.sha256, "zero", 10)
    assert tree.root == oracles.sha256(inner + oracles.ssz_length_chunk(5))
    assert tree.depth <= 10 and tree.leaf_count == 5


@pytest.mark.parametrize("shape", ["promote", "zero"])
def test_kary_tree_levels(shape):
    data = oracles.random_leaves(70)
    expected = oracles.kary_levels(oracles.split(data), oracles.sha256, 4, shape)
    tree = merklize.build(data, hash="sha256", shape=shape, arity=4)
    assert tree.root == expected[-1][0]
    assert [as_list(level) for level in tree.levels] == expected
