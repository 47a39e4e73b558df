# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The package's results equal the merklize tool's (itself tested against tests/vectors and
OpenSSL) for every hash and shape at 1, 2, 3, 2^k - 1, 2^k and 2^k + 1 leaves, from memory and
from the file; proofs print the same JSON; and the README's one-liner prints what
`merklize root` prints."""
from __future__ import annotations

import subprocess
import sys

import oracles
import pytest
from conftest import HASH_SHAPES, SIZES

import merklize


@pytest.mark.parametrize("hash,shape", HASH_SHAPES)
def test_roots_equal_the_tools(cli, write, hash, shape):
    for n in SIZES:
        path = write(oracles.random_leaves(n, seed=7))
        printed = cli("root", "--hash", hash, "--pad", shape, str(path)).strip()
        assert str(merklize.root(path.read_bytes(), hash=hash, shape=shape)) == printed, n
        assert str(merklize.root(path, hash=hash, shape=shape)) == printed, n


@pytest.mark.parametrize("hash,shape", HASH_SHAPES)
def test_proofs_equal_the_tools(cli, write, hash, shape):
    for n in (1, 3, 1025):
        path = write(oracles.random_leaves(n, seed=8))
        tree = merklize.build(path.read_bytes(), hash=hash, shape=shape)
        for i in sorted({0, n // 2, n - 1}):
            printed = cli("proof", "--hash", hash, "--pad", shape, "-i", str(i), str(path))
            assert tree.prove(i).to_json() == printed.strip(), (n, i)
            assert merklize.prove(path, i, hash=hash, shape=shape).to_json() == printed.strip()


def test_data_blocks_and_arity_equal_the_tools(cli, write):
    path = write(bytes(range(256)) * 300)
    for args, options in [(["--leaf-size", "4096"], dict(leaf_size=4096)),
                          (["--leaf-size", "100", "--hash", "sha256", "--salt", "0a0b"],
                           dict(leaf_size=100, hash="sha256", salt=b"\x0a\x0b")),
                          (["--arity", "8", "--hash", "sha256"], dict(arity=8, hash="sha256")),
                          (["--arity", "4", "--pad", "zero", "--leaf-size", "64"],
                           dict(arity=4, shape="zero", leaf_size=64)),
                          (["--leaf-size", "136", "--hash", "keccak256"],
                           dict(leaf_size=136, hash="keccak256")),
                          (["--leaf-size", "100", "--leaf-hash", "sha3-256", "--hash", "sha3-256",
                            "--pad", "zero"],
                           dict(leaf_size=100, leaf_hash="sha3-256", hash="sha3-256",
                                shape="zero"))]:
        printed = cli("root", *args, str(path)).strip()
        assert str(merklize.root(path, **options)) == printed, args
        assert str(merklize.root(path.read_bytes(), **options)) == printed, args


def test_readme_one_liner_prints_the_tools_root(cli, write):
    path = write(oracles.random_leaves(5, seed=9), "f")
    code = "import merklize; print(merklize.root(open('f','rb').read()))"
    done = subprocess.run([sys.executable, "-c", code], cwd=path.parent, check=True,
                          stdout=subprocess.PIPE)
    assert done.stdout.decode() == cli("root", str(path))
