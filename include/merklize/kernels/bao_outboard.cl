R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Bao's outboard laid out on the device (include/merklize/engine/block_tree.hpp), in plain OpenCL
 * C 1.2, built after blake3.cl. The outboard's parents are `pairs`: pair p (slots 2p and 2p + 1)
 * holds the left and right children's chaining values of the parent at pre-order position p. Every
 * node of BLAKE3's tree but the root is in exactly one slot, so the pairs are the tree itself: a
 * parent's chaining value is the compression of its own pair, and no other copy is kept.
 *
 * Node (level, index) is the node of merklize's blake3-parent tree of shape promote over the
 * chunks (the subtree of chunks [index << level, ...)). The position arithmetic is that of
 * include/merklize/formats/bao.hpp (bao_parent_position, bao_node_slot), tested there against the
 * host's pre-order walk. */

#define BAO_NO_SLOT 0xFFFFFFFFFFFFFFFFul

/* The pre-order position of parent (level, index): its first chunk plus the left steps from the
 * root down to it. */
B3_INLINE ulong bao_parent_position(ulong chunks, uint level, ulong index) {
  ulong position = index << level;
  for (uint m = level + 1; (1ul << (m - 1)) < chunks; ++m) {
    const ulong child = index >> (m - 1 - level);
    if ((child & 1) == 0 && ((child + 1) << (m - 1)) < chunks) ++position;
  }
  return position;
}

/* The slot of node (level, index): a side of its first ancestor that is a parent; none for the
 * root. */
B3_INLINE ulong bao_node_slot(ulong chunks, uint level, ulong index) {
  for (; (1ul << level) < chunks; ++level, index >>= 1) {
    const ulong right = index & 1;
    if (right || ((index + 1) << level) < chunks)
      return 2 * bao_parent_position(chunks, level + 1, index >> 1) + right;
  }
  return BAO_NO_SLOT;
}

/* One level of the tree over `chunks` chunks, `count` nodes: each node's chaining value into its
 * slot. Level 0's are the chunks' (cvs); a parent's is its pair compressed, which the launch of
 * the level below completed. A lone node moved up is skipped: its value went to its slot from
 * the level where it is a chunk or a parent. The root (level ceil(log2 chunks)) is not launched:
 * the host finishes it from pair 0 with the ROOT flag. */
__kernel void bao_outboard_level(__global const uint8 *cvs, __global uint8 *pairs, ulong chunks,
                                 uint level, ulong count) {
  const ulong i = get_global_id(0);
  if (i >= count) return; /* the global size is rounded up to the work-group size */
  uint8 node;
  if (level == 0) {
    node = cvs[i];
  } else {
    if (((2 * i + 1) << (level - 1)) >= chunks) return;
    const ulong at = 2 * bao_parent_position(chunks, level, i);
    node = blake3_two_to_one(pairs[at], pairs[at + 1], B3_PARENT);
  }
  const ulong slot = bao_node_slot(chunks, level, i);
  if (slot != BAO_NO_SLOT) pairs[slot] = node;
}
)merklize_cl"
