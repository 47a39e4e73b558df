// SPDX-License-Identifier: Apache-2.0 OR MIT
// A batch of leaf updates grouped by block (plan/leaf_blocks.hpp), without a device: against a
// stable sort of the batch's positions by block, for one slice and several (slices run in
// reverse order, as threads may), blocks of 1 leaf up to the whole tree, batches with repeats,
// none, and indices all in one block; indices outside the tree refused, in any slice; the
// by-hand example of the header.
#include <merklize/plan/leaf_blocks.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/plan/leaf_blocks.hpp must not pull in the OpenCL headers"
#endif

#include <algorithm>
#include <numeric>
#include <random>

namespace {

// work(s) for every slice, the last first: group_by_block must not depend on the order.
const auto reversed = [](unsigned slices, const auto &work) {
  for (unsigned s = slices; s-- > 0;)
    work(s);
};

// The oracle: positions stably sorted by block, and each block's first position in that order.
merklize::leaf_blocks oracle(const std::vector<std::uint64_t> &indices, unsigned height,
                             std::uint64_t blocks) {
  merklize::leaf_blocks want;
  want.order.resize(indices.size());
  std::iota(want.order.begin(), want.order.end(), 0);
  std::stable_sort(want.order.begin(), want.order.end(), [&](std::uint64_t a, std::uint64_t b) {
    return (indices[a] >> height) < (indices[b] >> height);
  });
  for (std::uint64_t b = 0; b <= blocks; ++b)
    want.starts.push_back(std::uint64_t(
        std::count_if(indices.begin(), indices.end(), [&](auto i) { return (i >> height) < b; })));
  return want;
}

} // namespace

TEST_CASE("a batch grouped by block: the header's example", "[leaf_blocks]") {
  const std::vector<std::uint64_t> indices = {9, 1, 4, 2, 9};
  merklize::leaf_blocks b;
  CHECK(merklize::group_by_block(b, indices.data(), indices.size(), 10, 2, 1, reversed));
  CHECK(b.order == std::vector<std::uint64_t>{1, 3, 2, 0, 4});
  CHECK(b.starts == std::vector<std::uint64_t>{0, 2, 3, 5});
}

TEST_CASE("batches grouped by block equal a stable sort by block", "[leaf_blocks]") {
  std::mt19937_64 random(31);
  merklize::leaf_blocks got; // reused from case to case, as host_updater reuses its own
  for (const std::uint64_t leaves : {1u, 2u, 3u, 63u, 64u, 65u, 1000u, 4097u})
    for (const unsigned height : {0u, 1u, 3u, 6u, 13u}) {
      const std::uint64_t blocks = ((leaves - 1) >> height) + 1;
      for (const std::uint64_t count : {0u, 1u, 7u, 100u, 5000u})
        for (const bool one_block : {false, true})
          for (const unsigned slices : {1u, 2u, 3u, 16u}) {
            INFO(leaves << " leaves, blocks of 2^" << height << ", " << count << " updates"
                        << (one_block ? " in the last block" : "") << ", " << slices << " slices");
            std::vector<std::uint64_t> indices(count);
            const std::uint64_t low = one_block ? (blocks - 1) << height : 0;
            for (auto &i : indices) // repeats: more updates than leaves at small sizes
              i = low + random() % (leaves - low);
            REQUIRE(merklize::group_by_block(got, indices.data(), count, leaves, height, slices,
                                             reversed));
            const merklize::leaf_blocks want = oracle(indices, height, blocks);
            CHECK(got.order == want.order);
            CHECK(got.starts == want.starts);
          }
    }
}

TEST_CASE("an index outside the tree stops the grouping", "[leaf_blocks]") {
  merklize::leaf_blocks b;
  for (const unsigned slices : {1u, 2u, 5u})
    for (const std::size_t at : {0u, 3u, 9u}) { // the bad index first, inside, last
      INFO(slices << " slices, the bad index at " << at);
      std::vector<std::uint64_t> indices(10, 2);
      indices[at] = 100; // a tree of 100 leaves: 0..99
      CHECK_FALSE(merklize::group_by_block(b, indices.data(), 10, 100, 3, slices, reversed));
      indices[at] = 99;
      CHECK(merklize::group_by_block(b, indices.data(), 10, 100, 3, slices, reversed));
      CHECK(b.starts.back() == 10);
    }
}
