// SPDX-License-Identifier: Apache-2.0 OR MIT
// Inclusion proofs and multiproofs on the host, for every hash and shape: every leaf of random
// trees at awkward sizes proves and verifies, the siblings and multiproof nodes match oracles
// computed straight from the tree convention, and each kind of wrong proof is rejected.
// Built without OpenCL and run under AddressSanitizer and UBSan (tests/CMakeLists.txt).
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/proofs/proof.hpp must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;
using merklize::digest;
using merklize::inclusion_proof;
using merklize::multiproof;

namespace {

digest flip_bit(digest d) {
  const auto bit = test::rng()() % (8 * d.size());
  d[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
  return d;
}

} // namespace

TEST_CASE("every leaf of random trees at awkward sizes proves and verifies", "[proof]") {
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : test::awkward_sizes(9)) {
      const auto t = test::random_tree(n, options);
      for (std::uint64_t i = 0; i < n; ++i) {
        INFO(test::describe(options) << " n=" << n << " leaf " << i);
        const inclusion_proof p = merklize::prove(t, i);
        REQUIRE(p.siblings == test::expected_siblings(t, i));
        CHECK(p.leaf_count == n);
        CHECK(p.index == i);
        const auto result = merklize::verify(p, t.node(0, i), t.root(), test::pinned(t));
        INFO(result.reason);
        REQUIRE(result);
        CHECK(result.reason.empty());
        CHECK(merklize::verify(p, t.node(0, i), t.root()));
        CHECK(merklize::inclusion_proof_from_binary(merklize::to_binary(p)) == p);
        CHECK(merklize::inclusion_proof_from_json(merklize::to_json(p)) == p);
      }
    }
}

TEST_CASE("proofs of the vector trees hold the vectors' nodes and lead to their roots",
          "[proof][vectors]") {
  std::size_t cases = 0;
  for (const auto &c : test::merkle_vectors()["cases"].items) {
    if (!c.has("levels")) continue;
    const merklize::tree_options options(merklize::parse_hash_kind(c["hash"].str),
                                         merklize::parse_shape(c["pad"].str));
    const std::uint64_t n = c["n"].u64();
    const auto leaves = test::counting_leaves(n, options.hash);
    const auto t = merklize::reference_tree(leaves.data(), leaves.size(), options);
    const auto &levels = c["levels"].items;
    const auto zeros = merklize::zero_subtree_roots(options.hash, t.depth());
    const digest root = merklize::digest_from_hex(c["root"].str);
    for (std::uint64_t i = 0; i < n; ++i) {
      INFO(test::describe(options) << " n=" << n << " leaf " << i);
      std::vector<digest> expected; // straight from the vector's levels
      for (unsigned k = 0; k + 1 < levels.size(); ++k) {
        const std::uint64_t sibling = (i >> k) ^ 1;
        if (sibling < levels[k].items.size())
          expected.push_back(merklize::digest_from_hex(levels[k].items[sibling].str));
        else if (options.shape == merklize::shape::zero)
          expected.push_back(zeros[k]);
      }
      const auto p = merklize::prove(t, i);
      CHECK(p.siblings == expected);
      const digest leaf = merklize::digest_from_hex(levels[0].items[i].str);
      CHECK(merklize::verify(p, leaf, root));
      CHECK(merklize::verify(merklize::prove_multi(t, {i}), {leaf}, root));
    }
    ++cases;
  }
  CHECK(cases >= 6 * 12); // every hash and shape at 1..9, 15, 16, 17 leaves
}

TEST_CASE("a fixed depth: every leaf proves and verifies up to the extended root", "[proof]") {
  for (const auto hash : test::padded_hash_kinds())
    for (const std::uint64_t n : test::awkward_sizes(5))
      for (const unsigned extra : {1u, 3u}) {
        const auto options = test::fixed_depth(hash, n, extra);
        const auto t = test::random_tree(n, options);
        REQUIRE(t.root_depth() == t.depth() + extra);
        const auto zeros = merklize::zero_subtree_roots(hash, t.root_depth());
        for (std::uint64_t i = 0; i < n; ++i) {
          INFO(test::describe(options) << " n=" << n << " leaf " << i);
          const auto p = merklize::prove(t, i);
          REQUIRE(p.siblings == test::expected_siblings(t, i));
          REQUIRE(p.siblings.size() == t.root_depth());
          CHECK(p.siblings.back() == zeros[t.root_depth() - 1]);
          CHECK(merklize::verify(p, t.node(0, i), t.root(), test::pinned(t)));
          CHECK(merklize::inclusion_proof_from_json(merklize::to_json(p)) == p);
          CHECK(merklize::inclusion_proof_from_binary(merklize::to_binary(p)) == p);
          // Against the root of the tree's own depth, or claiming another depth: rejected.
          const auto natural = test::random_tree(1, {hash, merklize::shape::zero});
          auto q = p;
          q.options.depth = t.root_depth() + 1;
          q.siblings.push_back(zeros[t.root_depth()]);
          CHECK(!merklize::verify(q, t.node(0, i), t.root()));
          CHECK_THAT(merklize::verify(q, t.node(0, i), t.root(), test::pinned(t)).reason,
                     Contains("not " + std::to_string(t.root_depth())));
          q = p;
          q.options.depth.reset();
          q.siblings.resize(t.depth());
          CHECK(!merklize::verify(q, t.node(0, i), t.root()));
        }
        const auto m = merklize::prove_multi(t, test::random_indices(n, 0.3));
        CHECK(merklize::verify(m, test::leaves_at(t, m.indices), t.root(), test::pinned(t)));
        CHECK(merklize::multiproof_from_json(merklize::to_json(m)) == m);
      }
}

TEST_CASE("the verifier refuses impossible depths", "[proof]") {
  const auto t = test::random_tree(5, {merklize::hash_kind::blake3, merklize::shape::zero});
  auto p = merklize::prove(t, 1);
  p.options.depth = 2;
  CHECK_THAT(merklize::verify(p, t.node(0, 1), t.root()).reason, Contains("cannot hold 5"));
  p.options.depth = 65;
  CHECK_THAT(merklize::verify(p, t.node(0, 1), t.root()).reason, Contains("depth 65"));
  p.options.depth = 4;
  p.options.shape = merklize::shape::promote;
  CHECK_THAT(merklize::verify(p, t.node(0, 1), t.root()).reason, Contains("only shape zero"));
  p.options.depth = 3; // the natural depth, set explicitly: the same tree
  p.options.shape = merklize::shape::zero;
  CHECK(merklize::verify(p, t.node(0, 1), t.root()));
  CHECK(p == merklize::prove(t, 1));
}

TEST_CASE("a level where the node is alone: nothing under promote, a zero root under zero",
          "[proof]") {
  for (const auto hash : test::padded_hash_kinds()) {
    // 5 leaves: leaf 4 is alone on levels 0 and 1, and the right child on level 2.
    const auto promote = test::random_tree(5, {hash, merklize::shape::promote});
    const auto p = merklize::prove(promote, 4);
    REQUIRE(p.siblings.size() == 1);
    CHECK(p.siblings[0] == promote.node(2, 0));

    const auto zero = test::random_tree(5, {hash, merklize::shape::zero});
    const auto z = merklize::prove(zero, 4);
    const auto zeros = merklize::zero_subtree_roots(hash, 2);
    REQUIRE(z.siblings.size() == 3);
    CHECK(z.siblings[0] == zeros[0]);
    CHECK(z.siblings[1] == zeros[1]);
    CHECK(z.siblings[2] == zero.node(2, 0));
    CHECK(merklize::verify(z, zero.node(0, 4), zero.root()));
  }
}

TEST_CASE("a single leaf is its own root and its proof is empty", "[proof]") {
  for (const auto &options : test::all_tree_options()) {
    const auto t = test::random_tree(1, options);
    const auto p = merklize::prove(t, 0);
    CHECK(p.siblings.empty());
    CHECK(merklize::verify(p, t.root(), t.root()));
    CHECK(!merklize::verify(p, test::random_digest(), t.root()));
  }
}

TEST_CASE("the verifier rejects a wrong leaf, a wrong sibling and a wrong index", "[proof]") {
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : {2, 3, 5, 7, 8, 9, 33}) {
      const auto t = test::random_tree(n, options);
      for (std::uint64_t i = 0; i < n; ++i) {
        INFO(test::describe(options) << " n=" << n << " leaf " << i);
        const auto p = merklize::prove(t, i);
        const digest leaf = t.node(0, i);
        CHECK_THAT(merklize::verify(p, flip_bit(leaf), t.root()).reason, Contains("root"));
        CHECK(!merklize::verify(p, leaf, flip_bit(t.root())));
        for (std::size_t k = 0; k < p.siblings.size(); ++k) {
          auto q = p;
          q.siblings[k] = flip_bit(q.siblings[k]);
          INFO("sibling " << k);
          CHECK(!merklize::verify(q, leaf, t.root()));
        }
        for (std::uint64_t j = 0; j < n + 3; ++j) {
          if (j == i) continue;
          auto q = p;
          q.index = j;
          INFO("claimed index " << j);
          const auto result = merklize::verify(q, leaf, t.root());
          CHECK(!result);
          if (j >= n) CHECK_THAT(result.reason, Contains("out of range"));
        }
      }
    }
}

TEST_CASE("the verifier rejects a wrong tree size", "[proof]") {
  // A root does not commit to N: relabelled with a size under which the same siblings drive the
  // same computation, a proof still verifies, and only a verifier that pins N (the CLI's
  // --leaves) refuses it. Every other wrong size is rejected from the proof alone, exactly where
  // the independent verifier rejects it.
  std::size_t rejected = 0, accepted = 0;
  for (const auto &options : test::all_tree_options())
    for (std::uint64_t n = 1; n <= 24; ++n) {
      const auto t = test::random_tree(n, options);
      for (std::uint64_t i = 0; i < n; ++i) {
        const auto p = merklize::prove(t, i);
        for (std::uint64_t claimed = 0; claimed <= 2 * n + 3; ++claimed) {
          if (claimed == n) continue;
          INFO(test::describe(options) << " n=" << n << " leaf " << i << " claimed " << claimed);
          auto q = p;
          q.leaf_count = claimed;
          CHECK_THAT(merklize::verify(q, t.node(0, i), t.root(), test::pinned(t)).reason,
                     Contains("leaves, not " + std::to_string(n)));
          const bool valid = bool(merklize::verify(q, t.node(0, i), t.root()));
          CHECK(valid == test::naive_verify(q, t.node(0, i), t.root()));
          ++(valid ? accepted : rejected);
        }
      }
    }
  CHECK(rejected > accepted); // most wrong sizes are caught without pinning
  auto p = merklize::prove(test::random_tree(3, {}), 0);
  p.leaf_count = 0;
  CHECK_THAT(merklize::verify(p, {}, {}).reason, Contains("0 leaves"));
}

TEST_CASE("the verifier rejects a proof for another shape or hash", "[proof]") {
  for (const std::uint64_t n : test::awkward_sizes(5)) {
    const auto leaves = test::random_bytes(n * 32);
    for (const auto &mine : test::all_tree_options())
      for (const auto &other : test::all_tree_options()) {
        if (mine.hash == other.hash && mine.shape == other.shape) continue;
        const auto t = merklize::reference_tree(leaves.data(), leaves.size(), mine);
        const auto u = merklize::reference_tree(leaves.data(), leaves.size(), other);
        for (std::uint64_t i = 0; i < n; ++i) {
          INFO(test::describe(mine)
               << " as " << test::describe(other) << " n=" << n << " leaf " << i);
          const auto p = merklize::prove(t, i);
          const digest leaf = t.node(0, i);
          // Against the other tree's root: valid only where the two trees are the same tree.
          CHECK(bool(merklize::verify(p, leaf, u.root())) == (u.root() == t.root()));
          auto relabelled = p;
          relabelled.options = other;
          CHECK(!merklize::verify(relabelled, leaf, t.root(), test::pinned(t)));
          CHECK(!merklize::verify(p, leaf, t.root(), test::pinned(u)));
          // Unpinned, a relabelled proof fails wherever it changes the computation.
          const bool valid = bool(merklize::verify(relabelled, leaf, t.root()));
          CHECK(valid == test::naive_verify(relabelled, leaf, t.root()));
          if (mine.hash != other.hash && n > 1) CHECK(!valid);
        }
      }
  }
}

TEST_CASE("the verifier rejects truncated and overlong proofs", "[proof]") {
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : test::awkward_sizes(6)) {
      const auto t = test::random_tree(n, options);
      for (std::uint64_t i = 0; i < n; ++i) {
        INFO(test::describe(options) << " n=" << n << " leaf " << i);
        const auto p = merklize::prove(t, i);
        const digest leaf = t.node(0, i);
        for (std::size_t keep = 0; keep < p.siblings.size(); ++keep) {
          auto q = p;
          q.siblings.resize(keep);
          CHECK_THAT(merklize::verify(q, leaf, t.root()).reason, Contains("(truncated)"));
          q = p;
          q.siblings.erase(q.siblings.begin() + static_cast<std::ptrdiff_t>(keep));
          CHECK(!merklize::verify(q, leaf, t.root()));
        }
        for (const std::size_t extra : {1, 2, 70}) {
          auto q = p;
          for (std::size_t k = 0; k < extra; ++k)
            q.siblings.push_back(test::random_digest());
          CHECK_THAT(merklize::verify(q, leaf, t.root()).reason, Contains("(overlong)"));
          q = p;
          q.siblings.insert(q.siblings.begin(), test::random_digest());
          CHECK(!merklize::verify(q, leaf, t.root()));
        }
      }
    }
}

TEST_CASE("a zero-shape proof must hold the zero-subtree roots where the node is alone",
          "[proof]") {
  for (const auto hash : test::padded_hash_kinds()) {
    const auto t = test::random_tree(5, {hash, merklize::shape::zero});
    auto p = merklize::prove(t, 4);
    p.siblings[1] = test::random_digest();
    CHECK_THAT(merklize::verify(p, t.node(0, 4), t.root()).reason,
               Contains("level 1 must be the zero-subtree root"));
  }
}

TEST_CASE("multiproofs of random leaf sets hold exactly the nodes the verifier cannot compute",
          "[proof][multiproof]") {
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : test::awkward_sizes(8))
      for (const double fraction : {0.0, 0.05, 0.3, 0.7, 1.0}) {
        const auto t = test::random_tree(n, options);
        auto indices = test::random_indices(n, fraction);
        const std::set<std::uint64_t> unique(indices.begin(), indices.end());
        indices.insert(indices.end(), indices.begin(), indices.begin() + indices.size() / 2);
        std::shuffle(indices.begin(), indices.end(), test::rng());
        INFO(test::describe(options) << " n=" << n << ", " << unique.size() << " leaves");
        const multiproof m = merklize::prove_multi(t, indices);
        CHECK(m.indices == std::vector<std::uint64_t>(unique.begin(), unique.end()));
        const auto expected = test::expected_multiproof_positions(n, unique);
        REQUIRE(m.nodes.size() == expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k)
          CHECK(m.nodes[k] == t.node(expected[k].first, expected[k].second));
        const auto result =
            merklize::verify(m, test::leaves_at(t, m.indices), t.root(), test::pinned(t));
        INFO(result.reason);
        CHECK(result);
        CHECK(merklize::multiproof_from_binary(merklize::to_binary(m)) == m);
        CHECK(merklize::multiproof_from_json(merklize::to_json(m)) == m);
        if (unique.size() == n) CHECK(m.nodes.empty());
      }
}

TEST_CASE("a multiproof of one leaf is its proof without the zero-subtree roots",
          "[proof][multiproof]") {
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : test::awkward_sizes(5)) {
      const auto t = test::random_tree(n, options);
      const auto zeros = merklize::zero_subtree_roots(options.hash, t.depth());
      for (std::uint64_t i = 0; i < n; ++i) {
        auto siblings = merklize::prove(t, i).siblings;
        siblings.erase(std::remove_if(siblings.begin(), siblings.end(),
                                      [&](const digest &d) {
                                        return std::find(zeros.begin(), zeros.end(), d) !=
                                               zeros.end();
                                      }),
                       siblings.end());
        CHECK(merklize::prove_multi(t, {i}).nodes == siblings);
      }
    }
}

TEST_CASE("the multiproof verifier rejects wrong leaves, nodes, indices and sizes",
          "[proof][multiproof]") {
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : {2, 3, 9, 31, 64, 100}) {
      const auto t = test::random_tree(n, options);
      const auto m = merklize::prove_multi(t, test::random_indices(n, 0.2));
      const auto leaves = test::leaves_at(t, m.indices);
      INFO(test::describe(options) << " n=" << n << ", " << m.indices.size() << " leaves");
      REQUIRE(merklize::verify(m, leaves, t.root()));
      for (std::size_t k = 0; k < leaves.size(); ++k) {
        auto wrong = leaves;
        wrong[k] = flip_bit(wrong[k]);
        CHECK(!merklize::verify(m, wrong, t.root()));
      }
      for (std::size_t k = 0; k < m.nodes.size(); ++k) {
        auto q = m;
        q.nodes[k] = flip_bit(q.nodes[k]);
        CHECK(!merklize::verify(q, leaves, t.root()));
        q = m;
        q.nodes.resize(k);
        CHECK_THAT(merklize::verify(q, leaves, t.root()).reason, Contains("(truncated)"));
      }
      auto q = m;
      q.nodes.push_back(test::random_digest());
      CHECK_THAT(merklize::verify(q, leaves, t.root()).reason, Contains("(overlong)"));
      for (std::size_t k = 0; k < m.indices.size(); ++k)
        for (std::uint64_t j = 0; j < n + 2; ++j) {
          q = m;
          q.indices[k] = j;
          if (j == m.indices[k]) continue;
          INFO("index " << k << " claimed " << j);
          CHECK(!merklize::verify(q, leaves, t.root()));
        }
      q = m;
      q.leaf_count = n + 1;
      CHECK(!merklize::verify(q, leaves, t.root(), test::pinned(t)));
      q.options.hash = options.hash == merklize::hash_kind::blake3
                           ? merklize::hash_kind::blake3_parent
                           : merklize::hash_kind::blake3;
      CHECK(!merklize::verify(q, leaves, t.root()));
      CHECK_THAT(merklize::verify(m, {}, t.root()).reason, Contains("0 leaves given"));
      q = m;
      q.indices.clear();
      CHECK_THAT(merklize::verify(q, {}, t.root()).reason, Contains("proves no leaf"));
      if (m.indices.size() > 1) {
        q = m;
        std::swap(q.indices[0], q.indices[1]);
        auto swapped = leaves;
        std::swap(swapped[0], swapped[1]);
        CHECK_THAT(merklize::verify(q, swapped, t.root()).reason,
                   Contains("not strictly increasing"));
      }
    }
}

TEST_CASE("provers refuse indices outside the tree and trees without every level",
          "[proof][errors]") {
  const auto t = test::random_tree(5, {});
  const merklize::tree top_only(merklize::tree_layout(5), {},
                                merklize::output_levels::from_level(2), nullptr, nullptr);
  CHECK_THROWS_WITH(merklize::prove(top_only, 0), Contains("needs every level"));
  CHECK_THROWS_WITH(merklize::prove_multi(top_only, {0}), Contains("needs every level"));
  CHECK_THROWS_WITH(merklize::prove(t, 5),
                    Contains("leaf index 5 out of range") && Contains("the tree has 5 leaves"));
  CHECK_THROWS_WITH(merklize::prove_multi(t, {1, 7}), Contains("leaf index 7 out of range"));
  CHECK_THROWS_WITH(merklize::prove_multi(t, {}), Contains("at least one leaf index"));
  CHECK_THROWS_WITH(merklize::multiproof_positions(5, {3, 1}), Contains("strictly increasing"));
}
