// SPDX-License-Identifier: Apache-2.0 OR MIT
// Consistency proofs and the rfc6962 node rule on the host: the published RFC 6962 test vectors,
// RFC 9162's recursive PROOF(m, D[n]) written out here against the prover, verification of every
// proof of small trees, hostile proofs rejected with reasons before any hashing, and the
// encodings. Built without OpenCL and sanitized (merklize_proof_host_tests).
#include "proof_helpers.hpp"

#include <merklize/core/entries.hpp>

#include <catch2/catch.hpp>

#include <string>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;

digest dh(const std::string &hex) { return merklize::digest_from_hex(hex); }

// The test vectors of Google's certificate-transparency C++ log (merkle_tree_test.cc), as
// transparency-dev/merkle carries them in proof/verify_test.go: eight entries, the roots of the
// trees of their first 1..8, audit paths (leaf numbers from 1) and consistency proofs. Only the
// numbers are copied.
const std::vector<std::vector<std::uint8_t>> ct_entries = {
    {},
    {0x00},
    {0x10},
    {0x20, 0x21},
    {0x30, 0x31},
    {0x40, 0x41, 0x42, 0x43},
    {0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57},
    {0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e,
     0x6f}};

const char *const ct_roots[] = {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                                "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
                                "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
                                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                                "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
                                "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
                                "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
                                "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};

struct ct_path {
  std::uint64_t leaf, size; // leaf from 1
  std::vector<const char *> nodes;
};

const ct_path ct_audit_paths[] = {
    {1, 1, {}},
    {1,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {6,
     8,
     {"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {3, 3, {"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"}},
    {2,
     5,
     {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
};

const ct_path ct_consistency_proofs[] = {
    // leaf: the old size
    {1, 1, {}},
    {1,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {6,
     8,
     {"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {2,
     5,
     {"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
    {6,
     7,
     {"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
};

std::vector<digest> digests(const std::vector<const char *> &hex) {
  std::vector<digest> out;
  for (const char *h : hex)
    out.push_back(dh(h));
  return out;
}

// The RFC 6962 tree of the first n CT entries.
merklize::tree ct_tree(std::uint64_t n) {
  std::vector<digest> leaves;
  for (std::uint64_t i = 0; i < n; ++i)
    leaves.push_back(merklize::rfc6962_leaf_hash(ct_entries[i].data(), ct_entries[i].size()));
  return merklize::reference_tree(leaves.data(), n * 32, {merklize::hash_kind::rfc6962});
}

// RFC 9162 2.1.4.1, recursively, over the host reference's subtrees: MTH(D[first:first+n]).
digest mth(const std::vector<digest> &leaves, std::uint64_t first, std::uint64_t n,
           merklize::hash_kind hash) {
  const auto t = merklize::reference_tree(leaves.data() + first, n * 32, {hash});
  return t.root();
}

std::vector<digest> subproof(const std::vector<digest> &leaves, std::uint64_t m,
                             std::uint64_t first, std::uint64_t n, bool whole,
                             merklize::hash_kind hash) {
  if (m == n)
    return whole ? std::vector<digest>{} : std::vector<digest>{mth(leaves, first, n, hash)};
  std::uint64_t k = 1;
  while (k < n - k)
    k *= 2;
  std::vector<digest> proof;
  if (m <= k) {
    proof = subproof(leaves, m, first, k, whole, hash);
    proof.push_back(mth(leaves, first + k, n - k, hash));
  } else {
    proof = subproof(leaves, m - k, first + k, n - k, false, hash);
    proof.push_back(mth(leaves, first, k, hash));
  }
  return proof;
}

const merklize::hash_kind consistency_hashes[] = {
    merklize::hash_kind::rfc6962, merklize::hash_kind::sha256, merklize::hash_kind::blake3,
    merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256};

} // namespace

TEST_CASE("rfc6962: the published CT roots, audit paths and consistency proofs", "[rfc6962]") {
  for (std::uint64_t n = 1; n <= 8; ++n) {
    INFO("tree of " << n << " entries");
    CHECK(merklize::to_hex(ct_tree(n).root()) == ct_roots[n - 1]);
  }
  CHECK(merklize::to_hex(*merklize::empty_tree_root({merklize::hash_kind::rfc6962})) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  for (const ct_path &v : ct_audit_paths) {
    INFO("leaf " << v.leaf << " of " << v.size);
    const auto t = ct_tree(v.size);
    const auto proof = merklize::prove(t, v.leaf - 1);
    CHECK(proof.siblings == digests(v.nodes));
    CHECK(merklize::verify(proof, t.node(0, v.leaf - 1), dh(ct_roots[v.size - 1])));
  }
  for (const ct_path &v : ct_consistency_proofs) {
    INFO(v.leaf << " -> " << v.size);
    const auto proof = merklize::prove_consistency(ct_tree(v.size), v.leaf);
    CHECK(proof.nodes == digests(v.nodes));
    CHECK(merklize::verify_consistency(v.leaf, v.size, dh(ct_roots[v.leaf - 1]),
                                       dh(ct_roots[v.size - 1]), proof));
  }
}

TEST_CASE("rfc6962's node is SHA-256(0x01 || l || r), its leaf SHA-256(0x00 || entry)",
          "[rfc6962]") {
  const digest l = test::random_digest(), r = test::random_digest();
  merklize::sha256::hasher h;
  const std::uint8_t one = 1;
  h.update(&one, 1).update(l.data(), 32).update(r.data(), 32);
  CHECK(merklize::node_hash(merklize::hash_kind::rfc6962, l, r, false) == h.finalize());
  CHECK(merklize::parse_hash_kind("rfc6962") == merklize::hash_kind::rfc6962);
  CHECK(std::string(merklize::to_string(merklize::hash_kind::rfc6962)) == "rfc6962");
  const std::uint8_t entry[] = {0x00, 'a', 'b'}; // the prefix, then the entry "ab"
  CHECK(merklize::rfc6962_leaf_hash(entry + 1, 2) == merklize::sha256::hash(entry, 3));
}

TEST_CASE("rfc6962 refuses shape zero and fixed depths, in trees and proofs", "[rfc6962]") {
  CHECK_THROWS_WITH(
      merklize::tree(3, {merklize::hash_kind::rfc6962, merklize::shape::zero}).root_depth(),
      Contains("rfc6962 has shape promote only"));
  CHECK_THROWS_WITH(
      merklize::empty_tree_root({merklize::hash_kind::rfc6962, merklize::shape::zero}),
      Contains("rfc6962 has shape promote only"));
  auto proof = merklize::prove(test::random_tree(5, {merklize::hash_kind::rfc6962}), 4);
  const auto t = test::random_tree(5, {merklize::hash_kind::rfc6962});
  proof.options.shape = merklize::shape::zero;
  CHECK_THAT(merklize::verify(proof, t.node(0, 4), t.root()).reason,
             Contains("rfc6962 with shape zero"));
}

TEST_CASE("empty trees: rfc6962's SHA-256(\"\"), shape zero's Z_D, nothing for the rest",
          "[rfc6962][ssz]") {
  const auto zeros = merklize::zero_subtree_roots(merklize::hash_kind::sha256, 40);
  for (unsigned d : {0u, 1u, 5u, 40u})
    CHECK(*merklize::empty_tree_root({merklize::hash_kind::sha256, merklize::shape::zero, d}) ==
          zeros[d]);
  CHECK(!merklize::empty_tree_root({merklize::hash_kind::sha256, merklize::shape::zero}));
  CHECK(!merklize::empty_tree_root({merklize::hash_kind::blake3}));
  // blake3-parent flags its root: Z_D computed as a root, not as an inner node.
  const auto parent_zeros = merklize::zero_subtree_roots(merklize::hash_kind::blake3_parent, 3);
  CHECK(
      *merklize::empty_tree_root({merklize::hash_kind::blake3_parent, merklize::shape::zero, 3}) ==
      merklize::node_hash(merklize::hash_kind::blake3_parent, parent_zeros[2], parent_zeros[2],
                          true));
}

TEST_CASE("consistency proofs are RFC 9162's PROOF(m, D[n]) and verify, for every m <= n <= 40",
          "[consistency]") {
  for (const auto hash : consistency_hashes) {
    const auto leaf_bytes = test::random_bytes(40 * 32);
    std::vector<digest> leaves(40);
    std::memcpy(leaves.data(), leaf_bytes.data(), leaf_bytes.size());
    for (std::uint64_t n = 1; n <= 40; ++n) {
      const auto t = merklize::reference_tree(leaves.data(), n * 32, {hash});
      for (std::uint64_t m = 0; m <= n; ++m) {
        INFO(merklize::to_string(hash) << " " << m << " -> " << n);
        const auto proof = merklize::prove_consistency(t, m);
        const std::vector<digest> expected =
            m == 0 || m == n ? std::vector<digest>{} : subproof(leaves, m, 0, n, true, hash);
        REQUIRE(proof.nodes == expected);
        const digest old_root =
            m ? mth(leaves, 0, m, hash) : merklize::empty_tree_root({hash}).value_or(digest{});
        CHECK(merklize::verify_consistency(m, n, old_root, t.root(), proof).valid ==
              (m > 0 || hash == merklize::hash_kind::rfc6962));
        CHECK(merklize::consistency_proof_from_json(merklize::to_json(proof)) == proof);
        CHECK(merklize::consistency_proof_from_binary(merklize::to_binary(proof)) == proof);
      }
    }
  }
}

TEST_CASE("hostile consistency proofs are rejected with a reason, structure before hashing",
          "[consistency]") {
  const auto big = test::random_tree(77, {merklize::hash_kind::rfc6962});
  const auto small = test::random_tree(1, {merklize::hash_kind::rfc6962});
  const std::vector<digest> leaves = big.level(0);
  const std::uint64_t m = 21, n = 77;
  const digest old_root = mth(leaves, 0, m, merklize::hash_kind::rfc6962), new_root = big.root();
  const auto good = merklize::prove_consistency(big, m);
  REQUIRE(merklize::verify_consistency(m, n, old_root, new_root, good));
  const auto reason = [&](const merklize::consistency_proof &p, std::uint64_t old_size = 21,
                          std::uint64_t new_size = 77, digest o = {}, digest r = {}) {
    return merklize::verify_consistency(old_size, new_size, o == digest{} ? old_root : o,
                                        r == digest{} ? new_root : r, p)
        .reason;
  };
  auto p = good;
  p.nodes.pop_back();
  CHECK_THAT(reason(p), Contains("truncated"));
  p = good;
  p.nodes.push_back(new_root);
  CHECK_THAT(reason(p), Contains("overlong"));
  p = good;
  p.nodes.insert(p.nodes.begin(), old_root);
  CHECK_THAT(reason(p), Contains("overlong"));
  for (std::size_t i = 0; i < good.nodes.size(); ++i) {
    p = good;
    p.nodes[i][0] ^= 16;
    CHECK_THAT(reason(p), Contains("leads to"));
  }
  CHECK_THAT(reason(good, 22, 77), Contains("not 22 and 77"));
  CHECK_THAT(reason(good, 21, 78), Contains("not 21 and 78"));
  CHECK_THAT(reason(good, 21, 77, new_root, old_root), Contains("leads to old root"));
  CHECK_THAT(reason(good, 21, 77, old_root, old_root), Contains("leads to new root"));
  p = good;
  p.old_size = 78, p.new_size = 77;
  CHECK_THAT(reason(p, 78, 77), Contains("more than the new size"));
  p = good;
  p.options.hash = merklize::hash_kind::blake3_parent;
  CHECK_THAT(reason(p), Contains("blake3-parent has no consistency proofs"));
  p = good;
  p.options.shape = merklize::shape::zero;
  CHECK_THAT(reason(p), Contains("shape promote"));
  merklize::proof_expectations sha256_only;
  sha256_only.hash = merklize::hash_kind::sha256;
  CHECK_THAT(merklize::verify_consistency(21, 77, old_root, new_root, good, sha256_only).reason,
             Contains("not sha256"));
  // Equal sizes need equal roots; size 0 needs the empty root.
  merklize::consistency_proof same{{merklize::hash_kind::rfc6962}, 1, 1, {}};
  CHECK(merklize::verify_consistency(1, 1, small.root(), small.root(), same));
  CHECK_THAT(merklize::verify_consistency(1, 1, small.root(), new_root, same).reason,
             Contains("different roots"));
  merklize::consistency_proof from_empty{{merklize::hash_kind::rfc6962}, 0, 77, {}};
  const digest empty = *merklize::empty_tree_root({merklize::hash_kind::rfc6962});
  CHECK(merklize::verify_consistency(0, 77, empty, new_root, from_empty));
  CHECK_THAT(merklize::verify_consistency(0, 77, old_root, new_root, from_empty).reason,
             Contains("not the empty tree's"));
  from_empty.options.hash = merklize::hash_kind::blake3;
  CHECK_THAT(merklize::verify_consistency(0, 77, empty, new_root, from_empty).reason,
             Contains("no root with hash blake3"));
}

TEST_CASE("consistency proofs: the provers' refusals", "[consistency]") {
  const auto t = test::random_tree(9, {merklize::hash_kind::sha256});
  CHECK_THROWS_WITH(merklize::prove_consistency(t, 10), Contains("old size 10 is more than"));
  CHECK_THROWS_WITH(
      merklize::prove_consistency(test::random_tree(9, {merklize::hash_kind::blake3_parent}), 3),
      Contains("blake3-parent has no consistency proofs"));
  CHECK_THROWS_WITH(
      merklize::prove_consistency(
          test::random_tree(9, {merklize::hash_kind::sha256, merklize::shape::zero}), 3),
      Contains("shape promote"));
  // Sizes near 2^64 plan in 64 steps, without overflow: from 1 leaf, a sibling on every level
  // of the left edge; from the whole left half, its one right sibling.
  const std::uint64_t huge = ~std::uint64_t(0);
  CHECK(merklize::consistency_positions(huge - 1, huge).size() <= 128);
  CHECK(merklize::consistency_positions(1, huge).size() == 64);
  const auto half = merklize::consistency_positions(std::uint64_t(1) << 63, huge);
  REQUIRE(half.size() == 1);
  CHECK(half.front().level == 63);
  CHECK(half.front().index == 1);
}

TEST_CASE("consistency proofs decode from untrusted bytes with reasons", "[consistency]") {
  const auto proof =
      merklize::prove_consistency(test::random_tree(13, {merklize::hash_kind::rfc6962}), 5);
  const auto json = merklize::to_json(proof);
  CHECK_THAT(json, Contains("\"kind\":\"consistency\"") && Contains("\"old_size\":5") &&
                       Contains("\"leaf_count\":13"));
  auto binary = merklize::to_binary(proof);
  CHECK(binary[5] == 3); // the kind
  for (std::size_t cut = 0; cut < binary.size(); ++cut)
    CHECK_THROWS_WITH(merklize::consistency_proof_from_binary(binary.data(), cut),
                      Contains("binary proof"));
  CHECK_THROWS_WITH(
      merklize::consistency_proof_from_json(json.substr(0, json.find(",\"old_size\"")) + "}"),
      Contains("no \"old_size\""));
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(json), Contains("kind"));
  CHECK_THROWS_WITH(merklize::consistency_proof_from_binary(
                        merklize::to_binary(merklize::prove(test::random_tree(3, {}), 1))),
                    Contains("kind 1 where 3"));
}

TEST_CASE("entries split into lines or length-prefixed records, malformed ones refused",
          "[rfc6962][entries]") {
  const std::string text = "a\n\nbc\r\nlast";
  const auto *data = reinterpret_cast<const std::uint8_t *>(text.data());
  const auto lines = merklize::split_entries(data, text.size(), merklize::entry_framing::lines);
  REQUIRE(lines.size() == 4);
  CHECK((lines[0].first == 0 && lines[0].size == 1));
  CHECK(lines[1].size == 0);
  CHECK((lines[2].first == 3 && lines[2].size == 3)); // "bc\r"
  CHECK((lines[3].first == 7 && lines[3].size == 4));
  CHECK(merklize::split_entries(data, 0, merklize::entry_framing::lines).empty());
  const std::vector<std::uint8_t> framed = {0, 0, 0, 2, 'h', 'i', 0, 0, 0, 0};
  const auto records = merklize::split_entries(framed.data(), framed.size(),
                                               merklize::entry_framing::length_prefixed);
  REQUIRE(records.size() == 2);
  CHECK((records[0].first == 4 && records[0].size == 2 && records[1].size == 0));
  CHECK_THROWS_WITH(
      merklize::split_entries(framed.data(), 5, merklize::entry_framing::length_prefixed, "f"),
      Contains("f: the entry at offset 0 says 2 bytes, only 1 follow"));
  CHECK_THROWS_WITH(
      merklize::split_entries(framed.data(), 8, merklize::entry_framing::length_prefixed, "f"),
      Contains("2 bytes at offset 6 where a 4-byte entry length"));
  CHECK_THROWS_WITH(merklize::parse_entry_framing("csv"), Contains("unknown entry framing"));
}
