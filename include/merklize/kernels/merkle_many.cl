R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Many small binary trees at once (engine/many_trees.hpp): one level of every tree per launch, a
 * work-item a node of the level over all the trees. Tree t's nodes of a level lie after tree
 * t - 1's, out_per_tree of them (in_per_tree below), so node g belongs to tree g / out_per_tree
 * and its children are in[t * in_per_tree + 2j], in[t * in_per_tree + 2j + 1]. The node rule is
 * merkle_level's: a tree's lone last child moves up unchanged, or with pad_with_node is hashed
 * with the all-zero subtree root zeros[zeros_first] of its height (shape zero, and the levels of a
 * fixed depth above a tree's top, one node a tree); is_top marks the level of the trees' roots
 * (blake3-parent's ROOT flag).
 *
 * Levels whose trees each have an even number of children are one tree's level over the whole
 * buffer and go to merkle_level and merkle_subtree instead (plan/many_trees_plan.hpp).
 *
 * The node hash is chosen at build time, as for merkle.cl: -DMERKLIZE_NODE=<function>. */

#ifndef MERKLIZE_NODE
#error "build with -DMERKLIZE_NODE=<node hash function>"
#endif

inline uint8 many_load(__global const uint4 *nodes, ulong i) {
  return (uint8)(nodes[2 * i], nodes[2 * i + 1]);
}

__kernel void merkle_many_level(__global const uint4 *in, ulong in_first, ulong in_per_tree,
                                __global uint4 *out, ulong out_first, ulong out_per_tree,
                                ulong count, __global const uint *zeros, ulong zeros_first,
                                int pad_with_node, int is_top) {
  const ulong g = get_global_id(0);
  if (g >= count) return; /* the global size is rounded up to the work-group size */
  const ulong tree = g / out_per_tree, j = g - tree * out_per_tree;
  const ulong left_at = in_first + tree * in_per_tree + 2 * j;
  const uint8 left = many_load(in, left_at);
  uint8 node = left;
  if (2 * j + 1 < in_per_tree)
    node = MERKLIZE_NODE(left, many_load(in, left_at + 1), is_top);
  else if (pad_with_node)
    node = MERKLIZE_NODE(left, vload8(zeros_first, zeros), is_top);
  out[2 * (out_first + g)] = node.lo;
  out[2 * (out_first + g) + 1] = node.hi;
}
)merklize_cl"
