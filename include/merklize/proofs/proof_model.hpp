// SPDX-License-Identifier: Apache-2.0 OR MIT
// The model of inclusion proofs and multiproofs (what a proof of a leaf or of many leaves holds)
// and the provers that make them from a host tree. No OpenCL. Verification: proof_verify.hpp;
// encodings: proof_encoding.hpp; proof.hpp includes all three.
#pragma once

#include "../core/path_plan.hpp"
#include "../core/ssz.hpp"
#include "../core/tree.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

// That the leaf at `index` belongs to the tree of `leaf_count` leaves built with `options`
// (options.depth: shape zero's fixed root depth, if any). `siblings` runs from the leaves up, one
// node per level up to the root: the sibling of the path's node. Where the path's node is the
// lone last node of its level, shape::promote records nothing (the node moves up) and
// shape::zero records the zero-subtree root it was hashed with, as on the levels that a fixed
// depth adds above the stored tree. For rfc6962 the siblings are RFC 9162 2.1.3's audit path.
//
// An element of an SSZ list (sha256, shape zero) is proven against the list's root, the tree's
// root with the list's length mixed in (ssz.hpp): `mixed_length` holds that length, and
// `siblings` ends with one more node, its length chunk. The siblings are then exactly the
// consensus specs' branch: is_valid_merkle_branch(leaf, siblings, depth + 1, index, list root).
struct inclusion_proof {
  tree_options options;
  std::uint64_t leaf_count = 0;
  std::uint64_t index = 0;
  std::vector<digest> siblings;
  std::optional<std::uint64_t> mixed_length = std::nullopt;
};

// That the leaves at `indices` (strictly increasing) belong to the tree. `nodes` holds only what
// the verifier cannot compute itself: the siblings along the paths that are neither above a
// proven leaf nor zero-subtree roots, from the leaves up and left to right within a level.
struct multiproof {
  tree_options options;
  std::uint64_t leaf_count = 0;
  std::vector<std::uint64_t> indices;
  std::vector<digest> nodes;
};

namespace detail {

// The binary view of the path planner's level sizes (core/path_plan.hpp), which the climb below
// shares with it.
inline std::uint64_t parent_level_size(std::uint64_t size) { return parent_count(size, 2); }

// Levels above the leaves, for any leaf count (a hostile one included) without allocating.
inline unsigned depth_of(std::uint64_t leaf_count) { return natural_height(leaf_count, 2); }

// Levels from the leaves to the root: the fixed depth if the options set one, else the natural.
inline unsigned root_depth_of(const tree_options &options, std::uint64_t leaf_count) {
  return options.depth.value_or(depth_of(leaf_count));
}

// Same tree: an unset depth and the natural depth set explicitly give the same root.
inline bool same_tree(const tree_options &a, std::uint64_t a_leaves, const tree_options &b,
                      std::uint64_t b_leaves) {
  return a.hash == b.hash && a.shape == b.shape && a_leaves == b_leaves &&
         root_depth_of(a, a_leaves) == root_depth_of(b, b_leaves);
}

} // namespace detail

inline bool operator==(const inclusion_proof &a, const inclusion_proof &b) {
  return detail::same_tree(a.options, a.leaf_count, b.options, b.leaf_count) &&
         a.index == b.index && a.siblings == b.siblings && a.mixed_length == b.mixed_length;
}

inline bool operator==(const multiproof &a, const multiproof &b) {
  return detail::same_tree(a.options, a.leaf_count, b.options, b.leaf_count) &&
         a.indices == b.indices && a.nodes == b.nodes;
}

// A node of a tree: its level (0 for the leaves) and its index within the level.
struct node_position {
  unsigned level;
  std::uint64_t index;
};

namespace detail {

// The climb from known nodes of level 0 to the root, shared by every prover and verifier so that
// they agree on which nodes a proof holds and in which order. `known` holds (index, value) pairs
// with strictly increasing indices below leaf_count; the root is `levels` levels up (at least
// the natural depth; above it the single node is alone). At each level, a known node meets its
// sibling: another known node, pair(level, left, right); a node the proof must hold,
// from_proof(level, index, value); or none, being the lone last node of its level,
// alone(level, value). Each returns the value of the parent. Returns the root's value.
template <class Value, class Pair, class FromProof, class Alone>
Value climb(std::vector<std::pair<std::uint64_t, Value>> known, std::uint64_t leaf_count,
            unsigned levels, Pair pair, FromProof from_proof, Alone alone) {
  std::uint64_t size = leaf_count;
  for (unsigned level = 0; level < levels; ++level, size = parent_level_size(size)) {
    std::size_t parents = 0;
    for (std::size_t i = 0; i < known.size(); ++i) {
      const std::uint64_t index = known[i].first;
      const std::uint64_t sibling = index ^ 1;
      Value parent;
      if (index % 2 == 0 && i + 1 < known.size() && known[i + 1].first == sibling) {
        parent = pair(level, known[i].second, known[i + 1].second);
        ++i;
      } else if (sibling < size) {
        parent = from_proof(level, index, known[i].second);
      } else {
        parent = alone(level, known[i].second);
      }
      known[parents++] = {index / 2, parent};
    }
    known.resize(parents);
  }
  return known.front().second;
}

struct nothing {}; // the value a prover climbs with: it only records positions

inline void check_leaf_index(std::uint64_t index, std::uint64_t leaf_count) {
  if (index >= leaf_count)
    throw error("leaf index " + std::to_string(index) + " out of range: the tree has " +
                std::to_string(leaf_count) + " leaves");
}

// Proofs read every level below the top of a host tree.
inline void check_all_levels(const tree &t) {
  if (t.first_level() != 0)
    throw error("a proof needs every level of the tree, but this one keeps levels " +
                std::to_string(t.first_level()) + ".." + std::to_string(t.depth()) +
                " (build it with output_levels::all_nodes())");
}

} // namespace detail

// What a binary tree's shape puts in place of a lone last node's sibling (core/path_plan.hpp).
inline path_shape binary_path_shape(const tree_options &options) {
  return {2, options.shape == shape::zero ? stand_in::zero_root : stand_in::nothing};
}

// The proof for leaf `index` of a host tree, which must keep every level: its path's siblings as
// plan_path lays them out, to the root root_depth() levels up.
inline inclusion_proof prove(const tree &t, std::uint64_t index) {
  detail::check_leaf_index(index, t.leaf_count());
  detail::check_all_levels(t);
  inclusion_proof proof{t.options(), t.leaf_count(), index, {}};
  const auto zeros = zero_subtree_roots(t.options().hash, t.root_depth());
  for (const path_group &g :
       plan_path(binary_path_shape(t.options()), t.leaf_count(), index, t.root_depth())) {
    const auto node = [&](std::uint64_t i) { return t.node(g.level, i); };
    for (const digest &sibling : group_siblings(g, node, zeros[g.level]))
      proof.siblings.push_back(sibling);
  }
  return proof;
}

// The proof of an SSZ list element (sha256, shape zero): `proof` against the list's root,
// mix_in_length(tree root, length), its length chunk added as the last sibling.
inline inclusion_proof mix_in_length(inclusion_proof proof, std::uint64_t length) {
  if (proof.options.hash != hash_kind::sha256 || proof.options.shape != shape::zero)
    throw error(std::string("a length is mixed in to SSZ lists' roots, hash sha256 and shape "
                            "zero, not ") +
                to_string(proof.options.hash) + " " + to_string(proof.options.shape));
  if (proof.mixed_length) throw error("the proof has a length mixed in already");
  proof.siblings.push_back(length_chunk(length));
  proof.mixed_length = length;
  return proof;
}

namespace detail {

// visit(level, index) for each node of a multiproof for `indices` (strictly increasing, each
// below leaf_count, else refused before any visit) in proof order, storing none of them: the
// gatherers build their own lists from it (update_multiproof.hpp), no list of places between.
template <class Visit>
void visit_multiproof(std::uint64_t leaf_count, const std::vector<std::uint64_t> &indices,
                      const Visit &visit) {
  if (indices.empty()) throw error("a multiproof needs at least one leaf index");
  std::vector<std::pair<std::uint64_t, nothing>> known;
  known.reserve(indices.size());
  for (const std::uint64_t index : indices) {
    check_leaf_index(index, leaf_count);
    if (!known.empty() && index <= known.back().first)
      throw error("multiproof leaf indices must be strictly increasing: " + std::to_string(index) +
                  " follows " + std::to_string(known.back().first));
    known.emplace_back(index, nothing{});
  }
  climb<nothing>(
      std::move(known), leaf_count, depth_of(leaf_count),
      [](unsigned, nothing, nothing) { return nothing{}; },
      [&](unsigned level, std::uint64_t i, nothing) {
        visit(level, i ^ 1);
        return nothing{};
      },
      [](unsigned, nothing) { return nothing{}; });
}

// What `visitor` (visit_multiproof or visit_kary_multiproof, its arguments bound) visits, each
// place made an item by make(level, index), in its order: a count pass, one exact reserve, a
// fill pass (a list grown by push_back moves and faults in its memory over and over).
template <class Item, class Visitor, class Make>
std::vector<Item> listed_visits(const Visitor &visitor, const Make &make) {
  std::size_t count = 0;
  visitor([&](unsigned, std::uint64_t) { ++count; });
  std::vector<Item> items;
  items.reserve(count);
  visitor([&](unsigned level, std::uint64_t index) { items.push_back(make(level, index)); });
  return items;
}

inline node_position as_position(unsigned level, std::uint64_t index) { return {level, index}; }

// At least as many nodes as the multiproof of `m` leaves of a tree of `leaf_count` holds: a
// level's known nodes (at most m, at most the level) each need at most one sibling.
inline std::uint64_t multiproof_bound(std::uint64_t leaf_count, std::uint64_t m) {
  std::uint64_t bound = 0;
  for (std::uint64_t size = leaf_count; size > 1; size = parent_level_size(size))
    bound += std::min(m, size);
  return bound;
}

// The same as listed_visits into `out`, its memory reused from call to call, in one climb: `out`
// reserved for `bound` items first (address space only: the pages past those written are never
// touched), not counted by a climb of its own.
template <class Item, class Visitor, class Make>
void list_visits_into(std::vector<Item> &out, std::uint64_t bound, const Visitor &visitor,
                      const Make &make) {
  out.clear();
  out.reserve(static_cast<std::size_t>(bound));
  visitor([&](unsigned level, std::uint64_t index) { out.push_back(make(level, index)); });
}

} // namespace detail

// Where the nodes of a multiproof for `indices` (strictly increasing, each below leaf_count) lie
// in the tree, in proof order.
inline std::vector<node_position> multiproof_positions(std::uint64_t leaf_count,
                                                       const std::vector<std::uint64_t> &indices) {
  return detail::listed_visits<node_position>(
      [&](const auto &visit) { detail::visit_multiproof(leaf_count, indices, visit); },
      detail::as_position);
}

// Indices sorted, without repeats, each checked against the tree's leaf count.
inline std::vector<std::uint64_t> canonical_indices(std::vector<std::uint64_t> indices,
                                                    std::uint64_t leaf_count) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  for (const std::uint64_t index : indices)
    detail::check_leaf_index(index, leaf_count);
  return indices;
}

// One proof for the leaves at `indices` of a host tree, which must keep every level (indices in
// any order, repeats allowed: the proof lists them sorted, once each).
inline multiproof prove_multi(const tree &t, std::vector<std::uint64_t> indices) {
  detail::check_all_levels(t);
  multiproof proof{
      t.options(), t.leaf_count(), canonical_indices(std::move(indices), t.leaf_count()), {}};
  for (const auto &p : multiproof_positions(t.leaf_count(), proof.indices))
    proof.nodes.push_back(t.node(p.level, p.index));
  return proof;
}

} // namespace merklize
