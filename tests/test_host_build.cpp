// SPDX-License-Identifier: Apache-2.0 OR MIT
// Every level of a tree on the host engine (host_build.hpp) against the host reference's, level by
// level, at awkward leaf counts around a thread's share of pairs, on 1..3 threads, for each hash
// the host engine runs and both shapes; and its refusals.
#include "host_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/host_build.hpp>

#include <catch2/catch.hpp>

namespace {

using merklize::hash_kind;
using merklize::shape;
using merklize::tree_options;

constexpr std::uint64_t share = 2 * merklize::detail::host_pairs_a_thread; // leaves a thread

} // namespace

TEST_CASE("host engine: every level of a tree equals the host reference's", "[host][build]") {
  const std::uint64_t n = GENERATE_COPY(1, 2, 3, 4, 5, 7, 8, 9, share - 1, share, share + 1,
                                        2 * share - 1, 2 * share + 1, 3 * share + 5);
  const auto leaves = test::random_bytes(32 * n);
  for (const tree_options options :
       {tree_options{hash_kind::sha256}, tree_options{hash_kind::sha256, shape::zero},
        tree_options{hash_kind::sha256, shape::zero, 20}, tree_options{hash_kind::rfc6962},
        tree_options{hash_kind::blake3}, tree_options{hash_kind::keccak256, shape::zero}}) {
    INFO(n << " leaves, " << merklize::to_string(options.hash) << " "
           << merklize::to_string(options.shape) << (options.depth ? " depth 20" : ""));
    const merklize::tree want = merklize::reference_tree(leaves.data(), leaves.size(), options);
    for (const unsigned threads : {1u, 2u, 3u}) {
      const merklize::tree got =
          merklize::host_build(leaves.data(), leaves.size(), options, threads);
      REQUIRE(got == want);
      CHECK(got.root() == want.root());
    }
  }
}

TEST_CASE("host engine: a tree of no leaves, a partial leaf, a short depth or another hash is "
          "refused",
          "[host][build]") {
  const auto leaves = test::random_bytes(32 * 5);
  CHECK_THROWS_WITH(merklize::host_build(leaves.data(), 0, tree_options{hash_kind::sha256}),
                    Catch::Contains("no leaves"));
  CHECK_THROWS_WITH(merklize::host_build(leaves.data(), 33, tree_options{hash_kind::sha256}),
                    Catch::Contains("not a multiple of 32"));
  CHECK_THROWS_WITH(merklize::host_build(leaves.data(), leaves.size(),
                                         tree_options{hash_kind::sha256, shape::zero, 2}),
                    Catch::Contains("cannot hold 5 leaves"));
  CHECK_THROWS_WITH(
      merklize::host_build(leaves.data(), leaves.size(), tree_options{hash_kind::blake3_parent}),
      Catch::Contains("not blake3-parent"));
}
