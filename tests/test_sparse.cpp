// SPDX-License-Identifier: Apache-2.0 OR MIT
// The sparse Merkle tree's host reference (core/sparse.hpp) against two oracles it did not write:
// tests/sparse_model.py (Python's hashlib, a level at a time over non-empty nodes) on batches
// with repeats and deletions, at depths 1, 8, 64 and 256; and, at small depths, the dense tree of
// 2^depth leaves (reference_tree, shape zero) with each value at its key's index. Then proofs of
// present and absent keys, tampered proofs, and refusals that leave the tree as it was.
#include "sparse_helpers.hpp"
#include <merklize/core/reference.hpp>
#include <merklize/core/sparse.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/core/sparse.hpp must not pull in the OpenCL headers"
#endif

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>

using Catch::Matchers::Contains;
using merklize::digest;
using merklize::hash_kind;

namespace {

// Key `low` in its low 64 bits, random above, kept below 2^depth.
digest key_of(std::uint64_t low, unsigned depth, std::mt19937_64 &rng) {
  digest key = test::random_digest(rng);
  for (unsigned byte = 0; byte < 8; ++byte)
    key[31 - byte] = static_cast<std::uint8_t>(low >> (8 * byte));
  return test::below_depth(key, depth);
}

digest value_of(std::mt19937_64 &rng) { return test::random_digest(rng); }

struct batch {
  std::vector<digest> keys, values;
};

// Batches of random keys (from a small pool, so keys repeat and come back), a few values zero.
std::vector<batch> random_batches(unsigned depth, unsigned count, std::mt19937_64 &rng) {
  const std::uint64_t pool = depth < 6 ? (1ull << depth) : 40;
  std::vector<digest> keys;
  for (std::uint64_t k = 0; k < pool; ++k)
    keys.push_back(key_of(depth < 6 ? k : rng(), depth, rng));
  std::vector<batch> batches(count);
  for (batch &b : batches)
    for (std::uint64_t n = rng() % 12; n > 0; --n) {
      b.keys.push_back(keys[rng() % keys.size()]);
      b.values.push_back(rng() % 5 == 0 ? digest{} : value_of(rng));
    }
  return batches;
}

std::vector<std::string> model_roots(const char *hash, unsigned depth,
                                     const std::vector<batch> &batches) {
  const auto input = std::filesystem::temp_directory_path() /
                     ("merklize_sparse_model." + std::to_string(::getpid()) + ".in");
  std::ofstream out(input);
  out << hash << ' ' << depth << '\n';
  for (const batch &b : batches) {
    for (std::size_t k = 0; k < b.keys.size(); ++k)
      out << merklize::to_hex(b.keys[k]) << ' ' << merklize::to_hex(b.values[k]) << '\n';
    out << "end\n";
  }
  out.close();
  // popen rather than tests/process.hpp, whose helpers bring in OpenCL: these tests have none.
  const std::string command = "python3 '" + std::string(MERKLIZE_SOURCE_DIR) +
                              "/tests/sparse_model.py' '" + input.string() + "'";
  FILE *model = ::popen(command.c_str(), "r");
  REQUIRE(model != nullptr);
  std::vector<std::string> roots;
  char line[80];
  while (std::fgets(line, sizeof line, model))
    roots.emplace_back(line, std::min<std::size_t>(64, std::strlen(line)));
  CHECK(::pclose(model) == 0);
  std::filesystem::remove(input);
  return roots;
}

} // namespace

TEST_CASE("sparse trees agree with an independent Python model, batch after batch", "[sparse]") {
  const std::pair<hash_kind, const char *> hashes[] = {{hash_kind::sha256, "sha256"},
                                                       {hash_kind::sha3_256, "sha3-256"},
                                                       {hash_kind::rfc6962, "rfc6962"}};
  std::mt19937_64 rng(31);
  for (const auto &[hash, name] : hashes)
    for (const unsigned depth : {1u, 5u, 64u, 256u}) {
      INFO(name << " depth " << depth);
      const auto batches = random_batches(depth, 8, rng);
      const auto roots = model_roots(name, depth, {batch{}} /* the empty tree */);
      merklize::sparse_reference tree({hash, depth});
      CHECK(merklize::to_hex(tree.root()) == roots.at(0));
      const auto after = model_roots(name, depth, batches);
      REQUIRE(after.size() == batches.size());
      for (std::size_t b = 0; b < batches.size(); ++b)
        CHECK(merklize::to_hex(tree.update(batches[b].keys, batches[b].values)) == after[b]);
    }
}

TEST_CASE("a shallow sparse tree is the dense tree of 2^depth leaves", "[sparse]") {
  std::mt19937_64 rng(7);
  for (const hash_kind hash : {hash_kind::blake3, hash_kind::sha256, hash_kind::keccak256})
    for (const unsigned depth : {1u, 2u, 3u, 8u}) {
      INFO(merklize::to_string(hash) << " depth " << depth);
      merklize::sparse_reference tree({hash, depth});
      std::vector<digest> dense(std::size_t(1) << depth);
      auto check = [&] {
        const auto t = merklize::reference_tree(dense.data(), dense.size() * 32,
                                                {hash, merklize::shape::zero, depth});
        CHECK(tree.root() == t.root());
      };
      check(); // empty
      for (const batch &b : random_batches(depth, 6, rng)) {
        tree.update(b.keys, b.values);
        for (std::size_t k = 0; k < b.keys.size(); ++k)
          dense[b.keys[k][31] | std::size_t(b.keys[k][30]) << 8] = b.values[k];
        check();
      }
    }
}

TEST_CASE("sparse proofs show present and absent keys, and nothing else", "[sparse]") {
  std::mt19937_64 rng(11);
  for (const unsigned depth : {1u, 16u, 256u}) {
    INFO("depth " << depth);
    const merklize::sparse_options options{hash_kind::blake3, depth};
    merklize::sparse_reference tree(options);
    const auto batches = random_batches(depth, 4, rng);
    for (const batch &b : batches)
      tree.update(b.keys, b.values);
    std::vector<digest> keys = batches.back().keys;
    keys.push_back(key_of(rng(), depth, rng)); // most likely absent
    for (const digest &key : keys) {
      const merklize::sparse_proof proof = tree.prove(key);
      CHECK(proof.value == tree.value(key));
      CHECK(proof.proves_absence() == (tree.value(key) == digest{}));
      REQUIRE(proof.siblings.size() == depth);
      CHECK(merklize::sparse_verify(options, tree.root(), proof));
      merklize::sparse_proof lie = proof;
      lie.value[0] ^= 1;
      CHECK_FALSE(merklize::sparse_verify(options, tree.root(), lie));
      lie = proof;
      lie.siblings[rng() % depth][5] ^= 0x80;
      CHECK_FALSE(merklize::sparse_verify(options, tree.root(), lie));
      lie = proof;
      lie.siblings.pop_back();
      CHECK_THROWS_WITH(merklize::sparse_verify(options, tree.root(), lie),
                        Contains("siblings, this one " + std::to_string(depth - 1)));
    }
  }
}

TEST_CASE("sparse trees refuse bad input whole, naming it", "[sparse]") {
  CHECK_THROWS_WITH(merklize::sparse_reference({hash_kind::sha256, 0}), Contains("depth 0"));
  CHECK_THROWS_WITH(merklize::sparse_reference({hash_kind::sha256, 257}), Contains("1 to 256"));
  merklize::sparse_reference tree({hash_kind::sha256, 16});
  std::mt19937_64 rng(3);
  const digest good = key_of(5, 16, rng), value = value_of(rng);
  tree.update({good}, {value});
  const digest root = tree.root();
  digest big = good;
  big[29] = 1; // bit 16
  CHECK_THROWS_WITH(tree.update({good, big}, {digest{}, value}),
                    Contains("has bit 16 set") && Contains("below 2^16"));
  CHECK_THROWS_WITH(tree.update({good}, {}), Contains("1 keys but 0 values"));
  CHECK(tree.root() == root);
  CHECK(tree.size() == 1);
  CHECK(tree.value(good) == value); // the refused batch deleted nothing
  CHECK_THROWS_WITH(tree.prove(big), Contains("has bit 16 set"));
}
