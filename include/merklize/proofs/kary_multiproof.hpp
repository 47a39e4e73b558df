// SPDX-License-Identifier: Apache-2.0 OR MIT
// The multiproof of a k-ary tree (core/kary.hpp): one set of nodes that shows many leaves at once,
// as proof_model.hpp's multiproof does for a binary tree. No OpenCL; resident_kary_tree's
// update_proved gathers the same nodes on the device (docs/PROOFS.md, "k-ary multiproofs").
//
// Known nodes: the proven leaves on level 0, and above, the parents of the groups of children
// (the k children of one parent) that hold a known node. Level by level from the leaves up, and
// for each such group in ascending order, the proof holds the group's members that are not
// known, ascending. The short last group of a level follows kary_prove's rule (path_plan.hpp):
// shape promote hashes its m < k children alone and moves a lone one up (nothing held for it);
// shape zero pads it with zero-subtree roots up to k, and, as kary_proof holds them, the proof
// holds those too (a wrong one changes the root the verifier computes). A multiproof of one leaf
// holds exactly kary_prove's siblings, level after level. A proof of no leaves holds the root
// alone: it shows nothing but the root it was made for (as OpenZeppelin's multiproofs of no
// leaves do).
#pragma once

#include "../core/kary.hpp"
#include "proof_model.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace merklize {

struct kary_multiproof {
  kary_options options;
  std::uint64_t leaf_count = 0;
  std::vector<std::uint64_t> indices; // sorted, distinct, each below leaf_count
  std::vector<digest> nodes;          // in proof order (kary_multiproof_positions)
};

inline bool operator==(const kary_multiproof &a, const kary_multiproof &b) {
  return a.options.hash == b.options.hash && a.options.arity == b.options.arity &&
         a.options.shape == b.options.shape && a.leaf_count == b.leaf_count &&
         a.indices == b.indices && a.nodes == b.nodes;
}

namespace detail {

// The climb of a k-ary multiproof from known nodes of level 0 (`known`: (index, value), indices
// strictly increasing below leaf_count) to the root, shared by the planner and the verifier so
// that they agree on the nodes and their order. For each group holding a known node, each member
// not known is member(level, index) (index past the level's size: shape zero's zero-subtree
// root); the group's k (or m) values are then combine(level, values), unless the group is a lone
// node moved up. Returns the root's value.
template <class Value, class Member, class Combine>
Value kary_climb(std::vector<std::pair<std::uint64_t, Value>> known, const kary_options &options,
                 std::uint64_t leaf_count, const Member &member, const Combine &combine) {
  const unsigned k = options.arity, height = natural_height(leaf_count, k);
  std::uint64_t size = leaf_count;
  std::vector<Value> group;
  for (unsigned level = 0; level < height; ++level, size = parent_count(size, k)) {
    std::size_t parents = 0;
    for (std::size_t i = 0; i < known.size();) {
      const std::uint64_t first = known[i].first - known[i].first % k;
      const std::uint64_t present = std::min<std::uint64_t>(k, size - first);
      const std::uint64_t width = options.shape == shape::zero ? k : present;
      group.clear();
      for (std::uint64_t c = 0; c < width; ++c) // first + width may pass 2^64 - 1: count up
        if (i < known.size() && known[i].first == first + c)
          group.push_back(std::move(known[i++].second));
        else
          group.push_back(member(level, first + c));
      known[parents++] = {first / k, width == 1 ? std::move(group.front()) : combine(level, group)};
    }
    known.resize(parents);
  }
  return std::move(known.front().second);
}

struct kary_position_only {}; // the value the planner climbs with: it only records positions

// visit(level, index) for each node of the multiproof of `indices` (strictly increasing, each
// below leaf_count, else refused before any visit) of a k-ary tree of `options`, in proof order
// (kary_multiproof_positions's), storing none of them: the gatherer builds its own lists from it
// (kary_multiproof_gather.hpp). No indices: the root alone, (height, 0).
template <class Visit>
void visit_kary_multiproof(const kary_options &options, std::uint64_t leaf_count,
                           const std::vector<std::uint64_t> &indices, const Visit &visit) {
  check_kary(options);
  if (leaf_count == 0) throw error("no leaves: a tree needs at least one leaf (N = 0)");
  if (indices.empty()) return visit(natural_height(leaf_count, options.arity), std::uint64_t(0));
  using value = kary_position_only;
  std::vector<std::pair<std::uint64_t, value>> known;
  known.reserve(indices.size());
  for (const std::uint64_t index : indices) {
    check_kary_index(index, leaf_count);
    if (!known.empty() && index <= known.back().first)
      throw error("multiproof leaf indices must be strictly increasing: " + std::to_string(index) +
                  " follows " + std::to_string(known.back().first));
    known.emplace_back(index, value{});
  }
  kary_climb<value>(
      std::move(known), options, leaf_count,
      [&](unsigned level, std::uint64_t index) {
        visit(level, index);
        return value{};
      },
      [](unsigned, const std::vector<value> &) { return value{}; });
}

} // namespace detail

// Where the nodes of the multiproof of `indices` (strictly increasing, each below leaf_count, else
// refused) of a k-ary tree of `options` lie, in proof order: (level, index), an index past its
// level's size standing for the zero-subtree root of that level's height (shape zero's short
// groups). No indices: the root alone, (height, 0).
inline std::vector<node_position>
kary_multiproof_positions(const kary_options &options, std::uint64_t leaf_count,
                          const std::vector<std::uint64_t> &indices) {
  return detail::listed_visits<node_position>(
      [&](const auto &visit) {
        detail::visit_kary_multiproof(options, leaf_count, indices, visit);
      },
      detail::as_position);
}

// The multiproof of the leaves at `indices` (any order, repeats allowed: the proof lists them
// sorted, once each; one out of range refused) of the tree whose levels are `levels`
// (kary_levels's).
inline kary_multiproof kary_prove_multi(const std::vector<std::vector<digest>> &levels,
                                        const kary_options &options,
                                        std::vector<std::uint64_t> indices) {
  check_kary(options);
  if (levels.empty() || levels.front().empty())
    throw error("no leaves: a tree needs at least one leaf (N = 0)");
  const std::uint64_t n = levels.front().size();
  kary_multiproof proof{options, n, canonical_indices(std::move(indices), n), {}};
  const auto positions = kary_multiproof_positions(options, n, proof.indices);
  const auto zeros = kary_zero_roots(options, static_cast<unsigned>(levels.size()));
  for (const node_position &p : positions) {
    const std::vector<digest> &level = levels.at(p.level);
    proof.nodes.push_back(p.index < level.size() ? level[static_cast<std::size_t>(p.index)]
                                                 : zeros[p.level]);
  }
  return proof;
}

// Whether `proof` shows leaves[i] at proof.indices[i], for every i, under `root`. Untrusted
// proofs: false where the leaf count is 0, the indices are not strictly increasing or not below
// it, `leaves` are not one per index, the nodes are too few or too many, or the root computed
// differs (a wrong node, zero-subtree roots too, or leaf). The work is bounded by the proof's
// size: the climb stops at the first node the proof lacks.
inline bool kary_verify_multi(const kary_multiproof &proof, const std::vector<digest> &leaves,
                              const digest &root) {
  const kary_options &o = proof.options;
  check_kary(o);
  if (proof.leaf_count == 0 || leaves.size() != proof.indices.size()) return false;
  if (proof.indices.empty()) return proof.nodes.size() == 1 && proof.nodes.front() == root;
  std::vector<std::pair<std::uint64_t, digest>> known;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const std::uint64_t index = proof.indices[i];
    if (index >= proof.leaf_count || (i > 0 && index <= proof.indices[i - 1])) return false;
    known.emplace_back(index, leaves[i]);
  }
  struct short_proof {}; // ends the climb at the first node missing
  std::size_t next = 0;
  try {
    const digest top = detail::kary_climb<digest>(
        std::move(known), o, proof.leaf_count,
        [&](unsigned, std::uint64_t) {
          if (next == proof.nodes.size()) throw short_proof{};
          return proof.nodes[next++];
        },
        [&](unsigned, const std::vector<digest> &group) {
          return kary_node(o, group.data(), group.size());
        });
    return next == proof.nodes.size() && top == root;
  } catch (const short_proof &) {
    return false;
  }
}

} // namespace merklize
