R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Several levels of a binary Merkle tree per launch, each work-item one subtree in registers:
 * work-item i reads the 2^H nodes [i 2^H, (i+1) 2^H) of the level below and computes the
 * 2^H - 1 nodes above them, H = MERKLIZE_LEVELS levels (node k of a level is
 * MERKLIZE_NODE(below[2k], below[2k+1]), with merkle_subtree's rules for a lone last node and
 * the root flag; see merkle.cl).
 *
 * Why: merkle_subtree fuses levels through local memory, and above its first level most of its
 * work-items idle at barriers; merkle_level keeps every work-item busy but needs a launch per
 * level, and on trees of about 2^20 leaves a launch costs as much as the hashing of a level.
 * Here every work-item hashes 2^H - 1 nodes with no barrier, local memory or idle work-item, in
 * one launch per H levels, and the level-1 nodes it hashes are never read back from memory.
 *
 * Where the levels go is merkle_subtree's rule: level j (0 .. H-1 of this launch) starts at node
 * A_j of `out`, A_0 = out_first, A_{j+1} = A_j + g_j, g_0 = out_level_size, g_{j+1} =
 * ceil(g_j / 2), and the launch's nodes start at index out_offset >> j of level j.
 * zeros[zeros_first + j] is the partner of a lone node of level j when pad_with_node is set;
 * top_level is the j whose node is the tree's root, or -1.
 *
 * Build options, besides -DMERKLIZE_NODE:
 *   -DMERKLIZE_WG=W               the work-group size
 *   -DMERKLIZE_LEVELS=H           levels per launch, 2 or 3 (registers hold H - 1 pending nodes)
 *   -DMERKLIZE_INDEX=uint|ulong   the type of node indices (see merkle_level.cl) */

#if !defined(MERKLIZE_NODE) || !defined(MERKLIZE_WG) || !defined(MERKLIZE_LEVELS) ||               \
    !defined(MERKLIZE_INDEX)
#error "build with -DMERKLIZE_NODE, -DMERKLIZE_WG, -DMERKLIZE_LEVELS and -DMERKLIZE_INDEX"
#endif

typedef MERKLIZE_INDEX levels_index;

inline uint8 levels_load(__global const uint4 *restrict nodes, levels_index i) {
  return (uint8)(nodes[2 * i], nodes[2 * i + 1]);
}

inline void levels_store(__global uint4 *restrict nodes, ulong i, uint8 node) {
  nodes[2 * i] = node.lo;
  nodes[2 * i + 1] = node.hi;
}

/* Node k of launch level j from its children, the level below having `below` nodes: a pair is
 * hashed; the lone last node (2k + 1 == below) moves up or is hashed with the zero root. */
inline uint8 levels_parent(uint8 left, uint8 right, levels_index k, levels_index below, int j,
                           __global const uint *restrict zeros, ulong zeros_first,
                           int pad_with_node, int top_level) {
  if (2 * k + 1 < below) return MERKLIZE_NODE(left, right, j == top_level);
  return pad_with_node ? MERKLIZE_NODE(left, vload8(zeros_first + j, zeros), j == top_level) : left;
}

__kernel __attribute__((reqd_work_group_size(MERKLIZE_WG, 1, 1))) void
merkle_levels(__global const uint4 *restrict in, ulong in_first, ulong in_count,
              __global uint4 *restrict out, ulong out_first, ulong out_level_size, ulong out_offset,
              __global const uint *restrict zeros, ulong zeros_first, int pad_with_node,
              int top_level) {
  in += 2 * in_first;
  const levels_index item = (levels_index)get_global_id(0);
  /* size[j]: nodes of the level launch level j reads (size[0] = in_count); at[j]: where launch
   * level j's nodes of this launch start in `out`. */
  levels_index size[MERKLIZE_LEVELS + 1];
  ulong at[MERKLIZE_LEVELS];
  size[0] = (levels_index)in_count;
  ulong level_first = out_first, level_size = out_level_size;
#pragma unroll
  for (int j = 0; j < MERKLIZE_LEVELS; ++j) {
    size[j + 1] = (size[j] + 1) / 2;
    at[j] = level_first + (out_offset >> j);
    level_first += level_size;
    level_size = (level_size + 1) / 2;
  }
  const levels_index first_pair = item << (MERKLIZE_LEVELS - 1); /* its first node of level 1 */
  if (first_pair >= size[1]) return;
  uint8 pending[MERKLIZE_LEVELS]; /* pending[j]: a left node of launch level j awaiting its right */
  /* The item's level-1 nodes left to right; after each, climb while it completes a pair. */
#pragma unroll
  for (int p = 0; p < (1 << (MERKLIZE_LEVELS - 1)); ++p) {
    levels_index k = first_pair + p;
    if (k < size[1]) {
      const uint8 left = levels_load(in, 2 * k);
      const uint8 right = 2 * k + 1 < size[0] ? levels_load(in, 2 * k + 1) : (uint8)(0);
      uint8 node =
          levels_parent(left, right, k, size[0], 0, zeros, zeros_first, pad_with_node, top_level);
      levels_store(out, at[0] + k, node);
      bool climbing = true;
#pragma unroll
      for (int j = 1; j < MERKLIZE_LEVELS; ++j) {
        if (climbing && (k & 1) == 0 && k + 1 < size[j]) { /* a left node: its pair comes later */
          pending[j] = node;
          climbing = false;
        }
        if (climbing) {
          node = (k & 1) ? levels_parent(pending[j], node, k / 2, size[j], j, zeros, zeros_first,
                                         pad_with_node, top_level)
                         : levels_parent(node, node, k / 2, size[j], j, zeros, zeros_first,
                                         pad_with_node, top_level);
          k /= 2;
          levels_store(out, at[j] + k, node);
        }
      }
    }
  }
}
)merklize_cl"
