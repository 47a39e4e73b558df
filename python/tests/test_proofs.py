# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Proofs against the oracles: audit paths and consistency proofs against pymerkle (and RFC 9162's
PROOF and verifier in tests/oracles/rfc6962_oracle.py), SSZ branches against remerkleable and the
consensus specs' is_valid_merkle_branch, binary-tree paths against the trees computed here;
their encodings, verification with reasons, and streamed proofs of files."""
from __future__ import annotations

import numpy as np
import oracles
import pytest
from conftest import SMALL_SIZES

import merklize


@pytest.fixture(scope="module")
def log():
    from pymerkle import InmemoryTree

    entries = [b"entry %d" % i for i in range(300)]
    return InmemoryTree.init_from_entries(entries), b"".join(map(oracles.rfc6962_leaf, entries))


def rows(array: np.ndarray) -> list:
    return [bytes(row) for row in array]


def test_audit_paths_against_pymerkle(log):
    from pymerkle.proof import InclusionProof

    pymerkle_tree, leaves = log
    for n in (1, 2, 3, 5, 8, 100, 255, 256, 257, 300):
        tree = merklize.build(leaves[:32 * n], hash="rfc6962")
        assert tree.root == pymerkle_tree.get_root(n)
        for i in sorted({0, 1 % n, n // 2, n - 1}):
            proof = tree.prove(i)
            theirs = pymerkle_tree.prove_inclusion(i + 1, n)
            assert proof.kind == "inclusion" and proof.indices == [i] and proof.leaf_count == n
            assert rows(proof.nodes) == theirs.path[1:], (n, i)
            leaf = pymerkle_tree.get_leaf(i + 1)
            InclusionProof("sha256", True, n, i + 1, theirs.rule, [leaf] + rows(proof.nodes)) \
                .verify(leaf, tree.root, index=i + 1, size=n)  # raises if it does not hold
            assert proof.verify(leaf, tree.root)


def test_consistency_proofs_against_pymerkle_and_rfc9162(log):
    from rfc6962_oracle import rfc_subproof, rfc_verify_consistency

    pymerkle_tree, leaves = log
    for n in (1, 2, 3, 7, 8, 9, 100, 300):
        tree = merklize.build(leaves[:32 * n], hash="rfc6962")
        for m in sorted({1, n // 2 or 1, n - 1 or 1, n}):
            proof = tree.prove_consistency(m)
            old_root = pymerkle_tree.get_root(m)
            assert proof.kind == "consistency" and proof.indices == [m] and proof.leaf_count == n
            expected = rfc_subproof(pymerkle_tree, m, 0, n, True) if m < n else []
            assert rows(proof.nodes) == expected, (m, n)
            assert merklize.verify_consistency(proof, old_root, tree.root)
            if m < n:
                assert rfc_verify_consistency(m, n, old_root, tree.root, rows(proof.nodes))
                pymerkle_tree.prove_consistency(m, n).verify(old_root, tree.root, prior_size=m,
                                                             later_size=n)
                assert not merklize.verify_consistency(proof, tree.root, tree.root)
    with pytest.raises(merklize.InvalidProofError, match="invalid proof"):
        merklize.verify_consistency(merklize.build(leaves[:96], hash="rfc6962")
                                    .prove_consistency(2), bytes(32), bytes(32),
                                    raise_on_failure=True)


@pytest.mark.parametrize("hash,shape", [("sha256", "promote"), ("sha256", "zero"),
                                        ("blake3", "promote"), ("blake3", "zero"),
                                        ("keccak256", "promote"), ("sha3-256", "zero")])
def test_paths_against_the_oracles_levels(hash, shape):
    for n in SMALL_SIZES[:12]:
        data = oracles.random_leaves(n)
        levels = oracles.levels(oracles.split(data), oracles.NODE[hash], shape)
        tree = merklize.build(data, hash=hash, shape=shape)
        for i in range(n):
            proof = tree.prove(i)
            expected = oracles.siblings(levels, i, oracles.NODE[hash], shape)
            assert rows(proof.nodes) == expected, (n, i)
            assert proof.verify(levels[0][i], tree.root)
            assert proof.verify(levels[0][i], str(tree.root))  # a root in hex


def test_ssz_branches_against_remerkleable():
    from remerkleable.byte_arrays import Bytes32
    from remerkleable.complex import List
    from ssz_oracle import is_valid_merkle_branch

    depth = 6
    for n in (1, 2, 5, 33, 64):
        data = oracles.random_leaves(n)
        chunks = oracles.split(data)
        value = List[Bytes32, 2**depth](*map(Bytes32, chunks))
        tree = merklize.build(data, hash="sha256", shape="zero", depth=depth, mix_in_length=n)
        assert tree.root == value.hash_tree_root()
        for i in sorted({0, n // 2, n - 1}):
            proof = tree.prove(i)
            gindex, theirs = type(value).key_to_static_gindex(i), []
            while gindex > 1:
                theirs.append(value.get_backing().getter(gindex ^ 1).merkle_root())
                gindex //= 2
            assert rows(proof.nodes) == theirs, (n, i)
            assert is_valid_merkle_branch(chunks[i], rows(proof.nodes), depth + 1, i, tree.root)
            assert proof.verify(chunks[i], tree.root)
            assert merklize.prove(data, i, hash="sha256", shape="zero", depth=depth,
                                  mix_in_length=n) == proof


def test_multiproofs():
    data = oracles.random_leaves(1000)
    leaves = oracles.split(data)
    tree = merklize.build(data, hash="sha256")
    proof = tree.prove_multi([700, 3, 999, 3, 0])
    assert proof.kind == "multiproof" and proof.indices == [0, 3, 700, 999]
    chosen = [leaves[i] for i in proof.indices]
    assert proof.verify(chosen, tree.root)
    assert proof.verify(b"".join(chosen), tree.root)
    assert proof.verify(np.frombuffer(b"".join(chosen), np.uint8).reshape(4, 32), tree.root)
    assert not proof.verify(chosen[::-1], tree.root)
    with pytest.raises(merklize.ArgumentError, match="one leaf per proven index"):
        proof.verify(chosen[:3], tree.root)


def test_encodings_round_trip():
    data = oracles.random_leaves(77)
    tree = merklize.build(data, hash="rfc6962")
    for proof in (tree.prove(5), tree.prove_multi([1, 50, 76]), tree.prove_consistency(40)):
        for copy in (merklize.Proof.from_json(proof.to_json()),
                     merklize.Proof.from_json(proof.to_json().encode()),
                     merklize.Proof.from_bytes(proof.to_bytes())):
            assert copy == proof and copy.kind == proof.kind
            assert copy.indices == proof.indices and copy.leaf_count == proof.leaf_count
            assert rows(copy.nodes) == rows(proof.nodes)
        assert proof.to_bytes().startswith(b"MKLP")
    kary = merklize.build(data, hash="sha256", arity=4).prove(9)
    assert kary.kind == "kary-inclusion"
    assert merklize.Proof.from_json(kary.to_json()) == kary
    assert kary.verify(oracles.split(data)[9], merklize.root(data, hash="sha256", arity=4))
    with pytest.raises(merklize.ArgumentError, match="JSON encoding only"):
        kary.to_bytes()


def test_failed_verification_says_why():
    data = oracles.random_leaves(9)
    tree = merklize.build(data)
    proof = tree.prove(4)
    assert not proof.verify(bytes(32), tree.root)
    with pytest.raises(merklize.InvalidProofError, match="invalid proof: .*leads to root") as e:
        proof.verify(bytes(32), tree.root, raise_on_failure=True)
    assert isinstance(e.value, ValueError) and e.value.status is None
    with pytest.raises(merklize.ArgumentError, match="verify_consistency"):
        merklize.build(data, hash="rfc6962").prove_consistency(3).verify(bytes(32), tree.root)


def test_streamed_proofs_of_files(write):
    for hash, shape in (("blake3", "promote"), ("sha256", "zero"), ("rfc6962", "promote")):
        data = oracles.random_leaves(3000)
        tree = merklize.build(data, hash=hash, shape=shape)
        path = write(data)
        for i in (0, 1500, 2999):
            assert merklize.prove(path, i, hash=hash, shape=shape) == tree.prove(i)
            with open(path, "rb") as f:
                assert merklize.prove(f, i, hash=hash, shape=shape) == tree.prove(i)
    blocks = bytes(range(256)) * 100
    proof = merklize.prove(write(blocks), 3, hash="sha256", leaf_size=1000)
    assert proof.verify(oracles.sha256(blocks[3000:4000]),
                        merklize.root(blocks, hash="sha256", leaf_size=1000))


def test_decoding_untrusted_input():
    with pytest.raises(merklize.DecodeError) as e:
        merklize.Proof.from_json('{"format":"merklize-proof","version":1,"kind":"inclusion"}')
    assert str(e.value) and isinstance(e.value, ValueError)
    with pytest.raises(merklize.DecodeError):
        merklize.Proof.from_bytes(b"MKLP\x01\x01" + bytes(10))
    with pytest.raises(merklize.DecodeError):
        merklize.Proof.from_json("not json")
    with pytest.raises(merklize.DecodeError):
        merklize.Proof.from_bytes(b"")
