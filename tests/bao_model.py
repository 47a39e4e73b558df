#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""An independent model of Bao's outboard encoding, written from the Bao and BLAKE3 specs in
plain Python (no merklize code): BLAKE3's compression function, chunk chaining values, the
left-balanced tree, and the outboard (the 8-byte little-endian length, then the parent nodes in
pre-order). tests/test_formats.cpp runs it on the same input as merklize and compares bytes.

usage: bao_model.py INPUT OUTBOARD   (writes OUTBOARD, prints the root in hex)"""
import sys

IV = [0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
      0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19]
PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]
CHUNK_START, CHUNK_END, PARENT, ROOT = 1, 2, 4, 8
MASK = 0xFFFFFFFF


def rotr(x, n):
    return ((x >> n) | (x << (32 - n))) & MASK


def g(v, a, b, c, d, x, y):
    v[a] = (v[a] + v[b] + x) & MASK
    v[d] = rotr(v[d] ^ v[a], 16)
    v[c] = (v[c] + v[d]) & MASK
    v[b] = rotr(v[b] ^ v[c], 12)
    v[a] = (v[a] + v[b] + y) & MASK
    v[d] = rotr(v[d] ^ v[a], 8)
    v[c] = (v[c] + v[d]) & MASK
    v[b] = rotr(v[b] ^ v[c], 7)


def compress(cv, block, counter, block_len, flags):
    """The first eight words of BLAKE3's compression output: the chaining value."""
    m = [int.from_bytes(block[4 * i:4 * i + 4], "little") for i in range(16)]
    v = cv[:] + IV[:4] + [counter & MASK, counter >> 32, block_len, flags]
    for r in range(7):
        g(v, 0, 4, 8, 12, m[0], m[1])
        g(v, 1, 5, 9, 13, m[2], m[3])
        g(v, 2, 6, 10, 14, m[4], m[5])
        g(v, 3, 7, 11, 15, m[6], m[7])
        g(v, 0, 5, 10, 15, m[8], m[9])
        g(v, 1, 6, 11, 12, m[10], m[11])
        g(v, 2, 7, 8, 13, m[12], m[13])
        g(v, 3, 4, 9, 14, m[14], m[15])
        m = [m[p] for p in PERMUTATION]
    return [v[i] ^ v[i + 8] for i in range(8)]


def words_to_bytes(words):
    return b"".join(w.to_bytes(4, "little") for w in words)


def chunk_cv(chunk, index, root_flag=0):
    """The chunk's chaining value; with ROOT (a one-chunk input) its last block gives the root."""
    blocks = [chunk[i:i + 64] for i in range(0, len(chunk), 64)] or [b""]
    cv = IV[:]
    for b, block in enumerate(blocks):
        last = b == len(blocks) - 1
        f = (CHUNK_START if b == 0 else 0) | (CHUNK_END | root_flag if last else 0)
        cv = compress(cv, block.ljust(64, b"\0"), index, len(block), f)
    return words_to_bytes(cv)


def parent_cv(left, right, flags=0):
    return words_to_bytes(compress(IV[:], left + right, 0, 64, PARENT | flags))


def subtree(data, first_chunk, chunks, parents, is_root):
    """The chaining value of chunks [first_chunk, first_chunk + chunks) of data, its parent nodes
    appended to `parents` in pre-order (the node's place is taken before its children's)."""
    if chunks == 1:
        start = first_chunk * 1024
        return chunk_cv(data[start:start + 1024], first_chunk, ROOT if is_root else 0)
    left = 1
    while left * 2 < chunks:
        left *= 2
    slot = len(parents)
    parents.append(None)
    l_cv = subtree(data, first_chunk, left, parents, False)
    r_cv = subtree(data, first_chunk + left, chunks - left, parents, False)
    parents[slot] = l_cv + r_cv
    return parent_cv(l_cv, r_cv, ROOT if is_root else 0)


def main():
    data = open(sys.argv[1], "rb").read()
    chunks = max(1, (len(data) + 1023) // 1024)
    parents = []
    root = subtree(data, 0, chunks, parents, True)
    with open(sys.argv[2], "wb") as out:
        out.write(len(data).to_bytes(8, "little") + b"".join(parents))
    print(root.hex())


if __name__ == "__main__":
    main()
