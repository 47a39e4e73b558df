// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a proof alone binds, and what the verifier's pins add (docs/PROOFS.md, "What a proof
// binds"): proofs relabelled from a real sha256 zero-shape tree as shape promote verify unpinned
// (the docs say so, and this keeps them honest) and are refused once the shape is pinned; a
// k-ary proof's arity and height are pinned too; and a hash over field elements takes canonical
// limbs only, in leaves and siblings alike. Host-only, sanitized.
#include "proof_helpers.hpp"

#include <merklize/core/poseidon2.hpp>
#include <merklize/proofs/kary_verify.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

merklize::tree zero_tree(std::uint64_t n) {
  return test::random_tree(n, {merklize::hash_kind::sha256, merklize::shape::zero});
}

// The promote proof of "leaf" `index` whose siblings are `t`'s nodes where a promote tree of
// t's leaf count has them: the relabelling of a zero-shape tree's paths.
merklize::inclusion_proof relabelled(const merklize::tree &t, std::uint64_t index) {
  merklize::inclusion_proof proof{
      {merklize::hash_kind::sha256, merklize::shape::promote}, t.leaf_count(), index, {}};
  std::uint64_t size = t.leaf_count();
  for (unsigned k = 0; k < t.root_depth(); ++k, size = (size + 1) / 2) {
    const std::uint64_t sibling = (index >> k) ^ 1;
    if (sibling < size) proof.siblings.push_back(t.node(k, sibling));
  }
  return proof;
}

// Expectations with only what `set` pins.
template <class Set> merklize::proof_expectations pin(Set set) {
  merklize::proof_expectations e;
  set(e);
  return e;
}

struct forgery {
  merklize::inclusion_proof proof;
  merklize::digest leaf;
};

// Every promote relabelling of a zero-shape tree's paths that verifies for a value that is no
// leaf of the tree: an inner node, taken as leaf `index` of the same leaf count and depth.
std::vector<forgery> relabelled_forgeries(const merklize::tree &t) {
  std::vector<forgery> found;
  for (std::uint64_t index = 0; index < t.leaf_count(); ++index) {
    const auto proof = relabelled(t, index);
    for (unsigned level = 1; level < t.root_depth(); ++level)
      for (std::uint64_t j = 0; j < t.layout().level_size(level); ++j)
        if (merklize::verify(proof, t.node(level, j), t.root()))
          found.push_back({proof, t.node(level, j)});
  }
  return found;
}

} // namespace

TEST_CASE("a sha256 zero-shape tree's inner node passes as a promote proof's leaf unpinned only",
          "[proof][pins]") {
  const merklize::tree t = zero_tree(3);
  const merklize::inclusion_proof forged = relabelled(t, 2); // depth 2, siblings {node 0 of 1}
  REQUIRE(forged.siblings.size() == 1);
  const merklize::digest inner = t.node(1, 1); // SHA-256(leaf 2 || 32 zero bytes)
  // The proof alone: accepted, as docs/PROOFS.md says.
  CHECK(merklize::verify(forged, inner, t.root()));
  // Hash, leaf count and depth pinned: all true of the forgery, which still passes.
  CHECK(merklize::verify(forged, inner, t.root(), pin([](merklize::proof_expectations &e) {
                           e.hash = merklize::hash_kind::sha256;
                           e.leaf_count = 3;
                           e.depth = 2;
                           e.arity = 2;
                         })));
  // The shape pinned: refused, naming it.
  const auto pinned = merklize::verify(forged, inner, t.root(), test::pinned(t));
  CHECK(!pinned);
  CHECK_THAT(pinned.reason, Contains("the proof is for shape promote, not zero"));
  // The true proof passes every pin.
  CHECK(merklize::verify(merklize::prove(t, 2), t.node(0, 2), t.root(), test::pinned(t)));
}

TEST_CASE("relabelled promote proofs of real zero-shape trees are refused once pinned",
          "[proof][pins]") {
  std::size_t forgeries = 0;
  for (std::uint64_t n = 1; n <= 40; ++n) {
    const merklize::tree t = zero_tree(n);
    for (const forgery &f : relabelled_forgeries(t)) {
      INFO(n << " leaves, index " << f.proof.index);
      ++forgeries;
      auto unshaped = test::pinned(t);
      unshaped.shape.reset();
      CHECK(merklize::verify(f.proof, f.leaf, t.root(), unshaped));
      CHECK_FALSE(merklize::verify(f.proof, f.leaf, t.root(), test::pinned(t)));
    }
  }
  // One in each tree whose last leaf is alone on its lowest levels and on none above them: 3, 5,
  // 7, 9, 13, 15, 17, 25, 29, 31 and 33 leaves (the inner node above those levels).
  CHECK(forgeries == 11);
}

TEST_CASE("every pin refuses a proof that claims another value, naming it", "[proof][pins]") {
  const merklize::tree t = zero_tree(5);
  const auto proof = merklize::prove(t, 4);
  const merklize::digest leaf = t.node(0, 4);
  using pins = merklize::proof_expectations;
  const std::vector<std::pair<pins, const char *>> cases = {
      {pin([](pins &e) { e.hash = merklize::hash_kind::blake3; }),
       "the proof is for hash sha256, not blake3"},
      {pin([](pins &e) { e.shape = merklize::shape::promote; }),
       "the proof is for shape zero, not promote"},
      {pin([](pins &e) { e.leaf_count = 6; }), "a tree of 5 leaves, not 6"},
      {pin([](pins &e) { e.depth = 4; }), "a root of depth 3, not 4"},
      {pin([](pins &e) { e.arity = 4; }), "arity 2, not 4"},
  };
  for (const auto &[expect, reason] : cases) {
    const auto verdict = merklize::verify(proof, leaf, t.root(), expect);
    CHECK(!verdict);
    CHECK_THAT(verdict.reason, Contains(reason));
  }
  CHECK(merklize::verify(proof, leaf, t.root(), test::pinned(t)));
}

TEST_CASE("a k-ary proof is verified against pinned arity, height, hash, shape and leaves",
          "[proof][pins][kary]") {
  const merklize::kary_options options{merklize::hash_kind::sha256, 4, merklize::shape::promote};
  const auto leaves = test::random_leaves(10);
  const auto levels = merklize::kary_levels(leaves, options);
  const merklize::digest root = levels.back().front();
  const auto proof = merklize::kary_prove(levels, options, 9);
  using pins = merklize::proof_expectations;
  CHECK(merklize::verify(proof, leaves[9], root, pin([](pins &e) {
                           e.hash = merklize::hash_kind::sha256;
                           e.shape = merklize::shape::promote;
                           e.leaf_count = 10;
                           e.depth = 2;
                           e.arity = 4;
                         })));
  CHECK_THAT(merklize::verify(proof, leaves[9], root, pin([](pins &e) { e.arity = 2; })).reason,
             Contains("arity 4, not 2"));
  CHECK_THAT(merklize::verify(proof, leaves[9], root, pin([](pins &e) { e.depth = 3; })).reason,
             Contains("depth 2, not 3"));
  const auto multi = merklize::kary_prove_multi(levels, options, {1, 9});
  CHECK(merklize::verify(multi, {leaves[1], leaves[9]}, root,
                         pin([](pins &e) { e.leaf_count = 10; })));
  CHECK_THAT(merklize::verify(multi, {leaves[1], leaves[9]}, root,
                              pin([](pins &e) { e.shape = merklize::shape::zero; }))
                 .reason,
             Contains("shape promote, not zero"));
}

namespace {

// A BabyBear leaf of small canonical limbs.
merklize::digest field_leaf(std::uint32_t seed) {
  merklize::digest d{};
  for (unsigned limb = 0; limb < 8; ++limb) {
    const std::uint32_t v = seed * 8 + limb;
    for (unsigned b = 0; b < 4; ++b)
      d[4 * limb + b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  return d;
}

// `d` with limb `limb` (u32 little-endian) raised by p: the same element mod p, not canonical.
merklize::digest plus_p(merklize::digest d, unsigned limb) {
  std::uint32_t v = 0;
  for (unsigned b = 0; b < 4; ++b)
    v |= static_cast<std::uint32_t>(d[4 * limb + b]) << (8 * b);
  v += static_cast<std::uint32_t>(merklize::poseidon2::babybear_16.prime);
  for (unsigned b = 0; b < 4; ++b)
    d[4 * limb + b] = static_cast<std::uint8_t>(v >> (8 * b));
  return d;
}

} // namespace

TEST_CASE("proofs over BabyBear take canonical limbs only, in leaves and siblings",
          "[proof][poseidon2][canonical]") {
  std::vector<std::uint8_t> bytes;
  for (std::uint32_t i = 0; i < 4; ++i) {
    const merklize::digest leaf = field_leaf(i);
    bytes.insert(bytes.end(), leaf.begin(), leaf.end());
  }
  const merklize::tree t = merklize::reference_tree(bytes.data(), bytes.size(),
                                                    {merklize::hash_kind::poseidon2_babybear});
  auto proof = merklize::prove(t, 0);
  REQUIRE(merklize::verify(proof, field_leaf(0), t.root()));
  const auto leaf = merklize::verify(proof, plus_p(field_leaf(0), 3), t.root());
  CHECK(!leaf);
  CHECK_THAT(leaf.reason, Contains("leaf 0, limb 3 (2013265924) is not a canonical BabyBear"));
  proof.siblings[1] = plus_p(proof.siblings[1], 0);
  const auto sibling = merklize::verify(proof, field_leaf(0), t.root());
  CHECK(!sibling);
  CHECK_THAT(sibling.reason, Contains("sibling 1, limb 0 ("));
  auto multi = merklize::prove_multi(t, {0, 3});
  REQUIRE(merklize::verify(multi, {field_leaf(0), field_leaf(3)}, t.root()));
  CHECK_THAT(merklize::verify(multi, {field_leaf(0), plus_p(field_leaf(3), 7)}, t.root()).reason,
             Contains("leaf 3, limb 7 ("));
  multi.nodes[0] = plus_p(multi.nodes[0], 2);
  CHECK_THAT(merklize::verify(multi, {field_leaf(0), field_leaf(3)}, t.root()).reason,
             Contains("node 0, limb 2 ("));
}
