# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The package as installed: its type stubs describe the extension module as built, and every
public name is documented."""
from __future__ import annotations

import inspect
import subprocess
import sys

import pytest
from conftest import REPO

import merklize


#: The nanobind whose stubgen wrote python/merklize/_merklize.pyi (tests/ctest_venv.sh pins it).
STUBGEN_NANOBIND = "3.1.0"


def test_stub_matches_the_module(tmp_path):
    nanobind = pytest.importorskip("nanobind")
    if nanobind.__version__ != STUBGEN_NANOBIND:
        pytest.skip(f"the stub is nanobind {STUBGEN_NANOBIND}'s, this is {nanobind.__version__}")
    out = tmp_path / "_merklize.pyi"
    subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-m", "merklize._merklize", "-P",
                    "-o", str(out)], check=True, stdout=subprocess.DEVNULL)
    committed = (REPO / "python" / "merklize" / "_merklize.pyi").read_text()
    assert committed.split("\n", 1)[1] == out.read_text(), \
        "python/merklize/_merklize.pyi is stale: regenerate it (python/README.md, Development)"


def test_every_public_name_has_a_docstring():
    for name in merklize.__all__:
        value = getattr(merklize, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), name
        if not inspect.isclass(value) or issubclass(value, BaseException):
            continue
        for member, attribute in vars(value).items():
            if not member.startswith("_") and (callable(attribute) or
                                               isinstance(attribute, property)):
                assert inspect.getdoc(attribute), f"{name}.{member}"


def test_typed_package_ships_its_marker():
    from pathlib import Path

    assert (Path(merklize.__file__).parent / "py.typed").exists()
    assert (Path(merklize.__file__).parent / "_merklize.pyi").exists()
