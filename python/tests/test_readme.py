# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The Python examples of python/README.md and of the README run as shown, and python/README.md's
root and proof of a file equal what the merklize tool prints for it (where the tool is built)."""
from __future__ import annotations

import contextlib
import io
import re
import subprocess

import oracles
from conftest import REPO, cli_path


def python_blocks(readme: str) -> list:
    text = (REPO / readme).read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_examples_run(tmp_path, monkeypatch):
    blocks = python_blocks("python/README.md")
    readme = python_blocks("README.md")
    assert len(blocks) >= 2 and readme
    (tmp_path / "leaves.bin").write_bytes(oracles.random_leaves(1000, seed=3))
    monkeypatch.chdir(tmp_path)
    for block in blocks + readme:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, "python/README.md", "exec"), {})  # noqa: S102 - our own docs
        if block is blocks[0] and cli_path():
            tool = [cli_path(), "--hash", "sha256", "leaves.bin"]
            expected = [subprocess.run([tool[0], command, *tool[1:3], *extra, tool[3]],
                                       check=True, stdout=subprocess.PIPE).stdout.decode().strip()
                        for command, extra in (("root", []), ("proof", ["-i", "5"]))]
            assert printed.getvalue().splitlines() == expected
