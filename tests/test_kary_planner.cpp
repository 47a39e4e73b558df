// SPDX-License-Identifier: Apache-2.0 OR MIT
// One k-ary update planner (plan/kary_update_plan.hpp) reused batch after batch, as a resident
// k-ary tree reuses it, without a device: each plan equal to a fresh planner's (the batch sorted,
// its sources, every level's list and step), whatever came before it: larger and smaller batches,
// other trees and arities, whole levels or none, an empty batch, and a refused one (an index
// outside the tree) in between; the batch sorted in 1 to 16 slices, run in reverse order as
// threads may.
#include <merklize/plan/kary_update_plan.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/plan/kary_update_plan.hpp must not pull in the OpenCL headers"
#endif

#include <random>
#include <vector>

namespace {

// work(s) for every slice, the last first: the sort must not depend on the slices' order.
const auto reversed = [](unsigned slices, const auto &work) {
  for (unsigned s = slices; s-- > 0;)
    work(s);
};

std::vector<std::uint64_t> level_sizes(std::uint64_t n, unsigned k) {
  std::vector<std::uint64_t> sizes = {n};
  while (sizes.back() > 1)
    sizes.push_back((sizes.back() + k - 1) / k);
  return sizes;
}

void check_same(const merklize::kary_update_plan &got, const merklize::kary_update_plan &want) {
  CHECK(got.batch.batch == want.batch.batch);
  CHECK(got.batch.leaves == want.batch.leaves);
  CHECK(got.batch.sources == want.batch.sources);
  CHECK(got.list == want.list);
  REQUIRE(got.levels.size() == want.levels.size());
  for (std::size_t level = 0; level < got.levels.size(); ++level) {
    INFO("level " << level + 1);
    CHECK(got.levels[level].first == want.levels[level].first);
    CHECK(got.levels[level].groups == want.levels[level].groups);
    CHECK(got.levels[level].short_group == want.levels[level].short_group);
    CHECK(got.levels[level].whole == want.levels[level].whole);
  }
}

} // namespace

TEST_CASE("a k-ary planner reused batch after batch plans as a fresh one", "[kary_plan]") {
  std::mt19937_64 random(38);
  merklize::kary_update_planner reused;
  for (int round = 0; round < 200; ++round) {
    const unsigned k = 2 + static_cast<unsigned>(random() % 15);
    const std::uint64_t n = 1 + random() % (round % 3 == 0 ? 20000 : 300);
    const unsigned percent = std::vector<unsigned>{0, 25, 75, 101}[random() % 4];
    const std::uint64_t count = round % 17 == 0 ? 0 : random() % (2 * n + 1);
    std::vector<std::uint64_t> indices(static_cast<std::size_t>(count));
    for (auto &i : indices) // repeats: batches up to twice the leaves
      i = random() % n;
    const auto sizes = level_sizes(n, k);
    INFO("round " << round << ": k=" << k << " n=" << n << " " << percent << "% batch " << count);
    const unsigned slices = std::vector<unsigned>{1, 2, 3, 16}[random() % 4];
    INFO(slices << " slices");
    if (round % 13 == 5) { // a refusal in between leaves nothing behind
      std::vector<std::uint64_t> bad = indices;
      bad.insert(bad.begin() + static_cast<std::ptrdiff_t>(random() % (bad.size() + 1)), n);
      CHECK_THROWS_WITH(
          reused.plan(sizes, k, bad.data(), bad.size(), percent, slices, reversed),
          Catch::Matchers::Contains("leaf index " + std::to_string(n) + " out of range"));
    }
    merklize::kary_update_planner fresh;
    const merklize::kary_update_plan want =
        fresh.plan(sizes, k, indices.data(), indices.size(), percent);
    check_same(reused.plan(sizes, k, indices.data(), indices.size(), percent, slices, reversed),
               want);
    check_same(merklize::plan_kary_update(sizes, k, indices, percent), want);
  }
}

TEST_CASE("a batch sorted in slices refuses its first index outside the tree", "[kary_plan]") {
  merklize::update_batch b;
  merklize::batch_sort_memory m;
  const std::vector<std::uint64_t> indices = {3, 1, 9, 0, 12, 2, 10, 4};
  for (const unsigned slices : {1u, 2u, 3u, 8u})
    CHECK_THROWS_WITH(
        merklize::sort_batch_into(b, m, 9, indices.data(), indices.size(), slices, reversed),
        "update 2 of 8: leaf index 9 out of range: the tree has 9 leaves");
  merklize::sort_batch_into(b, m, 13, indices.data(), indices.size(), 3, reversed);
  CHECK(b.leaves == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 9, 10, 12});
  CHECK(b.sources == std::vector<std::uint32_t>{3, 1, 5, 0, 7, 2, 6, 4});
}

TEST_CASE("a batch's sort takes as few passes as its widest digit allows", "[kary_plan]") {
  CHECK(merklize::detail::sort_digit_for(0) == 0); // one leaf: no pass
  CHECK(merklize::detail::sort_digit_for(5) == 5);
  CHECK(merklize::detail::sort_digit_for(12) == 12);
  CHECK(merklize::detail::sort_digit_for(13) == 7); // two passes of 7 and 6
  CHECK(merklize::detail::sort_digit_for(24) == 12);
  CHECK(merklize::detail::sort_digit_for(25) == 9); // three passes of 9, 9 and 7
  CHECK(merklize::detail::sort_digit_for(32) == 11);
}
