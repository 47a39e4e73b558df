// SPDX-License-Identifier: Apache-2.0 OR MIT
// The multiproof planners' visitors (detail::visit_multiproof, detail::visit_kary_multiproof),
// which the device gatherers list their places from, without a device: each visits, in order,
// the places an independent brute-force oracle lists (sets of known nodes, level by level), and
// multiproof_positions / kary_multiproof_positions list exactly the visits, no more of them than
// the bounds the gatherers reserve for (multiproof_bound, kary_multiproof_bound). Binary trees at
// 1, 2, 3 and 2^k - 1, 2^k, 2^k + 1 leaves; k-ary ones of arities 2, 4, 8 and 16, both shapes, at
// 1, k - 1, k, k + 1, k^2 + 1 and k^3 + 1 leaves; batches of one leaf, the last, every leaf, random
// with repeats. Bad indices are refused before any visit. The k-ary gatherer's places
// (list_kary_proof_places) read from a host copy of the device's layout (the leaves; every level
// above back to back) and spread with the zero-subtree roots (spread_kary_zeros) are
// kary_prove_multi's nodes bit for bit, shape zero included. Built without OpenCL, sanitized.
#include "host_helpers.hpp"
#include "kary_batches.hpp"
#include "proof_helpers.hpp"

#include <merklize/proofs/kary_proof_places.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <set>

#if defined(CL_VERSION_1_0)
#error "merklize/proofs/kary_proof_places.hpp must not pull in the OpenCL headers"
#endif

namespace {

using place = std::pair<unsigned, std::uint64_t>;

template <class Visitor> std::vector<place> visits(const Visitor &visitor) {
  std::vector<place> out;
  visitor([&](unsigned level, std::uint64_t index) { out.emplace_back(level, index); });
  return out;
}

std::vector<place> as_places(const std::vector<merklize::node_position> &positions) {
  std::vector<place> out;
  for (const auto &p : positions)
    out.emplace_back(p.level, p.index);
  return out;
}

// The k-ary multiproof's places by brute force: at each level, each group of k (shape zero) or
// of the members present (shape promote) that holds a known node lists its members not known,
// ascending, groups ascending; a lone member moves up, listing nothing.
std::vector<place> kary_oracle(const merklize::kary_options &o, std::uint64_t n,
                               const std::set<std::uint64_t> &indices) {
  if (indices.empty()) return {{merklize::natural_height(n, o.arity), 0}};
  std::vector<place> out;
  std::set<std::uint64_t> known = indices;
  std::uint64_t size = n;
  for (unsigned level = 0; size > 1; ++level, size = (size + o.arity - 1) / o.arity) {
    std::set<std::uint64_t> groups;
    for (const std::uint64_t node : known)
      groups.insert(node / o.arity);
    for (const std::uint64_t g : groups) {
      const std::uint64_t first = g * o.arity;
      const std::uint64_t width = o.shape == merklize::shape::zero
                                      ? o.arity
                                      : std::min<std::uint64_t>(o.arity, size - first);
      for (std::uint64_t c = 0; c < width && width > 1; ++c)
        if (!known.count(first + c)) out.emplace_back(level, first + c);
    }
    known = groups;
  }
  return out;
}

} // namespace

TEST_CASE("visit_multiproof visits the brute-force multiproof's places, in order",
          "[proof][multiproof][visitor]") {
  std::mt19937_64 rng(39);
  for (const std::uint64_t n : test::awkward_sizes(9))
    for (const auto &batch : test::kary_batches(n, rng)) {
      if (batch.empty()) continue; // a binary multiproof needs a leaf: refused below
      const std::set<std::uint64_t> unique(batch.begin(), batch.end());
      const std::vector<std::uint64_t> sorted(unique.begin(), unique.end());
      INFO(n << " leaves, " << sorted.size() << " proven");
      const auto seen =
          visits([&](const auto &visit) { merklize::detail::visit_multiproof(n, sorted, visit); });
      CHECK(seen == test::expected_multiproof_positions(n, unique));
      CHECK(seen.size() <= merklize::detail::multiproof_bound(n, sorted.size()));
      CHECK(as_places(merklize::multiproof_positions(n, sorted)) == seen);
    }
}

TEST_CASE("visit_kary_multiproof visits the brute-force k-ary multiproof's places, in order",
          "[kary][multiproof][visitor]") {
  std::mt19937_64 rng(39);
  for (auto pad : {merklize::shape::promote, merklize::shape::zero})
    for (unsigned k : {2u, 4u, 8u, 16u})
      for (const std::uint64_t n : std::vector<std::uint64_t>{1, k - 1u, k, k + 1u, k * k + 1u,
                                                              std::uint64_t(k) * k * k + 1u})
        for (const auto &batch : test::kary_batches(n, rng)) {
          const merklize::kary_options o{merklize::hash_kind::sha256, k, pad};
          const std::set<std::uint64_t> unique(batch.begin(), batch.end());
          const std::vector<std::uint64_t> sorted(unique.begin(), unique.end());
          INFO("arity " << k << (pad == merklize::shape::zero ? " zero " : " promote ") << n
                        << " leaves, " << sorted.size() << " proven");
          const auto seen = visits([&](const auto &visit) {
            merklize::detail::visit_kary_multiproof(o, n, sorted, visit);
          });
          CHECK(seen == kary_oracle(o, n, unique));
          std::vector<std::uint64_t> sizes{n};
          while (sizes.back() > 1)
            sizes.push_back((sizes.back() + k - 1) / k);
          CHECK(seen.size() <= merklize::detail::kary_multiproof_bound(sizes, k, sorted.size()));
          CHECK(as_places(merklize::kary_multiproof_positions(o, n, sorted)) == seen);
        }
}

TEST_CASE("the multiproof visitors refuse bad indices before any visit",
          "[proof][kary][multiproof][visitor]") {
  std::size_t visited = 0;
  const auto count = [&](unsigned, std::uint64_t) { ++visited; };
  const merklize::kary_options o{merklize::hash_kind::sha256, 4, merklize::shape::zero};
  CHECK_THROWS(merklize::detail::visit_multiproof(5, {0, 3, 1}, count));
  CHECK_THROWS(merklize::detail::visit_multiproof(5, {0, 5}, count));
  CHECK_THROWS(merklize::detail::visit_multiproof(5, {}, count));
  CHECK_THROWS(merklize::detail::visit_kary_multiproof(o, 9, {0, 3, 3}, count));
  CHECK_THROWS(merklize::detail::visit_kary_multiproof(o, 9, {0, 9}, count));
  CHECK_THROWS(merklize::detail::visit_kary_multiproof(o, 0, {}, count));
  CHECK(visited == 0);
}

TEST_CASE("the k-ary gatherer's places, gathered and spread, are kary_prove_multi's nodes",
          "[kary][multiproof][visitor]") {
  std::mt19937_64 rng(39);
  for (auto pad : {merklize::shape::promote, merklize::shape::zero})
    for (unsigned k : {2u, 4u, 16u})
      for (const std::uint64_t n : std::vector<std::uint64_t>{1, k - 1u, k, k + 1u, k * k + 1u,
                                                              std::uint64_t(k) * k * k + 1u}) {
        const merklize::kary_options o{merklize::hash_kind::sha256, k, pad};
        std::vector<merklize::digest> leaves(static_cast<std::size_t>(n));
        for (auto &leaf : leaves)
          leaf = test::random_digest();
        const auto levels = merklize::kary_levels(leaves, o);
        std::vector<std::uint64_t> sizes, first{0, 0}; // first[l]: level l's in `above`
        std::vector<merklize::digest> above;           // the levels above, back to back
        for (std::size_t l = 0; l < levels.size(); ++l) {
          sizes.push_back(levels[l].size());
          if (l == 0) continue;
          above.insert(above.end(), levels[l].begin(), levels[l].end());
          first.push_back(above.size());
        }
        const auto zeros = merklize::kary_zero_roots(o, static_cast<unsigned>(levels.size()));
        merklize::detail::kary_proof_places places; // reused, as the gatherer reuses it
        for (const auto &batch : test::kary_batches(n, rng)) {
          INFO("arity " << k << (pad == merklize::shape::zero ? " zero " : " promote ") << n
                        << " leaves, a batch of " << batch.size());
          const auto expected = merklize::kary_prove_multi(levels, o, batch);
          merklize::detail::list_kary_proof_places(places, o, sizes, expected.indices,
                                                   [&](unsigned l) { return first[l]; });
          REQUIRE(places.total == expected.nodes.size());
          REQUIRE(places.list.size() + places.zeros.size() == places.total);
          std::vector<merklize::digest> nodes(places.total, merklize::digest{0xAA});
          for (std::size_t i = 0; i < places.list.size(); ++i)
            nodes[i] = i < places.below ? levels[0][places.list[i]] : above[places.list[i]];
          merklize::detail::spread_kary_zeros(nodes, places, zeros);
          CHECK(nodes == expected.nodes);
        }
      }
}
