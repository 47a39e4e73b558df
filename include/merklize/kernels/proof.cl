R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Inclusion proofs on the device: the sibling paths of many leaves gathered at once, the nodes of
 * a multiproof, and the verification of many proofs at once. Built after merkle.cl and its hash
 * file, whose MERKLIZE_NODE(left, right, is_root) the verifier hashes with.
 *
 * A tree on the device is its level 0 in `leaves` and levels 1.. in `nodes`, back to back from
 * level 1 at offset 0, as merkleizer::enqueue_build writes them. The rules are those of
 * include/merklize/proofs/proof.hpp: the sibling of node i is node i ^ 1 of its level when that
 * exists; a lone last node has none (shape promote) or the zero-subtree root of its height (shape
 * zero), precomputed by the host in zero_roots[height].
 *
 * The root is `depth` levels above the leaves: the tree's own depth, or more where shape zero
 * has a fixed depth, the single node of the levels above the tree being alone. Paths are `slots`
 * nodes a proof (the depth, at least 1): proof p's siblings fill the first lengths[p] of its
 * slots from the leaves up, and zeros the rest. */

#define MERKLIZE_NO_PROOF 0xFFFFFFFFu /* lengths[p] of an index outside the tree */

inline ulong parent_level_size(ulong size) { return (size >> 1) + (size & 1); }

/* Nodes move as two uint4, two 16-byte accesses (buffers are aligned far beyond 16 bytes, and
 * nodes are 32), where vload8 on a uint pointer could only assume 4-byte alignment. */
inline uint8 proof_load(__global const uint4 *nodes, ulong i) {
  return (uint8)(nodes[2 * i], nodes[2 * i + 1]);
}

inline void proof_store(__global uint4 *nodes, ulong i, uint8 node) {
  nodes[2 * i] = node.lo;
  nodes[2 * i + 1] = node.hi;
}

__kernel void proof_gather(__global const uint4 *leaves, __global const uint4 *nodes,
                           ulong leaf_count, uint depth, __global const uint4 *zero_roots,
                           int pad_with_zero, __global const ulong *indices, ulong count,
                           uint slots, __global uint4 *paths, __global uint *lengths) {
  const ulong p = get_global_id(0);
  if (p >= count) return; /* the global size is rounded up to the work-group size */
  const ulong first_slot = p * slots;
  ulong index = indices[p];
  const int inside = index < leaf_count;
  uint length = 0;
  ulong size = leaf_count;
  ulong level_first = 0; /* offset in `nodes` of the current level, from level 1 on */
  for (uint level = 0; inside && level < depth; ++level) {
    const ulong sibling = index ^ 1;
    if (sibling < size)
      proof_store(paths, first_slot + length++,
                  level == 0 ? proof_load(leaves, sibling)
                             : proof_load(nodes, level_first + sibling));
    else if (pad_with_zero)
      proof_store(paths, first_slot + length++, proof_load(zero_roots, level));
    if (level > 0) level_first += size;
    index >>= 1;
    size = parent_level_size(size);
  }
  for (uint k = length; k < slots; ++k)
    proof_store(paths, first_slot + k, (uint8)(0));
  lengths[p] = inside ? length : MERKLIZE_NO_PROOF;
}

/* out[p] = the node at offsets[p] of the tree laid out whole, leaves first (tree_layout). */
__kernel void proof_gather_nodes(__global const uint4 *leaves, __global const uint4 *nodes,
                                 ulong leaf_count, __global const ulong *offsets, ulong count,
                                 __global uint4 *out) {
  const ulong p = get_global_id(0);
  if (p >= count) return;
  const ulong at = offsets[p];
  proof_store(out, p,
              at < leaf_count ? proof_load(leaves, at) : proof_load(nodes, at - leaf_count));
}

/* valid[p] = 1 if the path of proof p leads from leaves[p] at indices[p] to `root` in the tree of
 * leaf_count leaves, else 0. Untrusted input: an index outside the tree, a length above `slots`,
 * too few or too many siblings or a wrong zero-subtree sibling make the proof invalid, and no
 * read leaves proof p's slots. */
__kernel void proof_verify(__global const uint4 *leaves, __global const ulong *indices,
                           __global const uint4 *paths, __global const uint *lengths, ulong count,
                           uint slots, ulong leaf_count, uint depth,
                           __global const uint4 *zero_roots, int pad_with_zero, uint8 root,
                           __global uint *valid) {
  const ulong p = get_global_id(0);
  if (p >= count) return;
  const ulong first_slot = p * slots;
  ulong index = indices[p];
  const uint length = lengths[p];
  int ok = index < leaf_count && length <= slots;
  uint used = 0;
  uint8 node = proof_load(leaves, p);
  ulong size = leaf_count;
  for (uint level = 0; ok && level < depth; ++level) {
    const ulong sibling_index = index ^ 1;
    const int real = sibling_index < size;
    if (real || pad_with_zero) {
      if (used == length) {
        ok = 0; /* truncated */
        break;
      }
      const uint8 sibling = proof_load(paths, first_slot + used++);
      if (!real) ok = all(sibling == proof_load(zero_roots, level));
      const int is_root = level + 1 == depth;
      node = (index & 1) ? MERKLIZE_NODE(sibling, node, is_root)
                         : MERKLIZE_NODE(node, sibling, is_root);
    }
    index >>= 1;
    size = parent_level_size(size);
  }
  valid[p] = ok && used == length && all(node == root);
}
)merklize_cl"
