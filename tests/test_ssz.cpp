// SPDX-License-Identifier: Apache-2.0 OR MIT
// SSZ lists on the host: mix_in_length, the empty list's root, and proofs of list elements that
// carry the length chunk, checked with the consensus specs' is_valid_merkle_branch written out
// here, hostile ones rejected, and their encodings. Built without OpenCL and sanitized
// (merklize_proof_host_tests); remerkleable checks the same against an independent
// implementation (tests/oracles/ssz_oracle.py).
#include "proof_helpers.hpp"

#include <merklize/core/ssz.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;

// The consensus specs' is_valid_merkle_branch (phase 0), with SHA-256.
bool is_valid_merkle_branch(const digest &leaf, const std::vector<digest> &branch, unsigned depth,
                            std::uint64_t index, const digest &root) {
  if (branch.size() != depth) return false;
  digest value = leaf;
  for (unsigned i = 0; i < depth; ++i)
    value = (index >> i) & 1 ? merklize::sha256::hash_pair(branch[i], value)
                             : merklize::sha256::hash_pair(value, branch[i]);
  return value == root;
}

merklize::tree_options list_of(unsigned depth) {
  return {merklize::hash_kind::sha256, merklize::shape::zero, depth};
}

} // namespace

TEST_CASE("mix_in_length is SHA-256(root || length as 32 bytes little-endian)", "[ssz]") {
  const digest root = test::random_digest();
  std::uint8_t block[64] = {};
  std::copy(root.begin(), root.end(), block);
  block[32] = 0x05, block[33] = 0x04, block[34] = 0x03; // 0x030405
  CHECK(merklize::mix_in_length(root, 0x030405) == merklize::sha256::hash(block, 64));
  CHECK(merklize::length_chunk(0x030405)[2] == 0x03);
  CHECK(merklize::length_chunk(~std::uint64_t(0))[7] == 0xff);
  CHECK(merklize::length_chunk(~std::uint64_t(0))[8] == 0);
}

TEST_CASE("the empty List[Bytes32, 2^D]'s root is mix_in_length(Z_D, 0)", "[ssz]") {
  // List[Bytes32, 1] and List[Bytes32, 2^40], as remerkleable computes them.
  CHECK(merklize::to_hex(merklize::mix_in_length(*merklize::empty_tree_root(list_of(0)), 0)) ==
        "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b");
  CHECK(merklize::to_hex(merklize::mix_in_length(*merklize::empty_tree_root(list_of(40)), 0)) ==
        "ea569bcb4fbb2ed26d30e997d7337e7e12a43ac115793e9cbe25da401fcbb725");
}

TEST_CASE("list element proofs carry the length chunk: is_valid_merkle_branch at depth D + 1",
          "[ssz][proof]") {
  for (const std::uint64_t n : {1, 2, 3, 5, 8, 13})
    for (const unsigned extra : {0u, 1u, 4u}) {
      const unsigned depth = merklize::tree_layout(n).depth() + extra;
      const auto t = test::random_tree(n, list_of(depth));
      const std::uint64_t length = n + extra; // any length: packed elements have more than chunks
      const digest root = merklize::mix_in_length(t.root(), length);
      for (std::uint64_t i = 0; i < n; ++i) {
        INFO("n=" << n << " depth " << depth << " element " << i);
        const auto proof = merklize::mix_in_length(merklize::prove(t, i), length);
        REQUIRE(proof.siblings.size() == depth + 1);
        CHECK(proof.siblings.back() == merklize::length_chunk(length));
        CHECK(is_valid_merkle_branch(t.node(0, i), proof.siblings, depth + 1, i, root));
        CHECK(merklize::verify(proof, t.node(0, i), root, test::pinned(t)));
        CHECK_FALSE(merklize::verify(proof, t.node(0, i), t.root()));
        CHECK(merklize::inclusion_proof_from_json(merklize::to_json(proof)) == proof);
        CHECK(merklize::inclusion_proof_from_binary(merklize::to_binary(proof)) == proof);
      }
    }
}

TEST_CASE("hostile list element proofs are rejected with a reason", "[ssz][proof]") {
  const auto t = test::random_tree(6, list_of(5));
  const digest root = merklize::mix_in_length(t.root(), 6), leaf = t.node(0, 2);
  const auto good = merklize::mix_in_length(merklize::prove(t, 2), 6);
  REQUIRE(merklize::verify(good, leaf, root));
  auto p = good;
  p.siblings.back() = merklize::length_chunk(7);
  CHECK_THAT(merklize::verify(p, leaf, root).reason, Contains("length chunk"));
  p = good;
  p.mixed_length = 7;
  CHECK_THAT(merklize::verify(p, leaf, root).reason, Contains("length chunk"));
  p = good;
  p.siblings.pop_back();
  CHECK_THAT(merklize::verify(p, leaf, root).reason, Contains("truncated"));
  p.siblings.clear();
  CHECK_THAT(merklize::verify(p, leaf, root).reason, Contains("not even the length chunk"));
  p = good;
  p.siblings.push_back(root);
  CHECK_THAT(merklize::verify(p, leaf, root).reason, Contains("overlong"));
  p = good;
  p.options.hash = merklize::hash_kind::blake3;
  CHECK_THAT(merklize::verify(p, leaf, root).reason, Contains("only SSZ lists"));
  CHECK_THROWS_WITH(merklize::mix_in_length(good, 6), Contains("mixed in already"));
  CHECK_THROWS_WITH(merklize::mix_in_length(merklize::prove(test::random_tree(3, {}), 1), 3),
                    Contains("SSZ lists' roots"));
  const auto json = merklize::to_json(good);
  CHECK_THAT(json, Contains(",\"mixed_length\":6}"));
  CHECK(merklize::to_binary(good)[5] == 4); // the kind of a proof with a length mixed in
  const auto binary = merklize::to_binary(good);
  for (std::size_t cut = 0; cut < binary.size(); ++cut)
    CHECK_THROWS(merklize::inclusion_proof_from_binary(binary.data(), cut));
}
