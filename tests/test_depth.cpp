// SPDX-License-Identifier: Apache-2.0 OR MIT
// Fixed depth (SSZ's limit): the root of N leaves padded virtually to 2^D leaves must equal the
// root of a tree whose leaves were really padded with zero leaves, for every node hash, through
// the host reference, the host-buffer API and the device-buffer API; bad depths are errors.
#include "helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

// The oracle: the leaves followed by zero leaves up to 2^depth, hashed for real.
merklize::tree really_padded(const std::vector<std::uint8_t> &leaves, merklize::hash_kind hash,
                             unsigned depth) {
  auto padded = leaves;
  padded.resize((std::size_t(1) << depth) * 32, 0);
  return merklize::reference_tree(padded.data(), padded.size(), {hash});
}

// The stored levels of `t` are the first nodes of the same levels of the padded tree.
void check_stored_levels(const merklize::tree &t, const merklize::tree &padded) {
  for (unsigned k = 0; k <= t.depth(); ++k)
    for (std::uint64_t i = 0; i < t.layout().level_size(k); ++i)
      REQUIRE(t.node(k, i) == padded.node(k, i));
}

} // namespace

TEST_CASE("a fixed depth gives the root of leaves really padded to 2^depth", "[depth]") {
  const auto hash = GENERATE(merklize::hash_kind::sha256, merklize::hash_kind::blake3,
                             merklize::hash_kind::blake3_parent);
  for (std::uint64_t n : {1, 2, 3, 5, 8, 13, 100, 257}) {
    const unsigned natural = merklize::tree_layout(n).depth();
    for (unsigned depth : {natural, natural + 1, natural + 2, 12u}) {
      if (depth < natural) continue;
      INFO(merklize::to_string(hash) << " n=" << n << " depth=" << depth);
      const auto leaves = test::random_bytes(n * 32);
      const auto padded = really_padded(leaves, hash, depth);
      const merklize::tree_options options{hash, merklize::shape::zero, depth};

      const auto reference = merklize::reference_tree(leaves.data(), leaves.size(), options);
      CHECK(reference.depth() == natural);
      CHECK(reference.root_depth() == depth);
      CHECK(reference.root() == padded.root());
      check_stored_levels(reference, padded);

      merklize::merkleizer m(test::test_device(), {options});
      const auto built = m.build(leaves);
      CHECK(built.root() == padded.root());
      check_stored_levels(built, padded);

      const auto nodes = test::device_tree(m, leaves);
      merklize::digest top;
      std::copy(nodes.end() - 32, nodes.end(), top.begin());
      CHECK(merklize::extend_root(hash, top, natural, depth) == padded.root());
    }
  }
}

TEST_CASE("the deepest fixed depth, 64, hashes only 64 - ceil(log2 N) nodes above the tree",
          "[depth]") {
  const auto leaves = test::random_bytes(3 * 32);
  const merklize::tree_options options{merklize::hash_kind::sha256, merklize::shape::zero, 64u};
  const auto t = merklize::reference_tree(leaves.data(), leaves.size(), options);
  auto expected = t.node(2, 0);
  const auto zeros = merklize::zero_subtree_roots(merklize::hash_kind::sha256, 64);
  for (unsigned height = 2; height < 64; ++height)
    expected = merklize::sha256::hash_pair(expected, zeros[height]);
  CHECK(t.root() == expected);
}

TEST_CASE("a bad fixed depth is an error, and nothing is written", "[depth][errors]") {
  const auto leaves = test::random_bytes(5 * 32);
  struct bad {
    merklize::tree_options options;
    std::string message;
  } cases[] = {
      {{merklize::hash_kind::sha256, merklize::shape::promote, 3u}, "needs shape zero"},
      {{merklize::hash_kind::sha256, merklize::shape::zero, 2u},
       "cannot hold 5 leaves: it must be at least ceil(log2 N) = 3"},
      {{merklize::hash_kind::sha256, merklize::shape::zero, 65u}, "more than 64"},
  };
  for (const auto &c : cases) {
    INFO(c.message);
    CHECK_THROWS_WITH(merklize::reference_tree(leaves.data(), leaves.size(), c.options),
                      Contains(c.message));
    merklize::merkleizer m(test::test_device(), {c.options});
    CHECK_THROWS_WITH(m.build(leaves), Contains(c.message));
    cl::Buffer in(m.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, leaves.size(),
                  const_cast<std::uint8_t *>(leaves.data()));
    const std::size_t out_bytes = merklize::merkleizer::output_node_count(5) * 32;
    cl::Buffer out = test::poisoned_buffer(m.context(), m.queue(), out_bytes);
    CHECK_THROWS_WITH(m.enqueue_build(in, 5, out), Contains(c.message));
    const auto after = test::read_buffer(m.queue(), out, out_bytes);
    CHECK(std::all_of(after.begin(), after.end(), [](auto b) { return b == test::poison_byte; }));
  }
  // One leaf takes another path on the device: a copy, not a kernel.
  merklize::merkleizer one(test::test_device(),
                           {{merklize::hash_kind::sha256, merklize::shape::promote, 0u}});
  cl::Buffer leaf(one.context(), CL_MEM_READ_WRITE, 32);
  cl::Buffer root = test::poisoned_buffer(one.context(), one.queue(), 32);
  CHECK_THROWS_WITH(one.enqueue_build(leaf, 1, root), Contains("needs shape zero"));
}
