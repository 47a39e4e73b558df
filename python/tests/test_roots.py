# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize.root against trees computed here with hashlib and the blake3 package, pymerkle's
RFC 6962 trees, remerkleable's SSZ roots and tests/vectors/merkle.json; and every kind of input
giving the same root, the caller's data untouched."""
from __future__ import annotations

import io
import json
import mmap
import pathlib

import numpy as np
import oracles
import pytest
from conftest import HASH_SHAPES, SIZES, SMALL_SIZES, VECTORS

import merklize


@pytest.mark.parametrize("hash,shape", [(h, s) for h, s in HASH_SHAPES if h != "blake3-parent"])
def test_roots_against_hashlib_and_blake3(hash, shape):
    for n in SMALL_SIZES + [2**16 + 1]:
        data = oracles.random_leaves(n)
        expected = oracles.root(oracles.split(data), oracles.NODE[hash], shape)
        assert merklize.root(data, hash=hash, shape=shape) == expected, n


@pytest.mark.parametrize("depth", [0, 1, 5, 11, 40, 64])
def test_fixed_depths_against_hashlib(depth):
    for n in (1, 2, 3, 31, 32, 33, 1024, 1025):
        if n > 2**depth:
            continue
        data = oracles.random_leaves(n)
        expected = oracles.root(oracles.split(data), oracles.sha256, "zero", depth)
        assert merklize.root(data, hash="sha256", shape="zero", depth=depth) == expected, n
    # No leaves at a fixed depth: the all-zero tree's root.
    assert merklize.root(b"", hash="sha256", shape="zero", depth=depth) == \
        oracles.zero_roots(oracles.sha256, depth)[depth]


def test_rfc6962_roots_against_pymerkle():
    from pymerkle import InmemoryTree

    entries = [b"entry %d" % i for i in range(1025)]
    log = InmemoryTree.init_from_entries(entries)
    leaves = b"".join(oracles.rfc6962_leaf(e) for e in entries)
    for n in SMALL_SIZES:
        assert merklize.root(leaves[:32 * n], hash="rfc6962") == log.get_root(n), n
    assert merklize.root(b"", hash="rfc6962") == log.get_root(0)  # the empty log


def test_ssz_roots_against_remerkleable():
    from remerkleable.byte_arrays import Bytes32
    from remerkleable.complex import List, Vector

    for n in (0, 1, 2, 3, 7, 8, 9, 100):
        data = oracles.random_leaves(n)
        chunks = [Bytes32(c) for c in oracles.split(data)]
        for depth in (7, 10, 32):
            expected = List[Bytes32, 2**depth](*chunks).hash_tree_root()
            got = merklize.root(data, hash="sha256", shape="zero", depth=depth, mix_in_length=n)
            assert got == expected, (n, depth)
        if n:
            assert merklize.root(data, hash="sha256", shape="zero") == \
                Vector[Bytes32, n](*chunks).hash_tree_root(), n


def test_merkle_json_vectors():
    vectors = json.loads((VECTORS / "merkle.json").read_text())
    leaf = {"sha256": oracles.sha256, "blake3": oracles.blake3, "blake3-parent": oracles.blake3}
    checked = 0
    for case in vectors["cases"]:
        n = case["n"]
        if n > 2**17:
            continue
        data = b"".join(leaf[case["hash"]](i.to_bytes(8, "little")) for i in range(n))
        tree = merklize.build(data, hash=case["hash"], shape=case["pad"])
        assert str(tree.root) == case["root"], (case["hash"], case["pad"], n)
        for k, level in enumerate(case.get("levels", [])):
            # The vectors' levels of shape zero go on with the padding; the tree keeps its nodes.
            got = [bytes(row).hex() for row in tree.level(k)]
            assert len(got) == -(-n // 2**k) and got == level[:len(got)], (case["hash"], n, k)
        checked += 1
    assert checked > 100


@pytest.fixture(scope="module")
def leaves_and_root():
    data = oracles.random_leaves(1000)
    return data, oracles.root(oracles.split(data), oracles.blake3)


def test_inputs_of_every_kind(tmp_path, leaves_and_root):
    data, expected = leaves_and_root
    path = tmp_path / "leaves.bin"
    path.write_bytes(data)
    inputs = [data, bytearray(data), memoryview(data),
              np.frombuffer(data, dtype=np.uint8).reshape(-1, 32),
              np.frombuffer(data, dtype=np.uint64), str(path), path, io.BytesIO(data)]
    for value in inputs:
        assert merklize.root(value) == expected, type(value).__name__
    with open(path, "rb") as f:
        assert merklize.root(f) == expected
        assert f.tell() == len(data)  # left at its end, as read
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        assert merklize.root(mapped) == expected


def test_a_file_is_read_from_its_position(tmp_path, leaves_and_root):
    data, _ = leaves_and_root
    path = tmp_path / "leaves.bin"
    path.write_bytes(b"\xff" * 64 + data)
    expected = oracles.root(oracles.split(data), oracles.blake3)
    with open(path, "rb") as f:
        assert f.read(64) == b"\xff" * 64  # Python's reader buffers ahead of the descriptor
        assert merklize.root(f) == expected
    buffer = io.BytesIO(b"\xff" * 32 + data)
    buffer.seek(32)
    assert merklize.root(buffer) == expected


def test_callers_data_untouched(leaves_and_root):
    data, expected = leaves_and_root
    mutable = bytearray(data)
    array = np.frombuffer(data, dtype=np.uint8).copy()
    for value in (mutable, array):
        assert merklize.root(value, hash="sha256") == \
            oracles.root(oracles.split(data), oracles.sha256)
        merklize.build(value)
    assert mutable == data and array.tobytes() == data
    mutable.append(0)  # no buffer export is left behind


def test_digest_prints_as_hex():
    digest = merklize.root(oracles.random_leaves(3))
    assert isinstance(digest, bytes) and len(digest) == 32
    assert str(digest) == digest.hex() and repr(digest) == f"Digest('{digest.hex()}')"
    assert merklize.Digest(digest.hex()) == digest
    assert f"{digest}" == digest.hex()


def test_data_blocks_against_hashlib_and_blake3(write):
    data = bytes(range(256)) * 41  # 10496 bytes: a short last block
    for leaf_size in (1, 64, 1000, 4096):
        blocks = oracles.split(data, leaf_size)
        got = merklize.root(data, hash="sha256", leaf_size=leaf_size)
        assert got == oracles.root([oracles.sha256(b) for b in blocks], oracles.sha256)
        got = merklize.root(write(data), hash="blake3", leaf_size=leaf_size, salt=b"salt",
                            leaf_hash="sha256")
        assert got == oracles.root([oracles.sha256(b"salt" + b) for b in blocks], oracles.blake3)
        got = merklize.root(data, hash="sha256", shape="zero", leaf_size=leaf_size,
                            leaf_hash="blake3")
        assert got == oracles.root([oracles.blake3(b) for b in blocks], oracles.sha256, "zero")


def test_keccak_data_blocks_against_hashlib_and_pycryptodome(write):
    data = bytes(range(256)) * 41
    for leaf_size in (1, 135, 136, 137, 272, 1000):
        blocks = oracles.split(data, leaf_size)
        got = merklize.root(data, hash="keccak256", leaf_size=leaf_size)  # the tree's own hash
        assert got == oracles.root([oracles.keccak256(b) for b in blocks], oracles.keccak256)
        got = merklize.root(write(data), hash="sha256", shape="zero", leaf_size=leaf_size,
                            leaf_hash="sha3-256")
        assert got == oracles.root([oracles.sha3_256(b) for b in blocks], oracles.sha256, "zero")


@pytest.mark.parametrize("arity", [4, 16])
@pytest.mark.parametrize("shape", ["promote", "zero"])
@pytest.mark.parametrize("hash", ["sha256", "blake3", "keccak256", "sha3-256"])
def test_kary_roots(hash, shape, arity):
    for n in (1, 2, 3, 4, 5, 15, 16, 17, 255, 256, 257, 1000):
        data = oracles.random_leaves(n)
        expected = oracles.kary_levels(oracles.split(data), oracles.NODE[hash], arity, shape)
        assert merklize.root(data, hash=hash, shape=shape, arity=arity) == expected[-1][0], n


def test_paths_of_every_size_match_memory(write):
    for n in SIZES:
        data = oracles.random_leaves(n)
        assert merklize.root(write(data), hash="sha256") == merklize.root(data, hash="sha256")
        assert merklize.root(pathlib.Path(write(data))) == merklize.root(data)
