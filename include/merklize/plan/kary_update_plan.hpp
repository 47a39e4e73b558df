// SPDX-License-Identifier: Apache-2.0 OR MIT
// What an update of a k-ary tree kept on the device recomputes (resident_kary_tree.hpp): the
// batch sorted once (update_batch.hpp: distinct leaves ascending, each with its last update),
// then a level at a time the distinct parents of the level below's dirty nodes (index / k,
// ascending since their children are), split into whole groups, which the block-leaf kernels
// hash from a list, and the short last group, which the shape's rule treats apart (promoted,
// padded). Every list lies back to back in one array, uploaded once. An append's plan lists the
// right edge of each level (plan_kary_append). Pure, no OpenCL.
//
//   const auto p = merklize::plan_kary_update({10, 3, 1}, 4, {9, 2, 9}); // 10 leaves, arity 4
//   // p.list == {2, 9, 0}: leaves 2 and 9, then level 1's whole group 0 (leaves 0..3);
//   // p.levels[0].short_group: group 2 (leaves 8, 9) is short, as is level 2's (nodes 0..2)
#pragma once

#include "update_batch.hpp"

#include <cstdint>
#include <vector>

namespace merklize {

struct kary_level_update {
  std::uint64_t first = 0, groups = 0; // the level's whole groups: list[first, first + groups)
  bool short_group = false;            // the level's short last group is dirty
};

struct kary_update_plan {
  update_batch batch;                    // the leaves written (list[0, leaves)) and their values
  std::vector<std::uint64_t> list;       // the leaves, then each level's whole groups
  std::vector<kary_level_update> levels; // levels 1..top: the parents recomputed from below
};

// The plan of an update of `indices` in a tree of `sizes` (level sizes, leaves first) of arity
// `arity`; an index outside the tree is refused (update_batch's error).
inline kary_update_plan plan_kary_update(const std::vector<std::uint64_t> &sizes, unsigned arity,
                                         const std::uint64_t *indices, std::uint64_t count) {
  kary_update_plan plan{sort_batch(sizes.front(), indices, count), {}, {}};
  std::vector<std::uint64_t> dirty(plan.batch.leaves.begin(), plan.batch.leaves.end());
  plan.list = dirty;
  for (std::size_t level = 0; level + 1 < sizes.size(); ++level) {
    const std::uint64_t whole = sizes[level] / arity; // groups of k children
    kary_level_update step{plan.list.size(), 0, false};
    std::vector<std::uint64_t> parents;
    for (const std::uint64_t node : dirty) {
      const std::uint64_t parent = node / arity;
      if (!parents.empty() && parents.back() == parent) continue;
      parents.push_back(parent);
      if (parent < whole)
        plan.list.push_back(parent);
      else
        step.short_group = true;
    }
    step.groups = plan.list.size() - step.first;
    plan.levels.push_back(step);
    dirty.swap(parents);
  }
  return plan;
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
                                         const std::vector<std::uint64_t> &indices) {
  return plan_kary_update(sizes, arity, indices.data(), indices.size());
}

} // namespace merklize
