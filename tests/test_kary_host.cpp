// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees on the host (kary.hpp), without a device: equal to merklize's binary trees for
// k = 2, worked small cases, and proofs that verify and untrusted ones that do not. Built without
// OpenCL, sanitized.
#include "host_helpers.hpp"

#include <merklize/core/kary.hpp>
#include <merklize/core/reference.hpp>
#include <merklize/proofs/kary_proof_encoding.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/core/kary.hpp must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;

namespace {

std::vector<merklize::digest> random_leaves(std::uint64_t n) {
  const auto bytes = test::random_bytes(n * merklize::node_bytes);
  std::vector<merklize::digest> leaves(n);
  std::memcpy(leaves.data(), bytes.data(), bytes.size());
  return leaves;
}

merklize::digest node_of(const merklize::kary_options &o, std::vector<merklize::digest> children) {
  return merklize::kary_node(o, children.data(), children.size());
}

} // namespace

TEST_CASE("k-ary trees of arity 2 are merklize's binary trees", "[kary]") {
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3,
                    merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (std::uint64_t n : {1u, 2u, 3u, 5u, 8u, 13u, 64u, 100u}) {
        const auto leaves = random_leaves(n);
        const auto binary = merklize::reference_tree(leaves.data(), n * merklize::node_bytes,
                                                     merklize::tree_options{hash, pad});
        const auto levels = merklize::kary_levels(leaves, {hash, 2, pad});
        INFO(merklize::to_string(hash) << " " << merklize::to_string(pad) << " n=" << n);
        REQUIRE(levels.size() == binary.depth() + 1);
        for (unsigned level = 0; level <= binary.depth(); ++level)
          CHECK(levels[level] == binary.level(level));
      }
}

TEST_CASE("k-ary trees: a short last group by shape, worked by hand", "[kary]") {
  const auto l = random_leaves(5);
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3}) {
    const merklize::kary_options promote{hash, 4, merklize::shape::promote};
    CHECK(merklize::kary_root(l, promote) ==
          node_of(promote, {node_of(promote, {l[0], l[1], l[2], l[3]}), l[4]}));
    const std::vector<merklize::digest> six(l.begin(), l.end());
    auto seven = six;
    seven.push_back(l[0]);
    CHECK(merklize::kary_root(seven, promote) ==
          node_of(promote,
                  {node_of(promote, {l[0], l[1], l[2], l[3]}), node_of(promote, {l[4], l[0]})}));
    const merklize::kary_options zero{hash, 4, merklize::shape::zero};
    const merklize::digest z0{};
    const auto z1 = node_of(zero, {z0, z0, z0, z0});
    CHECK(merklize::kary_root(l, zero) ==
          node_of(zero, {node_of(zero, {l[0], l[1], l[2], l[3]}), node_of(zero, {l[4], z0, z0, z0}),
                         z1, z1}));
  }
}

TEST_CASE("k-ary proofs verify, and untrusted ones that lie do not", "[kary]") {
  for (unsigned k : {2u, 4u, 16u, 128u})
    for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
      for (auto pad : {merklize::shape::promote, merklize::shape::zero})
        for (std::uint64_t n :
             {std::uint64_t(1), std::uint64_t(2), std::uint64_t(k) + 1, std::uint64_t(k) * k + 1}) {
          const merklize::kary_options o{hash, k, pad};
          const auto leaves = random_leaves(n);
          const auto levels = merklize::kary_levels(leaves, o);
          const auto root = levels.back().front();
          INFO("k=" << k << " " << merklize::to_string(hash) << " " << merklize::to_string(pad)
                    << " n=" << n);
          for (std::uint64_t i : {std::uint64_t(0), n / 2, n - 1}) {
            const auto proof = merklize::kary_prove(levels, o, i);
            for (const auto &level : proof.siblings)
              CHECK(level.size() <= k - 1);
            REQUIRE(merklize::kary_verify(proof, leaves[i], root));
            CHECK_FALSE(merklize::kary_verify(proof, random_leaves(1).front(), root));
            auto moved = proof;
            moved.index = (i + 1) % n;
            if (n > 1) CHECK_FALSE(merklize::kary_verify(moved, leaves[i], root));
            auto grown = proof;
            grown.leaf_count = n * k + 1;
            CHECK_FALSE(merklize::kary_verify(grown, leaves[i], root));
            for (std::size_t level = 0; level < proof.siblings.size(); ++level) {
              if (proof.siblings[level].empty()) continue;
              auto tampered = proof;
              tampered.siblings[level].back()[0] ^= 1;
              CHECK_FALSE(merklize::kary_verify(tampered, leaves[i], root));
              auto longer = proof;
              longer.siblings[level].push_back(merklize::digest{});
              CHECK_FALSE(merklize::kary_verify(longer, leaves[i], root));
            }
          }
        }
}

TEST_CASE("k-ary trees: bad arities, hashes and indices are refused", "[kary]") {
  const auto leaves = random_leaves(3);
  using merklize::hash_kind;
  CHECK_THROWS_WITH(merklize::kary_levels(leaves, {hash_kind::sha256, 3}), Contains("arity 3"));
  CHECK_THROWS_WITH(merklize::kary_levels(leaves, {hash_kind::sha256, 256}),
                    Contains("power of two from 2 to 128"));
  CHECK_THROWS_WITH(merklize::kary_levels(leaves, {hash_kind::blake3_parent, 4}),
                    Contains("blake3-parent"));
  CHECK_THROWS_WITH(merklize::kary_levels({}, {hash_kind::sha256, 4}), Contains("no leaves"));
  const auto levels = merklize::kary_levels(leaves, {hash_kind::sha256, 4});
  CHECK_THROWS_WITH(merklize::kary_prove(levels, {hash_kind::sha256, 4}, 3),
                    Contains("leaf index 3 out of range"));
}

TEST_CASE("k-ary proofs in JSON: round trip, and hostile text refused", "[kary]") {
  const merklize::kary_options o{merklize::hash_kind::blake3, 8, merklize::shape::zero};
  const auto leaves = random_leaves(70);
  const auto levels = merklize::kary_levels(leaves, o);
  const auto proof = merklize::kary_prove(levels, o, 69);
  const std::string json = merklize::to_json(proof);
  CHECK(merklize::is_kary_proof_json(json));
  CHECK_FALSE(merklize::is_kary_proof_json("{\"kind\":\"inclusion\"}"));
  CHECK_FALSE(merklize::is_kary_proof_json("not json"));
  const auto decoded = merklize::kary_proof_from_json(json);
  CHECK(merklize::to_json(decoded) == json);
  CHECK(merklize::kary_verify(decoded, leaves[69], levels.back().front()));
  const auto replaced = [&](const std::string &from, const std::string &to) {
    std::string text = json;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  CHECK_THROWS_WITH(merklize::kary_proof_from_json(replaced("\"arity\":8", "\"arity\":3")),
                    Contains("arity 3"));
  CHECK_THROWS_WITH(merklize::kary_proof_from_json(replaced("\"index\":69,", "")),
                    Contains("no \"index\""));
  CHECK_THROWS_WITH(
      merklize::kary_proof_from_json(replaced("\"index\":69", "\"index\":69,\"index\":1")),
      Contains("given twice"));
  CHECK_THROWS_WITH(merklize::kary_proof_from_json(replaced("\"index\"", "\"extra\"")),
                    Contains("unknown member \"extra\""));
  CHECK_THROWS_WITH(merklize::kary_proof_from_json(replaced("[[\"", "[[\"zz")),
                    Contains("not a hex digit"));
  CHECK_THROWS_WITH(merklize::kary_proof_from_json("[1]"), Contains("is not an object"));
}
