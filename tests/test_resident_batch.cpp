// SPDX-License-Identifier: Apache-2.0 OR MIT
// Update batches filled in place in page-locked memory (resident_batch.hpp): the tree after each
// batch against the host reference rebuilt over the host's copy, and bit for bit against a twin
// tree updated from ordinary memory; batches of one leaf, the last leaf, every leaf, repeats (the
// last value wins), a count below the capacity, one batch reused call after call. The refusals
// (an index outside the tree, a count past the capacity, a batch of another context, no batch)
// change nothing.
#include "block_helpers.hpp"
#include "proof_helpers.hpp"
#include "resident_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/resident_tree.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using Catch::Matchers::Contains;

namespace {

using test::hasher;

// Fills `b` with `indices` and random leaves, applied to the host copy in order.
void fill(merklize::resident_batch &b, const std::vector<std::uint64_t> &indices,
          std::vector<merklize::digest> &leaves) {
  for (std::size_t k = 0; k < indices.size(); ++k) {
    b.indices()[k] = indices[k];
    b.leaves()[k] = test::random_digest();
    leaves[indices[k]] = b.leaves()[k]; // in order: a repeated index ends with its last value
  }
}

} // namespace

TEST_CASE("update batches filled in place equal the reference and ordinary updates",
          "[resident][batch]") {
  std::mt19937_64 random(34);
  for (const std::uint64_t n : {1, 2, 3, 7, 8, 9, 255, 256, 257, 1000})
    for (const auto &options :
         {merklize::tree_options{merklize::hash_kind::sha256, merklize::shape::promote},
          merklize::tree_options{merklize::hash_kind::blake3_parent, merklize::shape::zero},
          merklize::tree_options{merklize::hash_kind::keccak256, merklize::shape::zero, 12}}) {
      INFO("n=" << n << " " << merklize::to_string(options.hash));
      std::vector<merklize::digest> leaves = test::random_leaves(n);
      merklize::resident_tree t(hasher(), leaves, merklize::config{options});
      merklize::resident_tree twin(hasher(), leaves, merklize::config{options});
      merklize::resident_batch b = t.make_update_batch(n + 12); // every batch below fits
      CHECK(b.capacity() == n + 12);
      for (const auto &indices : test::update_batches(n, random, 50)) {
        INFO("batch of " << indices.size());
        fill(b, indices, leaves);
        const merklize::digest root = t.update(b, indices.size());
        test::check_tree(t, leaves, root);
        const std::vector<merklize::digest> values(b.leaves(), b.leaves() + indices.size());
        CHECK(twin.update(indices, values) == root);
        CHECK(twin.levels() == t.levels());
      }
    }
}

TEST_CASE("refused update batches name the reason and change nothing", "[resident][batch]") {
  auto &h = hasher();
  std::vector<merklize::digest> leaves(10);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  merklize::resident_tree t(h, leaves, merklize::config{{merklize::hash_kind::blake3}});
  const merklize::digest root = t.root();
  const auto levels = t.levels();
  merklize::resident_batch b = t.make_update_batch(4);
  for (std::uint64_t k = 0; k < 4; ++k) {
    b.indices()[k] = k;
    b.leaves()[k] = test::random_digest();
  }
  b.indices()[2] = 10;
  CHECK_THROWS_WITH(t.update(b, 4),
                    Contains("update 2 of 4: leaf index 10 out of range: the tree has 10 leaves"));
  CHECK_THROWS_WITH(t.update(b, 5), Contains("5 updates from a batch of room for 4"));
  CHECK_THROWS_WITH(t.update(merklize::resident_batch(), 1),
                    Contains("not page-locked memory of this tree's context"));
  const cl::Context other(test::test_device());
  const merklize::resident_batch foreign(other, cl::CommandQueue(other, test::test_device()), 4);
  CHECK_THROWS_WITH(t.update(foreign, 1),
                    Contains("not page-locked memory of this tree's context"));
  CHECK_THROWS_WITH(t.make_update_batch(0), Contains("a capacity of 0 updates"));
  CHECK(t.root() == root);
  CHECK(t.levels() == levels);
  // The tree updates right after a refusal, from the same batch.
  b.indices()[2] = 9;
  for (std::uint64_t k = 0; k < 4; ++k)
    leaves[b.indices()[k]] = b.leaves()[k];
  test::check_tree(t, leaves, t.update(b, 4));
  CHECK(t.update(b, 0) == t.root()); // none: the root as it is
}
