R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* A k-ary tree changed in place (resident_kary_tree.hpp): the groups of children above changed
 * nodes, listed by the host (sorted, once each), hashed by the block-leaf kernels, which read
 * their blocks back to back. These kernels only move nodes, whatever the hash:
 *  - kary_gather: listed group g's k children, from `in`, to block g of `blocks`;
 *  - kary_scatter: node g of `from` to node list[g] of `to` (a level's listed parents, or a
 *    batch's leaves).
 * Nodes move as two uint4 (16-byte aligned), as in merkle.cl. */

/* The list is nodes list_first.. of `list`: a call's lists lie back to back in one buffer. */
__kernel void kary_gather(__global const uint4 *in, ulong in_first, __global const ulong *list,
                          ulong list_first, ulong count, uint k, __global uint4 *blocks) {
  const ulong item = get_global_id(0);
  if (item >= count * k) return; /* the global size is rounded up to the work-group size */
  const ulong g = item / k, child = item % k;
  const ulong at = in_first + list[list_first + g] * k + child;
  blocks[2 * item] = in[2 * at];
  blocks[2 * item + 1] = in[2 * at + 1];
}

__kernel void kary_scatter(__global const uint4 *from, __global const ulong *list,
                           ulong list_first, ulong count, __global uint4 *to, ulong to_first) {
  const ulong g = get_global_id(0);
  if (g >= count) return;
  const ulong at = to_first + list[list_first + g];
  to[2 * at] = from[2 * g];
  to[2 * at + 1] = from[2 * g + 1];
}
)merklize_cl"
