# SPDX-License-Identifier: Apache-2.0 OR MIT
"""SparseTree: sparse Merkle trees on the device at depths 256 and 8 against tests/sparse_model.py
(the independent model of the rule, run as the C++ tests run it): batches of new keys, changed
keys, deletions and a repeated key (the last value wins) from lists and numpy arrays; values,
sizes, proofs of present and absent keys checked by sparse_verify, and refused once changed;
the refusals, which leave the tree as it was."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import merklize

MODEL = Path(__file__).resolve().parents[2] / "tests" / "sparse_model.py"


def model_root(tmp_path: Path, hash: str, depth: int, batches: list) -> bytes:
    """tests/sparse_model.py's root after the batches, each a list of (key, value)."""
    lines = [f"{hash} {depth}"]
    for batch in batches:
        lines += [f"{key.hex()} {value.hex()}" for key, value in batch] + ["end"]
    path = tmp_path / "sparse_model.in"
    path.write_text("\n".join(lines) + "\n")
    out = subprocess.run([sys.executable, str(MODEL), str(path)], check=True,
                         capture_output=True, text=True).stdout.split()
    return bytes.fromhex(out[-1])


def random_key(rng: random.Random, depth: int) -> bytes:
    return rng.getrandbits(depth).to_bytes(32, "big")


def check(tree: merklize.SparseTree, held: dict, rng: random.Random) -> None:
    assert len(tree) == tree.size == sum(value != bytes(32) for value in held.values())
    absent = random_key(rng, tree.depth)
    assert absent not in held
    for key, value in list(held.items()) + [(absent, bytes(32))]:
        assert tree.value(key) == value
        proof = tree.prove(key)
        assert proof.key == key and proof.value == value
        assert proof.proves_absence == (value == bytes(32))
        assert proof.siblings.shape == (tree.depth, 32)
        assert proof.verify(tree.root) and merklize.sparse_verify(proof, str(tree.root))
        changed = merklize.SparseProof(proof.hash, proof.depth, key, value,
                                       proof.siblings.copy())
        changed.siblings[-1, 0] ^= 1
        assert not changed.verify(tree.root)
        with pytest.raises(merklize.InvalidProofError, match="another root"):
            merklize.sparse_verify(changed, tree.root, raise_on_failure=True)
        other = merklize.SparseProof(proof.hash, proof.depth, key, bytes([1]) * 32,
                                     proof.siblings)
        assert not other.verify(tree.root)


@pytest.mark.parametrize("hash,depth", [("sha256", 256), ("rfc6962", 256), ("sha3-256", 8),
                                        ("sha256", 8)])
def test_batches_against_the_model(tmp_path, hash, depth):
    rng = random.Random(depth)
    tree = merklize.SparseTree(hash=hash, depth=depth)
    assert tree.root == model_root(tmp_path, hash, depth, [[]])  # the empty tree: z[depth]
    keys = [random_key(rng, depth) for _ in range(6)]
    batches = [
        [(key, rng.randbytes(32)) for key in keys],
        [(keys[0], rng.randbytes(32)), (keys[1], bytes(32)), (keys[0], rng.randbytes(32)),
         (random_key(rng, depth), rng.randbytes(32))],
    ]
    held: dict = {}
    for k, batch in enumerate(batches):
        if k % 2 == 0:  # lists of bytes
            root = tree.update([key for key, _ in batch], [value for _, value in batch])
        else:  # (n, 32) arrays
            as_array = [np.frombuffer(b"".join(part), np.uint8).reshape(-1, 32)
                        for part in zip(*batch)]
            root = tree.update(*as_array)
        held.update(batch)  # in order: a repeated key ends with its last value
        assert root == tree.root == model_root(tmp_path, hash, depth, batches[:k + 1]), k
        check(tree, held, rng)


def test_other_hashes_against_their_proofs():
    rng = random.Random(3)
    for hash in ("blake3", "keccak256"):
        tree = merklize.SparseTree(hash=hash, depth=256)
        held = {random_key(rng, 256): rng.randbytes(32) for _ in range(5)}
        tree.update(list(held), list(held.values()))
        check(tree, held, rng)


def test_refusals_leave_the_tree_unchanged():
    tree = merklize.SparseTree(hash="sha256", depth=8)
    keys = [bytes(31) + bytes([k]) for k in (1, 2)]
    before = tree.update(keys, [bytes([7]) * 32] * 2)
    past = bytes(30) + b"\x01\x00"  # bit 8
    with pytest.raises(merklize.ArgumentError, match="has bit 8 set"):
        tree.update([keys[0], past], [bytes(32)] * 2)
    with pytest.raises(merklize.ArgumentError, match="values is 32 bytes, and 2 keys"):
        tree.update(keys, bytes(32))
    with pytest.raises(merklize.ArgumentError, match="33 bytes is not whole 32-byte keys"):
        tree.update(bytes(33), bytes(33))
    with pytest.raises(merklize.ArgumentError, match="has bit 8 set"):
        tree.value(past)
    with pytest.raises(merklize.ArgumentError, match="key is 31 bytes"):
        tree.prove(bytes(31))
    assert tree.root == before and tree.size == 2
    assert tree.update([], []) == before  # an empty batch changes nothing
    with pytest.raises(merklize.ArgumentError, match="depth"):
        merklize.SparseTree(depth=0)
    with pytest.raises(merklize.ArgumentError, match="depth"):
        merklize.SparseTree(depth=257)
    with pytest.raises(merklize.ArgumentError, match="unknown hash"):
        merklize.SparseTree(hash="md5")
    proof = tree.prove(keys[0])
    short = merklize.SparseProof("sha256", 8, keys[0], proof.value, proof.siblings[:7])
    with pytest.raises(merklize.ArgumentError, match="siblings_size is 224 bytes"):
        short.verify(before)
