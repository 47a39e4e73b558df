// SPDX-License-Identifier: Apache-2.0 OR MIT
// Many small trees at once (many_trees.hpp) against the host reference built tree by tree: every
// root and every level, for every binary node hash, shapes promote and zero, natural and fixed
// depths, at awkward tree sizes (1, 2, 3, 2^k - 1, 2^k, 2^k + 1, the work-group size +- 1) and
// numbers of trees (1, 2, 3, 1000), the level buffer poisoned before each build so a node left
// unwritten shows; from host memory and from a device buffer; and the refusals.
#include "block_helpers.hpp"
#include "proof_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/many_trees.hpp>

#include <catch2/catch.hpp>

#include <cstring>

using Catch::Matchers::Contains;

namespace {

using test::hasher;

using test::random_leaves;

std::vector<merklize::tree_options> binary_trees(std::uint64_t n) {
  std::vector<merklize::tree_options> trees;
  const unsigned natural = merklize::tree_layout(n).depth();
  for (const auto &row : merklize::node_hash_table) {
    trees.push_back({row.kind, merklize::shape::promote});
    if (row.kind == merklize::hash_kind::rfc6962) continue; // shape promote only
    trees.push_back({row.kind, merklize::shape::zero});
    trees.push_back({row.kind, merklize::shape::zero, natural + 2});
  }
  return trees;
}

// The builder's level buffer filled with the poison pattern.
void poison_levels(const merklize::many_trees_builder &b) {
  const std::uint64_t bytes = b.level_buffer().getInfo<CL_MEM_SIZE>();
  const std::vector<std::uint8_t> poison(static_cast<std::size_t>(bytes), test::poison_byte);
  hasher().queue().enqueueWriteBuffer(b.level_buffer(), CL_TRUE, 0, poison.size(), poison.data());
}

// Every tree's root and levels equal the reference tree of its own leaves.
void check_against_reference(const merklize::many_levels &built,
                             const std::vector<merklize::digest> &leaves, std::uint64_t n,
                             const merklize::tree_options &options) {
  const std::uint64_t trees = leaves.size() / n;
  REQUIRE(built.roots.size() == trees);
  for (std::uint64_t k = 0; k < trees; ++k) {
    INFO("tree " << k);
    const merklize::tree expected =
        merklize::reference_tree(leaves.data() + k * n, n * merklize::node_bytes, options);
    REQUIRE(built.roots[k] == expected.root());
    REQUIRE(built.levels.size() == expected.depth() + 1);
    for (unsigned level = 0; level <= expected.depth(); ++level) {
      const std::vector<merklize::digest> &want = expected.level(level);
      for (std::uint64_t i = 0; i < want.size(); ++i)
        REQUIRE(built.node(level, k, i) == want[i]);
    }
  }
}

void check_sizes(const std::vector<std::uint64_t> &sizes, const std::vector<std::uint64_t> &counts,
                 bool every_tree_kind) {
  for (const std::uint64_t n : sizes)
    for (const std::uint64_t trees : counts)
      for (const merklize::tree_options &options : binary_trees(n)) {
        if (!every_tree_kind && options.shape == merklize::shape::zero && !options.depth) continue;
        INFO("n=" << n << " B=" << trees << " " << merklize::to_string(options.hash) << " "
                  << merklize::to_string(options.shape) << " depth "
                  << (options.depth ? std::to_string(*options.depth) : "natural"));
        const auto leaves = random_leaves(n * trees);
        merklize::many_trees_builder b(hasher(), merklize::config{options});
        const auto roots = b.roots(leaves.data(), leaves.size() * merklize::node_bytes, n);
        poison_levels(b);
        const auto built = b.levels(leaves.data(), leaves.size() * merklize::node_bytes, n);
        CHECK(roots == built.roots);
        check_against_reference(built, leaves, n, options);
      }
}

} // namespace

TEST_CASE("many small trees equal the reference tree by tree", "[many]") {
  const std::size_t wg = merklize::many_trees_builder(hasher(), {}).settings().local_size;
  check_sizes({1, 2, 3, 7, 8, 9, 255, 256, 257, wg - 1, wg, wg + 1}, {1, 2, 3}, true);
}

TEST_CASE("a thousand small trees equal the reference tree by tree", "[many]") {
  check_sizes({1, 3, 8, 9, 256}, {1000}, false);
}

TEST_CASE("many trees from a device buffer equal those from host memory", "[many]") {
  auto &h = hasher();
  const merklize::config cfg{{merklize::hash_kind::blake3_parent, merklize::shape::zero}};
  const std::uint64_t n = 12; // two levels by the runner, then merkle_many_level
  const auto leaves = random_leaves(n * 37);
  const std::vector<merklize::digest> original = leaves;
  const cl::Buffer on_device(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             leaves.size() * 32, const_cast<merklize::digest *>(leaves.data()));
  const auto from_host = merklize::roots_many(h, leaves.data(), leaves.size() * 32, n, cfg);
  CHECK(merklize::roots_many(h, on_device, leaves.size(), n, cfg) == from_host);
  CHECK(leaves == original);
  // The engine's own tree of one run of leaves: device_tree's root.
  const std::vector<std::uint8_t> bytes(
      reinterpret_cast<const std::uint8_t *>(leaves.data() + 5 * n),
      reinterpret_cast<const std::uint8_t *>(leaves.data() + 6 * n));
  CHECK(merklize::device_tree(h, test::uploaded(bytes), cfg).root() == from_host[5]);
}

TEST_CASE("many trees refuse what is no whole number of trees", "[many]") {
  auto &h = hasher();
  const merklize::config cfg{{merklize::hash_kind::sha256}};
  const auto leaves = random_leaves(10);
  const auto roots = [&](std::uint64_t bytes, std::uint64_t n, const merklize::config &c) {
    return merklize::roots_many(h, leaves.data(), bytes, n, c);
  };
  CHECK_THROWS_WITH(roots(320, 0, cfg), Contains("tree_size is 0"));
  CHECK_THROWS_WITH(roots(319, 5, cfg), Contains("not a multiple of 32 (31 bytes left over)"));
  CHECK_THROWS_WITH(roots(0, 5, cfg), Contains("no leaves"));
  CHECK_THROWS_WITH(roots(320, 3, cfg), Contains("3 trees and 1 leaves left over"));
  CHECK_THROWS_WITH(roots(320, 5, {{merklize::hash_kind::sha256, merklize::shape::zero, 2}}),
                    Contains("cannot hold 5 leaves"));
  CHECK_THROWS_WITH(roots(320, 5, {{merklize::hash_kind::sha256, merklize::shape::promote, 4}}),
                    Contains("needs shape zero"));
  CHECK_THROWS_WITH(merklize::roots_many(h, nullptr, 320, 5, cfg), Contains("null pointer"));
  const cl::Buffer small(h.context(), CL_MEM_READ_ONLY, 64);
  CHECK_THROWS_WITH(merklize::roots_many(h, small, 10, 5, cfg), Contains("the leaves"));
}
