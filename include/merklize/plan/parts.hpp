// SPDX-License-Identifier: Apache-2.0 OR MIT
// Parts of a tree built apart: the chunks a host build streams, the shards of several devices
// (multi.hpp) and of MPI ranks (merklize-mpi). Host code, no OpenCL.
//
// The aligned-part rule. Let a part hold leaves [f, f + m) of a tree of N leaves, with f a
// multiple of 2^t, and m a multiple of 2^t or f + m = N (the part ends the tree). Claim: for
// every k <= t, the tree's level k from index f / 2^k on, ceil(m / 2^k) nodes, is level k of the
// part's own tree, for both shapes. By induction on k; k = 0 is the leaves. For k < t, node i of
// level k + 1 has the children 2i and 2i + 1 of level k, and the part's nodes of level k start
// at f / 2^k, an even index, so the children of a node of the part are the part's own, in the
// same order; where m is a multiple of 2^t they are both there. Where the part ends the tree,
// level k of the tree ends where the part's does (ceil(N / 2^k) = f / 2^k + ceil(m / 2^k), as f
// is a multiple of 2^k), so child 2i + 1 is missing from the tree exactly when it is missing
// from the part: the lone node is the same one, and its rule is the same (promote moves it up;
// zero hashes it with the all-zero subtree of height k, which depends on k alone). The ROOT
// flag of blake3-parent marks the tree's root level only, so a part below the root has no node
// with it. Hence the part's levels 1..t are the tree's there, and its level t is the tree's
// ceil(m / 2^t) nodes from f / 2^t on: a part shorter than 2^t, ending the tree at its own
// depth d < t, has its one node carried up from level d by the lone-node rule (lift_lone_node).
// The levels above t follow from level t by the node rule (finish_tree). tests/test_multi.cpp
// and tests/test_parts.cpp check this bit for bit.
//
// The same rule for arity k (k-ary trees, kary.hpp): let a part hold leaves [f, f + m) of a tree
// of N leaves, f a multiple of k^t, and m a multiple of k^t or f + m = N. Then for every l <= t
// the part's own level l (ceil(m / k^l) nodes, kary_part_sizes) is the tree's from node f / k^l
// on. By induction on l: the part's nodes of level l start at a multiple of k (f / k^l, l < t),
// so each group of k children lies in the part whole; only a part that ends the tree has a short
// last group, and it is the tree's own, filled by the same shape rule (shape zero's padding, the
// zero-subtree root of height l, depends on l alone). A part shorter than k^(t-1) that ends the
// tree reaches level t as the tree's last node does: alone in its group at each level, moved up
// (promote) or hashed with zero-subtree roots (zero). So the tree's level t is the builders'
// level-t nodes in order, and kary_levels_above finishes the tree from it.
// tests/test_kary_multi.cpp checks this bit for bit against kary_levels.
//
// One planner cuts both: plan_kary_shards, whose binary view is plan_shards.
#pragma once

#include "../core/kary.hpp"
#include "../core/tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace merklize {

// Leaves [first_leaf, first_leaf + layout.leaf_count()) of a tree and the levels 1..levels of
// them that a build computes (the part's own layout: its level k is the tree's from node
// first_leaf >> k on).
struct tree_part {
  std::uint64_t first_leaf;
  tree_layout layout;
  unsigned levels;

  bool is_whole(const tree &t) const {
    return first_leaf == 0 && layout.leaf_count() == t.leaf_count() && levels == t.depth();
  }
};

// Refuses a part that breaks the aligned-part rule for levels up to `top` of a tree of
// `leaf_count` leaves and depth `depth`, naming the rule it breaks. `who` starts the message.
inline void check_part(const std::string &who, std::uint64_t leaf_count, unsigned depth,
                       std::uint64_t first_leaf, std::uint64_t count, unsigned top) {
  const std::string range = who + ": leaves [" + std::to_string(first_leaf) + ", " +
                            std::to_string(first_leaf + count) + ")";
  if (count == 0) throw error(who + ": no leaves (count 0): a part needs at least one");
  if (first_leaf >= leaf_count || count > leaf_count - first_leaf)
    throw error(range + " run past the tree's " + std::to_string(leaf_count) + " leaves");
  if (top > depth)
    throw error(who + ": level " + std::to_string(top) + " is above the tree's top level " +
                std::to_string(depth));
  const std::uint64_t size = std::uint64_t(1) << top;
  const std::string aligned = "2^" + std::to_string(top) + " = " + std::to_string(size);
  if (first_leaf % size != 0)
    throw error(range + " do not start at a multiple of " + aligned + ", so the part's level " +
                std::to_string(top) + " is not the tree's");
  if (count % size != 0 && first_leaf + count != leaf_count)
    throw error(range + ": " + std::to_string(count) + " leaves are not a multiple of " + aligned +
                ", and only the part that ends the tree (at leaf " + std::to_string(leaf_count) +
                ") may be shorter");
}

// A last part shorter than 2^top ends at its own depth part.levels < top with one node, the last
// of its level in the tree, at an even index: it has no partner up to level `top`, so it goes up
// by the rule for a lone node (unchanged for promote, hashed with zero subtrees for zero). The
// levels that t keeps are written into t. Returns the node of level `top`.
inline digest lift_lone_node(digest node, const tree_part &part, unsigned top, tree &t) {
  const auto zeros = zero_subtree_roots(t.options().hash, top);
  const unsigned root_level = t.root_depth();
  for (unsigned k = part.levels + 1; k <= top; ++k) {
    node = detail::level_above(t.options(), k, root_level, {node}, zeros).front();
    if (k >= t.first_level())
      std::copy(node.begin(), node.end(), t.level_data(k) + (part.first_leaf >> k) * node_bytes);
  }
  return node;
}

// How a tree is cut among several builders (devices, MPI ranks): shards of 2^shard_log2 leaves,
// builder i taking the contiguous run of shards [bounds[i], bounds[i + 1]), so each builder's
// part obeys the aligned-part rule at level shard_log2.
struct shard_plan {
  unsigned shard_log2 = 0;
  std::uint64_t leaf_count = 0;
  std::vector<std::uint64_t> bounds; // builders + 1 entries, from 0 to the shard count

  std::size_t builders() const { return bounds.size() - 1; }
  std::uint64_t shards() const { return bounds.back(); }
  std::uint64_t first_leaf(std::size_t i) const {
    return std::min(leaf_count, bounds[i] << shard_log2);
  }
  // Leaves of builder i; 0 when it has no shard.
  std::uint64_t leaf_count_of(std::size_t i) const {
    return std::min(leaf_count, bounds[i + 1] << shard_log2) - first_leaf(i);
  }
  // Whether the tree is really spread: more than one shard, so the top is finished apart.
  bool is_spread() const { return shards() > 1; }
};

namespace detail {

// Where each builder's run of `shards` shards starts, in proportion to `weights` (one each,
// positive): builders + 1 bounds, from 0 to `shards`.
inline std::vector<std::uint64_t> runs_by_weight(std::uint64_t shards,
                                                 const std::vector<double> &weights) {
  std::vector<std::uint64_t> bounds = {0};
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  double before = 0;
  for (double w : weights) {
    before += w;
    const auto end = static_cast<std::uint64_t>(std::llround(shards * (before / total)));
    bounds.push_back(std::min(shards, std::max(bounds.back(), end)));
  }
  bounds.back() = shards;
  return bounds;
}

// The bounds of a tree built whole by the heaviest of builders of `weights`: its one shard.
inline std::vector<std::uint64_t> whole_on_heaviest(const std::vector<double> &weights) {
  const auto heaviest = std::max_element(weights.begin(), weights.end()) - weights.begin();
  std::vector<std::uint64_t> bounds = {0};
  for (std::size_t i = 0; i < weights.size(); ++i)
    bounds.push_back(i >= std::size_t(heaviest) ? 1 : 0);
  return bounds;
}

} // namespace detail

// Shards per builder when the caller does not choose their size: enough that uneven weights
// still split finely, few enough that each stays large.
constexpr unsigned default_shards_per_builder = 8;

// Builder i takes shards [bounds[i], bounds[i + 1]): the subtrees of level shard_levels, of
// shard_leaves = k^shard_levels leaves each (the last maybe fewer). A tree of one shard is built
// whole by one builder: shard_levels is then its height and shard_leaves its leaf count.
struct kary_shard_plan {
  unsigned arity = 2;
  unsigned shard_levels = 0;
  std::uint64_t leaf_count = 0;
  std::uint64_t shard_leaves = 1;
  std::vector<std::uint64_t> bounds; // builders + 1 entries, from 0 to the shard count

  std::size_t builders() const { return bounds.size() - 1; }
  std::uint64_t shards() const { return bounds.back(); }
  std::uint64_t first_leaf(std::size_t i) const { return leaves_before(bounds[i]); }
  // Leaves of builder i; 0 when it has no shard.
  std::uint64_t leaf_count_of(std::size_t i) const {
    return leaves_before(bounds[i + 1]) - first_leaf(i);
  }
  // Whether the tree is really spread: more than one shard, so the top is finished apart.
  bool is_spread() const { return shards() > 1; }
  // The builder whose shards hold leaf `index` (below leaf_count).
  std::size_t builder_of(std::uint64_t index) const {
    const std::uint64_t shard = index / shard_leaves;
    return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), shard) -
                                    bounds.begin() - 1);
  }

private:
  std::uint64_t leaves_before(std::uint64_t shard) const {
    return shard > (leaf_count - 1) / shard_leaves ? leaf_count : shard * shard_leaves;
  }
};

// The plan for a k-ary tree (options.arity) of `leaf_count` leaves over builders of relative
// speeds `weights` (one each, positive): shards of k^shard_levels leaves when shard_levels > 0,
// otherwise the smallest power of k that gives about default_shards_per_builder a builder and no
// fewer than `min_shard_leaves` leaves (a device's piece: a smaller shard would stream worse).
// Builders get runs of shards in proportion to their weights; a tree of one shard or less is
// built whole by the heaviest builder.
inline kary_shard_plan plan_kary_shards(std::uint64_t leaf_count, unsigned arity,
                                        const std::vector<double> &weights,
                                        unsigned shard_levels = 0,
                                        std::uint64_t min_shard_leaves = 1) {
  check_kary({hash_kind::sha256, arity, shape::promote});
  if (weights.empty()) throw error("plan_kary_shards: no builders");
  const unsigned height = kary_height(leaf_count, arity); // refuses 0 leaves
  const std::uint64_t wanted = default_shards_per_builder * weights.size();
  const std::uint64_t per_shard =
      std::max(min_shard_leaves, leaf_count / wanted + (leaf_count % wanted != 0));
  kary_shard_plan plan{arity, 0, leaf_count, 1, {0}};
  bool whole = weights.size() == 1 || leaf_count == 1;
  while (!whole &&
         (shard_levels ? plan.shard_levels < shard_levels : plan.shard_leaves < per_shard)) {
    if (plan.shard_leaves > leaf_count / arity) { // k more times as many: one shard or none
      whole = true;
    } else {
      plan.shard_leaves *= arity;
      ++plan.shard_levels;
    }
  }
  const std::uint64_t shards =
      leaf_count / plan.shard_leaves + (leaf_count % plan.shard_leaves != 0);
  if (whole || shards <= 1) {
    plan.shard_levels = height;
    plan.shard_leaves = leaf_count;
    plan.bounds = detail::whole_on_heaviest(weights);
    return plan;
  }
  plan.bounds = detail::runs_by_weight(shards, weights);
  return plan;
}

// The plan for a binary tree of `leaf_count` leaves over builders of relative speeds `weights`
// (one each, positive): plan_kary_shards's for arity 2, shards of 2^shard_log2 leaves when
// shard_log2 > 0, else no fewer than 2^min_shard_log2 (a device's chunk). A tree of one shard
// or less is built whole by the heaviest builder (shard_log2 its depth).
inline shard_plan plan_shards(std::uint64_t leaf_count, const std::vector<double> &weights,
                              unsigned shard_log2 = 0, unsigned min_shard_log2 = 0) {
  if (weights.empty()) throw error("plan_shards: no builders");
  const kary_shard_plan plan = plan_kary_shards(leaf_count, 2, weights, shard_log2,
                                                std::uint64_t(1) << std::min(min_shard_log2, 63u));
  return {plan.shard_levels, leaf_count, plan.bounds};
}

} // namespace merklize
