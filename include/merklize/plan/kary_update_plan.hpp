// SPDX-License-Identifier: Apache-2.0 OR MIT
// What an update of a k-ary tree kept on the device recomputes (resident_kary_tree.hpp): the
// batch sorted once (update_batch.hpp: distinct leaves ascending, each with its last update),
// then a level at a time the distinct parents of the level below's dirty nodes (index / k,
// ascending since their children are), split into whole groups, which the block-leaf kernels
// hash from a list, and the short last group, which the shape's rule treats apart (promoted,
// padded). Once a level's dirty groups pass a share of its groups, that level and every one
// above are hashed whole instead, as a build hashes them (no list, no gather, no scatter). Every
// list lies back to back in one array, uploaded once. An append's plan lists the right edge of
// each level (plan_kary_append). Pure, no OpenCL.
//
//   const auto p = merklize::plan_kary_update({64, 16, 4, 1}, 4, {9, 2, 9}); // 64 leaves
//   // p.list == {2, 9, 0, 2, 0}: leaves 2 and 9, level 1's groups 0 and 2 (leaves 0..3, 8..11),
//   // level 2's group 0 (level 1's nodes 0..3); p.levels[2].whole: the root hashed whole
#pragma once

#include "update_batch.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace merklize {

// Where a level is hashed whole rather than from a list: a listed group costs several whole
// ones (the gather reads its k children at random and writes them back to back, the hash reads
// them again, the scatter writes its parent at random, where a whole level's hash reads the
// children once, in order; plus its list entry made on the host and uploaded, and two launches
// more a level), so past a share of the level's groups the whole level is cheaper. The share is
// the device's tuning row's (kary_whole_level_percent, plan/tuning.hpp); the default's for
// plans made without a device. Dirty groups only grow in share up the tree, so every level
// above a whole one is whole too, and an update costs at most about a rebuild plus writing its
// leaves. Above 100: never whole; 0: every level above the leaves whole.
constexpr unsigned kary_whole_level_percent = 25;

struct kary_level_update {
  std::uint64_t first = 0, groups = 0; // the level's whole groups: list[first, first + groups)
  bool short_group = false;            // the level's short last group is dirty
  bool whole = false; // the level above is hashed whole (no list): this and every level above
};

struct kary_update_plan {
  update_batch batch;                    // the leaves written (list[0, leaves)) and their values
  std::vector<std::uint64_t> list;       // the leaves, then each listed level's whole groups
  std::vector<kary_level_update> levels; // levels 1..top: the parents recomputed from below
};

namespace detail {

// The most groups of a level of `groups` (the level above's size) that are listed: `percent`
// of them, rounded down.
inline std::uint64_t kary_most_listed(std::uint64_t groups, unsigned percent) {
  return percent > 100 ? groups : groups / 100 * percent + groups % 100 * percent / 100;
}

// The distinct parents of a level's dirty nodes: list[from, to) ascending and, if `last`, the
// level's last node. Those of the level's `whole` whole groups are appended to `list` (reserved:
// no reallocation) while at most `most`; past that the step is whole and lists nothing.
inline kary_level_update list_parents(std::vector<std::uint64_t> &list, std::uint64_t from,
                                      std::uint64_t to, std::uint64_t last, unsigned arity,
                                      std::uint64_t whole, std::uint64_t most) {
  kary_level_update step{list.size(), 0, false, false};
  std::uint64_t previous = ~std::uint64_t(0); // no node's parent
  const auto visit = [&](std::uint64_t node) {
    const std::uint64_t parent = node / arity;
    if (parent == previous) return true;
    previous = parent;
    if (parent >= whole) return step.short_group = true;
    list.push_back(parent);
    return ++step.groups <= most;
  };
  bool listed = true;
  for (std::uint64_t i = from; i < to && listed; ++i)
    listed = visit(list[static_cast<std::size_t>(i)]);
  if (listed && last != ~std::uint64_t(0)) listed = visit(last);
  if (listed) return step;
  list.resize(static_cast<std::size_t>(step.first));
  return {step.first, 0, false, true};
}

} // namespace detail

// Plans of updates of one tree, batch after batch, their memory kept from call to call (the
// sort's keys, the batch, the lists: fresh memory each call, faulted in page by page, was half
// of the plan of a 1% batch of a tree of 2^24 leaves).
class kary_update_planner {
public:
  // The plan of an update of `indices` in a tree of `sizes` (level sizes, leaves first) of
  // arity `arity`, levels whose dirty groups pass `percent` of theirs hashed whole; an index
  // outside the tree is refused (update_batch's error). O(batch) on the host: the batch sorted
  // in `slices` slices (`parallel(slices, work)` runs work(s) for each, as sort_batch_into), the
  // list reserved once, each level's parents read from the level below's list. Valid until the
  // next call.
  template <class Parallel>
  const kary_update_plan &plan(const std::vector<std::uint64_t> &sizes, unsigned arity,
                               const std::uint64_t *indices, std::uint64_t count, unsigned percent,
                               unsigned slices, const Parallel &parallel) {
    sort_batch_into(plan_.batch, sort_, sizes.front(), indices, count, slices, parallel);
    const std::vector<std::uint32_t> &leaves = plan_.batch.leaves;
    std::uint64_t room = leaves.size();
    for (std::size_t level = 1; level < sizes.size(); ++level)
      room += std::min<std::uint64_t>(leaves.size(),
                                      detail::kary_most_listed(sizes[level], percent) + 1);
    plan_.list.clear();
    plan_.list.reserve(static_cast<std::size_t>(room));
    plan_.list.assign(leaves.begin(), leaves.end());
    plan_.levels.clear();
    kary_level_update below{0, leaves.size(), false, false}; // the leaves, all listed
    for (std::size_t level = 0; level + 1 < sizes.size(); ++level) {
      if (!below.whole) {
        const std::uint64_t last = level > 0 && below.short_group ? sizes[level] - 1 : ~0ull;
        below = detail::list_parents(plan_.list, below.first, below.first + below.groups, last,
                                     arity, sizes[level] / arity,
                                     detail::kary_most_listed(sizes[level + 1], percent));
      }
      plan_.levels.push_back(below);
    }
    return plan_;
  }

  // The same on this thread.
  const kary_update_plan &plan(const std::vector<std::uint64_t> &sizes, unsigned arity,
                               const std::uint64_t *indices, std::uint64_t count,
                               unsigned percent = kary_whole_level_percent) {
    return plan(sizes, arity, indices, count, percent, 1, serially{});
  }

  // The last plan's batch sorted (its distinct leaves ascending): valid until the next call.
  const update_batch &batch() const { return plan_.batch; }

private:
  kary_update_plan plan_;
  batch_sort_memory sort_;
};

// One plan (kary_update_planner's, its memory not kept).
inline kary_update_plan plan_kary_update(const std::vector<std::uint64_t> &sizes, unsigned arity,
                                         const std::uint64_t *indices, std::uint64_t count,
                                         unsigned percent = kary_whole_level_percent) {
  kary_update_planner planner;
  return planner.plan(sizes, arity, indices, count, percent);
}

// The plan of an append to a tree of `old_count` leaves, now of `sizes` (level sizes, leaves
// first): the new leaves are written whole (no batch, no leaves listed), and each level's
// parents from the first changed one on: old_count / k^l's, the old right edge, which the
// append completes or extends, and every new one. The old tree's other nodes stay: k-ary trees
// of either shape are prefixes of their appended trees.
inline kary_update_plan plan_kary_append(std::uint64_t old_count,
                                         const std::vector<std::uint64_t> &sizes, unsigned arity) {
  kary_update_plan plan;
  std::uint64_t first = old_count; // the level's first changed node
  for (std::size_t level = 0; level + 1 < sizes.size(); ++level) {
    const std::uint64_t whole = sizes[level] / arity;
    first /= arity;
    kary_level_update step{plan.list.size(), 0, sizes[level] % arity != 0};
    for (std::uint64_t parent = first; parent < whole; ++parent)
      plan.list.push_back(parent);
    step.groups = plan.list.size() - step.first;
    plan.levels.push_back(step);
  }
  return plan;
}

inline kary_update_plan plan_kary_update(const std::vector<std::uint64_t> &sizes, unsigned arity,
                                         const std::vector<std::uint64_t> &indices,
                                         unsigned percent = kary_whole_level_percent) {
  return plan_kary_update(sizes, arity, indices.data(), indices.size(), percent);
}

} // namespace merklize
