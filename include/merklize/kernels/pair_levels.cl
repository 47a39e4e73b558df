R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* The shapes of formats/pair_rules.hpp, one level a launch, over the pair hash the build option
 * -DMERKLIZE_PAIR_NODE names (pair_nodes.cl; a node function of merkle.cl's signature). Nodes are
 * 32 bytes; indices count nodes from the start of a buffer, so a kernel can read one level of a
 * buffer and write the next into the same buffer, where the two do not overlap.
 *   pair_level   shape duplicate-odd (Bitcoin) and power of two (Filecoin, whose levels are
 *                never odd): node i above is NODE(in[2i], in[2i + 1]), a lone last node paired
 *                with itself
 *   heap_level   shape heap (OpenZeppelin): tree[i] = NODE(tree[2i + 1], tree[2i + 2]) for the
 *                `count` nodes from index `first`, all of one depth of the array */

#if !defined(MERKLIZE_PAIR_NODE)
#error "build with -DMERKLIZE_PAIR_NODE=<node function>"
#endif

__kernel void pair_level(__global const uint8 *in, ulong in_first, ulong in_count,
                         __global uint8 *out, ulong out_first) {
  const ulong i = get_global_id(0);
  if (i >= (in_count + 1) / 2) return;
  const uint8 left = in[in_first + 2 * i];
  const uint8 right = 2 * i + 1 < in_count ? in[in_first + 2 * i + 1] : left;
  out[out_first + i] = MERKLIZE_PAIR_NODE(left, right, 0);
}

__kernel void heap_level(__global uint8 *tree, ulong first, ulong count) {
  const ulong g = get_global_id(0);
  if (g >= count) return;
  const ulong i = first + g;
  tree[i] = MERKLIZE_PAIR_NODE(tree[2 * i + 1], tree[2 * i + 2], 0);
}
)merklize_cl"
