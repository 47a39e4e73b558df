R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* A binary Merkle tree changed in place (resident_tree.hpp, tree_updater.hpp): leaves written at
 * given indices, then, a launch a level, only the nodes above them recomputed. Nothing is sorted:
 * a batch's raw indices (ulong, any order, repeats allowed) go up with its leaves, and
 *  - update_elect (update_elect.cl, built before this file): each update k offers k + 1 for its
 *    leaf (atomic_max into winner[], a uint a leaf kept zero between calls), so the last update
 *    of a repeated index wins;
 *  - update_write: the winner writes its leaf and claims its parent for level 1's list;
 *  - update_reset (update_elect.cl): winner[] back to zero (a launch of its own: every read of
 *    update_write is done before it);
 *  - merkle_listed_level: a work-item per node of a level's list (its length on the device, the
 *    launch an upper bound) computes the node and claims its parent for the next list.
 * A node is claimed once a call: marks[] holds a uint per node of levels 1..top, and the claimer
 * is the work-item whose atomic_xchg(mark, gen) returns another value than gen, the call's
 * generation (the host bumps it each call and clears marks[] before it wraps). The claimers
 * append their nodes to the level's list a work-group at a time: a local atomic each for its
 * place, one atomic_add on the level's counter, state[level], a work-group (one global counter
 * taking an atomic a node would serialize millions of them on a GPU). state[0] records an
 * index outside the tree (its update's position + 1): then nothing is written and the tree stays
 * as it was (the whole levels recomputed from unchanged children are unchanged). A level no
 * larger than the batch, and an append's nodes, are a range (merkle_range_level).
 *
 * The node rule is merkle_level's: node i of the level above is MERKLIZE_NODE(in[2i], in[2i+1],
 * is_top); a lone last node moves up unchanged, or with pad_with_node is hashed with the all-zero
 * subtree root zeros[zeros_first] of its height (shape zero); is_top marks the level whose only
 * node is the tree's root (blake3-parent's ROOT flag).
 *
 * The node hash is chosen at build time, as for merkle.cl: -DMERKLIZE_NODE=<function>, defined
 * by the hash file built before this one. No two work-items write the same node. */

#ifndef MERKLIZE_NODE
#error "build with -DMERKLIZE_NODE=<node hash function>"
#endif

/* Nodes move as two uint4 (16-byte aligned), as in merkle.cl. */
inline uint8 indexed_load(__global const uint4 *nodes, ulong i) {
  return (uint8)(nodes[2 * i], nodes[2 * i + 1]);
}

inline void indexed_store(__global uint4 *nodes, ulong i, uint8 node) {
  nodes[2 * i] = node.lo;
  nodes[2 * i + 1] = node.hi;
}

/* Node i of the level above `in` (in_count nodes from in_first) into `out` from out_first. */
inline void indexed_node(__global const uint4 *in, ulong in_first, ulong in_count,
                         __global uint4 *out, ulong out_first, ulong i,
                         __global const uint *zeros, ulong zeros_first, int pad_with_node,
                         int is_top) {
  const uint8 left = indexed_load(in, in_first + 2 * i);
  uint8 node = left;
  if (2 * i + 1 < in_count)
    node = MERKLIZE_NODE(left, indexed_load(in, in_first + 2 * i + 1), is_top);
  else if (pad_with_node)
    node = MERKLIZE_NODE(left, vload8(zeros_first, zeros), is_top);
  indexed_store(out, out_first + i, node);
}

/* Node p of a level (where `want`) claimed for its list (list, counter) unless claimed this call
 * already. Every work-item of the group calls it (it holds barriers); `slots` is two local uints:
 * the group's count, then its first place in the list. */
inline void indexed_claim(int want, __global uint *marks, ulong marks_first, uint gen, uint p,
                          __global uint *list, __global uint *counter, __local uint *slots) {
  const int claimed = want && atomic_xchg(&marks[marks_first + p], gen) != gen;
  if (get_local_id(0) == 0) slots[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint place = claimed ? atomic_inc(&slots[0]) : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) slots[1] = slots[0] ? atomic_add(counter, slots[0]) : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (claimed) list[slots[1] + place] = p;
}

/* The winning update of each leaf writes its value from `values` and, with `claim`, claims the
 * leaf's parent for level 1's list (marks from marks_first); nothing where an index was bad. */
__kernel void update_write(__global uint4 *leaves, __global const uint4 *values,
                           __global const ulong *indices, ulong count, ulong leaf_count,
                           __global const uint *winner, __global uint *state,
                           __global uint *marks, ulong marks_first, uint gen,
                           __global uint *list, int claim) {
  __local uint slots[2];
  const ulong k = get_global_id(0);
  const ulong i = k < count ? indices[k] : leaf_count;
  /* past the batch (the launch is rounded up to whole groups), a bad index, not the winner */
  const int wins = i < leaf_count && state[0] == 0 && winner[i] == (uint)(k + 1);
  if (wins) indexed_store(leaves, i, indexed_load(values, k));
  if (claim) indexed_claim(wins, marks, marks_first, gen, (uint)(i >> 1), list, &state[1], slots);
}

/* The nodes of level `level` (the level above `in`) listed in `list_in`, state[level] of them;
 * with `claim`, each claims its parent for level + 1's list (marks from marks_first). in and out
 * may be one buffer: the levels do not overlap. */
__kernel void merkle_listed_level(__global const uint4 *in, ulong in_first, ulong in_count,
                                  __global uint4 *out, ulong out_first,
                                  __global const uint *list_in, __global uint *state, uint level,
                                  __global const uint *zeros, ulong zeros_first,
                                  int pad_with_node, int is_top, __global uint *marks,
                                  ulong marks_first, uint gen, __global uint *list_out,
                                  int claim) {
  __local uint slots[2];
  const ulong k = get_global_id(0);
  const int listed = k < state[level]; /* the launch is an upper bound of the list */
  const uint p = listed ? list_in[k] : 0;
  if (listed)
    indexed_node(in, in_first, in_count, out, out_first, p, zeros, zeros_first, pad_with_node,
                 is_top);
  if (claim)
    indexed_claim(listed, marks, marks_first, gen, p >> 1, list_out, &state[level + 1], slots);
}

/* Nodes first .. first + count - 1 of the level above `in`. */
__kernel void merkle_range_level(__global const uint4 *in, ulong in_first, ulong in_count,
                                 __global uint4 *out, ulong out_first, ulong first, ulong count,
                                 __global const uint *zeros, ulong zeros_first, int pad_with_node,
                                 int is_top) {
  const ulong k = get_global_id(0);
  if (k >= count) return;
  indexed_node(in, in_first, in_count, out, out_first, first + k, zeros, zeros_first,
               pad_with_node, is_top);
}
)merklize_cl"
