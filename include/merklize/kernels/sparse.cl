R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* A sparse Merkle tree's branches recomputed (sparse_tree.hpp; the rule in core/sparse.hpp; the
 * trie and its plan in plan/sparse_trie.hpp). The device mirrors the trie's slots: leaves' keys
 * and values, branches' prefixes and digests. A launch recomputes the dirty branches of one
 * height; their children are lower, written by earlier launches or before them. A child below
 * its parent's height - 1 is hashed up with the empty subtrees z[h] on the side its key's bit h
 * says, as every node off the keys' paths is an empty subtree.
 *
 * The node hash is chosen at build time, as for merkle.cl: -DMERKLIZE_NODE=<function>, defined
 * by the hash file built before this one. A node is 32 bytes, eight little-endian words: byte j
 * of a key is in word j / 4. Keys are big-endian numbers, so bit t is in byte 31 - t / 8. */

#ifndef MERKLIZE_NODE
#error "build with -DMERKLIZE_NODE=<node hash function>"
#endif

#define SPARSE_BRANCH 0x80000000u

inline uint8 sparse_load(__global const uint4 *nodes, uint i) {
  return (uint8)(nodes[2 * i], nodes[2 * i + 1]);
}

inline void sparse_store(__global uint4 *nodes, uint i, uint8 node) {
  nodes[2 * i] = node.lo;
  nodes[2 * i + 1] = node.hi;
}

inline uint sparse_key_bit(const uint key[8], uint bit) {
  const uint byte = 31 - bit / 8;
  return (key[byte / 4] >> (8 * (byte % 4) + bit % 8)) & 1u;
}

/* `node`, of height `from` on the path of `key` (a leaf's key or a branch's prefix), hashed up
 * to height `to` with empty subtrees beside it. */
inline uint8 sparse_raise(uint8 node, uint8 key_words, uint from, uint to,
                          __global const uint *zeros) {
  uint key[8];
  vstore8(key_words, 0, key);
  for (uint height = from; height < to; ++height) {
    const uint8 empty = vload8(height, zeros);
    node = sparse_key_bit(key, height) ? MERKLIZE_NODE(empty, node, 0)
                                       : MERKLIZE_NODE(node, empty, 0);
  }
  return node;
}

/* The leaf children of entries 0 .. count - 1, each hashed up to its parent's height - 1 into
 * edges[2 * entry + side], all in one launch: an edge from a leaf is most of a path's hashes (the
 * trie's branches sit near the top), so the launches a height then hash only short edges. */
__kernel void sparse_leaf_edges(__global const uint *entries, uint count,
                                __global const uint4 *leaf_keys, __global const uint4 *leaf_values,
                                __global const uint *zeros, __global uint4 *edges) {
  const uint k = get_global_id(0);
  if (k >= count) return; /* the global size is rounded up to the work-group size */
  __global const uint *e = entries + 8 * k;
  for (uint side = 0; side < 2; ++side) {
    const uint ref = e[1 + side];
    if (ref & SPARSE_BRANCH) continue;
    sparse_store(edges, 2 * k + side,
                 sparse_raise(sparse_load(leaf_values, ref), sparse_load(leaf_keys, ref), 0,
                              e[5] - 1, zeros));
  }
}

/* Entries first .. first + count - 1 of the plan (8 words each: branch slot, children, their
 * heights, the branch's height), one a work-item: a branch child hashed up from its height, a
 * leaf child's edge taken from `edges`. The branch at the tree's depth is its root
 * (blake3-parent's ROOT flag). */
__kernel void sparse_branches(__global const uint *entries, uint first, uint count,
                              __global const uint4 *edges, __global const uint4 *prefixes,
                              __global uint4 *digests, __global const uint *zeros, uint depth) {
  const uint k = get_global_id(0);
  if (k >= count) return;
  const uint entry = first + k;
  __global const uint *e = entries + 8 * entry;
  const uint height = e[5];
  uint8 child[2];
  for (uint side = 0; side < 2; ++side) {
    const uint ref = e[1 + side], slot = ref & ~SPARSE_BRANCH;
    child[side] = (ref & SPARSE_BRANCH)
                      ? sparse_raise(sparse_load(digests, slot), sparse_load(prefixes, slot),
                                     e[3 + side], height - 1, zeros)
                      : sparse_load(edges, 2 * entry + side);
  }
  sparse_store(digests, e[0], MERKLIZE_NODE(child[0], child[1], height == depth));
}

/* to[slots[k]] = from[k] for k < count: the batch's leaves' keys and values, new prefixes. */
__kernel void sparse_scatter(__global uint4 *to, __global const uint4 *from,
                             __global const uint *slots, uint count) {
  const uint k = get_global_id(0);
  if (k >= count) return;
  sparse_store(to, slots[k], sparse_load(from, k));
}
)merklize_cl"
