R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* One level of a binary Merkle tree per launch: node i of the level above is
 * MERKLIZE_NODE(in[2i], in[2i+1]), with merkle_subtree's rules for a lone last node (moved up
 * unchanged, or hashed with the all-zero subtree root zeros[zeros_first] when pad_with_node is
 * set) and its root flag (is_top: this level's only node is the tree's root).
 *
 * merkle_subtree does the same with levels = 1, but carries its loop over levels, local memory,
 * barriers and 64-bit index arithmetic; on large levels, which get a launch each, that costs
 * registers and so occupancy. This kernel has none of it.
 *
 * Build options, besides -DMERKLIZE_NODE (see merkle.cl):
 *   -DMERKLIZE_WG=W              the work-group size, fixed so the compiler knows how many
 *                                registers each work-item may have
 *   -DMERKLIZE_NODES_PER_ITEM=P  nodes per work-item (1, 2 or 4): nodes g, g + G, g + 2G, ...
 *                                (G the global size, so each round of loads is coalesced), the
 *                                next node's children loaded before the current node is hashed,
 *                                so their latency hides behind a compression
 *   -DMERKLIZE_INDEX=uint|ulong  the type of node indices within the level; the host takes uint
 *                                where every index fits (32-bit arithmetic is cheaper on GPUs) */

#if !defined(MERKLIZE_NODE) || !defined(MERKLIZE_WG) || !defined(MERKLIZE_NODES_PER_ITEM) ||       \
    !defined(MERKLIZE_INDEX)
#error "build with -DMERKLIZE_NODE, -DMERKLIZE_WG, -DMERKLIZE_NODES_PER_ITEM and -DMERKLIZE_INDEX"
#endif

typedef MERKLIZE_INDEX level_index;

/* Node i as two 16-byte loads (nodes are 32 bytes, so 16-byte aligned). */
#define LEVEL_LOAD(nodes, i) ((uint8)((nodes)[2 * (i)], (nodes)[2 * (i) + 1]))
#define LEVEL_STORE(nodes, i, node)                                                                \
  do {                                                                                             \
    const uint8 stored_ = (node);                                                                  \
    (nodes)[2 * (i)] = stored_.lo;                                                                 \
    (nodes)[2 * (i) + 1] = stored_.hi;                                                             \
  } while (0)

/* in and out never overlap (restrict lets the compiler read `in` through the read-only cache
 * and move loads ahead of stores); node indices are relative to in_first and out_first. */
__kernel __attribute__((reqd_work_group_size(MERKLIZE_WG, 1, 1))) void
merkle_level(__global const uint4 *restrict in, ulong in_first, ulong in_count,
             __global uint4 *restrict out, ulong out_first, __global const uint *restrict zeros,
             ulong zeros_first, int pad_with_node, int is_top) {
  in += 2 * in_first;
  out += 2 * out_first;
  const level_index pairs = (level_index)(in_count / 2); /* nodes with both children */
  const level_index stride = (level_index)get_global_size(0);
  level_index i = (level_index)get_global_id(0);
  uint8 left = (uint8)(0), right = (uint8)(0);
  if (i < pairs) {
    left = LEVEL_LOAD(in, 2 * i);
    right = LEVEL_LOAD(in, 2 * i + 1);
  }
#pragma unroll
  for (int k = 0; k < MERKLIZE_NODES_PER_ITEM; ++k) {
    const level_index next = i + stride;
    uint8 next_left = (uint8)(0), next_right = (uint8)(0);
    if (k + 1 < MERKLIZE_NODES_PER_ITEM && next < pairs) { /* in flight during the hash below */
      next_left = LEVEL_LOAD(in, 2 * next);
      next_right = LEVEL_LOAD(in, 2 * next + 1);
    }
    if (i < pairs) {
      LEVEL_STORE(out, i, MERKLIZE_NODE(left, right, is_top));
    } else if (i == pairs && (in_count & 1)) { /* the lone last node, one work-item's */
      const uint8 lone = LEVEL_LOAD(in, 2 * i);
      LEVEL_STORE(out, i,
                  pad_with_node ? MERKLIZE_NODE(lone, vload8(zeros_first, zeros), is_top) : lone);
    }
    left = next_left;
    right = next_right;
    i = next;
  }
}
)merklize_cl"
