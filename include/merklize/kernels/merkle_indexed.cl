R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* A binary Merkle tree changed in place (resident_tree.hpp): leaves written at given indices,
 * then, a launch a level, only the nodes above them recomputed. The host sorts a batch's leaf
 * indices once (plan/update_batch.hpp: distinct, ascending, 32-bit, each with the position of its
 * last value) and uploads them; level l's dirty nodes are the distinct values of leaf >> l over
 * them, so the work-item of sorted leaf k works where it is the first of its run (k == 0 or
 * leaf[k-1] >> l differs) and reads the node's children from the level below. An append's dirty
 * nodes are a range of each level (merkle_range_level), as is a whole level.
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

/* Leaf sorted[k] takes value sources[k] of `values`, for k < count: a batch of updates with each
 * index's last value chosen by the host. */
__kernel void scatter_leaves(__global uint4 *leaves, __global const uint4 *values,
                             __global const uint *sorted, __global const uint *sources,
                             ulong count) {
  const ulong k = get_global_id(0);
  if (k >= count) return; /* the global size is rounded up to the work-group size */
  indexed_store(leaves, sorted[k], indexed_load(values, sources[k]));
}

/* The dirty nodes of the level above `in` (level `shift` above the leaves), found from the
 * `count` sorted distinct leaves: the first work-item of each run of one node computes it.
 * in and out may be one buffer: the levels do not overlap. */
__kernel void merkle_sorted_level(__global const uint4 *in, ulong in_first, ulong in_count,
                                  __global uint4 *out, ulong out_first,
                                  __global const uint *sorted, ulong count, uint shift,
                                  __global const uint *zeros, ulong zeros_first,
                                  int pad_with_node, int is_top) {
  const ulong k = get_global_id(0);
  if (k >= count) return;
  const uint i = sorted[k] >> shift;
  if (k > 0 && sorted[k - 1] >> shift == i) return; /* not the first of its run */
  indexed_node(in, in_first, in_count, out, out_first, i, zeros, zeros_first, pad_with_node,
               is_top);
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
