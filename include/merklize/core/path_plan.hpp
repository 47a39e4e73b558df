// SPDX-License-Identifier: Apache-2.0 OR MIT
// The path of a leaf up a tree, planned once for every prover: for a tree of `count` nodes on its
// lowest level at arity k, per level from there up, the group of children that the path's node
// belongs to (its first child, the children the level holds, the path node's place among them)
// and what stands in for the children a short last group lacks, as the tree's shape says:
//
//   shape promote:       nothing; a short group is hashed over its children alone, and a lone
//                        one moves up unhashed (binary, k-ary, RFC 6962, BLAKE3);
//   shape zero:          the root of an all-zero subtree of the children's height, up to k
//                        children (binary and k-ary, SSZ);
//   shape duplicate-odd: the node itself (binary: Bitcoin).
//
// Above the tree's natural top the single node rises level by level by the same rule: the levels
// a fixed depth adds (shape zero's zero-subtree roots), or those of a part of a tree that rises
// to a given level (device_tree.hpp). The provers that read it: prove and the streamed proof
// (binary, proofs/proof_model.hpp, pipeline/streamed_tree.hpp), kary_path_siblings, kary_prove
// and kary_verify (kary.hpp), device_tree's reads of groups and through them
// kary_multi_tree::prove (engine/), Bitcoin's branch (formats/bitcoin.hpp). Pure arithmetic, no
// OpenCL; in core/ because every layer's provers stand on core/.
//
// Multiproofs and their verification climb many paths at once with proof_model.hpp's
// detail::climb, which shares this planner's level sizes (parent_count). OpenZeppelin's proofs
// (formats/oz_standard.hpp) walk OZ's heap array, whose leaves lie on two levels: a path there
// has no groups of a level to plan, so they keep OZ's own index arithmetic.
#pragma once

#include "digest.hpp"
#include "error_type.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

// What stands in for the children that a short last group of a level lacks.
enum class stand_in : unsigned char {
  nothing,   // shape promote: none; the group is hashed over its children, a lone one moves up
  zero_root, // shape zero: the root of an all-zero subtree of the children's height
  itself,    // shape duplicate-odd (arity 2): the lone node paired with itself
};

struct path_shape {
  unsigned arity = 2; // children a node, a power of two
  stand_in missing = stand_in::nothing;
};

// The group of children of one level on a path.
struct path_group {
  unsigned level = 0;        // the children's level (0: the leaves)
  std::uint64_t first = 0;   // the group's first child, an index within its level
  std::uint64_t present = 0; // the group's children that the level holds, 1 to arity
  std::uint64_t at = 0;      // the path's node: first <= at < first + present
  std::uint64_t width = 0;   // the children its parent is made of, stand-ins included; 1: the
                             // lone node moves up unhashed
  stand_in missing = stand_in::nothing; // what stands in for children present .. width - 1
  bool added = false; // above the natural top of the tree over `count` nodes (a fixed depth's
                      // level, or a part's rising to its top): the single node of its level

  std::uint64_t place() const { return at - first; }
};

// The nodes of the level above one of `size` nodes: ceil(size / arity), for any size.
inline std::uint64_t parent_count(std::uint64_t size, unsigned arity) {
  return size / arity + (size % arity != 0 ? 1 : 0);
}

// The levels above a level of `count` nodes up to its single node (0 for one node).
inline unsigned natural_height(std::uint64_t count, unsigned arity) {
  unsigned height = 0;
  for (; count > 1; count = parent_count(count, arity))
    ++height;
  return height;
}

inline void check_path_shape(const path_shape &shape) {
  const unsigned k = shape.arity;
  if (k < 2 || (k & (k - 1)) != 0)
    throw error("path plan: arity " + std::to_string(k) + " is not a power of two of at least 2");
  if (shape.missing == stand_in::itself && k != 2)
    throw error("path plan: a lone node paired with itself needs arity 2, not " +
                std::to_string(k));
}

// The path of node `index` of a level of `count` nodes, level `first_level` of its tree, up
// `levels` levels, a group each from that level up: to the root where `levels` is the natural
// height, above it where a fixed depth adds levels, below it for a part of a tree.
inline std::vector<path_group> plan_path(const path_shape &shape, std::uint64_t count,
                                         std::uint64_t index, unsigned levels,
                                         unsigned first_level = 0) {
  check_path_shape(shape);
  if (index >= count)
    throw error("path plan: node " + std::to_string(index) + " is past the " +
                std::to_string(count) + " nodes of its level");
  const unsigned k = shape.arity, natural = natural_height(count, k);
  std::vector<path_group> path;
  path.reserve(levels);
  for (unsigned l = 0; l < levels; ++l, index /= k, count = parent_count(count, k)) {
    path_group g;
    g.level = first_level + l;
    g.first = index - index % k;
    g.present = std::min<std::uint64_t>(k, count - g.first);
    g.at = index;
    const bool fills = g.present < k && shape.missing != stand_in::nothing;
    g.width = fills ? k : g.present;
    g.missing = fills ? shape.missing : stand_in::nothing;
    g.added = l >= natural;
    path.push_back(g);
  }
  return path;
}

// The siblings of the path's node in its group `g`, in order, as a proof holds them: the other
// children the level holds (child(i): the value of node i of level g.level), then what stands in
// for the missing ones (`zero`, read only for shape zero: the zero-subtree root of height
// g.level; the node itself for duplicate-odd). None where a lone node moves up.
template <class Child>
std::vector<digest> group_siblings(const path_group &g, const Child &child, const digest &zero) {
  std::vector<digest> siblings;
  siblings.reserve(static_cast<std::size_t>(g.width));
  for (std::uint64_t i = g.first; i < g.first + g.present; ++i)
    if (i != g.at) siblings.push_back(child(i));
  if (g.missing == stand_in::zero_root)
    siblings.resize(static_cast<std::size_t>(g.width - 1), zero);
  else if (g.missing == stand_in::itself)
    siblings.resize(static_cast<std::size_t>(g.width - 1), child(g.at));
  return siblings;
}

} // namespace merklize
