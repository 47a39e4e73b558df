# SPDX-License-Identifier: Apache-2.0 OR MIT
"""mmcs_commit, MmcsCommitment.open/open_batch and mmcs_verify (Plonky3's MerkleTreeMmcs) against
tests/mmcs_model.py, the independent Python model of Plonky3's rules (imported as
test_poseidon2.py imports its model): on one row, widths 1, 7, 8, 9, 24 and 25, several matrices
of different heights, cap heights 0, 1, 2 and past the depth, for BabyBear, KoalaBear and
Goldilocks, from C-contiguous and strided arrays; every opening verifies and fails once tampered;
and the refusals."""
from __future__ import annotations

import importlib.util
import pathlib
import random

import numpy as np
import pytest

import merklize

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
VECTORS = REPOSITORY / "tests" / "vectors"
_spec = importlib.util.spec_from_file_location("mmcs_model", REPOSITORY / "tests" / "mmcs_model.py")
model = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(model)

DTYPES = {"babybear": np.uint32, "koalabear": np.uint32, "goldilocks": np.uint64}

# (field, cap height, [(height, width), ...]): the awkward shapes.
CASES = [
    ("babybear", 0, [(1, 1)]),
    ("babybear", 1, [(8, 7), (8, 8), (8, 9)]),
    ("babybear", 0, [(9, 1), (5, 24)]),
    ("koalabear", 2, [(16, 24), (8, 25), (2, 1)]),
    ("koalabear", 0, [(3, 25)]),
    ("goldilocks", 10, [(5, 8), (3, 9), (1, 7)]),
    ("goldilocks", 1, [(2, 4), (1, 5)]),
]


def random_matrices(rng: random.Random, field: model.Field, name: str, shapes) -> list:
    return [np.array([[rng.randrange(field.p) for _ in range(w)] for _ in range(h)],
                     dtype=DTYPES[name]).reshape(h, w) for h, w in shapes]


def model_of(field: model.Field, arrays: list, cap_height: int):
    """The model's layers and cap of the arrays."""
    matrices = [{"height": a.shape[0], "width": a.shape[1],
                 "elements": [int(e) for e in a.reshape(-1)]} for a in arrays]
    layers = model.commit_layers(field, matrices)
    return matrices, layers, model.cap_of(layers, cap_height)


@pytest.mark.parametrize("name,cap_height,shapes", CASES)
def test_commitments_and_openings_equal_the_model(name, cap_height, shapes):
    field = model.Field(str(VECTORS), name)
    hash = f"poseidon2-{name}"
    arrays = random_matrices(random.Random(hash + str(shapes)), field, name, shapes)
    matrices, layers, cap = model_of(field, arrays, cap_height)
    c = merklize.mmcs_commit(arrays, hash=hash, cap_height=cap_height)
    assert c.cap == cap and c.height == max(h for h, _ in shapes)
    assert c.shapes == shapes and c.hash == hash and c.cap_height == cap_height
    openings = c.open_batch(range(c.height))
    for index, opening in enumerate(openings):
        rows, path = model.open_batch(matrices, layers, cap_height, index)
        assert opening.index == index and opening.path == path
        assert [r.tolist() for r in opening.rows] == rows
        assert all(r.dtype == DTYPES[name] for r in opening.rows)
        assert merklize.mmcs_verify(c.cap, shapes, opening, hash=hash, cap_height=cap_height)
        assert c.verify(opening)
    single = c.open(c.height - 1)
    assert [r.tolist() for r in single.rows] == [r.tolist() for r in openings[-1].rows]


@pytest.mark.parametrize("name,cap_height,shapes", CASES[1:4])
def test_dropped_layers_open_as_every_layer_does(name, cap_height, shapes):
    hash = f"poseidon2-{name}"
    field = model.Field(str(VECTORS), name)
    arrays = random_matrices(random.Random(hash + "drop"), field, name, shapes)
    full = merklize.mmcs_commit(arrays, hash=hash, cap_height=cap_height)
    depth = (max(h for h, _ in shapes) - 1).bit_length()
    top = depth - min(cap_height, depth)  # the cap's layer
    want = full.open_batch(range(full.height))
    for drop in range(1, top + 1):
        c = merklize.mmcs_commit(arrays, hash=hash, cap_height=cap_height, drop_layers=drop)
        got = c.open_batch(range(c.height))
        assert c.cap == full.cap
        assert [o.path for o in got] == [o.path for o in want]
        assert [[r.tolist() for r in o.rows] for o in got] == \
            [[r.tolist() for r in o.rows] for o in want]
    with pytest.raises(merklize.ArgumentError, match="keeps its cap's layer"):
        merklize.mmcs_commit(arrays, hash=hash, cap_height=cap_height, drop_layers=top + 1)


def tampered(opening: merklize.MmcsOpening, row=None, path=None) -> merklize.MmcsOpening:
    rows = [r.copy() for r in opening.rows]
    siblings = list(opening.path)
    if row is not None:
        rows[row][0] = (int(rows[row][0]) + 1) % 2013265921
    if path is not None:
        siblings[path] = bytes([siblings[path][0] ^ 1]) + siblings[path][1:]
    return merklize.MmcsOpening(opening.index, rows, siblings)


def test_tampered_openings_fail():
    rng = np.random.default_rng(34)
    arrays = [rng.integers(0, 2013265921, size=(8, 9), dtype=np.uint32),
              rng.integers(0, 2013265921, size=(4, 3), dtype=np.uint32)]
    c = merklize.mmcs_commit(arrays, cap_height=1)
    opening = c.open(5)
    assert c.verify(opening)
    for bad in (tampered(opening, row=0), tampered(opening, row=1), tampered(opening, path=0),
                merklize.MmcsOpening(4, opening.rows, opening.path)):
        assert not c.verify(bad)
        with pytest.raises(merklize.InvalidProofError, match="invalid opening"):
            c.verify(bad, raise_on_failure=True)
    # Rows as lists of ints verify as arrays do; a value past the dtype is not wrapped around.
    as_lists = merklize.MmcsOpening(5, [r.tolist() for r in opening.rows], opening.path)
    assert c.verify(as_lists)
    wrapped = [r.tolist() for r in opening.rows]
    wrapped[0][0] += 2**32
    assert not c.verify(merklize.MmcsOpening(5, wrapped, opening.path))
    # Rows of other widths, and another cap height: refused too.
    assert not merklize.mmcs_verify(c.cap, [(8, 8), (4, 3)], opening, cap_height=1)
    assert not merklize.mmcs_verify(c.cap, c.shapes, opening, cap_height=0)


def test_strided_arrays_are_copied_and_committed_as_their_values():
    rng = np.random.default_rng(3)
    wide = rng.integers(0, 2**63, size=(16, 18), dtype=np.uint64)  # below Goldilocks' p
    strided = wide[::2, ::2]  # 8 x 9, not contiguous
    assert not strided.flags.c_contiguous
    c = merklize.mmcs_commit([strided], hash="poseidon2-goldilocks")
    assert c.cap == merklize.mmcs_commit([strided.copy()], hash="poseidon2-goldilocks").cap
    transposed = np.ascontiguousarray(strided.T).T  # Fortran order
    assert c.cap == merklize.mmcs_commit([transposed], hash="poseidon2-goldilocks").cap


def test_refusals():
    good = np.zeros((8, 2), dtype=np.uint32)
    bad = good.copy()
    bad[2, 1] = 2013265921  # p
    with pytest.raises(merklize.ArgumentError, match="matrix 0, row 2, column 1"):
        merklize.mmcs_commit([bad])
    with pytest.raises(merklize.ArgumentError, match="height 7"):
        merklize.mmcs_commit([good, np.zeros((7, 1), dtype=np.uint32)])
    with pytest.raises(merklize.ArgumentError, match="no matrix commitment"):
        merklize.mmcs_commit([good], hash="poseidon2-bn254")
    with pytest.raises(merklize.ArgumentError, match="not a hash over field elements"):
        merklize.mmcs_commit([good], hash="sha256")
    with pytest.raises(merklize.ArgumentError, match="no matrices"):
        merklize.mmcs_commit([])
    with pytest.raises(TypeError, match="uint64"):
        merklize.mmcs_commit([good], hash="poseidon2-goldilocks")
    with pytest.raises(ValueError, match="2"):
        merklize.mmcs_commit([good.reshape(-1)])
    c = merklize.mmcs_commit([good])
    with pytest.raises(merklize.ArgumentError, match="out of range"):
        c.open_batch([0, 8])
    assert c.open_batch([]) == []
