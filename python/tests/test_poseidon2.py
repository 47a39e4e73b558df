# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The Poseidon2 hashes of field elements over numpy arrays of limbs (uint32 (n, 8) for BabyBear
and KoalaBear, uint64 (n, 4) for Goldilocks; a (n, 32) uint8 array of BN254 elements): roots from
merklize.root, roots_many and DeviceTree equal tests/poseidon2_model.py's independent model of
Plonky3's (and HorizenLabs') compression trees at 1, 2, 3, 7, 8 and 9 leaves; an element of p or
more refused with the library's message, naming the leaf and the limb."""
from __future__ import annotations

import importlib.util
import json
import pathlib
import random
import re

import numpy as np
import pytest

import merklize

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("poseidon2_model",
                                               REPOSITORY / "tests" / "poseidon2_model.py")
model = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(model)

SIZES = [1, 2, 3, 7, 8, 9]
# hash: the numpy dtype of its limbs and the field's name in the library's messages
FIELDS = {
    "poseidon2-babybear": (np.uint32, "BabyBear"),
    "poseidon2-koalabear": (np.uint32, "KoalaBear"),
    "poseidon2-goldilocks": (np.uint64, "Goldilocks"),
    "poseidon2-bn254": (np.uint8, "BN254 Fr"),
}


def instance(hash):
    file, size = model.HASHES[hash]
    with open(REPOSITORY / "tests/vectors/commitments/poseidon2" / file) as f:
        return model.Instance(json.load(f)), size


def leaves_array(hash, n, seed):
    """n random canonical leaves as the array a prover holds them in."""
    inst, size = instance(hash)
    rng = random.Random(seed)
    elements = [rng.randrange(inst.p) for _ in range(n * 32 // size)]
    dtype = FIELDS[hash][0]
    if dtype == np.uint8:  # BN254: one 32-byte little-endian element a leaf
        data = b"".join(e.to_bytes(32, "little") for e in elements)
        return np.frombuffer(data, dtype=np.uint8).reshape(n, 32).copy()
    return np.array(elements, dtype=dtype).reshape(n, 32 // size)


def model_root(hash, array):
    inst, size = instance(hash)
    leaves = [bytes(row.tobytes()) for row in array]
    return model.model_root(inst, leaves, size)


@pytest.mark.parametrize("hash", FIELDS)
def test_roots_of_limb_arrays_equal_the_model(hash):
    assert hash in merklize.HASHES
    for n in SIZES:
        array = leaves_array(hash, n, seed=n)
        want = model_root(hash, array)
        assert bytes(merklize.root(array, hash=hash)) == want, (hash, n)
        assert bytes(merklize.DeviceTree(array, hash=hash).root) == want, (hash, n)
        two = np.concatenate([array, leaves_array(hash, n, seed=100 + n)])
        roots = merklize.roots_many(two, n, hash=hash)
        assert roots.shape == (2, 32)
        assert bytes(roots[0]) == want and bytes(roots[1]) == model_root(hash, two[n:]), (hash, n)


@pytest.mark.parametrize("hash", FIELDS)
def test_a_device_tree_updates_and_appends_as_the_model(hash):
    array = leaves_array(hash, 7, seed=1)
    tree = merklize.DeviceTree(array, hash=hash)
    new = leaves_array(hash, 2, seed=2)
    array[[1, 5]] = new
    assert bytes(tree.update([1, 5], new)) == model_root(hash, array)
    more = leaves_array(hash, 2, seed=3)
    assert bytes(tree.append(more)) == model_root(hash, np.concatenate([array, more]))


@pytest.mark.parametrize("hash", FIELDS)
def test_a_non_canonical_element_is_refused(hash):
    inst, size = instance(hash)
    array = leaves_array(hash, 3, seed=4)
    raw = array.view(np.uint8).reshape(3, 32)
    at = min(3, 32 // size - 1)  # limb 3 (BN254: its one element) made p
    raw[2, size * at:size * (at + 1)] = np.frombuffer(inst.p.to_bytes(size, "little"), np.uint8)
    field = FIELDS[hash][1]
    why = (f"leaf 2, element {inst.p:#066x} is not a canonical {field} element" if size == 32
           else f"leaf 2, limb 3 ({inst.p}) is not a canonical {field} element")
    for call in (lambda: merklize.root(array, hash=hash),
                 lambda: merklize.roots_many(array, 3, hash=hash),
                 lambda: merklize.DeviceTree(array, hash=hash)):
        with pytest.raises(merklize.ArgumentError, match=re.escape(why)):
            call()
