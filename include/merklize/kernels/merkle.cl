R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Levels of a binary Merkle tree: node i of a level is NODE(below[2i], below[2i+1]).
 *
 * The node hash is chosen at build time: the host passes -DMERKLIZE_NODE=<function>, a function
 * uint8 f(uint8 left, uint8 right, int is_root) defined by one of the hash files built before
 * this one. Nodes are 32 bytes, eight uints in memory order.
 *
 * A level of odd size ends with a lone node. With pad_with_node == 0 it moves up unchanged
 * (shape "promote"); otherwise it is hashed with pad_node, the root of an all-zero subtree of
 * the same height that the host precomputed (shape "zero"), so padding is never hashed here. */

#ifndef MERKLIZE_NODE
#error "build with -DMERKLIZE_NODE=<node hash function>"
#endif

/* Nodes are loaded and stored as two uint4, 16-byte aligned, so each is two 16-byte accesses
 * (vload8 on a uint pointer may only assume 4-byte alignment). */
inline uint8 load_node(__global const uint4 *nodes, ulong i) {
  return (uint8)(nodes[2 * i], nodes[2 * i + 1]);
}

inline void store_node(__global uint4 *nodes, ulong i, uint8 node) {
  nodes[2 * i] = node.lo;
  nodes[2 * i + 1] = node.hi;
}

#ifndef MERKLIZE_WG
#error "build with -DMERKLIZE_WG=<work-group size>"
#endif

/* Several levels in one launch: each work-group of MERKLIZE_WG work-items takes 2 WG consecutive
 * nodes of the level below and computes its subtree `levels` levels up (at most log2(WG) + 1),
 * keeping the intermediate levels in local memory. Few launches matter on GPUs, where a small
 * tree is dominated by launch latency rather than hashing. The fixed work-group size also tells
 * the compiler how many registers each work-item may have.
 *
 * Where the levels go: level j of the launch (j = 0 .. levels-1) starts at node A_j of `out`,
 * where A_0 = out_first, A_{j+1} = A_j + g_j, g_0 = out_level_size and g_{j+1} = ceil(g_j / 2):
 * levels back to back, as in the tree layout. The launch's nodes sit at index out_offset >> j
 * of level j, so a chunk of the tree can be computed in its place.
 *
 * zeros[zeros_first + j] is the all-zero subtree root as high as the nodes level j reads, the
 * partner of a lone node when pad_with_node is set; top_level is the j whose node is the tree's
 * root, or -1. */
__kernel __attribute__((reqd_work_group_size(MERKLIZE_WG, 1, 1))) void
merkle_subtree(__global const uint4 *in, ulong in_first, ulong in_count, __global uint4 *out,
               ulong out_first, ulong out_level_size, ulong out_offset, int levels,
               __global const uint *zeros, ulong zeros_first, int pad_with_node, int top_level) {
  __local uint8 scratch[MERKLIZE_WG];
  const uint t = get_local_id(0);
  ulong count = in_count; /* size of the level being read */
  ulong level_first = out_first, level_size = out_level_size;
  for (int j = 0; j < levels; ++j) {
    const ulong width = MERKLIZE_WG >> j; /* nodes this group computes at level j */
    const ulong i = get_group_id(0) * width + t;
    uint8 node = (uint8)(0);
    if (t < width && 2 * i < count) {
      uint8 l, r;
      if (j == 0) {
        l = load_node(in, in_first + 2 * i);
        if (2 * i + 1 < count) r = load_node(in, in_first + 2 * i + 1);
      } else {
        l = scratch[2 * t];
        r = scratch[2 * t + 1];
      }
      if (2 * i + 1 < count)
        node = MERKLIZE_NODE(l, r, j == top_level);
      else if (pad_with_node)
        node = MERKLIZE_NODE(l, vload8(zeros_first + j, zeros), j == top_level);
      else
        node = l;
      store_node(out, level_first + (out_offset >> j) + i, node);
    }
    if (j + 1 < levels) {
      barrier(CLK_LOCAL_MEM_FENCE);
      if (t < width) scratch[t] = node;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    count = (count + 1) / 2;
    level_first += level_size;
    level_size = (level_size + 1) / 2;
  }
}
)merklize_cl"
