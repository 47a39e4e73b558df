# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bad input: each raises an exception naming the problem (the library's message for what the
library refuses), of the class of its status and of the built-in class a caller expects, and
leaves the caller's data as it was."""
from __future__ import annotations

import io

import numpy as np
import oracles
import pytest

import merklize


def test_wrong_lengths():
    with pytest.raises(merklize.ArgumentError, match="33 bytes, not a multiple of 32") as e:
        merklize.root(b"x" * 33)
    assert isinstance(e.value, ValueError) and e.value.status == "MERKLIZE_ERROR_ARGUMENT"
    with pytest.raises(merklize.ArgumentError, match="a leaf is 32 bytes"):
        merklize.build(oracles.random_leaves(2)).prove(0).verify(b"x" * 31, bytes(32))
    with pytest.raises(merklize.ArgumentError, match="root is 31 bytes"):
        merklize.build(oracles.random_leaves(2)).prove(0).verify(bytes(32), bytes(31))
    with pytest.raises(merklize.ArgumentError, match="needs at least one leaf"):
        merklize.root(b"")


def test_unknown_names_list_the_known_ones():
    with pytest.raises(merklize.ArgumentError, match=r'unknown hash "md5" \(known: blake3'):
        merklize.root(bytes(32), hash="md5")
    with pytest.raises(merklize.ArgumentError, match="config.shape"):
        merklize.Builder(shape="square")
    with pytest.raises(merklize.ArgumentError, match="shape promote only"):
        merklize.root(bytes(32), hash="rfc6962", shape="zero")
    with pytest.raises(merklize.ArgumentError, match="config.leaf_hash"):
        merklize.root(bytes(32), leaf_size=32, leaf_hash="md5")
    with pytest.raises(merklize.ArgumentError, match="mix_in_length"):
        merklize.root(bytes(32), mix_in_length=1)  # blake3 promote is no SSZ list


def test_options_that_do_not_go_together():
    with pytest.raises(merklize.ArgumentError, match="config.arity"):
        merklize.root(bytes(32), arity=3)
    with pytest.raises(merklize.ArgumentError, match="config.depth"):
        merklize.root(bytes(32), shape="zero", depth=65)
    with pytest.raises(merklize.ArgumentError, match="salt needs config.leaf_size"):
        merklize.root(bytes(32), salt=b"s")
    with pytest.raises(merklize.ArgumentError, match="keep"):
        merklize.build(bytes(32), keep="some")


def test_out_of_range():
    tree = merklize.build(oracles.random_leaves(5))
    with pytest.raises(merklize.ArgumentError, match="out of range"):
        tree.prove(5)
    with pytest.raises(merklize.ArgumentError, match="level 9 out of range"):
        tree.level(9)
    with pytest.raises(merklize.ArgumentError, match="node 3 out of range"):
        tree.node(1, 3)
    with pytest.raises(merklize.ArgumentError, match="index is -1"):
        tree.prove(-1)
    with pytest.raises(merklize.ArgumentError):
        tree.prove_consistency(6)


def test_wrong_types():
    with pytest.raises(TypeError, match="data must be bytes-like"):
        merklize.root([bytes(32)])
    with pytest.raises(TypeError, match="data must be bytes-like"):
        merklize.root(3)
    with pytest.raises(TypeError, match="hash must be a str"):
        merklize.root(bytes(32), hash=b"sha256")
    with pytest.raises(TypeError, match="depth must be an int"):
        merklize.root(bytes(32), shape="zero", depth=2.0)
    with pytest.raises(TypeError, match="salt must be bytes-like"):
        merklize.root(bytes(32), leaf_size=4, salt="s")
    with pytest.raises(TypeError, match="mix_in_length must be an int, not a bool"):
        merklize.root(bytes(32), hash="sha256", shape="zero", mix_in_length=True)
    with pytest.raises(TypeError, match="device must be"):
        merklize.root(bytes(32), device=0)
    with pytest.raises(TypeError, match="binary mode"):
        merklize.root(io.StringIO("text"))


def test_non_contiguous_arrays_are_refused_untouched():
    leaves = np.frombuffer(oracles.random_leaves(8), dtype=np.uint8).reshape(8, 32).copy()
    before = leaves.copy()
    with pytest.raises(merklize.ArgumentError, match="numpy.ascontiguousarray"):
        merklize.root(leaves[::2])
    assert np.array_equal(leaves, before)
    assert merklize.root(np.ascontiguousarray(leaves[::2])) == \
        merklize.root(before[::2].tobytes())


def test_files_that_cannot_be_read(tmp_path):
    with pytest.raises(merklize.FileError, match="no-such-file") as e:
        merklize.root(tmp_path / "no-such-file")
    assert isinstance(e.value, OSError) and e.value.status == "MERKLIZE_ERROR_IO"
    with pytest.raises(merklize.FileError):
        merklize.blake3_device(tmp_path)  # a folder
    with pytest.raises(merklize.ArgumentError, match="NUL"):
        merklize.root("a\0b")


def test_devices_that_do_not_exist():
    with pytest.raises(merklize.DeviceError) as e:
        merklize.Device("no device is called this")
    assert "no device is called this" in str(e.value) and isinstance(e.value, RuntimeError)
    with pytest.raises(merklize.DeviceError):
        merklize.root(bytes(32), device="no device is called this")


def test_digests_of_the_wrong_size():
    with pytest.raises(merklize.ArgumentError, match="32 bytes, not 3"):
        merklize.Digest(b"abc")
    with pytest.raises(merklize.ArgumentError, match="hex"):
        merklize.Digest("zz" * 32)
    with pytest.raises(TypeError):
        merklize.Digest(32)


def test_every_error_is_a_merklize_error():
    for cls in (merklize.ArgumentError, merklize.DeviceError, merklize.OpenCLError,
                merklize.FileError, merklize.DecodeError, merklize.OutOfMemoryError,
                merklize.InternalError, merklize.InvalidProofError, merklize.UnusableTreeError):
        assert issubclass(cls, merklize.Error) and cls.__module__ == "merklize"
