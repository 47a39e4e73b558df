# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Hashing on the device: full BLAKE3 against the official test vectors and the blake3 package
(hash, keyed, derive_key, extended output; memory, paths, files), the SHA-256 layer against
hashlib, and RFC 6962 leaf hashes of log entries against hashlib and pymerkle."""
from __future__ import annotations

import json
import random

import blake3 as blake3_package
import numpy as np
import oracles
import pytest
from conftest import VECTORS

import merklize


def test_blake3_official_vectors():
    vectors = json.loads((VECTORS / "blake3_official.json").read_text())
    key, context = vectors["key"].encode(), vectors["context_string"]
    for case in vectors["cases"]:
        data = bytes(i % 251 for i in range(case["input_len"]))
        full = len(case["hash"]) // 2
        assert merklize.blake3_device(data, length=full).hex() == case["hash"]
        assert str(merklize.blake3_device(data)) == case["hash"][:64]
        assert merklize.blake3_device(data, key=key, length=full).hex() == case["keyed_hash"]
        assert merklize.blake3_device(data, context=context, length=full).hex() == case["derive_key"]


@pytest.mark.parametrize("size", [0, 1, 1024, 1025, 65536, 2**20 + 7])
def test_blake3_against_the_package(write, size):
    data = random.Random(size).randbytes(size)
    key = bytes(range(32))
    assert merklize.blake3_device(data) == blake3_package.blake3(data).digest()
    assert merklize.blake3_device(write(data)) == blake3_package.blake3(data).digest()
    assert merklize.blake3_device(data, key=key, length=100) == \
        blake3_package.blake3(data, key=key).digest(length=100)
    with open(write(data), "rb") as f:
        assert merklize.blake3_device(f, context="merklize tests", length=7) == \
            blake3_package.blake3(data, derive_key_context="merklize tests").digest(length=7)
    assert merklize.blake3_device(data, length=0) == b""


def test_blake3_argument_checks():
    with pytest.raises(merklize.ArgumentError, match="32 bytes"):
        merklize.blake3_device(b"x", key=b"short")
    with pytest.raises(merklize.ArgumentError, match="exclude each other"):
        merklize.blake3_device(b"x", key=bytes(32), context="c")
    with pytest.raises(merklize.ArgumentError, match="NUL"):
        merklize.blake3_device(b"x", context="a\0b")


@pytest.mark.parametrize("count", [0, 1, 5, 1000])
def test_sha256_layer_against_hashlib(count):
    chunks = random.Random(count).randbytes(64 * count)
    expected = b"".join(oracles.sha256(c) for c in oracles.split(chunks, 64))
    assert merklize.sha256_layer(chunks) == expected
    array = np.frombuffer(chunks, dtype=np.uint8).reshape(-1, 64)
    out = merklize.sha256_layer(array)
    assert isinstance(out, np.ndarray) and out.shape == (count, 32)
    assert out.tobytes() == expected
    with pytest.raises(merklize.ArgumentError, match="blocks of 64 bytes"):
        merklize.sha256_layer(chunks + b"x")


def test_log_leaves_against_hashlib_and_pymerkle(write):
    from pymerkle import InmemoryTree

    entries = [b"", b"one", b"two entries", b"\n" * 3, bytes(range(256)) * 5]
    expected = [oracles.rfc6962_leaf(e) for e in entries]
    leaves = merklize.log_leaves(entries)
    assert leaves.shape == (len(entries), 32)
    assert [bytes(row) for row in leaves] == expected
    framed = b"".join(len(e).to_bytes(4, "big") + e for e in entries)
    assert merklize.log_leaves(write(framed), "length-prefixed").tobytes() == b"".join(expected)
    lines = [b"first", b"second line", b"", b"last"]
    got = merklize.log_leaves(b"\n".join(lines) + b"\n", framing="lines")
    assert got.tobytes() == b"".join(oracles.rfc6962_leaf(line) for line in lines)
    log = InmemoryTree.init_from_entries(entries)
    assert merklize.root(leaves, hash="rfc6962") == log.get_root(len(entries))
    with pytest.raises(merklize.ArgumentError, match="framing"):
        merklize.log_leaves(b"x\n", framing="words")


def test_blake3_is_blake3_py():
    """merklize.blake3 is hashlib's kind of object, as blake3-py's blake3: the official vectors
    in every mode, given in pieces, every seek, copies and reset, against the package itself."""
    vectors = json.loads((VECTORS / "blake3_official.json").read_text())
    key = vectors["key"].encode()
    context = vectors["context_string"]
    for case in vectors["cases"]:
        data = bytes(i % 251 for i in range(case["input_len"]))
        for made, want in ((lambda: merklize.blake3(), case["hash"]),
                           (lambda: merklize.blake3(key=key), case["keyed_hash"]),
                           (lambda: merklize.blake3(derive_key_context=context),
                            case["derive_key"])):
            hasher = made()
            for at in range(0, len(data), 1000):
                assert hasher.update(data[at:at + 1000]) is hasher
            full = len(want) // 2
            assert hasher.hexdigest(full) == want
            assert hasher.digest() == bytes.fromhex(want[:64])
            assert hasher.digest(7, seek=100) == bytes.fromhex(want)[100:107]
            twin = hasher.copy()
            hasher.update(b"more")
            assert twin.hexdigest(full) == want
            hasher.reset()
            assert hasher.update(data).hexdigest(full) == want
    for data in (b"", b"x" * 1025, bytes(range(256)) * 100):
        ours, theirs = merklize.blake3(data), blake3_package.blake3(data)
        assert ours.digest(100, seek=3) == theirs.digest(100, seek=3)
        assert ours.hexdigest() == theirs.hexdigest()
    assert (merklize.blake3.name, merklize.blake3.digest_size, merklize.blake3.block_size) == \
        ("blake3", 32, 64)
    with pytest.raises(TypeError):
        merklize.blake3().update("text")
    with pytest.raises(merklize.ArgumentError, match="exclude"):
        merklize.blake3(key=bytes(32), derive_key_context="c")
    with pytest.raises(merklize.ArgumentError, match="32 bytes"):
        merklize.blake3(key=b"short")
