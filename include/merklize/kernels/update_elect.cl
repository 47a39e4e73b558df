R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* A batch of updates to a tree's leaves, its last value of each leaf elected on the device, with
 * nothing sorted on the host: a batch's raw indices (ulong, any order, repeats
 * allowed) go up with its leaves, and
 *  - update_elect: each update k offers k + 1 for its leaf (atomic_max into winner[], a uint a
 *    leaf kept zero between calls), so the last update of a repeated index wins; an index
 *    outside the tree records its position + 1 in state[0] instead;
 *  - a write kernel: the winners write their leaves (update_write_elected here, for a k-ary
 *    tree, whose levels are then hashed whole; merkle_indexed.cl's update_write for a binary
 *    one, which also claims each leaf's parent);
 *  - update_reset: winner[] back to zero (a launch of its own: every read of the write is done
 *    before it).
 * No hash: built before merkle_indexed.cl (binary trees) and kary_listed.cl (k-ary trees). */

/* Update k (k < count) bids k + 1 for its leaf: the largest bid, the last update, wins. */
__kernel void update_elect(__global const ulong *indices, ulong count, ulong leaf_count,
                           __global uint *winner, __global uint *state) {
  const ulong k = get_global_id(0);
  if (k >= count) return; /* the global size is rounded up to the work-group size */
  const ulong i = indices[k];
  if (i >= leaf_count)
    atomic_max(&state[0], (uint)(k + 1));
  else
    atomic_max(&winner[i], (uint)(k + 1));
}

/* The winning update of each leaf writes its value from `values`; nothing where an index was bad
 * (state[0] set), so a refused batch leaves the leaves as they were. */
__kernel void update_write_elected(__global uint4 *leaves, __global const uint4 *values,
                                   __global const ulong *indices, ulong count, ulong leaf_count,
                                   __global const uint *winner, __global const uint *state) {
  const ulong k = get_global_id(0);
  if (k >= count) return;
  const ulong i = indices[k];
  if (i >= leaf_count || state[0] != 0 || winner[i] != (uint)(k + 1)) return;
  leaves[2 * i] = values[2 * k];
  leaves[2 * i + 1] = values[2 * k + 1];
}

/* winner[] zero again for the batch's leaves, ready for the next call. */
__kernel void update_reset(__global const ulong *indices, ulong count, ulong leaf_count,
                           __global uint *winner) {
  const ulong k = get_global_id(0);
  if (k >= count) return;
  const ulong i = indices[k];
  if (i < leaf_count) winner[i] = 0;
}
)merklize_cl"
