// SPDX-License-Identifier: Apache-2.0 OR MIT
// Multiproofs whose claims do not fit their tree are rejected from their structure before any
// hashing, so a hostile count costs work in proportion to the proof's size, not to what it
// claims. detail::multiproof_hashes counts the hashes verify() computes. Host-only, run under
// AddressSanitizer and UBSan.
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
using merklize::detail::multiproof_hashes;

namespace {

// A multiproof of `count` leaves, `stride` apart from `first`, in a tree of 2^64 - 1 leaves,
// holding `nodes` nodes.
merklize::multiproof spread_multiproof(std::uint64_t count, std::uint64_t first,
                                       std::uint64_t stride, std::size_t nodes) {
  merklize::multiproof proof;
  proof.leaf_count = UINT64_MAX;
  for (std::uint64_t k = 0; k < count; ++k)
    proof.indices.push_back(first + k * stride);
  proof.nodes.resize(nodes);
  return proof;
}

} // namespace

TEST_CASE("a million indices with too few nodes are rejected without hashing",
          "[proof][multiproof][hostile]") {
  // Far apart, each index needs a node at every one of the 64 levels; side by side, they pair
  // up for 20 levels and need a node on each of the 44 above.
  for (const std::uint64_t stride : {std::uint64_t(1) << 40, std::uint64_t(1)}) {
    INFO("indices " << stride << " apart");
    const auto proof = spread_multiproof(1000000, 12345, stride, 40);
    const std::vector<merklize::digest> leaves(proof.indices.size());
    const std::uint64_t hashes = multiproof_hashes;
    const auto verdict = merklize::verify(proof, leaves, merklize::digest{});
    CHECK(!verdict);
    CHECK_THAT(verdict.reason, Contains("holds 40 nodes, the tree needs more (truncated)"));
    CHECK(multiproof_hashes == hashes);
  }
}

TEST_CASE("an 8 MB binary multiproof of a million indices is refused without hashing",
          "[proof][multiproof][hostile]") {
  const auto bytes = merklize::to_binary(spread_multiproof(1000000, 0, 2, 0));
  CHECK(bytes.size() > 8000000);
  const auto proof = merklize::multiproof_from_binary(bytes);
  const std::uint64_t hashes = multiproof_hashes;
  const auto verdict =
      merklize::verify(proof, std::vector<merklize::digest>(proof.indices.size()), {});
  CHECK_THAT(verdict.reason, Contains("holds 0 nodes, the tree needs more (truncated)"));
  CHECK(multiproof_hashes == hashes);
}

TEST_CASE("indices and node counts that do not fit are refused before hashing",
          "[proof][multiproof][hostile]") {
  const auto t = test::random_tree(100, {merklize::hash_kind::sha256, merklize::shape::zero});
  const auto good = merklize::prove_multi(t, {3, 50, 99});
  const auto leaves = test::leaves_at(t, good.indices);
  struct bad {
    merklize::multiproof proof;
    std::string reason;
  };
  std::vector<bad> cases;
  cases.push_back({good, "(overlong)"});
  cases.back().proof.nodes.resize(good.nodes.size() + 1000000);
  cases.push_back({good, "the tree needs more (truncated)"});
  cases.back().proof.nodes.pop_back();
  cases.push_back({good, "leaf index 100 out of range"});
  cases.back().proof.indices.back() = 100;
  cases.push_back({good, "not strictly increasing at position 2"});
  cases.back().proof.indices.back() = 50;
  for (const auto &c : cases) {
    const std::uint64_t hashes = multiproof_hashes;
    const auto verdict = merklize::verify(c.proof, leaves, t.root());
    CHECK_THAT(verdict.reason, Contains(c.reason));
    CHECK(multiproof_hashes == hashes);
  }
  // The count of what a valid proof needs is exact, and the hashes are counted.
  const std::uint64_t hashes = multiproof_hashes;
  CHECK(merklize::verify(good, leaves, t.root()));
  CHECK(multiproof_hashes > hashes);
}
