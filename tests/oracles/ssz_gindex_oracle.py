# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize's SSZ proofs by generalized index (proofs/ssz_gindex.hpp) against remerkleable and
the consensus specs' helpers.

Run by tests/oracles/run.sh with the ssz_gindex_dump program. An SSZ object of nested containers,
vectors and lists (of Bytes32, of packed uint64, of containers; empty and full ones) is built with
remerkleable and given to merklize as a tree of roots; for sets of generalized indices (of fields,
nested fields, list elements, a list's length, padding past a list's end, the root) merklize's
proven nodes and helper nodes must equal remerkleable's nodes at those generalized indices (its
backing tree navigated; a zero subtree it keeps whole hashed down) and at the consensus specs'
get_helper_indices, and its proofs
must pass the specs' calculate_multi_merkle_root (and, of one index, calculate_merkle_root).
merklize's verifier said "ok", and refused the proof with a helper changed.

The helpers below are copied from the consensus specs, ssz/merkle-proofs.md (ethereum/
consensus-specs, CC0 1.0), with hash = SHA-256 and GeneralizedIndex = int.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from remerkleable.basic import uint64
from remerkleable.byte_arrays import Bytes32
from remerkleable.complex import Container, List, Vector
from remerkleable.tree import NavigationError


def hash(data):  # the specs' hash
    return hashlib.sha256(data).digest()


# ---- ssz/merkle-proofs.md, "Helpers for generalized indices" and "Merkle multiproofs" ----

def get_generalized_index_length(index):
    return index.bit_length() - 1  # int(log2(index)), exactly


def get_generalized_index_bit(index, position):
    return (index & (1 << position)) > 0


def generalized_index_sibling(index):
    return index ^ 1


def generalized_index_parent(index):
    return index // 2


def get_branch_indices(tree_index):
    o = [generalized_index_sibling(tree_index)]
    while o[-1] > 1:
        o.append(generalized_index_sibling(generalized_index_parent(o[-1])))
    return o[:-1]


def get_path_indices(tree_index):
    o = [tree_index]
    while o[-1] > 1:
        o.append(generalized_index_parent(o[-1]))
    return o[:-1]


def get_helper_indices(indices):
    all_helper_indices = set()
    all_path_indices = set()
    for index in indices:
        all_helper_indices = all_helper_indices.union(set(get_branch_indices(index)))
        all_path_indices = all_path_indices.union(set(get_path_indices(index)))
    return sorted(all_helper_indices.difference(all_path_indices), reverse=True)


def calculate_merkle_root(leaf, proof, index):
    assert len(proof) == get_generalized_index_length(index)
    for i, h in enumerate(proof):
        if get_generalized_index_bit(index, i):
            leaf = hash(h + leaf)
        else:
            leaf = hash(leaf + h)
    return leaf


def calculate_multi_merkle_root(leaves, proof, indices):
    assert len(leaves) == len(indices)
    helper_indices = get_helper_indices(indices)
    assert len(proof) == len(helper_indices)
    objects = {
        **{index: node for index, node in zip(indices, leaves)},
        **{index: node for index, node in zip(helper_indices, proof)},
    }
    keys = sorted(objects.keys(), reverse=True)
    pos = 0
    while pos < len(keys):
        k = keys[pos]
        if k in objects and k ^ 1 in objects and k // 2 not in objects:
            objects[k // 2] = hash(objects[(k | 1) ^ 1] + objects[k | 1])
            keys.append(k // 2)
        pos += 1
    return objects[1]


# ---- the object ----

class Inner(Container):
    a: uint64
    b: Bytes32


class Outer(Container):
    x: uint64
    inner: Inner
    roots: List[Bytes32, 100]
    vec: Vector[Bytes32, 5]
    nums: List[uint64, 64]
    inners: List[Inner, 8]
    empty: List[Bytes32, 16]
    full: List[Bytes32, 4]


def b32(i):
    return Bytes32(hash(i.to_bytes(8, "little")))


def make():
    return Outer(
        x=7, inner=Inner(a=3, b=b32(1)), roots=List[Bytes32, 100](*[b32(i) for i in range(37)]),
        vec=Vector[Bytes32, 5](*[b32(100 + i) for i in range(5)]),
        nums=List[uint64, 64](*range(1000, 1019)),
        inners=List[Inner, 8](*[Inner(a=i, b=b32(200 + i)) for i in range(3)]),
        empty=List[Bytes32, 16](), full=List[Bytes32, 4](*[b32(300 + i) for i in range(4)]))


def chunk(view):
    return {"chunk": view.hash_tree_root().hex()}


def describe(value):
    """merklize's tree of roots of a remerkleable value."""
    typ = type(value)
    if issubclass(typ, Container):
        return {"vector": [describe(getattr(value, name)) for name in typ.fields().keys()]}
    if issubclass(typ, (List, Vector)):
        elem = typ.element_cls()
        if issubclass(elem, uint64):  # basic: packed, four to a chunk
            data = b"".join(int(v).to_bytes(8, "little") for v in value)
            data += bytes(-len(data) % 32)
            chunks = [{"chunk": data[i:i + 32].hex()} for i in range(0, len(data), 32)]
            if issubclass(typ, Vector):
                return {"vector": chunks}
            return {"list": chunks, "limit": (typ.limit() * 8 + 31) // 32, "length": len(value)}
        elements = [describe(v) if isinstance(v, Container) else chunk(v) for v in value]
        if issubclass(typ, Vector):
            return {"vector": elements}
        return {"list": elements, "limit": typ.limit()}
    return chunk(value)


ZERO_HASHES = [bytes(32)]
for _ in range(64):
    ZERO_HASHES.append(hash(ZERO_HASHES[-1] * 2))


def node_at(backing, g):
    """remerkleable's node at generalized index g: getter's, and where the path enters a zero
    subtree that remerkleable keeps as one node, that subtree's node at g."""
    node = backing
    bits = bin(g)[3:]
    for i, bit in enumerate(bits):
        try:
            node = node.get_right() if bit == "1" else node.get_left()
        except NavigationError:
            height = ZERO_HASHES.index(node.merkle_root())
            return ZERO_HASHES[height - (len(bits) - i)]
    return node.merkle_root()


def gindex(typ, *path):
    """The generalized index of a path, composed from remerkleable's key_to_static_gindex."""
    g = 1
    for key in path:
        if key == "__len__":
            g, typ = g * 2 + 1, uint64
            continue
        inner = typ.key_to_static_gindex(key)
        g = g << (inner.bit_length() - 1) | (inner - (1 << (inner.bit_length() - 1)))
        typ = typ.navigate_type(key)
    return g


def main():
    dump = sys.argv[1]
    value = make()
    T = Outer
    singles = [[1]] + [[gindex(T, name)] for name in T.fields().keys()] + [
        [gindex(T, "inner", "b")], [gindex(T, "roots", 0)], [gindex(T, "roots", 36)],
        [gindex(T, "roots", 99)], [gindex(T, "roots", "__len__")], [gindex(T, "nums", 5)],
        [gindex(T, "nums", 18)], [gindex(T, "inners", 2, "a")], [gindex(T, "inners", 7)],
        [gindex(T, "vec", 4)], [gindex(T, "empty", 0)], [gindex(T, "empty", "__len__")],
        [gindex(T, "full", 3)], [2], [3]]
    multis = [
        [gindex(T, "roots", 0), gindex(T, "roots", 7), gindex(T, "roots", "__len__")],
        [gindex(T, "inner", "a"), gindex(T, "nums", 5), gindex(T, "inners", 2, "b"),
         gindex(T, "vec", 4)],
        [gindex(T, name) for name in T.fields().keys()],
        [gindex(T, "roots", i) for i in range(37)],
        [gindex(T, "full", i) for i in range(4)] + [gindex(T, "x")],
    ]
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "tree.json")
        with open(path, "w") as f:
            json.dump({"tree": describe(value), "sets": singles + multis}, f)
        out = subprocess.run([dump, path], check=True, stdout=subprocess.PIPE).stdout.decode()
    backing, root = value.get_backing(), value.hash_tree_root()
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(singles) + len(multis), "one line a set"
    for r in results:
        indices = r["indices"]
        leaves = [bytes.fromhex(h) for h in r["leaves"]]
        helpers = [bytes.fromhex(h) for h in r["helpers"]]
        assert bytes.fromhex(r["root"]) == root, "the root is remerkleable's hash_tree_root"
        assert leaves == [node_at(backing, g) for g in indices], f"nodes at {indices}"
        assert helpers == [node_at(backing, g) for g in get_helper_indices(indices)], \
            f"helper nodes of {indices}"
        assert calculate_multi_merkle_root(leaves, helpers, indices) == root, indices
        if len(indices) == 1:
            assert helpers == [node_at(backing, g) for g in get_branch_indices(indices[0])]
            assert calculate_merkle_root(leaves[0], helpers, indices[0]) == root
        assert r["ok"] and r["tampered_refused"], f"merklize's verifier on {indices}"
    print(f"ok: {len(singles)} single and {len(multis)} multiproofs by generalized index agree with "
          f"remerkleable and the consensus specs' helpers")


if __name__ == "__main__":
    main()
