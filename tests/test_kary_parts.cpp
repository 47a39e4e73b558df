// SPDX-License-Identifier: Apache-2.0 OR MIT
// The plan of k-ary trees built in parts (parts.hpp), without a device: shards aligned to
// powers of k that cover the leaves once, in runs by weight; and the host's half of the parts
// rule: the levels above the shards and the proofs' siblings above them, equal to the whole
// tree's. Built without OpenCL, sanitized.
#include "host_helpers.hpp"

#include <merklize/plan/parts.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/plan/parts.hpp must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;

namespace {

std::uint64_t power(unsigned k, unsigned e) {
  std::uint64_t p = 1;
  for (unsigned i = 0; i < e; ++i)
    p *= k;
  return p;
}

// Every leaf in exactly one builder's run, runs in order, each starting at a multiple of the
// shard size and a whole number of shards unless it ends the tree.
void check_plan(const merklize::kary_shard_plan &plan, std::uint64_t n, std::size_t builders) {
  INFO("n=" << n << " k=" << plan.arity << " shard_levels=" << plan.shard_levels
            << " shard_leaves=" << plan.shard_leaves);
  REQUIRE(plan.builders() == builders);
  CHECK(plan.leaf_count == n);
  std::uint64_t next = 0;
  for (std::size_t i = 0; i < builders; ++i) {
    const std::uint64_t first = plan.first_leaf(i), count = plan.leaf_count_of(i);
    if (count == 0) continue;
    CHECK(first == next);
    CHECK(first % plan.shard_leaves == 0);
    CHECK((count % plan.shard_leaves == 0 || first + count == n));
    for (const std::uint64_t leaf : {first, first + count - 1})
      CHECK(plan.builder_of(leaf) == i);
    next = first + count;
  }
  CHECK(next == n);
  if (plan.is_spread()) {
    CHECK(plan.shard_leaves == power(plan.arity, plan.shard_levels));
    CHECK(plan.shard_leaves < n);
  } else {
    CHECK(plan.shard_levels == merklize::kary_height(n, plan.arity));
  }
}

} // namespace

TEST_CASE("k-ary shards are aligned to powers of k and cover the leaves once", "[kary][parts]") {
  for (unsigned k : {2u, 4u, 16u, 128u})
    for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(2), std::uint64_t(k) - 1,
                            std::uint64_t(k), std::uint64_t(k) + 1, power(k, 2) - 1, power(k, 2),
                            power(k, 2) + 1, power(k, 3) + 7, std::uint64_t(100000)})
      for (const std::vector<double> &weights :
           {std::vector<double>{1}, {1, 1}, {1, 3}, {1, 1, 1}, {5, 1, 2, 1}})
        for (unsigned levels : {0u, 1u, 2u}) {
          if (n < 1) continue;
          const auto plan = merklize::plan_kary_shards(n, k, weights, levels);
          check_plan(plan, n, weights.size());
          if (levels > 0 && plan.is_spread()) CHECK(plan.shard_levels == levels);
        }
}

TEST_CASE("k-ary shards: about 8 a builder, no smaller than asked, the heaviest alone when one",
          "[kary][parts]") {
  const auto plan = merklize::plan_kary_shards(1 << 20, 4, {1, 1});
  CHECK(plan.shard_leaves == 1 << 16); // 2^20 / 16 wanted = 2^16 = 4^8
  CHECK(plan.shards() == 16);
  CHECK(plan.bounds == std::vector<std::uint64_t>{0, 8, 16});
  CHECK(merklize::plan_kary_shards(1 << 20, 4, {1, 1}, 0, 1 << 18).shard_leaves == 1 << 18);
  CHECK(merklize::plan_kary_shards(1 << 20, 16, {1, 3}).bounds ==
        std::vector<std::uint64_t>{0, 4, 16});
  const auto whole = merklize::plan_kary_shards(100, 16, {1, 3, 2}, 0, 1000);
  CHECK_FALSE(whole.is_spread());
  CHECK(whole.bounds == std::vector<std::uint64_t>{0, 0, 1, 1}); // the heaviest, builder 1
  CHECK(whole.builder_of(99) == 1);
  const auto huge = merklize::plan_kary_shards(~std::uint64_t(0), 128, {1, 1});
  check_plan(huge, ~std::uint64_t(0), 2);
  CHECK(huge.is_spread());
  CHECK_THROWS_WITH(merklize::plan_kary_shards(0, 4, {1}), Contains("no leaves"));
  CHECK_THROWS_WITH(merklize::plan_kary_shards(10, 3, {1}), Contains("arity 3"));
  CHECK_THROWS_WITH(merklize::plan_kary_shards(10, 4, {}), Contains("no builders"));
}

TEST_CASE("k-ary levels above a level, and the siblings above it, are the whole tree's",
          "[kary][parts]") {
  for (unsigned k : {2u, 4u, 16u})
    for (std::uint64_t n : {std::uint64_t(k) + 1, power(k, 2), power(k, 3) + 5})
      for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
        for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::kary_options o{hash, k, pad};
          const auto bytes = test::random_bytes(n * merklize::node_bytes);
          std::vector<merklize::digest> leaves(n);
          std::memcpy(leaves.data(), bytes.data(), bytes.size());
          const auto levels = merklize::kary_levels(leaves, o);
          for (unsigned t = 0; t < levels.size(); ++t) {
            INFO("k=" << k << " n=" << n << " t=" << t);
            const auto above = merklize::kary_levels_above(levels[t], o, t);
            CHECK(std::equal(above.begin(), above.end(), levels.begin() + t, levels.end()));
            for (std::uint64_t index : {std::uint64_t(0), n / 2, n - 1}) {
              const auto proof = merklize::kary_prove(levels, o, index);
              const auto siblings = merklize::kary_path_siblings(above, o, index / power(k, t), t);
              CHECK(std::equal(siblings.begin(), siblings.end(), proof.siblings.begin() + t,
                               proof.siblings.end()));
            }
          }
        }
}
