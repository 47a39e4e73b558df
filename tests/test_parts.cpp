// SPDX-License-Identifier: Apache-2.0 OR MIT
// The parts module, without a device: the aligned-part rule checked on host trees for every hash
// and shape, the refusals of parts that break it, and the one shard planner of multi_merkleizer
// and merklize-mpi. Built without OpenCL.
#include "host_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/plan/parts.hpp>

#include <catch2/catch.hpp>

#include <numeric>

#if defined(CL_VERSION_1_0)
#error "merklize/plan/parts.hpp must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;

TEST_CASE("an aligned part's levels up to its top are the whole tree's", "[parts]") {
  for (auto hash : {merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent,
                    merklize::hash_kind::sha256})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (std::uint64_t n : {5ull, 64ull, 100ull, 129ull}) {
        const merklize::tree_options options{hash, pad};
        const auto leaves = test::random_bytes(n * merklize::node_bytes);
        const auto whole = merklize::reference_tree(leaves.data(), leaves.size(), options);
        for (unsigned top = 0; top < whole.depth(); ++top)
          for (std::uint64_t first = 0; first < n; first += std::uint64_t(1) << top) {
            const std::uint64_t count = std::min(std::uint64_t(1) << top, n - first);
            INFO(merklize::to_string(hash)
                 << " " << merklize::to_string(pad) << " n=" << n << " part [" << first << ", +"
                 << count << ") top " << top);
            // The part's own tree, built as if it were all there is (so blake3-parent flags its
            // top node as a root, which the whole tree's node there is not).
            const auto own = merklize::reference_tree(leaves.data() + first * merklize::node_bytes,
                                                      count * merklize::node_bytes, options);
            const unsigned levels = own.depth();
            for (unsigned k = 1; k <= levels && k < whole.depth(); ++k)
              for (std::uint64_t i = 0; i < own.layout().level_size(k); ++i)
                if (hash != merklize::hash_kind::blake3_parent || k < levels)
                  REQUIRE(own.node(k, i) == whole.node(k, (first >> k) + i));
            // A short last part is carried up to `top` by the lone-node rule.
            merklize::tree kept(n, options);
            merklize::finish_tree(kept, 0, whole.level(0));
            const merklize::tree_part p{first, own.layout(), levels};
            const merklize::digest below_top =
                levels == 0 ? own.node(0, 0) : whole.node(levels, first >> levels);
            CHECK(merklize::lift_lone_node(below_top, p, top, kept) ==
                  whole.node(top, first >> top));
          }
      }
}

TEST_CASE("parts that break the rule are refused, naming the rule", "[parts]") {
  const auto check = [](std::uint64_t first, std::uint64_t count, unsigned top) {
    merklize::check_part("build_part", 100, 7, first, count, top);
  };
  CHECK_NOTHROW(check(64, 36, 6)); // ends the tree
  CHECK_NOTHROW(check(32, 64, 5));
  CHECK_THROWS_WITH(check(0, 0, 1), Contains("no leaves (count 0)"));
  CHECK_THROWS_WITH(check(96, 8, 1), Contains("run past the tree's 100 leaves"));
  CHECK_THROWS_WITH(check(0, 64, 8), Contains("level 8 is above the tree's top level 7"));
  CHECK_THROWS_WITH(check(16, 32, 5), Contains("do not start at a multiple of 2^5 = 32"));
  CHECK_THROWS_WITH(check(32, 48, 5), Contains("48 leaves are not a multiple of 2^5 = 32") &&
                                          Contains("only the part that ends the tree"));
}

TEST_CASE("shards go to builders in proportion to their weights", "[parts]") {
  const std::uint64_t n = (std::uint64_t(1) << 20) + 17;
  SECTION("about 8 shards a builder, never under the smallest size asked") {
    const auto plan = merklize::plan_shards(n, {1, 1}, 0, 10);
    CHECK(plan.shard_log2 == 17); // ceil_log2(ceil(n / 16))
    CHECK(plan.shards() == merklize::detail::ceil_shift(n, 17));
    CHECK(merklize::plan_shards(n, {1, 1}, 0, 19).shard_log2 == 19);
  }
  SECTION("runs of shards in proportion, contiguous, covering every leaf") {
    const std::vector<double> weights{1, 3, 0.5, 2};
    const auto plan = merklize::plan_shards(n, weights, 12);
    REQUIRE(plan.builders() == 4);
    std::uint64_t next = 0, total = 0;
    for (std::size_t i = 0; i < plan.builders(); ++i) {
      CHECK(plan.first_leaf(i) == next);
      CHECK(plan.first_leaf(i) % (std::uint64_t(1) << 12) == 0);
      next += plan.leaf_count_of(i);
      total += plan.bounds[i + 1] - plan.bounds[i];
      const double share = double(plan.bounds[i + 1] - plan.bounds[i]) / plan.shards();
      CHECK(share == Approx(weights[i] / 6.5).margin(0.01));
      CHECK_NOTHROW(merklize::check_part("shard", n, merklize::tree_layout(n).depth(),
                                         plan.first_leaf(i), plan.leaf_count_of(i), 12));
    }
    CHECK(next == n);
    CHECK(total == plan.shards());
    CHECK(plan.is_spread());
  }
  SECTION("one builder, or a tree of one shard, is built whole by the heaviest") {
    for (const auto &plan :
         {merklize::plan_shards(n, {1}), merklize::plan_shards(1000, {1, 4, 2}, 0, 10),
          merklize::plan_shards(1000, {1, 4, 2}, 12)}) {
      CHECK_FALSE(plan.is_spread());
      CHECK(plan.shard_log2 == merklize::tree_layout(plan.leaf_count).depth());
      const std::size_t heaviest = plan.builders() == 1 ? 0 : 1;
      for (std::size_t i = 0; i < plan.builders(); ++i)
        CHECK(plan.leaf_count_of(i) == (i == heaviest ? plan.leaf_count : 0));
    }
  }
  SECTION("a single leaf") {
    const auto plan = merklize::plan_shards(1, {1, 1, 1});
    CHECK(plan.shard_log2 == 0);
    CHECK(plan.leaf_count_of(0) == 1);
  }
}

// The binary planner as it was written before plan_kary_shards planned every arity: the shard
// size (2^s, s given or about 8 shards a builder and at least 2^min_log2 leaves, at most the
// depth), the whole tree on one builder when there is one builder or one shard.
unsigned binary_shard_log2(std::uint64_t n, std::size_t builders, unsigned given,
                           unsigned min_log2) {
  const unsigned depth = merklize::tree_layout(n).depth();
  const std::uint64_t wanted = 8 * builders, per_shard = n / wanted + (n % wanted != 0);
  unsigned s = given;
  if (!s) {
    s = 0;
    while ((std::uint64_t(1) << s) < per_shard)
      ++s;
    s = std::max(s, min_log2);
  }
  s = std::min(s, depth);
  const std::uint64_t shards = (n + (std::uint64_t(1) << s) - 1) >> s;
  return builders == 1 || shards <= 1 ? depth : s;
}

TEST_CASE("plan_shards is plan_kary_shards for arity 2, with the binary planner's sizes",
          "[parts]") {
  const std::vector<std::vector<double>> weights = {{1}, {1, 1}, {1, 4, 2}, {3, 1, 1, 1}};
  for (std::uint64_t n : {1ull, 2ull, 3ull, 7ull, 8ull, 9ull, 63ull, 64ull, 65ull, 1000ull, 4095ull,
                          4096ull, 4097ull, 100000ull})
    for (const auto &w : weights)
      for (unsigned given : {0u, 1u, 3u, 12u, 20u})
        for (unsigned min_log2 : {0u, 2u, 10u}) {
          INFO("n=" << n << " builders " << w.size() << " shard_log2 " << given << " min "
                    << min_log2);
          const auto plan = merklize::plan_shards(n, w, given, min_log2);
          const auto kary = merklize::plan_kary_shards(n, 2, w, given, 1ull << min_log2);
          CHECK(plan.shard_log2 == binary_shard_log2(n, w.size(), given, min_log2));
          CHECK(plan.shard_log2 == kary.shard_levels);
          CHECK(plan.bounds == kary.bounds);
          CHECK(plan.leaf_count == n);
        }
}
