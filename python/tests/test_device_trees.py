# SPDX-License-Identifier: Apache-2.0 OR MIT
"""DeviceTree: trees kept on the device and updated in place, against the trees computed here
(oracles.py) and a fresh merklize.build of the updated leaves, at 1, 2, 3, 255, 256 and 257
leaves: batches of one leaf, the last leaf, every leaf, repeats (the last value wins), from lists
and numpy arrays, with their multiproofs; an SSZ-shaped tree against remerkleable; appends
through 1, 2, 3, 2^k - 1, 2^k and 2^k + 1 leaves with consistency proofs from every earlier size
against pymerkle and RFC 9162's PROOF; and the refusals, which leave the tree as it was."""
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


# The sizes appended trees grow through, one append each: 1, 2, 3, 2^k - 1, 2^k and 2^k + 1.
GROWTH = (1, 2, 3, 7, 8, 9, 15, 16, 17, 255, 256, 257)


def test_appends_and_consistency_proofs_against_pymerkle():
    from pymerkle import InmemoryTree
    from rfc6962_oracle import rfc_subproof

    entries = [b"entry %d" % i for i in range(GROWTH[-1])]
    log = InmemoryTree.init_from_entries(entries)
    data = b"".join(map(oracles.rfc6962_leaf, entries))
    tree = merklize.DeviceTree(data[:32], hash="rfc6962")
    roots = {1: tree.root}
    for k, n in enumerate(GROWTH[1:]):
        old = tree.leaf_count
        given = data[32 * old:32 * n]
        as_array = k % 2 == 1  # a numpy array every other append
        if as_array:
            given = np.frombuffer(given, np.uint8).reshape(-1, 32)
        root = tree.append(given)
        assert root == tree.root == log.get_root(n), n
        roots[n] = root
        check(tree, oracles.split(data[:32 * n]), "rfc6962", "promote")
        for m in roots:
            proof = tree.prove_consistency(m)
            assert proof == merklize.build(data[:32 * n], hash="rfc6962").prove_consistency(m)
            assert proof.kind == "consistency" and proof.indices == [m] and proof.leaf_count == n
            assert merklize.verify_consistency(proof, roots[m], root)
            if m < n:
                log.prove_consistency(m, n).verify(roots[m], root, prior_size=m, later_size=n)
                assert as_list(proof.nodes) == rfc_subproof(log, m, 0, n, True), (m, n)
                assert not merklize.verify_consistency(proof, root, root)


@pytest.mark.parametrize("hash,shape,depth", [("sha256", "promote", None),
                                              ("sha256", "zero", None), ("sha256", "zero", 9),
                                              ("blake3", "promote", None),
                                              ("keccak256", "zero", None)])
def test_appends_against_the_oracle(hash, shape, depth):
    leaves = oracles.split(oracles.random_leaves(GROWTH[-1], seed=33))
    tree = merklize.DeviceTree(b"".join(leaves[:1]), hash=hash, shape=shape, depth=depth)
    for n in GROWTH[1:]:
        assert tree.append(b"".join(leaves[tree.leaf_count:n])) == tree.root
        check(tree, leaves[:n], hash, shape, depth)
    leaves[-1] = bytes(range(32))  # the grown tree takes updates
    tree.update([len(leaves) - 1], leaves[-1])
    check(tree, leaves, hash, shape, depth)


def test_refused_appends_and_consistency_proofs_leave_the_tree_unchanged():
    leaves = oracles.split(oracles.random_leaves(5))
    tree = merklize.DeviceTree(b"".join(leaves), hash="sha256", shape="zero", depth=3)
    before = tree.root
    with pytest.raises(merklize.ArgumentError, match="4 leaves onto the tree of 5 would pass its 8"):
        tree.append(bytes(4 * 32))
    with pytest.raises(merklize.ArgumentError, match="33 bytes is not whole 32-byte leaves"):
        tree.append(bytes(33))
    with pytest.raises(merklize.ArgumentError, match="consistency proofs are for shape promote"):
        tree.prove_consistency(3)
    assert tree.root == before and tree.leaf_count == 5
    assert as_list(tree.level(0)) == leaves
    assert tree.append(b"") == before  # no leaves change nothing
    log = merklize.DeviceTree(b"".join(leaves), hash="sha256")
    with pytest.raises(merklize.ArgumentError, match="old size 6 is more than the tree's 5"):
        log.prove_consistency(6)
    with pytest.raises(merklize.ArgumentError, match="old_size is -1"):
        log.prove_consistency(-1)
    with pytest.raises(merklize.ArgumentError, match="has no consistency proofs"):
        merklize.DeviceTree(b"".join(leaves), hash="blake3-parent").prove_consistency(3)
    assert not log.prove_consistency(5).nodes.size


def test_appended_leaves_are_read_in_place_and_not_written():
    data = bytearray(oracles.random_leaves(3))
    more = np.frombuffer(oracles.random_leaves(4, seed=5), np.uint8).reshape(4, 32).copy()
    tree = merklize.DeviceTree(data, hash="sha256")
    tree.append(more)
    assert bytes(more) == oracles.random_leaves(4, seed=5) and tree.leaf_count == 7
    assert tree.root == oracles.root(oracles.split(bytes(data) + bytes(more)), oracles.sha256)


@pytest.mark.parametrize("arity,hash,shape", [(4, "sha256", "promote"), (8, "blake3", "zero"),
                                              (16, "keccak256", "promote")])
def test_trees_of_arity_k_against_a_fresh_build(arity, hash, shape):
    rng = random.Random(36)
    for n in (1, 2, arity - 1, arity, arity + 1, arity * arity + 1, 300):
        leaves = oracles.split(oracles.random_leaves(n))
        tree = merklize.DeviceTree(b"".join(leaves), hash=hash, shape=shape, arity=arity)

        def same() -> None:
            fresh = merklize.build(b"".join(leaves), hash=hash, shape=shape, arity=arity)
            assert tree.root == fresh.root and tree.leaf_count == len(leaves)
            assert tree.depth == fresh.depth
            for k, level in enumerate(tree.levels()):
                assert as_list(level) == as_list(fresh.level(k)), k
            assert tree.prove(len(leaves) - 1) == fresh.prove(len(leaves) - 1)

        same()
        for indices in batches(n, rng):
            values = [rng.randbytes(32) for _ in indices]
            for i, value in zip(indices, values):
                leaves[i] = value  # in order: a repeated index ends with its last value
            assert tree.update(indices, b"".join(values)) == tree.root
            same()
        more = [rng.randbytes(32) for _ in range(arity + 1)]
        tree.append(b"".join(more))
        leaves += more
        same()
        before = tree.root
        with pytest.raises(merklize.ArgumentError, match="out of range"):
            tree.update([0, len(leaves)], bytes(64))
        with pytest.raises(merklize.ArgumentError, match="arity"):
            tree.prove_consistency(1)
        assert tree.root == before
