// SPDX-License-Identifier: Apache-2.0 OR MIT
// RFC 9162 proofs of a log (hash rfc6962, shape promote) from the roots of its complete aligned
// subtrees alone: where a log's tree is not at hand but its complete subtrees are, as a C2SP
// tiles directory publishes them (formats/tlog_tiles.hpp) or a store keeps them. Every node of an
// audit path or a consistency proof is MTH(D[first:end]) of a range that is a complete aligned
// subtree or runs to the tree's end; the latter is hashed from the complete subtrees it splits
// into, as RFC 9162 2.1.1's recursion splits it. No OpenCL.
//
//   complete(level, index): the root of the complete subtree of leaves
//                           [index * 2^level, (index + 1) * 2^level)
#pragma once

#include "consistency.hpp"
#include "proof_model.hpp"

#include <cstdint>
#include <vector>

namespace merklize {

// MTH(D[first:end]) of a log of at least `end` leaves, first < end, from its complete subtrees.
// Another node hash with consistency proofs (why_no_consistency_proofs) splits the same way: with
// `hash` and a tree of shape promote's nodes as `complete`, subtree_root(complete, {0, m}, hash)
// is the root of the tree's first m leaves, the old root a consistency proof from m is checked
// against.
template <class Complete>
digest subtree_root(const Complete &complete, leaf_range range,
                    hash_kind hash = hash_kind::rfc6962) {
  const std::uint64_t size = range.end - range.first;
  if ((size & (size - 1)) == 0) {
    const node_position at = detail::subtree_node(range.first, range.end);
    return complete(at.level, at.index);
  }
  const std::uint64_t split = range.first + detail::split_point(size);
  return node_hash(hash, subtree_root(complete, {range.first, split}, hash),
                   subtree_root(complete, {split, range.end}, hash), false);
}

// The siblings of leaf `index`'s audit path (RFC 9162 2.1.3.1's PATH(m, D[n])) in a log of
// `size` leaves, from the leaves up: the subtree each stands for.
inline std::vector<leaf_range> inclusion_ranges(std::uint64_t index, std::uint64_t size) {
  detail::check_leaf_index(index, size);
  std::vector<leaf_range> siblings; // top down
  for (std::uint64_t first = 0, end = size; end - first > 1;) {
    const std::uint64_t split = first + detail::split_point(end - first);
    if (index < split) {
      siblings.push_back({split, end});
      end = split;
    } else {
      siblings.push_back({first, split});
      first = split;
    }
  }
  return {siblings.rbegin(), siblings.rend()};
}

// The roots of `ranges`, in their order.
template <class Complete>
std::vector<digest> subtree_roots(const Complete &complete, const std::vector<leaf_range> &ranges) {
  std::vector<digest> roots;
  for (const leaf_range &r : ranges)
    roots.push_back(subtree_root(complete, r));
  return roots;
}

// The inclusion proof of leaf `index` in the log of `size` leaves.
template <class Complete>
inclusion_proof prove_from_subtrees(std::uint64_t size, std::uint64_t index,
                                    const Complete &complete) {
  return {tree_options{hash_kind::rfc6962}, size, index,
          subtree_roots(complete, inclusion_ranges(index, size))};
}

// The consistency proof from the log's first old_size leaves to its first new_size leaves.
template <class Complete>
consistency_proof prove_consistency_from_subtrees(std::uint64_t old_size, std::uint64_t new_size,
                                                  const Complete &complete) {
  return {tree_options{hash_kind::rfc6962}, old_size, new_size,
          subtree_roots(complete, consistency_ranges(old_size, new_size))};
}

} // namespace merklize
