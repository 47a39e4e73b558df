# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Merkle trees computed here, in plain Python, from hashlib (SHA-256, SHA3-256), the blake3
package and pycryptodome (Keccak-256): the oracles of merklize's trees (none of this calls
merklize).

A tree's levels are lists of 32-byte nodes, leaves first, root last. Shape "promote": a lone last
node of a level moves up unchanged; shape "zero": a level of odd length is completed with the
root of an all-zero subtree of its height (the same as padding the leaves with zero leaves), up
to a fixed depth if one is given. k-ary trees hash K children a node; a short last group is
hashed over its children, or moves up alone if it has one child (promote), or is completed with
zero subtrees' roots (zero).
"""
from __future__ import annotations

import hashlib
import random

import blake3 as blake3_package
from Crypto.Hash import keccak as pycryptodome_keccak

ZERO = bytes(32)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def blake3(data: bytes) -> bytes:
    return blake3_package.blake3(data).digest()


def sha3_256(data: bytes) -> bytes:
    return hashlib.sha3_256(data).digest()


def keccak256(data: bytes) -> bytes:
    """Ethereum's Keccak-256 (the padding byte 0x01, not SHA3-256's 0x06)."""
    return pycryptodome_keccak.new(digest_bits=256, data=data).digest()


def rfc6962_node(data: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + data).digest()


def rfc6962_leaf(entry: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + entry).digest()


#: The node hash of each of merklize's hashes that is a hash of the children's bytes.
NODE = {"sha256": sha256, "blake3": blake3, "rfc6962": rfc6962_node, "keccak256": keccak256,
        "sha3-256": sha3_256}


def random_leaves(n: int, seed: int = 1) -> bytes:
    """n random 32-byte leaves, the same for the same n and seed."""
    return random.Random(seed * 1_000_003 + n).randbytes(32 * n)


def leaves_for(hash: str, n: int, seed: int = 1) -> bytes:
    """random_leaves that ``hash`` takes: for a Poseidon2 hash (over field elements) each 4-byte
    word's top byte below 0x20, which puts every limb below p (BabyBear, KoalaBear, Goldilocks:
    little-endian limbs of 4 or 8 bytes) and the 32-byte value below BN254's p (0x30644e...)."""
    data = bytearray(random_leaves(n, seed))
    if hash.startswith("poseidon2-"):
        for top in range(3, len(data), 4):
            data[top] &= 0x1F
    return bytes(data)


def split(data: bytes, size: int = 32) -> list:
    return [data[i:i + size] for i in range(0, len(data), size)]


def zero_roots(node, height: int) -> list:
    """zero_roots[h]: the root of an all-zero binary subtree of height h."""
    roots = [ZERO]
    for _ in range(height):
        roots.append(node(roots[-1] + roots[-1]))
    return roots


def levels(leaves: list, node, shape: str = "promote", depth: int | None = None) -> list:
    """Every level of the binary tree over `leaves` (at least one)."""
    if depth is None:
        depth = max(0, (len(leaves) - 1).bit_length())
    zeros = zero_roots(node, depth)
    out = [list(leaves)]
    def more() -> bool:
        return len(out) <= depth if shape == "zero" else len(out[-1]) > 1

    while more():
        below, above = out[-1], []
        for i in range(0, len(below), 2):
            if i + 1 < len(below):
                above.append(node(below[i] + below[i + 1]))
            elif shape == "zero":
                above.append(node(below[i] + zeros[len(out) - 1]))
            else:
                above.append(below[i])
        out.append(above)
    return out


def root(leaves: list, node, shape: str = "promote", depth: int | None = None) -> bytes:
    return levels(leaves, node, shape, depth)[-1][0]


def kary_levels(leaves: list, node, arity: int, shape: str = "promote") -> list:
    """Every level of the k-ary tree over `leaves`."""
    zeros = [ZERO]
    out = [list(leaves)]
    while len(out[-1]) > 1:
        below, above = out[-1], []
        for i in range(0, len(below), arity):
            group = below[i:i + arity]
            if shape == "zero":
                group = group + [zeros[-1]] * (arity - len(group))
            above.append(group[0] if len(group) == 1 else node(b"".join(group)))
        zeros.append(node(zeros[-1] * arity))
        out.append(above)
    return out


def kary_multiproof(tree_levels: list, indices: list, node, arity: int,
                    shape: str = "promote") -> list:
    """The nodes of the k-ary multiproof of `indices` in kary_levels' `tree_levels`, as
    docs/PROOFS.md ("k-ary multiproofs") orders them: level by level from the leaves, for each
    group of `arity` children holding a known node, its other members, ascending (shape zero:
    a short group padded with the level's zero-subtree root; promote: a lone child moves up).
    No indices: the root alone."""
    known = sorted(set(indices))
    if not known:
        return [tree_levels[-1][0]]
    nodes, zero = [], ZERO
    for below in tree_levels[:-1]:
        parents, i = [], 0
        while i < len(known):
            first = known[i] - known[i] % arity
            width = arity if shape == "zero" else min(arity, len(below) - first)
            for c in range(first, first + width):
                if i < len(known) and known[i] == c:
                    i += 1
                else:
                    nodes.append(below[c] if c < len(below) else zero)
            parents.append(first // arity)
        known, zero = parents, node(zero * arity)
    return nodes


def siblings(tree_levels: list, index: int, node=None, shape: str = "promote") -> list:
    """The audit path of leaf `index` in a binary tree's levels: its sibling on each level below
    the root; past a level's end none (promote: the node moved up) or a zero subtree's root."""
    zeros = zero_roots(node, len(tree_levels)) if shape == "zero" else []
    path = []
    for height, level in enumerate(tree_levels[:-1]):
        if index ^ 1 < len(level):
            path.append(level[index ^ 1])
        elif shape == "zero":
            path.append(zeros[height])
        index //= 2
    return path


def ssz_length_chunk(length: int) -> bytes:
    return length.to_bytes(32, "little")
