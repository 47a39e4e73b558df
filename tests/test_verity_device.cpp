// SPDX-License-Identifier: Apache-2.0 OR MIT
// dm-verity's and fs-verity's tree of hash blocks as a preset of the tree engine: a device_tree of
// the hash blocks' group rule (device_tree.hpp), laid out as stored by copies on the device
// (block_tree.hpp), against the host preset (formats/verity_tree.hpp, kary.hpp's group rule) and
// a model written here from the formats' description, at leaf counts around one and two levels
// of blocks (per_block = B / 32), blocks of 1 KiB, 4 KiB and 64 KiB (arity 2048), salted and not,
// the layout written into a poisoned buffer. veritysetup and fsverity check the same trees in
// test_formats.cpp.
#include "block_helpers.hpp"

#include <merklize/engine/block_tree.hpp>

#include <catch2/catch.hpp>

#include <cstring>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;
using merklize::node_bytes;

// The tree from the formats' description, apart from the library's tree models: each level's
// digests packed into zeroed hash blocks, each block hashed whole, until one block is left; the
// levels stored top first.
merklize::verity_tree spec_model(std::vector<digest> level, const merklize::leaf_rule &rule) {
  const std::uint64_t block = rule.block_bytes;
  std::vector<std::vector<std::uint8_t>> stored; // the leaves' blocks first
  while (level.size() > 1) {
    std::vector<std::uint8_t> blocks(
        merklize::block_count(level.size() * node_bytes, block) * block, 0);
    std::memcpy(blocks.data(), level.data(), level.size() * node_bytes);
    level = merklize::block_leaves(rule, blocks.data(), blocks.size());
    stored.push_back(std::move(blocks));
  }
  merklize::verity_tree tree{level.front(), {}};
  for (auto it = stored.rbegin(); it != stored.rend(); ++it)
    tree.levels.insert(tree.levels.end(), it->begin(), it->end());
  return tree;
}

// The stored layout of `tree` written from byte `guard` of a poisoned buffer with `guard`
// poisoned bytes after it, which must stay poisoned; the layout comes back.
std::vector<std::uint8_t> poisoned_layout(const merklize::device_tree &tree, std::uint64_t block) {
  auto &h = test::hasher();
  constexpr std::size_t guard = node_bytes;
  const auto bytes =
      static_cast<std::size_t>(merklize::verity_stored_bytes(tree.leaf_count(), block));
  const cl::Buffer out = test::poisoned_buffer(h.context(), h.queue(), guard + bytes + guard);
  merklize::detail::enqueue_verity_layout(h, tree, block, out, guard);
  const auto got = test::read_buffer(h.queue(), out, guard + bytes + guard);
  for (std::size_t i = 0; i < guard; ++i) {
    REQUIRE(got[i] == test::poison_byte);                 // before
    REQUIRE(got[guard + bytes + i] == test::poison_byte); // after
  }
  return {got.begin() + guard, got.end() - guard};
}

// Leaf counts of one level of blocks and of two: 1, 2, per_block - 1 .. per_block + 1 and, below
// 64 KiB blocks, per_block^2 +- 1 (both salted and not); at 64 KiB per_block^2 - 1 unsalted and
// per_block^2 + 1 salted, 128 MiB of leaves each.
std::vector<std::pair<std::uint64_t, bool>> counts_of(std::uint64_t per_block) {
  std::vector<std::pair<std::uint64_t, bool>> counts;
  const std::uint64_t square = per_block * per_block;
  for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(2), per_block - 1, per_block,
                                per_block + 1, square - 1, square + 1})
    for (const bool salted : {false, true})
      if (per_block < 2048 || n < square - 1 || salted == (n > square))
        counts.emplace_back(n, salted);
  return counts;
}

} // namespace

TEST_CASE("verity trees on the device as a device_tree preset match the host's",
          "[block-leaves][formats][verity]") {
  auto &h = test::hasher();
  for (const std::uint64_t block : {1024u, 4096u, 65536u})
    for (const auto &[n, salted] : counts_of(block / node_bytes)) {
      const merklize::leaf_rule rule{merklize::leaf_hash::sha256, block,
                                     salted ? test::random_bytes(32) : std::vector<std::uint8_t>{},
                                     true, std::nullopt};
      const auto bytes = test::random_bytes(static_cast<std::size_t>(n * node_bytes));
      const auto leaves = test::as_digests(bytes);
      const auto expected = spec_model(leaves, rule);
      INFO("B " << block << ", " << n << " leaves, salted " << salted);
      const auto host = merklize::verity_tree_of(leaves, rule);
      CHECK(host.root == expected.root);
      CHECK(host.levels == expected.levels);
      const merklize::device_tree tree(h, test::uploaded(bytes), merklize::verity_group_rule(rule));
      CHECK(tree.root() == expected.root);
      CHECK(poisoned_layout(tree, block) == expected.levels);
    }
}

TEST_CASE("verity trees on the device: the stored tree read back once",
          "[block-leaves][formats][verity]") {
  auto &h = test::hasher();
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 512, {7, 7}, true, std::nullopt};
  for (const std::uint64_t n : {1u, 17u, 16u * 16 + 1}) {
    const auto bytes = test::random_bytes(static_cast<std::size_t>(n * node_bytes));
    const auto expected = spec_model(test::as_digests(bytes), rule);
    INFO(n << " leaves");
    const auto got = merklize::verity_tree_on_device(h, test::uploaded(bytes), rule, true);
    CHECK(got.root == expected.root);
    CHECK(got.levels == expected.levels);
    const auto root_only = merklize::verity_tree_on_device(h, test::uploaded(bytes), rule, false);
    CHECK(root_only.root == expected.root);
    CHECK(root_only.levels.empty());
  }
}

TEST_CASE("group rules: a bad group refused, a verity tree has no k-ary proofs",
          "[block-leaves][verity]") {
  auto &h = test::hasher();
  merklize::group_rule bad{{merklize::leaf_hash::sha256, 48, {}, true, std::nullopt}};
  const auto bytes = test::random_bytes(3 * node_bytes);
  CHECK_THROWS_WITH(merklize::device_tree(h, test::uploaded(bytes), bad),
                    Contains("a group of 48 bytes: a group rule hashes a power of two"));
  bad.block.block_bytes = 32;
  CHECK_THROWS_WITH(merklize::group_levels_above(test::as_digests(bytes), bad, 0),
                    Contains("a group of 32 bytes"));
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 1024, {}, true, std::nullopt};
  const merklize::device_tree tree(h, test::uploaded(bytes), merklize::verity_group_rule(rule));
  CHECK_THROWS_WITH(tree.prove(0), Contains("a tree of a group rule has no k-ary proofs"));
  CHECK_THROWS_WITH(tree.options(), Contains("has no k-ary options"));
}
