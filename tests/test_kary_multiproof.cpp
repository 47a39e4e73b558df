// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary multiproofs on the host (proofs/kary_multiproof.hpp), without a device: the planner's
// positions in a worked small tree of each shape; proofs over kary_levels of random trees (every
// k-ary hash, shapes promote and zero, arities 2, 4, 8 and 16, at 1, k - 1, k, k + 1, k^2 - 1
// and k^2 + 1 leaves; one leaf, the last, every leaf, random with repeats, none) that verify,
// and every single node tampered, a wrong leaf, a wrong root, a changed index list, too few or
// too many nodes or leaves that do not; a proof of one leaf holds kary_prove's siblings. Their
// JSON (kary_multiproof_encoding.hpp): round trips (sha256 and blake3, both shapes, arities 2, 4
// and 16, at 1, k + 1 and k^2 + 1 leaves) that decode to the same proof, encode to the same text
// and verify; hostile text refused naming the member; a node count checked against a shape of
// 2^64 - 1 leaves without the work or memory that shape would ask. Built without OpenCL,
// sanitized.
#include "host_helpers.hpp"
#include "kary_batches.hpp"

#include <merklize/proofs/kary_multiproof_encoding.hpp>

#include <catch2/catch.hpp>

#include <random>

#if defined(CL_VERSION_1_0)
#error "merklize/proofs/kary_multiproof_encoding.hpp must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;

namespace {

using merklize::digest;
using merklize::kary_options;

std::vector<digest> random_leaves(std::uint64_t n) {
  const auto bytes = test::random_bytes(n * merklize::node_bytes);
  std::vector<digest> leaves(n);
  std::memcpy(leaves.data(), bytes.data(), bytes.size());
  return leaves;
}

std::vector<std::pair<unsigned, std::uint64_t>>
positions_of(const kary_options &o, std::uint64_t n, const std::vector<std::uint64_t> &indices) {
  std::vector<std::pair<unsigned, std::uint64_t>> out;
  for (const auto &p : merklize::kary_multiproof_positions(o, n, indices))
    out.emplace_back(p.level, p.index);
  return out;
}

std::vector<digest> leaves_at(const std::vector<digest> &leaves,
                              const std::vector<std::uint64_t> &indices) {
  std::vector<digest> out;
  for (const std::uint64_t i : indices)
    out.push_back(leaves[i]);
  return out;
}

// Every way the proof `p` of `values` under `root` is made wrong verifies false.
void check_tampered(const merklize::kary_multiproof &p, const std::vector<digest> &values,
                    const digest &root) {
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    auto bad = p;
    bad.nodes[i][i % merklize::node_bytes] ^= 1;
    INFO("node " << i << " tampered");
    CHECK_FALSE(merklize::kary_verify_multi(bad, values, root));
  }
  digest wrong_root = root;
  wrong_root[31] ^= 0x80;
  CHECK_FALSE(merklize::kary_verify_multi(p, values, wrong_root));
  auto longer = p;
  longer.nodes.push_back(root);
  CHECK_FALSE(merklize::kary_verify_multi(longer, values, root));
  if (!p.nodes.empty()) {
    auto shorter = p;
    shorter.nodes.pop_back();
    CHECK_FALSE(merklize::kary_verify_multi(shorter, values, root));
  }
  auto no_leaves = p;
  no_leaves.leaf_count = 0;
  CHECK_FALSE(merklize::kary_verify_multi(no_leaves, values, root));
  if (values.empty()) return;
  auto wrong_values = values;
  wrong_values.back()[0] ^= 1;
  CHECK_FALSE(merklize::kary_verify_multi(p, wrong_values, root));
  auto fewer = values;
  fewer.pop_back();
  CHECK_FALSE(merklize::kary_verify_multi(p, fewer, root));
  auto past = p;
  past.indices.back() = p.leaf_count;
  CHECK_FALSE(merklize::kary_verify_multi(past, values, root));
  if (p.indices.size() > 1) {
    auto repeated = p, swapped = p;
    repeated.indices[1] = repeated.indices[0];
    std::swap(swapped.indices[0], swapped.indices[1]);
    CHECK_FALSE(merklize::kary_verify_multi(repeated, values, root));
    CHECK_FALSE(merklize::kary_verify_multi(swapped, values, root));
  }
  // Each index moved to a leaf the proof does not prove, the list kept strictly increasing.
  for (std::size_t i = 0; i < p.indices.size(); ++i) {
    const std::uint64_t low = i == 0 ? 0 : p.indices[i - 1] + 1;
    const std::uint64_t high = i + 1 == p.indices.size() ? p.leaf_count : p.indices[i + 1];
    for (std::uint64_t moved = low; moved < high; ++moved)
      if (moved != p.indices[i]) {
        auto bad = p;
        bad.indices[i] = moved;
        INFO("index " << p.indices[i] << " moved to " << moved);
        CHECK_FALSE(merklize::kary_verify_multi(bad, values, root));
        break;
      }
  }
}

std::string replaced(std::string text, const std::string &from, const std::string &to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("k-ary multiproof positions: worked trees of arity 4 and 6 leaves",
          "[kary][multiproof]") {
  using merklize::shape;
  // Levels of 6, 2 and 1 nodes. Leaves 1 and 4: the first group lacks 0, 2 and 3, the short
  // second group (4 and 5) lacks 5; both parents known, nothing more.
  const kary_options promote{merklize::hash_kind::sha256, 4, shape::promote};
  using positions = std::vector<std::pair<unsigned, std::uint64_t>>;
  CHECK(positions_of(promote, 6, {1, 4}) == positions{{0, 0}, {0, 2}, {0, 3}, {0, 5}});
  // Shape zero pads the short groups with zero-subtree roots, which the proof holds as
  // kary_proof does: leaves 6 and 7 of level 0, nodes 2 and 3 of level 1.
  const kary_options zero{merklize::hash_kind::sha256, 4, shape::zero};
  CHECK(positions_of(zero, 6, {1, 4}) ==
        positions{{0, 0}, {0, 2}, {0, 3}, {0, 5}, {0, 6}, {0, 7}, {1, 2}, {1, 3}});
  // Leaf 5 alone: its group, then the other parent.
  CHECK(positions_of(promote, 6, {5}) == positions{{0, 4}, {1, 0}});
  // Of 5 leaves (levels 5, 2, 1), leaf 4 is a lone last group that moves up under promote.
  CHECK(positions_of(promote, 5, {4}) == positions{{1, 0}});
  CHECK(positions_of(zero, 5, {4}) == positions{{0, 5}, {0, 6}, {0, 7}, {1, 0}, {1, 2}, {1, 3}});
  // Every leaf: nothing but shape zero's padding; no leaf: the root.
  CHECK(positions_of(promote, 6, {0, 1, 2, 3, 4, 5}).empty());
  CHECK(positions_of(zero, 6, {0, 1, 2, 3, 4, 5}) == positions{{0, 6}, {0, 7}, {1, 2}, {1, 3}});
  CHECK(positions_of(promote, 6, {}) == positions{{2, 0}});
  CHECK(positions_of(promote, 1, {0}).empty());
}

TEST_CASE("k-ary multiproof positions refuse bad indices", "[kary][multiproof]") {
  const kary_options o{merklize::hash_kind::sha256, 4, merklize::shape::promote};
  CHECK_THROWS_WITH(merklize::kary_multiproof_positions(o, 6, {6}),
                    Contains("leaf index 6 out of range"));
  CHECK_THROWS_WITH(merklize::kary_multiproof_positions(o, 6, {3, 3}),
                    Contains("strictly increasing: 3 follows 3"));
  CHECK_THROWS_WITH(merklize::kary_multiproof_positions(o, 6, {4, 1}),
                    Contains("strictly increasing: 1 follows 4"));
  CHECK_THROWS_WITH(merklize::kary_multiproof_positions(o, 0, {}), Contains("no leaves"));
  CHECK_THROWS_WITH(merklize::kary_multiproof_positions({merklize::hash_kind::sha256, 3}, 6, {}),
                    Contains("arity 3"));
  const auto levels = merklize::kary_levels(random_leaves(6), o);
  CHECK_THROWS_WITH(merklize::kary_prove_multi(levels, o, {2, 6}),
                    Contains("leaf index 6 out of range: the tree has 6 leaves"));
}

TEST_CASE("k-ary multiproofs verify, and every tampered one does not", "[kary][multiproof]") {
  std::mt19937_64 rng(31);
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3,
                    merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (unsigned k : {2u, 4u, 8u, 16u})
        for (const std::uint64_t n :
             std::vector<std::uint64_t>{1, k - 1u, k, k + 1u, k * k - 1u, k * k + 1u}) {
          const kary_options o{hash, k, pad};
          const auto leaves = random_leaves(n);
          const auto levels = merklize::kary_levels(leaves, o);
          const digest &root = levels.back().front();
          for (const auto &batch : test::kary_batches(n, rng)) {
            INFO(merklize::to_string(hash)
                 << " arity " << k << (pad == merklize::shape::zero ? " zero " : " promote ") << n
                 << " leaves, a batch of " << batch.size());
            const auto p = merklize::kary_prove_multi(levels, o, batch);
            const auto sorted = merklize::canonical_indices(batch, n);
            REQUIRE(p.indices == sorted);
            REQUIRE(p.leaf_count == n);
            CHECK(p.nodes.size() == merklize::kary_multiproof_positions(o, n, sorted).size());
            if (batch.empty()) CHECK(p.nodes == std::vector<digest>{root});
            const auto values = leaves_at(leaves, p.indices);
            CHECK(merklize::kary_verify_multi(p, values, root));
            check_tampered(p, values, root);
          }
        }
}

TEST_CASE("a k-ary multiproof of one leaf holds kary_prove's siblings", "[kary][multiproof]") {
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (unsigned k : {2u, 4u, 8u, 16u})
        for (const std::uint64_t n : std::vector<std::uint64_t>{1, k + 1u, k * k + 1u}) {
          const kary_options o{hash, k, pad};
          const auto leaves = random_leaves(n);
          const auto levels = merklize::kary_levels(leaves, o);
          for (std::uint64_t i = 0; i < n; ++i) {
            INFO(merklize::to_string(hash) << " arity " << k << ", leaf " << i << " of " << n);
            const auto single = merklize::kary_prove(levels, o, i);
            std::vector<digest> flat;
            for (const auto &level : single.siblings)
              flat.insert(flat.end(), level.begin(), level.end());
            CHECK(merklize::kary_prove_multi(levels, o, {i}).nodes == flat);
          }
        }
}

TEST_CASE("hostile k-ary multiproofs are refused, not hashed without end", "[kary][multiproof]") {
  // The last group of a level of 2^64 - 1 leaves starts at 2^64 - k: shape zero pads it past
  // 2^64 - 1, which the climb must count without wrapping (the last leaf: 3 members a level of
  // 32, or 2 in its short group under promote).
  const std::uint64_t n = ~std::uint64_t(0);
  const digest root{};
  for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
    const kary_options o{merklize::hash_kind::sha256, 4, pad};
    const std::vector<digest> leaves(2);
    merklize::kary_multiproof p{o, n, {n - 2, n - 1}, {}};
    CHECK_FALSE(merklize::kary_verify_multi(p, leaves, root));
    p.nodes.assign(200, digest{});
    CHECK_FALSE(merklize::kary_verify_multi(p, leaves, root));
    CHECK(merklize::kary_multiproof_positions(o, n, {n - 1}).size() ==
          (pad == merklize::shape::zero ? 3u * 32u : 2u + 3u * 31u));
  }
}

TEST_CASE("k-ary multiproofs in JSON: round trip", "[kary][multiproof][json]") {
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (unsigned k : {2u, 4u, 16u})
        for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(k) + 1, std::uint64_t(k) * k + 1}) {
          const kary_options o{hash, k, pad};
          const auto leaves = random_leaves(n);
          const auto levels = merklize::kary_levels(leaves, o);
          std::vector<std::uint64_t> every(n);
          for (std::uint64_t i = 0; i < n; ++i)
            every[i] = n - 1 - i;
          for (const auto &indices : std::vector<std::vector<std::uint64_t>>{
                   {0}, {n - 1}, every, {n / 2, 0, n / 2}, {}}) {
            const auto proof = merklize::kary_prove_multi(levels, o, indices);
            const std::string json = merklize::to_json(proof);
            CAPTURE(json);
            CHECK(merklize::is_kary_multiproof_json(json));
            CHECK_FALSE(merklize::is_kary_proof_json(json));
            const auto decoded = merklize::kary_multiproof_from_json(json);
            CHECK(decoded == proof);
            CHECK(merklize::to_json(decoded) == json);
            std::vector<digest> proven;
            for (const std::uint64_t i : decoded.indices)
              proven.push_back(leaves[i]);
            CHECK(merklize::kary_verify_multi(decoded, proven, levels.back().front()));
          }
        }
}

TEST_CASE("hostile k-ary multiproof JSON is refused, naming what is wrong",
          "[kary][multiproof][json]") {
  const kary_options o{merklize::hash_kind::sha256, 4, merklize::shape::zero};
  const auto levels = merklize::kary_levels(random_leaves(20), o);
  const std::string json = merklize::to_json(merklize::kary_prove_multi(levels, o, {6, 1}));
  REQUIRE(json.find("\"indices\":[1,6]") != std::string::npos);
  const auto refused = [&](const std::string &from, const std::string &to, const char *why) {
    CHECK_THROWS_WITH(merklize::kary_multiproof_from_json(replaced(json, from, to)), Contains(why));
  };
  refused("kary-multiproof", "kary-inclusion", "is not \"kary-multiproof\"");
  refused("[1,6]", "[6,1]", "\"indices\" are not strictly increasing: 1 follows 6");
  refused("[1,6]", "[1,1]", "not strictly increasing");
  refused("[1,6]", "[1,20]", "20 is not below the leaf count 20");
  refused("[1,6]", "[1,6,7]", "\"nodes\" holds");
  refused("[1,6]", "[]", "and 1 are the multiproof");
  refused("\"leaf_count\":20", "\"leaf_count\":0", "\"leaf_count\" is 0");
  refused("\"arity\":4", "\"arity\":3", "arity 3");
  refused("\"arity\":4", "\"arity\":256", "arity 0");
  refused("\"arity\":4", "\"arity\":\"4\"", "arity");
  refused("\"hash\":\"sha256\"", "\"hash\":\"sha256-keyed\"", "sha256-keyed");
  refused("\"nodes\":[\"", "\"nodes\":[\"zz", "nodes");
  refused("\"nodes\":[", "\"nodes\":[1,", "nodes");
  refused("\"nodes\":[", "\"nodes\":[\"" + std::string(64, '0') + "\",", "\"nodes\" holds");
  refused("\"kind\"", "\"extra\":1,\"kind\"", "unknown member \"extra\"");
  refused("\"pad\":\"zero\",", "\"pad\":\"zero\",\"pad\":\"zero\",", "\"pad\" given twice");
  refused("\"indices\":[1,6],", "", "no \"indices\"");
  CHECK_THROWS_WITH(merklize::kary_multiproof_from_json("[1]"), Contains("is not an object"));
}

TEST_CASE("a k-ary multiproof's node count is checked without the work its shape would ask",
          "[kary][multiproof][json]") {
  // 2^64 - 1 leaves at arity 128: 10,000 leaves 2^50 apart need ~127 nodes a level each, 10
  // levels; a text of one node is refused after one node past it is counted, not millions.
  const std::uint64_t n = ~std::uint64_t(0);
  std::string json = "{\"kind\":\"kary-multiproof\",\"arity\":128,\"hash\":\"blake3\",\"pad\":"
                     "\"zero\",\"leaf_count\":" +
                     std::to_string(n) + ",\"indices\":[";
  for (std::uint64_t i = 0; i < 10000; ++i)
    json += (i ? "," : "") + std::to_string(i << 50);
  json += "],\"nodes\":[\"" + std::string(64, 'a') + "\"]}";
  CHECK_THROWS_WITH(merklize::kary_multiproof_from_json(json),
                    Contains("\"nodes\" holds 1 nodes, and more are the multiproof"));
}
