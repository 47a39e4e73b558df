// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees built on the device (device_tree.hpp) against the host reference (kary.hpp): every
// level, every shape, every hash, arities 2 to 128 at sizes around their boundaries, from leaves
// as given (files, pipes) and from data blocks; and the proofs read from the tree on the device,
// bit for bit the host's.
#include "block_helpers.hpp"
#include "helpers.hpp"
#include "pipe_input.hpp"
#include "process.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/block_tree.hpp>
#include <merklize/engine/device_tree.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <optional>

using Catch::Matchers::Contains;

namespace {

using test::as_digests;
using test::hasher;
using test::uploaded;

} // namespace

TEST_CASE("k-ary trees on the device match the host's, every level", "[kary]") {
  auto &h = hasher();
  for (unsigned k : {2u, 4u, 16u, 128u})
    for (std::uint64_t n :
         {std::uint64_t(1), std::uint64_t(2), std::uint64_t(k) - 1, std::uint64_t(k),
          std::uint64_t(k) + 1, std::uint64_t(k) * k + 1, std::uint64_t(1000)})
      for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3,
                        merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256})
        for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::kary_options options{hash, k, pad};
          const auto bytes = test::random_bytes(n * merklize::node_bytes);
          const auto expected = merklize::kary_levels(as_digests(bytes), options);
          INFO("k=" << k << " n=" << n << " " << merklize::to_string(hash) << " "
                    << merklize::to_string(pad));
          merklize::input file(test::write_file("kary.leaves", bytes).string());
          const auto got = merklize::kary_tree_on_device(h, h.leaves_as_given(file), options, true);
          CHECK(got.levels == expected);
          CHECK(got.root == expected.back().front());
        }
}

TEST_CASE("k-ary trees on the device from pipes and from data blocks", "[kary]") {
  auto &h = hasher();
  h.set_piece_target(4096);
  const merklize::kary_options options{merklize::hash_kind::blake3, 8, merklize::shape::zero};
  const auto bytes = test::random_bytes(300 * merklize::node_bytes);
  test::pipe_input piped(bytes);
  CHECK(merklize::kary_tree_on_device(h, h.leaves_as_given(piped.get()), options).root ==
        merklize::kary_root(as_digests(bytes), options));
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 100, {}, false, std::nullopt};
  merklize::input data(test::write_file("kary.data", bytes).string());
  CHECK(merklize::kary_tree_on_device(h, h.leaves_of(data, rule), options).root ==
        merklize::kary_root(merklize::block_leaves(rule, bytes.data(), bytes.size()), options));
  test::pipe_input partial(test::random_bytes(100));
  CHECK_THROWS_WITH(h.leaves_as_given(partial.get()),
                    Contains("the pipe: leaf data is 100 bytes, not a multiple of 32"));
  h.set_piece_target(std::uint64_t(16) << 20);
}

TEST_CASE("k-ary proofs from the tree on the device equal the host's and verify", "[kary]") {
  auto &h = hasher();
  for (unsigned k = 2; k <= 128; k *= 2) {
    const std::uint64_t sizes[] = {1, 2, 3, k - 1, k, k + 1, k * k - 1, k * k, k * k + 1};
    for (const std::uint64_t n : sizes)
      for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
        for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::kary_options options{hash, k, pad};
          const auto bytes = test::random_bytes(n * merklize::node_bytes);
          const auto leaves = as_digests(bytes);
          const auto levels = merklize::kary_levels(leaves, options);
          INFO("k=" << k << " n=" << n << " " << merklize::to_string(hash) << " "
                    << merklize::to_string(pad));
          const merklize::device_tree tree(h, uploaded(bytes), options);
          REQUIRE(tree.root() == levels.back().front());
          const std::vector<std::uint64_t> indices = {0, n / 2, n - 1}; // n = 1: one leaf thrice
          const auto proofs = tree.prove(indices);
          REQUIRE(proofs.size() == indices.size());
          for (std::size_t p = 0; p < indices.size(); ++p) {
            const auto expected = merklize::kary_prove(levels, options, indices[p]);
            CHECK(proofs[p].index == indices[p]);
            CHECK(proofs[p].leaf_count == n);
            CHECK(proofs[p].siblings == expected.siblings);
            CHECK(merklize::kary_verify(proofs[p], leaves[indices[p]], tree.root()));
          }
          CHECK(tree.prove(n - 1).siblings == proofs.back().siblings);
        }
  }
}

TEST_CASE("k-ary proofs on the device: an index outside the tree is refused", "[kary]") {
  const merklize::kary_options options{merklize::hash_kind::sha256, 4, merklize::shape::zero};
  const auto bytes = test::random_bytes(5 * merklize::node_bytes);
  const merklize::device_tree tree(hasher(), uploaded(bytes), options);
  CHECK_THROWS_WITH(tree.prove(5), Contains("leaf index 5 out of range: the tree has 5 leaves"));
  CHECK_THROWS_WITH(tree.prove({0, 1, 7}), Contains("leaf index 7 out of range"));
  CHECK(tree.levels() == merklize::kary_levels(as_digests(bytes), options));
}

namespace {

// The levels of a host tree that keeps them all, leaves first.
std::vector<std::vector<merklize::digest>> host_levels(const merklize::tree &t) {
  std::vector<std::vector<merklize::digest>> levels;
  for (unsigned level = 0; level <= t.depth(); ++level) {
    levels.emplace_back(static_cast<std::size_t>(t.layout().level_size(level)));
    std::memcpy(levels.back().data(), t.level_data(level), levels.back().size() * 32);
  }
  return levels;
}

} // namespace

TEST_CASE("binary trees kept on the device: every node hash, shape and fixed depth, merkleizer's "
          "tree and proofs",
          "[kary][binary]") {
  auto &h = hasher();
  using merklize::hash_kind;
  for (auto hash : {hash_kind::blake3, hash_kind::blake3_parent, hash_kind::sha256,
                    hash_kind::rfc6962, hash_kind::keccak256, hash_kind::sha3_256})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (const std::uint64_t n : {1, 2, 3, 5, 63, 64, 65, 255, 256, 257, 1000})
        for (const std::optional<unsigned> depth : {std::optional<unsigned>{}, {11u}}) {
          if (hash == hash_kind::rfc6962 && pad == merklize::shape::zero) continue; // RFC: promote
          if (depth && pad != merklize::shape::zero) continue; // a fixed depth pads with zeros
          const merklize::tree_options options{hash, pad, depth};
          const auto bytes = test::random_bytes(n * merklize::node_bytes);
          const merklize::tree expected =
              merklize::reference_tree(bytes.data(), bytes.size(), options);
          INFO(merklize::to_string(hash)
               << " " << merklize::to_string(pad) << " n=" << n << " depth=" << depth.value_or(0));
          const merklize::device_tree tree(h, uploaded(bytes), merklize::config{options});
          REQUIRE(tree.root() == expected.root());
          REQUIRE(tree.levels() == host_levels(expected));
          for (const std::uint64_t i : {std::uint64_t(0), n / 2, n - 1})
            CHECK(tree.prove_binary(i) == merklize::prove(expected, i));
          CHECK_THROWS_WITH(tree.prove_binary(n), Contains("out of range"));
        }
  const merklize::kary_options kary{hash_kind::sha256, 4, merklize::shape::zero};
  const merklize::device_tree four(h, uploaded(test::random_bytes(96)), kary);
  CHECK_THROWS_WITH(four.prove_binary(0), Contains("a k-ary tree's proof"));
  CHECK_THROWS_WITH(
      merklize::device_tree(h, uploaded(test::random_bytes(96)),
                            merklize::config{{hash_kind::sha256, merklize::shape::zero, 1u}}),
      Contains("depth"));
}
