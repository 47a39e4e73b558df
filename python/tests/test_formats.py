# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The formats against their own tools: dm-verity against `veritysetup format --no-superblock`
(Debian's cryptsetup-bin), fs-verity against `fsverity digest` (Debian's fsverity), Bao's
outboard against tests/bao_model.py (the Bao spec in plain Python) and its root against the
blake3 package. Each tool's test is skipped where the tool is not installed."""
from __future__ import annotations

import random
import shutil
import subprocess
import sys

import blake3 as blake3_package
import pytest
from conftest import REPO

import merklize

VERITYSETUP = shutil.which("veritysetup") or "/usr/sbin/veritysetup"
FSVERITY = shutil.which("fsverity") or "/usr/bin/fsverity"


def need(tool: str, package: str) -> None:
    if not shutil.which(tool):
        pytest.skip(f"{tool} not found (install {package})")


@pytest.mark.parametrize("blocks,data_block,hash_block,salt", [
    (1, 4096, 4096, b""), (129, 4096, 4096, b"\x01\x02"), (300, 512, 1024, bytes(range(32)))])
def test_dm_verity_against_veritysetup(tmp_path, blocks, data_block, hash_block, salt):
    need(VERITYSETUP, "cryptsetup-bin")
    data = random.Random(blocks).randbytes(blocks * data_block)
    path, hashes = tmp_path / "data", tmp_path / "hashes"
    path.write_bytes(data)
    printed = subprocess.run(
        [VERITYSETUP, "format", "--no-superblock", f"--data-block-size={data_block}",
         f"--hash-block-size={hash_block}", f"--salt={salt.hex() or '-'}", str(path),
         str(hashes)], check=True, stdout=subprocess.PIPE).stdout.decode()
    root_hex = printed.split("Root hash:")[1].split()[0]
    root, tree = merklize.dm_verity(data, data_block, hash_block, salt)
    assert str(root) == root_hex and tree == hashes.read_bytes()
    assert merklize.dm_verity(path, data_block, hash_block, salt, tree=False) == (root, None)


@pytest.mark.parametrize("size,block,salt", [(0, 4096, b""), (1, 4096, b""),
                                             (4096 * 130 + 5, 4096, b"salt"), (70000, 1024, b"")])
def test_fs_verity_against_fsverity(tmp_path, size, block, salt):
    need(FSVERITY, "fsverity")
    data = random.Random(size).randbytes(size)
    path, tree_path = tmp_path / "data", tmp_path / "tree"
    path.write_bytes(data)
    args = [FSVERITY, "digest", str(path), f"--block-size={block}",
            f"--out-merkle-tree={tree_path}"] + ([f"--salt={salt.hex()}"] if salt else [])
    printed = subprocess.run(args, check=True, stdout=subprocess.PIPE).stdout.decode()
    digest, tree = merklize.fs_verity(data, block, salt)
    assert printed.split()[0] == f"sha256:{digest}"
    assert tree == tree_path.read_bytes()
    with open(path, "rb") as f:
        assert merklize.fs_verity(f, block, salt, tree=False) == (digest, None)


@pytest.mark.parametrize("size", [0, 1, 1024, 1025, 4096 * 3 + 1, 100000])
def test_bao_outboard_against_the_model(tmp_path, size):
    data = random.Random(size).randbytes(size)
    path, outboard_path = tmp_path / "data", tmp_path / "obao"
    path.write_bytes(data)
    printed = subprocess.run([sys.executable, str(REPO / "tests" / "bao_model.py"), str(path),
                              str(outboard_path)], check=True, stdout=subprocess.PIPE)
    root, outboard = merklize.bao_outboard(data)
    assert root == blake3_package.blake3(data).digest()
    assert str(root) == printed.stdout.decode().split()[0]
    assert outboard == outboard_path.read_bytes()
    assert merklize.bao_outboard(path, outboard=False) == (root, None)
