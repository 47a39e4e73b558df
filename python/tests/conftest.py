# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What the tests share: the repository's paths, the sizes every hash and shape is checked at,
and the command-line tool (the oracle of what it prints), found through $MERKLIZE_CLI."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
VECTORS = REPO / "tests" / "vectors"
sys.path.insert(0, str(HERE))  # oracles.py
sys.path.insert(0, str(REPO / "tests" / "oracles"))  # the repository's oracle helpers

#: 1, 2, 3, and 2^k - 1, 2^k, 2^k + 1.
SIZES = sorted({1, 2, 3} | {m for k in (2, 3, 4, 5, 7, 10, 16) for m in (2**k - 1, 2**k,
                                                                         2**k + 1)})
#: The same without the largest, for checks that are slow in Python.
SMALL_SIZES = [n for n in SIZES if n <= 1025]
#: Every hash and shape the library builds (rfc6962 has shape promote only).
HASH_SHAPES = [(h, s) for h in ("blake3", "blake3-parent", "sha256", "keccak256", "sha3-256")
               for s in ("promote", "zero")]
HASH_SHAPES.append(("rfc6962", "promote"))


def cli_path() -> str | None:
    path = os.environ.get("MERKLIZE_CLI", "")
    return path if path and os.access(path, os.X_OK) else None


@pytest.fixture(scope="session")
def cli():
    """Runs the merklize tool: cli(args...) -> its stdout; skipped where it is not built."""
    path = cli_path()
    if path is None:
        pytest.skip("MERKLIZE_CLI names no merklize tool (the ctest test python_package sets it)")

    def run(*args: str) -> str:
        done = subprocess.run([path, *args], check=True, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        return done.stdout.decode()

    return run


@pytest.fixture
def write(tmp_path):
    """write(data, name="data.bin") -> the path of a new file holding data."""

    def make(data: bytes, name: str = "data.bin") -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path

    return make
