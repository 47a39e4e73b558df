#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""An independent model of merklize's sparse Merkle tree, written from the rule in
include/merklize/core/sparse.hpp's comment in plain Python (no merklize code), computed a level at
a time over the non-empty nodes only (where the C++ reference recurses over sorted keys):
level 0 maps key -> value, level h+1 maps p -> node(level_h.get(2p, z[h]), level_h.get(2p+1, z[h])),
the root is level_depth.get(0, z[depth]). tests/test_sparse.cpp runs it on the same batches.

usage: sparse_model.py INPUT
INPUT: a first line "HASH DEPTH" (HASH: sha256, sha3-256 or rfc6962), then lines "KEY VALUE" (64 hex
digits each; a zero value deletes) with a line "end" after each batch. Prints the root after each
batch, in hex, one per line."""
import hashlib
import sys

NODES = {
    "sha256": lambda l, r: hashlib.sha256(l + r).digest(),
    "sha3-256": lambda l, r: hashlib.sha3_256(l + r).digest(),
    "rfc6962": lambda l, r: hashlib.sha256(b"\x01" + l + r).digest(),
}
ZERO = bytes(32)


def root(node, depth, leaves):
    empty = ZERO
    level = {key: value for key, value in leaves.items() if value != ZERO}
    for _ in range(depth):
        above = {}
        for prefix in {key >> 1 for key in level}:
            above[prefix] = node(level.get(2 * prefix, empty), level.get(2 * prefix + 1, empty))
        level, empty = above, node(empty, empty)
    return level.get(0, empty)


def main():
    with open(sys.argv[1]) as f:
        lines = f.read().split("\n")
    name, depth = lines[0].split()
    node, depth, leaves = NODES[name], int(depth), {}
    for line in lines[1:]:
        if line == "end":
            print(root(node, depth, leaves).hex())
        elif line:
            key, value = line.split()
            leaves[int(key, 16)] = bytes.fromhex(value)


main()
