# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What a proof binds (docs/PROOFS.md, "What a proof binds"): a proof's header read back, and
proofs relabelled from real sha256 zero-shape trees as shape promote, which verify unpinned (as
the docs say: this keeps them honest) and are refused once the verifier pins the shape. Then a
Poseidon2 sibling with a limb raised by p is refused, naming it."""
from __future__ import annotations

import hashlib
import json

import pytest

import merklize


def relabelled(tree: merklize.Tree, index: int) -> merklize.Proof:
    """The promote proof of "leaf" ``index`` whose siblings are the zero-shape tree's nodes where
    a promote tree of its leaf count has them."""
    siblings, size = [], tree.leaf_count
    for level in range(tree.depth):
        sibling = (index >> level) ^ 1
        if sibling < size:
            siblings.append(bytes(tree.node(level, sibling)).hex())
        size = (size + 1) // 2
    return merklize.Proof.from_json(json.dumps({
        "format": "merklize-proof", "version": 1, "kind": "inclusion", "hash": "sha256",
        "shape": "promote", "leaf_count": tree.leaf_count, "depth": tree.depth, "index": index,
        "siblings": siblings}, separators=(",", ":")))


def zero_tree(n: int) -> merklize.Tree:
    leaves = b"".join(hashlib.sha256(bytes([i])).digest() for i in range(n))
    return merklize.build(leaves, hash="sha256", shape="zero")


def pins(tree: merklize.Tree) -> dict:
    return dict(kind="inclusion", hash="sha256", shape="zero", depth=tree.depth, arity=2,
                leaf_count=tree.leaf_count)


def test_the_inner_node_of_three_leaves_passes_as_a_leaf_unpinned_only():
    tree = zero_tree(3)
    forged = relabelled(tree, 2)
    assert (forged.hash, forged.shape, forged.depth, forged.arity, forged.leaf_count,
            forged.mixed_length) == ("sha256", "promote", 2, 2, 3, None)
    inner = tree.node(1, 1)
    assert bytes(inner) == hashlib.sha256(bytes(tree.node(0, 2)) + bytes(32)).digest()
    assert forged.verify(inner, tree.root)  # the proof alone binds no shape
    everything_but_shape = {k: v for k, v in pins(tree).items() if k != "shape"}
    assert forged.verify(inner, tree.root, **everything_but_shape)
    assert not forged.verify(inner, tree.root, **pins(tree))
    with pytest.raises(merklize.InvalidProofError, match="the proof is for shape promote, not zero"):
        forged.verify(inner, tree.root, shape="zero", raise_on_failure=True)
    assert tree.prove(2).verify(tree.node(0, 2), tree.root, **pins(tree))


def test_every_relabelled_forgery_of_small_trees_is_refused_pinned():
    forgeries = 0
    for n in range(1, 41):
        tree = zero_tree(n)
        for index in range(n):
            proof = relabelled(tree, index)
            for level in range(1, tree.depth):
                for j in range(-(-n // (1 << level))):
                    node = tree.node(level, j)
                    if proof.verify(node, tree.root):
                        forgeries += 1
                        assert not proof.verify(node, tree.root, **pins(tree)), (n, index)
    # One in each tree whose last leaf is alone on its lowest levels and on none above them:
    # 3, 5, 7, 9, 13, 15, 17, 25, 29, 31 and 33 leaves.
    assert forgeries == 11


def test_each_pin_names_what_differs():
    tree = zero_tree(5)
    proof = tree.prove(4)
    leaf = tree.node(0, 4)
    for pin, reason in [(dict(hash="blake3"), "hash sha256, not blake3"),
                        (dict(shape="promote"), "shape zero, not promote"),
                        (dict(depth=4), "depth 3, not 4"), (dict(arity=4), "arity 2, not 4"),
                        (dict(leaf_count=6), "5 leaves, not 6"),
                        (dict(kind="multiproof"), "of kind inclusion, not multiproof")]:
        with pytest.raises(merklize.InvalidProofError, match=reason):
            proof.verify(leaf, tree.root, raise_on_failure=True, **pin)
    with pytest.raises(merklize.ArgumentError, match="expect.hash"):
        proof.verify(leaf, tree.root, hash="sha257")


def test_a_poseidon2_sibling_raised_by_p_is_refused():
    leaves = b"".join(i.to_bytes(4, "little") for i in range(32))
    tree = merklize.build(leaves, hash="poseidon2-babybear")
    proof = tree.prove(0)
    assert proof.verify(leaves[:32], tree.root)
    encoded = bytearray(proof.to_bytes())
    first = len(encoded) - 32 * len(proof.nodes)
    limb = int.from_bytes(encoded[first:first + 4], "little") + 2013265921
    encoded[first:first + 4] = limb.to_bytes(4, "little")
    raised = merklize.Proof.from_bytes(bytes(encoded))
    with pytest.raises(merklize.InvalidProofError, match=r"sibling 0, limb 0 \(%d\)" % limb):
        raised.verify(leaves[:32], tree.root, raise_on_failure=True)
