// SPDX-License-Identifier: Apache-2.0 OR MIT
// The plan of many small trees (plan/many_trees_plan.hpp), without a device: each level's nodes
// and place, which levels the level runner takes (those whose pairs never straddle two trees),
// the roots' level and its flag, launch sizes for B x n at 2^16 x 2^8 on an H200, and the
// refusals. Built without OpenCL (merklize_core_tests).
#include <merklize/plan/many_trees_plan.hpp>

#include "facts_helpers.hpp"

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "the planners must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;

namespace {

merklize::detail::launch_settings h200_settings(const merklize::config &cfg = {}) {
  const auto device = test::h200();
  return merklize::detail::resolve_launch_settings(device, merklize::tuning_for(device), cfg);
}

// Levels in order, packed back to back, each ceil(below / 2) nodes a tree, the runner's at the
// bottom, the last one the roots'.
void check_consistent(const merklize::many_trees_plan &p) {
  REQUIRE(p.levels.size() == p.root_level);
  std::uint64_t first = 0, per_tree = p.tree_size;
  for (const merklize::many_level &l : p.levels) {
    CHECK(l.in_per_tree == per_tree);
    CHECK(l.out_per_tree == (per_tree + 1) / 2);
    CHECK(l.nodes == p.trees * l.out_per_tree);
    CHECK(l.first == first);
    CHECK(l.is_root == (l.level == p.root_level));
    CHECK(l.by_runner == (l.level <= p.runner_levels));
    if (l.by_runner) CHECK(l.in_per_tree % 2 == 0); // no pair straddles two trees
    first += l.nodes;
    per_tree = l.out_per_tree;
  }
  CHECK(p.level_nodes == first);
  CHECK(per_tree == 1);
  CHECK(p.roots_first() == (p.levels.empty() ? 0 : p.levels.back().first));
}

} // namespace

TEST_CASE("many trees: levels, their places and who computes them", "[many]") {
  const auto s = h200_settings();
  for (std::uint64_t n : {1, 2, 3, 7, 8, 9, 12, 255, 256, 257, 1024})
    for (std::uint64_t trees : {1, 2, 3, 1000}) {
      INFO("n=" << n << " B=" << trees);
      const auto p = merklize::plan_many_trees(s, trees, n, {});
      CHECK(p.top == merklize::tree_layout(n).depth());
      CHECK(p.root_level == p.top);
      check_consistent(p);
    }
  // Powers of two: the runner takes every level but the roots' (their ROOT flag).
  CHECK(merklize::plan_many_trees(s, 4, 256, {}).runner_levels == 7);
  CHECK(merklize::plan_many_trees(s, 4, 12, {}).runner_levels == 2);
  CHECK(merklize::plan_many_trees(s, 4, 255, {}).runner_levels == 0);
  CHECK(merklize::plan_many_trees(s, 4, 2, {}).runner_levels == 0);
  CHECK(merklize::plan_many_trees(s, 4, 1, {}).levels.empty()); // the leaves are the roots
}

TEST_CASE("many trees at a fixed depth: one node a tree above the top", "[many]") {
  const auto s = h200_settings();
  const merklize::tree_options deep{merklize::hash_kind::sha256, merklize::shape::zero, 10};
  for (std::uint64_t n : {1, 5, 8, 1024}) {
    const auto p = merklize::plan_many_trees(s, 3, n, deep);
    check_consistent(p);
    CHECK(p.root_level == 10);
    for (const auto &l : p.levels)
      if (l.level > p.top) CHECK(l.nodes == 3);
  }
  CHECK(merklize::plan_many_trees(s, 3, 1024, deep).runner_levels == 9); // none is the roots'
}

TEST_CASE("many trees: 2^16 trees of 2^8 leaves launch as one tree of 2^24", "[many]") {
  const auto s = h200_settings();
  const auto p = merklize::plan_many_trees(s, std::uint64_t(1) << 16, 256, {});
  CHECK(p.runner_launches ==
        merklize::detail::plan_launches(s, std::uint64_t(1) << 24, 7)); // the bottom 7 levels
  unsigned runner_levels = 0;
  for (const auto &l : p.runner_launches)
    runner_levels += l.levels;
  CHECK(runner_levels == 7);
  CHECK(p.levels.back().nodes == (std::uint64_t(1) << 16)); // one launch, a work-item a root
  CHECK_FALSE(p.levels.back().by_runner);
}

TEST_CASE("many trees: the refusals name the input", "[many]") {
  using merklize::detail::many_tree_count;
  const auto s = h200_settings();
  CHECK(many_tree_count(320, 5) == 2);
  CHECK_THROWS_WITH(many_tree_count(320, 0), Contains("tree_size is 0"));
  CHECK_THROWS_WITH(many_tree_count(33, 1), Contains("(1 bytes left over)"));
  CHECK_THROWS_WITH(many_tree_count(0, 1), Contains("no leaves"));
  CHECK_THROWS_WITH(many_tree_count(320, 4), Contains("2 trees and 2 leaves left over"));
  CHECK_THROWS_WITH(merklize::plan_many_trees(s, 0, 4, {}), Contains("no trees"));
  CHECK_THROWS_WITH(merklize::plan_many_trees(s, std::uint64_t(1) << 62, 4, {}),
                    Contains("more bytes than 64 bits"));
  CHECK_THROWS_WITH(
      merklize::plan_many_trees(s, 1, 9, {merklize::hash_kind::sha256, merklize::shape::zero, 3}),
      Contains("cannot hold 9 leaves"));
}
