// SPDX-License-Identifier: Apache-2.0 OR MIT
// Sparse Merkle trees on the device (engine/sparse_tree.hpp) against the host reference
// (core/sparse.hpp, itself held to an independent Python model in test_sparse.cpp): the root
// after every batch and the proofs of present and absent keys, bit for bit, for the node hashes
// at depths 1 to 256; batches of none, one key, repeats (the last wins), deletions down to the
// empty tree, and batches around the work-group size. The tree poisons (0xA5) every node it
// allocates, so a branch the plan leaves out shows. And the refusals, which change nothing.
#include "block_helpers.hpp"
#include "sparse_helpers.hpp"

#include <merklize/engine/sparse_tree.hpp>

#include <catch2/catch.hpp>

#include <random>

using Catch::Matchers::Contains;
using merklize::digest;

namespace {

// The device's root and proofs equal the reference's after the batch.
void update_both(merklize::sparse_tree &t, merklize::sparse_reference &reference,
                 const std::vector<digest> &keys, const std::vector<digest> &values) {
  const digest expected = reference.update(keys, values);
  CHECK(t.update(keys, values) == expected);
  CHECK(t.root() == expected);
  CHECK(t.size() == reference.size());
  std::vector<digest> probes(keys.begin(), keys.begin() + std::min<std::size_t>(keys.size(), 3));
  probes.push_back(digest{}); // key zero: mostly absent
  for (const digest &key : probes) {
    const merklize::sparse_proof proof = t.prove(key);
    const merklize::sparse_proof want = reference.prove(key);
    CHECK(proof.value == want.value);
    CHECK(proof.siblings == want.siblings);
    CHECK(merklize::sparse_verify(t.options(), t.root(), proof));
    CHECK(t.value(key) == reference.value(key));
  }
  // Many keys' proofs at once (their branches read back together) equal one proof at a time.
  std::vector<digest> many(keys.begin(), keys.begin() + std::min<std::size_t>(keys.size(), 40));
  many.push_back(digest{});
  const std::vector<merklize::sparse_proof> proofs = t.prove(many);
  REQUIRE(proofs.size() == many.size());
  for (std::size_t k = 0; k < many.size(); ++k) {
    const merklize::sparse_proof want = reference.prove(many[k]);
    CHECK(proofs[k].key == many[k]);
    CHECK(proofs[k].value == want.value);
    CHECK(proofs[k].siblings == want.siblings);
  }
}

} // namespace

TEST_CASE("sparse trees on the device match the host reference, batch after batch",
          "[sparse][device]") {
  std::mt19937_64 rng(31);
  for (const auto hash : {merklize::hash_kind::blake3, merklize::hash_kind::sha256,
                          merklize::hash_kind::keccak256, merklize::hash_kind::rfc6962})
    for (const unsigned depth : {1u, 2u, 8u, 64u, 256u}) {
      INFO(merklize::to_string(hash) << " depth " << depth);
      const merklize::sparse_options options{hash, depth};
      merklize::sparse_tree t(test::hasher(), options);
      merklize::sparse_reference reference(options);
      CHECK(t.root() == reference.root()); // the empty tree
      const std::uint64_t pool = depth < 8 ? (1ull << depth) : 500;
      for (int batch = 0; batch < 12; ++batch) {
        std::vector<digest> keys, values;
        const std::uint64_t size = batch == 2 ? 0 : batch == 5 ? 300 : rng() % 40;
        for (std::uint64_t k = 0; k < size; ++k) {
          keys.push_back(test::pooled_key(depth, pool, rng));
          values.push_back(batch % 4 == 3 && rng() % 4 ? digest{} : test::random_digest(rng));
        }
        update_both(t, reference, keys, values);
      }
    }
}

TEST_CASE("sparse trees on the device: one key, the work-group size +-1, back to empty",
          "[sparse][device]") {
  std::mt19937_64 rng(5);
  const merklize::sparse_options options{merklize::hash_kind::sha256, 256};
  merklize::sparse_tree t(test::hasher(), options);
  merklize::sparse_reference reference(options);
  std::vector<digest> all;
  for (const std::uint64_t size : {1u, 255u, 256u, 257u, 1000u}) {
    INFO("batch of " << size);
    std::vector<digest> keys, values;
    for (std::uint64_t k = 0; k < size; ++k) {
      keys.push_back(test::random_digest(rng));
      values.push_back(test::random_digest(rng));
    }
    keys.push_back(keys.front()); // a repeat: the last value wins
    values.push_back(test::random_digest(rng));
    all.insert(all.end(), keys.begin(), keys.end());
    update_both(t, reference, keys, values);
  }
  update_both(t, reference, all, std::vector<digest>(all.size())); // every key deleted
  CHECK(t.size() == 0);
  CHECK(t.root() == merklize::sparse_reference(options).root());
}

TEST_CASE("sparse trees on the device refuse bad batches whole, naming them", "[sparse][device]") {
  std::mt19937_64 rng(9);
  merklize::sparse_tree t(test::hasher(), {merklize::hash_kind::blake3, 16});
  const digest key = test::pooled_key(16, 1, rng), value = test::random_digest(rng);
  t.update({key}, {value});
  const digest root = t.root();
  digest big{};
  big[0] = 0x80; // bit 255
  CHECK_THROWS_WITH(t.update({key, big}, {digest{}, value}),
                    Contains("has bit 255 set") && Contains("below 2^16"));
  CHECK_THROWS_WITH(t.update({key}, {}), Contains("1 keys but 0 values"));
  CHECK(t.root() == root);
  CHECK(t.size() == 1);
  CHECK(t.value(key) == value);
  CHECK_THROWS_WITH(t.prove(big), Contains("has bit 255 set"));
  CHECK_THROWS_WITH(merklize::sparse_tree(test::hasher(), {merklize::hash_kind::blake3, 300}),
                    Contains("1 to 256"));
}
