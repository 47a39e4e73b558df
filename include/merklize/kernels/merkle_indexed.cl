R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* A binary Merkle tree changed in place (resident_tree.hpp): leaves written at given indices,
 * then, a launch a level, only the nodes above them recomputed, at the indices of an update plan
 * (plan/update_plan.hpp) uploaded once for every level. The node rule is merkle_level's:
 * node i of the level above is MERKLIZE_NODE(in[2i], in[2i+1], is_top); a lone last node moves
 * up unchanged, or with pad_with_node is hashed with the all-zero subtree root
 * zeros[zeros_first] of its height (shape zero); is_top marks the level whose only node is the
 * tree's root (blake3-parent's ROOT flag).
 *
 * The node hash is chosen at build time, as for merkle.cl: -DMERKLIZE_NODE=<function>, defined
 * by the hash file built before this one. The plan's indices are sorted and unique within a
 * level, so no two work-items write the same node. */

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

/* Leaf plan[first + k] takes value plan[sources_first + k] of `values`, for k < count: a batch
 * of updates with each index's last value chosen by the host. */
__kernel void scatter_leaves(__global uint4 *leaves, __global const uint4 *values,
                             __global const ulong *plan, ulong first, ulong sources_first,
                             ulong count) {
  const ulong k = get_global_id(0);
  if (k >= count) return; /* the global size is rounded up to the work-group size */
  indexed_store(leaves, plan[first + k], indexed_load(values, plan[sources_first + k]));
}

/* Node plan[first + k] of the level above `in` (in_count nodes from in_first), for k < count,
 * into `out` from out_first. in and out may be one buffer: the levels do not overlap. */
__kernel void merkle_indexed_level(__global const uint4 *in, ulong in_first, ulong in_count,
                                   __global uint4 *out, ulong out_first,
                                   __global const ulong *plan, ulong first, ulong count,
                                   __global const uint *zeros, ulong zeros_first,
                                   int pad_with_node, int is_top) {
  const ulong k = get_global_id(0);
  if (k >= count) return;
  const ulong i = plan[first + k];
  const uint8 left = indexed_load(in, in_first + 2 * i);
  uint8 node = left;
  if (2 * i + 1 < in_count)
    node = MERKLIZE_NODE(left, indexed_load(in, in_first + 2 * i + 1), is_top);
  else if (pad_with_node)
    node = MERKLIZE_NODE(left, vload8(zeros_first, zeros), is_top);
  indexed_store(out, out_first + i, node);
}
)merklize_cl"
