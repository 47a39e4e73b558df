# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The k-ary multiproof ("kary-multiproof"): DeviceTree.update_proved at arity k against
Tree.prove_multi of a tree built over the updated leaves and against the proof computed here
(oracles.kary_multiproof over oracles.kary_levels), at arities 4 and 16, sha256 and blake3, both
shapes, 1, k - 1, k + 1 and k^2 + 1 leaves, batches with repeats (the last value wins); the proof
verifies under the new root and no other leaf, and its JSON decodes to the same proof."""
from __future__ import annotations

import random

import oracles
import pytest

import merklize


def batches(n: int, rng: random.Random) -> list:
    return [[n - 1], [0, n // 2, 0, n - 1, n // 2], [rng.randrange(n) for _ in range(9)],
            list(range(n))[::-1]]


def check_round_trip(proof: merklize.Proof, proven: list, root: bytes) -> None:
    text = proof.to_json()
    assert '"kind":"kary-multiproof"' in text
    back = merklize.Proof.from_json(text)
    assert back == proof and back.kind == "kary-multiproof" and back.to_json() == text
    assert back.indices == proof.indices and back.leaf_count == proof.leaf_count
    assert back.verify(proven, root)
    with pytest.raises(merklize.ArgumentError, match="JSON encoding only"):
        proof.to_bytes()


@pytest.mark.parametrize("arity", [4, 16])
@pytest.mark.parametrize("hash", ["sha256", "blake3"])
@pytest.mark.parametrize("shape", ["promote", "zero"])
def test_update_proved_at_arity_k(arity, hash, shape):
    rng = random.Random(39)
    for n in (1, arity - 1, arity + 1, arity * arity + 1):
        leaves = oracles.split(oracles.random_leaves(n))
        tree = merklize.DeviceTree(b"".join(leaves), hash=hash, shape=shape, arity=arity)
        for indices in batches(n, rng):
            values = [rng.randbytes(32) for _ in indices]
            for i, value in zip(indices, values):
                leaves[i] = value  # in order: a repeated index ends with its last value
            root, proof = tree.update_proved(indices, b"".join(values))
            levels = oracles.kary_levels(leaves, oracles.NODE[hash], arity, shape)
            assert root == tree.root == levels[-1][0]
            assert proof.kind == "kary-multiproof" and proof.leaf_count == n
            assert proof.indices == sorted(set(indices))
            expected = oracles.kary_multiproof(levels, indices, oracles.NODE[hash], arity, shape)
            assert [bytes(node) for node in proof.nodes] == expected
            fresh = merklize.build(b"".join(leaves), hash=hash, shape=shape, arity=arity)
            assert proof == fresh.prove_multi(indices)
            proven = [leaves[i] for i in proof.indices]
            assert proof.verify(proven, root)
            wrong = list(proven)
            wrong[-1] = bytes(32) if wrong[-1] != bytes(32) else b"\1" * 32
            assert not proof.verify(wrong, root)
            check_round_trip(proof, proven, root)


def test_refusals_change_nothing():
    leaves = oracles.split(oracles.random_leaves(20))
    tree = merklize.DeviceTree(b"".join(leaves), hash="sha256", arity=4)
    before = tree.root
    with pytest.raises(merklize.ArgumentError, match="out of range"):
        tree.update_proved([0, 20], bytes(64))
    assert tree.root == before
    proof = merklize.build(b"".join(leaves), hash="sha256", arity=4).prove_multi([6, 1])
    text = proof.to_json()
    for hostile, reason in ((text.replace("[1,6]", "[6,1]"), "strictly increasing"),
                            (text.replace("[1,6]", "[1,20]"), "below the leaf count"),
                            (text.replace('"arity":4', '"arity":3'), "arity"),
                            (text.replace('"nodes":["', '"nodes":["zz'), "nodes")):
        with pytest.raises(merklize.DecodeError, match=reason):
            merklize.Proof.from_json(hostile)
