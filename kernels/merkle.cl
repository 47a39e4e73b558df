/* One level of a binary Merkle tree: node i of the level above is NODE(in[2i], in[2i+1]).
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

__kernel void merkle_level(__global const uint *in, ulong in_first, ulong in_count,
                           __global uint *out, ulong out_first, uint8 pad_node, int pad_with_node,
                           int is_top) {
  const ulong i = get_global_id(0);
  const ulong left = in_first + 2 * i;
  if (2 * i >= in_count) return; /* the global size is rounded up to the work-group size */
  const uint8 l = vload8(left, in);
  uint8 node;
  if (2 * i + 1 < in_count)
    node = MERKLIZE_NODE(l, vload8(left + 1, in), is_top);
  else if (pad_with_node)
    node = MERKLIZE_NODE(l, pad_node, is_top);
  else
    node = l;
  vstore8(node, out_first + i, out);
}
