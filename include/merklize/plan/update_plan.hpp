// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a batch of leaf updates recomputes in a tree of any arity: the leaves it writes (each
// index once, its last value in the batch) and, level by level from 1 up, the sorted parents of
// nodes that changed. Pure planning, no OpenCL, checked by the tests without a device against a
// brute-force oracle. resident_tree.hpp no longer uploads it: it sorts its batch once
// (update_batch.hpp) and finds each level's dirty nodes on the device; plan_of lists what those
// launches compute (resident_tree::last_plan, the tests' poisoning, the benchmark's counts).
//
//   const auto plan = merklize::plan_update({5, 3, 2, 1}, 2, {4, 0, 4});
//   // plan.dirty(0) == {0, 4}, plan.sources == {1, 2} (leaf 4 takes update 2, the last);
//   // plan.dirty(1) == {0, 2}, plan.dirty(2) == {0, 1} with short_last[2] (node 1 alone),
//   // plan.dirty(3) == {0}
#pragma once

#include "../core/error_type.hpp"
#include "update_batch.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

struct update_plan {
  std::uint64_t batch = 0; // the updates given, repeated indices included
  // Every level's dirty nodes, sorted and unique, levels back to back from the leaves (level 0:
  // the leaves written) up to the top level: level l's are nodes[first[l] .. first[l + 1]).
  std::vector<std::uint64_t> nodes;
  std::vector<std::uint64_t> first;
  // For each leaf of level 0 in order, the position in the batch of its last update: the value
  // it takes (a repeated index takes its last value).
  std::vector<std::uint64_t> sources;
  // short_last[l] (l >= 1): the last dirty node of level l has fewer than `arity` children, the
  // level below ending in a short group, whose node the tree's shape makes (promote: the lone
  // child moved up; zero: padded with zero-subtree roots).
  std::vector<bool> short_last;

  // The levels above the leaves that the plan covers: the tree's top stored level.
  unsigned top() const { return static_cast<unsigned>(first.size() - 2); }
  std::uint64_t count(unsigned level) const { return first.at(level + 1) - first.at(level); }
  std::vector<std::uint64_t> dirty(unsigned level) const {
    return {nodes.begin() + static_cast<std::ptrdiff_t>(first.at(level)),
            nodes.begin() + static_cast<std::ptrdiff_t>(first.at(level + 1))};
  }
  // Nodes recomputed above the leaves: the node hashes (or moves) the update costs.
  std::uint64_t recomputed() const { return nodes.size() - count(0); }
};

namespace detail {

// Refuses level sizes that are not those of a tree of this arity: each ceil(below / arity), the
// last a single node.
inline void check_level_sizes(const std::vector<std::uint64_t> &sizes, unsigned arity) {
  if (arity < 2) throw error("update plan: arity " + std::to_string(arity) + " is below 2");
  if (sizes.empty() || sizes.front() == 0)
    throw error("update plan: a tree needs at least one leaf");
  for (std::size_t l = 1; l < sizes.size(); ++l)
    if (sizes[l] != (sizes[l - 1] + arity - 1) / arity)
      throw error("update plan: level " + std::to_string(l) + " has " + std::to_string(sizes[l]) +
                  " nodes, not ceil(" + std::to_string(sizes[l - 1]) + " / " +
                  std::to_string(arity) + ")");
  if (sizes.back() != 1) throw error("update plan: the top level has more than one node");
}

// Refuses an index outside the tree, naming it and its place in the batch.
inline void check_update_indices(const std::uint64_t *indices, std::uint64_t count,
                                 std::uint64_t leaf_count) {
  for (std::uint64_t k = 0; k < count; ++k)
    if (indices[k] >= leaf_count)
      throw error("update " + std::to_string(k) + " of " + std::to_string(count) + ": leaf index " +
                  std::to_string(indices[k]) + " out of range: the tree has " +
                  std::to_string(leaf_count) + " leaves");
}

// The batch's leaves sorted and unique into plan.nodes, each with the position of its last
// update into plan.sources.
inline void plan_leaves(update_plan &plan, const std::uint64_t *indices, std::uint64_t count) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> order(static_cast<std::size_t>(count));
  for (std::uint64_t k = 0; k < count; ++k)
    order[static_cast<std::size_t>(k)] = {indices[k], k};
  std::sort(order.begin(), order.end()); // by index, then position: a run's last is the latest
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k + 1 < order.size() && order[k + 1].first == order[k].first) continue;
    plan.nodes.push_back(order[k].first);
    plan.sources.push_back(order[k].second);
  }
}

// Level by level from 1 up, the sorted parents of the level below's dirty nodes, after the
// leaves' (plan.nodes holding them alone).
inline void plan_levels(update_plan &plan, const std::vector<std::uint64_t> &sizes,
                        unsigned arity) {
  plan.first.push_back(plan.nodes.size());
  plan.short_last.push_back(false);
  for (std::size_t level = 1; level < sizes.size(); ++level) {
    const std::uint64_t from = plan.first[level - 1], to = plan.first[level];
    for (std::uint64_t k = from; k < to; ++k) {
      const std::uint64_t parent = plan.nodes[static_cast<std::size_t>(k)] / arity;
      if (plan.nodes.size() == to || plan.nodes.back() != parent) plan.nodes.push_back(parent);
    }
    plan.first.push_back(plan.nodes.size());
    plan.short_last.push_back(plan.nodes.size() > to && plan.nodes.back() == sizes[level] - 1 &&
                              sizes[level - 1] % arity != 0);
  }
}

} // namespace detail

// The plan of a batch of `count` updates of leaves `indices` (any order, repeats allowed) in the
// tree whose levels, leaves first, have `sizes` nodes (each ceil(below / arity), the top one
// node). An index outside the tree is refused before anything is planned.
inline update_plan plan_update(const std::vector<std::uint64_t> &sizes, unsigned arity,
                               const std::uint64_t *indices, std::uint64_t count) {
  detail::check_level_sizes(sizes, arity);
  detail::check_update_indices(indices, count, sizes.front());
  update_plan plan;
  plan.batch = count;
  plan.first = {0};
  detail::plan_leaves(plan, indices, count);
  detail::plan_levels(plan, sizes, arity);
  return plan;
}

inline update_plan plan_update(const std::vector<std::uint64_t> &sizes, unsigned arity,
                               const std::vector<std::uint64_t> &indices) {
  return plan_update(sizes, arity, indices.data(), indices.size());
}

// The same plan from a batch sorted once (update_batch.hpp), for a binary tree of levels `sizes`:
// what resident_tree's launches compute, listed (its last_plan()).
inline update_plan plan_of(const update_batch &batch, const std::vector<std::uint64_t> &sizes) {
  detail::check_level_sizes(sizes, 2);
  if (!batch.leaves.empty() && batch.leaves.back() >= sizes.front())
    throw error("update plan: leaf " + std::to_string(batch.leaves.back()) +
                " is outside the tree of " + std::to_string(sizes.front()) + " leaves");
  update_plan plan;
  plan.batch = batch.batch;
  plan.first = {0};
  plan.nodes.assign(batch.leaves.begin(), batch.leaves.end());
  plan.sources.assign(batch.sources.begin(), batch.sources.end());
  detail::plan_levels(plan, sizes, 2);
  return plan;
}

} // namespace merklize
