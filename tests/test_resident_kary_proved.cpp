// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees kept on the device prove their updates (resident_kary_tree::update_proved): for
// sha256 and blake3, shapes promote and zero, arities 2, 4, 8 and 16, at 1, k - 1, k, k + 1,
// k^2 - 1 and k^2 + 1 leaves, batches of one leaf, the last leaf, every leaf, random with
// repeats (the last value taken) and none, each planned on the host and elected on the device
// (kary_leaf_election.hpp), the nodes the update writes poisoned first: the root
// is the host reference's over the updated leaves, the proof kary_prove_multi's over its levels
// bit for bit, and it verifies against the returned root. A refused batch changes nothing.
#include "kary_batches.hpp"
#include "kary_resident_helpers.hpp"

#include <merklize/proofs/kary_multiproof.hpp>

#include <catch2/catch.hpp>

#include <random>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;

using test::random_leaves;

} // namespace

TEST_CASE("k-ary resident trees prove their updates: kary_prove_multi's proof",
          "[resident][kary][multiproof]") {
  std::mt19937_64 rng(38);
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (unsigned k : {2u, 4u, 8u, 16u})
        for (const std::uint64_t n :
             std::vector<std::uint64_t>{1, k - 1u, k, k + 1u, k * k - 1u, k * k + 1u}) {
          const merklize::kary_options o{hash, k, pad};
          auto host = random_leaves(n);
          merklize::resident_kary_tree t(test::hasher(), host, o);
          // Planned batches take the plan's sorted batch; elected ones (no plan) sort their own.
          for (const unsigned per_mille : {0u, 1u})
            for (const auto &batch : test::kary_batches(n, rng)) {
              t.set_elect_per_mille(per_mille);
              INFO(merklize::to_string(hash)
                   << " arity " << k << (pad == merklize::shape::zero ? " zero " : " promote ") << n
                   << " leaves, a batch of " << batch.size() << (per_mille ? " elected" : ""));
              const auto values = random_leaves(batch.size());
              for (std::size_t i = 0; i < batch.size(); ++i)
                host[batch[i]] = values[i];
              test::poison(t, batch);
              const auto [root, proof] = t.update_proved(batch, values);
              const auto levels = merklize::kary_levels(host, o);
              REQUIRE(root == levels.back().front());
              CHECK(root == t.root());
              CHECK(proof == merklize::kary_prove_multi(levels, o, batch));
              std::vector<digest> proven;
              for (const std::uint64_t i : proof.indices)
                proven.push_back(host[i]);
              CHECK(merklize::kary_verify_multi(proof, proven, root));
            }
        }
}

TEST_CASE("a refused proved update of a k-ary resident tree changes nothing",
          "[resident][kary][multiproof]") {
  const merklize::kary_options o{merklize::hash_kind::sha256, 4, merklize::shape::zero};
  const auto leaves = random_leaves(17);
  merklize::resident_kary_tree t(test::hasher(), leaves, o);
  const auto before = t.levels();
  const auto values = random_leaves(2);
  CHECK_THROWS_WITH(t.update_proved({3, 17}, values), Contains("17"));
  CHECK_THROWS(t.update_proved({3, 4}, {values.front()}));
  CHECK(t.levels() == before);
  CHECK(t.root() == before.back().front());
}
