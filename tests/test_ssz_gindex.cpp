// SPDX-License-Identifier: Apache-2.0 OR MIT
// SSZ proofs by generalized index on the host: the consensus specs' own example of a multiproof,
// concatenated indices, proofs of every node of small trees, and untrusted proofs refused before
// any hashing. remerkleable is the oracle of nested objects (tests/oracles/ssz_gindex_oracle.py).
#include <merklize/proofs/ssz_gindex.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
namespace ssz = merklize::ssz;

namespace {

std::vector<ssz::ssz_tree> chunks(std::uint64_t n) {
  std::vector<ssz::ssz_tree> out;
  for (std::uint64_t i = 0; i < n; ++i) {
    merklize::digest d{};
    d[0] = static_cast<std::uint8_t>(i + 1);
    out.push_back(ssz::ssz_tree::chunk(d));
  }
  return out;
}

} // namespace

TEST_CASE("generalized indices are the consensus specs'", "[ssz]") {
  // ssz/merkle-proofs.md: "the Merkle multiproof for positions 0, 1, 6 in an 8-node Merkle tree
  // (i.e. generalized indices 8, 9, 14)" needs 3 auxiliary nodes.
  CHECK(ssz::helper_indices({8, 9, 14}) == std::vector<ssz::gindex>{15, 6, 5});
  CHECK(ssz::branch_indices(14) == std::vector<ssz::gindex>{15, 6, 2});
  CHECK(ssz::helper_indices({14}) == ssz::branch_indices(14));
  CHECK(ssz::gindex_length(1) == 0);
  CHECK(ssz::gindex_length(UINT64_MAX) == 63);
  CHECK(ssz::concat_gindices(10, 256) == 2560);
  CHECK(ssz::concat_gindices(1, 7) == 7);
  CHECK_THROWS_WITH(ssz::gindex_length(0), Contains("names no node"));
  CHECK_THROWS_WITH(ssz::concat_gindices(1ull << 40, 1ull << 30), Contains("63 levels"));
}

TEST_CASE("proofs of every node of small vectors and lists verify", "[ssz]") {
  for (std::uint64_t n = 1; n <= 9; ++n) {
    const auto vector = ssz::ssz_tree::vector(chunks(n));
    const auto list = ssz::ssz_tree::list(chunks(n), 16);
    for (const auto *t : {&vector, &list}) {
      const unsigned depth = t == &list ? 5 : merklize::detail::ceil_log2(n);
      for (ssz::gindex g = 1; g < (ssz::gindex(2) << depth); ++g) {
        const unsigned length = ssz::gindex_length(g);
        if (t == &list && length >= 2 && (g >> (length - 1)) == 3) continue; // below the length
        const auto proof = ssz::prove_gindices(*t, {g});
        CHECK(ssz::verify_gindices(proof, t->root()));
        if (g > 1) // with its sibling: a multiproof
          CHECK(ssz::verify_gindices(ssz::prove_gindices(*t, {g, g ^ 1}), t->root()));
      }
    }
    // The list's root is SSZ's: the data root with its length mixed in.
    CHECK(list.root() == merklize::mix_in_length(list.node(2), n));
    CHECK(list.node(3) == merklize::length_chunk(n));
  }
  CHECK(ssz::ssz_tree::list({}, 0).root() == merklize::mix_in_length(merklize::digest{}, 0));
  CHECK_THROWS_WITH(ssz::ssz_tree::list(chunks(3), 2), Contains("past its limit"));
  CHECK_THROWS_WITH(ssz::ssz_tree::vector(chunks(2)).node(8), Contains("below"));
}

TEST_CASE("untrusted gindex proofs are refused with a reason", "[ssz]") {
  const auto t = ssz::ssz_tree::vector(chunks(8));
  const ssz::gindex_proof good = ssz::prove_gindices(t, {8, 9, 14});
  REQUIRE(ssz::verify_gindices(good, t.root()));
  auto bad = good;
  bad.helpers.pop_back();
  CHECK_THAT(ssz::verify_gindices(bad, t.root()).reason, Contains("truncated"));
  bad = good;
  bad.helpers.push_back({});
  CHECK_THAT(ssz::verify_gindices(bad, t.root()).reason, Contains("overlong"));
  bad = good;
  bad.indices = {8, 8, 14};
  CHECK_THAT(ssz::verify_gindices(bad, t.root()).reason, Contains("twice"));
  bad = good;
  bad.indices = {8, 4, 14};
  CHECK_THAT(ssz::verify_gindices(bad, t.root()).reason, Contains("on the path"));
  bad = good;
  bad.indices = {0, 9, 14};
  CHECK_THAT(ssz::verify_gindices(bad, t.root()).reason, Contains("names no node"));
  bad = good;
  bad.leaves.pop_back();
  CHECK_THAT(ssz::verify_gindices(bad, t.root()).reason, Contains("2 leaves for 3"));
  bad = good;
  bad.leaves[0][0] ^= 1;
  CHECK_THAT(ssz::verify_gindices(bad, t.root()).reason, Contains("leads to root"));
  CHECK_THAT(ssz::verify_gindices({}, t.root()).reason, Contains("proves no"));
}
