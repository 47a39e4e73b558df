// SPDX-License-Identifier: Apache-2.0 OR MIT
// The plan of a batch of leaf updates (plan/update_plan.hpp), without a device: against a
// brute-force oracle (every update's ancestors collected in a set, level by level; the last
// value of each index found by a map), at arities 2, 3 and 16, awkward sizes, batches of one
// leaf, the last leaf, every leaf, random ones with repeats, and none; and its refusals. Batches
// sorted once (update_batch.hpp) against std::map, and the plan listed from them (plan_of)
// against plan_update's, up to indices of 32 bits.
#include <merklize/plan/update_plan.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/plan/update_plan.hpp must not pull in the OpenCL headers"
#endif

#include <map>
#include <random>
#include <set>

using Catch::Matchers::Contains;

namespace {

std::vector<std::uint64_t> level_sizes(std::uint64_t n, unsigned arity) {
  std::vector<std::uint64_t> sizes = {n};
  while (sizes.back() > 1)
    sizes.push_back((sizes.back() + arity - 1) / arity);
  return sizes;
}

// The plan worked out the slow way: each update's ancestor at each level, in a set.
void check_against_oracle(const std::vector<std::uint64_t> &sizes, unsigned arity,
                          const std::vector<std::uint64_t> &batch) {
  const merklize::update_plan plan = merklize::plan_update(sizes, arity, batch);
  std::map<std::uint64_t, std::uint64_t> last;
  for (std::uint64_t k = 0; k < batch.size(); ++k)
    last[batch[k]] = k;
  INFO("n=" << sizes.front() << " k=" << arity << " batch=" << batch.size());
  CHECK(plan.batch == batch.size());
  REQUIRE(plan.top() == sizes.size() - 1);
  REQUIRE(plan.sources.size() == last.size());
  std::size_t i = 0;
  for (const auto &[index, position] : last) {
    CHECK(plan.nodes[i] == index);
    CHECK(plan.sources[i++] == position);
  }
  std::uint64_t above = 0;
  for (unsigned level = 0; level < sizes.size(); ++level) {
    std::set<std::uint64_t> expected;
    for (std::uint64_t index : batch) {
      for (unsigned l = 0; l < level; ++l)
        index /= arity;
      expected.insert(index);
    }
    const auto dirty = plan.dirty(level);
    CHECK(dirty == std::vector<std::uint64_t>(expected.begin(), expected.end()));
    if (level > 0) above += dirty.size();
    for (const std::uint64_t node : dirty)
      CHECK(node < sizes[level]);
    const bool short_last = level > 0 && !dirty.empty() && dirty.back() == sizes[level] - 1 &&
                            sizes[level - 1] % arity != 0;
    CHECK(plan.short_last[level] == short_last);
  }
  CHECK(plan.recomputed() == above);
}

} // namespace

TEST_CASE("update plans equal the brute-force oracle's", "[update_plan]") {
  std::mt19937_64 random(31);
  for (unsigned arity : {2u, 3u, 16u})
    for (std::uint64_t n : {1, 2, 3, 7, 8, 9, 255, 256, 257, 1000}) {
      const auto sizes = level_sizes(n, arity);
      check_against_oracle(sizes, arity, {});
      check_against_oracle(sizes, arity, {0});
      check_against_oracle(sizes, arity, {n - 1});
      std::vector<std::uint64_t> every(n);
      for (std::uint64_t i = 0; i < n; ++i)
        every[i] = n - 1 - i; // in reverse: the plan sorts
      check_against_oracle(sizes, arity, every);
      std::vector<std::uint64_t> repeats;
      for (int k = 0; k < 40; ++k)
        repeats.push_back(random() % std::min<std::uint64_t>(n, 5)); // many repeats
      check_against_oracle(sizes, arity, repeats);
      std::vector<std::uint64_t> some;
      for (std::uint64_t k = 0; k < n / 100 + 1; ++k)
        some.push_back(random() % n);
      check_against_oracle(sizes, arity, some);
    }
}

TEST_CASE("an update plan of a small binary tree, by hand", "[update_plan]") {
  // 5 leaves: levels of 5, 3, 2, 1 nodes; leaf 4 is alone in its pair at level 0, and node 2
  // of level 1 alone at level 1.
  const auto plan = merklize::plan_update({5, 3, 2, 1}, 2, {4, 0, 4});
  CHECK(plan.dirty(0) == std::vector<std::uint64_t>{0, 4});
  CHECK(plan.sources == std::vector<std::uint64_t>{1, 2}); // leaf 4: update 2, the last
  CHECK(plan.dirty(1) == std::vector<std::uint64_t>{0, 2});
  CHECK(plan.dirty(2) == std::vector<std::uint64_t>{0, 1});
  CHECK(plan.dirty(3) == std::vector<std::uint64_t>{0});
  CHECK(plan.short_last == std::vector<bool>{false, true, true, false});
  CHECK(plan.recomputed() == 5);
  const auto none = merklize::plan_update({5, 3, 2, 1}, 2, {});
  CHECK(none.nodes.empty());
  CHECK(none.top() == 3);
  const auto one = merklize::plan_update({1}, 2, {0, 0});
  CHECK(one.top() == 0);
  CHECK(one.sources == std::vector<std::uint64_t>{1});
}

TEST_CASE("update plans refuse indices outside the tree and trees that are not", "[update_plan]") {
  CHECK_THROWS_WITH(merklize::plan_update({5, 3, 2, 1}, 2, {1, 5}),
                    Contains("update 1 of 2: leaf index 5 out of range: the tree has 5 leaves"));
  CHECK_THROWS_WITH(merklize::plan_update({5, 2, 1}, 2, {0}),
                    Contains("level 1 has 2 nodes, not ceil(5 / 2)"));
  CHECK_THROWS_WITH(merklize::plan_update({5, 3}, 2, {0}), Contains("more than one node"));
  CHECK_THROWS_WITH(merklize::plan_update({}, 2, {}), Contains("at least one leaf"));
  CHECK_THROWS_WITH(merklize::plan_update({2, 1}, 1, {}), Contains("arity 1 is below 2"));
}

namespace {

// A batch sorted (update_batch.hpp) against std::map: every distinct index once, ascending, with
// the position of its last update; and the plan listed from it equal to plan_update's.
void check_sorted(std::uint64_t n, const std::vector<std::uint64_t> &batch) {
  const merklize::update_batch b = merklize::sort_batch(n, batch);
  std::map<std::uint64_t, std::uint64_t> last;
  for (std::uint64_t k = 0; k < batch.size(); ++k)
    last[batch[k]] = k;
  INFO("n=" << n << " batch=" << batch.size());
  CHECK(b.batch == batch.size());
  REQUIRE(b.leaves.size() == last.size());
  REQUIRE(b.sources.size() == last.size());
  std::size_t i = 0;
  bool all = true;
  for (const auto &[index, position] : last) {
    all = all && b.leaves[i] == index && b.sources[i] == position;
    ++i;
  }
  CHECK(all);
  if (n <= 5000) {
    const auto sizes = level_sizes(n, 2);
    const merklize::update_plan expected = merklize::plan_update(sizes, 2, batch);
    const merklize::update_plan listed = merklize::plan_of(b, sizes);
    CHECK(listed.nodes == expected.nodes);
    CHECK(listed.first == expected.first);
    CHECK(listed.sources == expected.sources);
    CHECK(listed.short_last == expected.short_last);
    CHECK(listed.batch == expected.batch);
  }
}

} // namespace

TEST_CASE("batches sorted once equal std::map's order and the plan's leaves", "[update_plan]") {
  std::mt19937_64 random(17);
  for (std::uint64_t n : {1, 2, 3, 7, 8, 9, 2047, 2048, 2049, 4194305}) {
    check_sorted(n, {});
    check_sorted(n, {0});
    check_sorted(n, {n - 1, n - 1, 0});
    std::vector<std::uint64_t> some, repeats, every;
    for (std::uint64_t k = 0; k < std::min<std::uint64_t>(n, 3000) + 7; ++k)
      some.push_back(random() % n);
    for (int k = 0; k < 50; ++k)
      repeats.push_back(random() % std::min<std::uint64_t>(n, 4));
    for (std::uint64_t i = std::min<std::uint64_t>(n, 3000); i-- > 0;)
      every.push_back(n - 1 - i % n); // descending runs: the sort must reverse them
    check_sorted(n, some);
    check_sorted(n, repeats);
    check_sorted(n, every);
  }
  // Indices with all 32 bits in use: three passes of 11 bits, the last of 10.
  const std::uint64_t big = std::uint64_t(1) << 32;
  check_sorted(big, {big - 1, 0, big / 2, big - 1, 1, big - 2048, 2047});
}

TEST_CASE("sorted batches refuse indices outside the tree and trees past 2^32", "[update_plan]") {
  CHECK_THROWS_WITH(merklize::sort_batch(5, {1, 5}),
                    Contains("update 1 of 2: leaf index 5 out of range: the tree has 5 leaves"));
  CHECK_THROWS_WITH(merklize::sort_batch((std::uint64_t(1) << 32) + 1, {0}),
                    Contains("trees of at most 2^32 leaves"));
  merklize::update_batch b = merklize::sort_batch(9, {8});
  CHECK_THROWS_WITH(merklize::plan_of(b, {5, 3, 2, 1}), Contains("leaf 8 is outside the tree"));
}
