// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine's trees of groups (host_groups.hpp) and their proofs against the host
// reference's (core/kary.hpp's group_levels_above, kary_root and kary_prove): every k-ary hash,
// shapes promote and zero, arities 2 to 128, at the edges of a group, of the subtrees a piece of 1
// MiB holds whole (k^j leaves) and of the pieces themselves; from memory (roots and proofs), files
// (read at offsets past 1 MiB) and pipes written in awkward pieces; a salted, zero-padded rule as
// dm-verity's; empty and partial inputs.
#include "host_helpers.hpp"
#include "pipe_input.hpp"
#include "process.hpp"

#include <merklize/engine/host_groups.hpp>

#include <catch2/catch.hpp>

namespace {

using merklize::digest;
using merklize::hash_kind;
using merklize::kary_options;
using merklize::shape;

constexpr std::uint64_t piece = std::uint64_t(1) << 15; // leaves in the host engine's 1 MiB

std::vector<digest> digests_of(const std::vector<std::uint8_t> &bytes) {
  std::vector<digest> out(bytes.size() / 32);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// The leaf counts at each edge of arity k: a group, k^j (a piece's subtrees), a piece.
std::vector<std::uint64_t> edges(unsigned k) {
  const std::uint64_t subtree = merklize::detail::host_group_subtree_leaves(k);
  std::vector<std::uint64_t> n = {1, 2, 3, k - 1, k, k + 1};
  for (const std::uint64_t edge : {subtree, piece, 2 * piece})
    for (const std::uint64_t m : {edge - 1, edge, edge + 1})
      n.push_back(m);
  if (subtree * k <= 4 * piece) n.push_back(subtree * k + 1); // levels above the subtrees
  return n;
}

digest root_of_file(const std::vector<std::uint8_t> &leaves, const kary_options &options,
                    unsigned threads) {
  const std::string path = test::write_file("host-groups.leaves", leaves).string();
  merklize::input file(path, "leaves.bin"); // over 1 MiB: read at offsets; else as a stream
  return merklize::host_group_root(file, merklize::group_rule_of(options), threads);
}

} // namespace

TEST_CASE("host groups: k-ary roots from files equal the host reference's at every edge",
          "[host][kary]") {
  const unsigned k = GENERATE(2u, 4u, 8u, 16u, 32u, 128u);
  const shape pad = GENERATE(shape::promote, shape::zero);
  for (const std::uint64_t n : edges(k)) {
    const kary_options options{hash_kind::sha256, k, pad};
    INFO("arity " << k << ", " << merklize::to_string(pad) << ", " << n << " leaves");
    const auto leaves = test::random_bytes(32 * n);
    const digest want = merklize::kary_root(digests_of(leaves), options);
    CHECK(root_of_file(leaves, options, 3) == want);
    CHECK(merklize::host_group_root(leaves.data(), n, merklize::group_rule_of(options), 2) == want);
  }
}

TEST_CASE("host groups: k-ary proofs equal the host reference's, leaf by leaf at every edge",
          "[host][kary]") {
  const unsigned k = GENERATE(2u, 16u, 128u);
  const shape pad = GENERATE(shape::promote, shape::zero);
  const std::uint64_t subtree = merklize::detail::host_group_subtree_leaves(k);
  for (const std::uint64_t n : edges(k)) {
    const kary_options options{hash_kind::sha256, k, pad};
    const auto leaves = test::random_bytes(32 * n);
    const auto levels = merklize::kary_levels(digests_of(leaves), options);
    const std::string path = test::write_file("host-groups.leaves", leaves).string();
    for (const std::uint64_t index : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(k), n / 2,
                                      subtree - 1, subtree, piece + 1, n - 1}) {
      if (index >= n) continue;
      INFO("arity " << k << ", " << merklize::to_string(pad) << ", leaf " << index << " of " << n);
      const merklize::kary_proof want = merklize::kary_prove(levels, options, index);
      merklize::input file(path, "leaves.bin");
      const merklize::kary_proof got = merklize::host_prove(file, options, index, 3);
      CHECK(got.leaf_count == want.leaf_count);
      CHECK(got.index == want.index);
      CHECK(got.siblings == want.siblings);
      CHECK(merklize::kary_verify(got, levels.front()[index], levels.back().front()));
      const merklize::kary_proof in_memory =
          merklize::host_prove(leaves.data(), n, options, index, 3);
      CHECK(in_memory.leaf_count == want.leaf_count);
      CHECK(in_memory.siblings == want.siblings);
    }
  }
  const auto five = test::random_bytes(32 * 5);
  CHECK_THROWS_WITH(merklize::host_prove(five.data(), 5, kary_options{hash_kind::sha256, 4}, 5),
                    Catch::Contains("leaf index 5 out of range"));
  test::pipe_input pipe(test::random_bytes(32 * 5), false, "a pipe");
  CHECK_THROWS_WITH(merklize::host_prove(pipe.get(), kary_options{hash_kind::sha256, 4}, 5),
                    Catch::Contains("leaf index 5 out of range"));
}

TEST_CASE("host groups: every k-ary hash, through pipes cut anywhere", "[host][kary][stdin]") {
  const hash_kind hash =
      GENERATE(hash_kind::sha256, hash_kind::blake3, hash_kind::keccak256, hash_kind::sha3_256);
  const shape pad = GENERATE(shape::promote, shape::zero);
  for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(17), piece + 3}) {
    const kary_options options{hash, 16, pad};
    INFO(merklize::to_string(hash) << ", " << merklize::to_string(pad) << ", " << n << " leaves");
    const auto leaves = test::random_bytes(32 * n);
    const digest want = merklize::kary_root(digests_of(leaves), options);
    for (const test::pipe_writes writes :
         {test::pipe_writes::in_pieces(4097), test::pipe_writes::trickle(),
          test::pipe_writes::widened_at_once()}) {
      test::pipe_input pipe(leaves, writes);
      CHECK(merklize::host_group_root(pipe.get(), merklize::group_rule_of(options), 2) == want);
    }
  }
}

TEST_CASE("host groups: a salted rule that pads its groups with zero bytes, from memory",
          "[host][kary]") {
  merklize::group_rule rule;
  rule.block = {merklize::leaf_hash::sha256, 4096, {1, 2, 3, 4}, true, std::nullopt};
  for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(127), std::uint64_t(128),
                                std::uint64_t(129), std::uint64_t(128 * 128 + 1)}) {
    INFO(n << " leaves");
    const auto leaves = test::random_bytes(32 * n);
    const digest want = merklize::group_levels_above(digests_of(leaves), rule, 0).back().front();
    CHECK(merklize::host_group_root(leaves.data(), n, rule, 3) == want);
  }
}

TEST_CASE("host groups: empty and partial inputs are refused, naming the input", "[host][kary]") {
  const merklize::group_rule rule = merklize::group_rule_of({hash_kind::sha256, 8});
  test::pipe_input empty(std::vector<std::uint8_t>{}, false, "an empty pipe");
  CHECK_THROWS_WITH(merklize::host_group_root(empty.get(), rule, 2),
                    Catch::Contains("an empty pipe") && Catch::Contains("no leaves"));
  for (const std::uint64_t bytes : {std::uint64_t(5), 32 * piece + 5}) {
    test::pipe_input odd(test::random_bytes(bytes), false, "a pipe");
    CHECK_THROWS_WITH(merklize::host_group_root(odd.get(), rule, 2),
                      Catch::Contains("a pipe") && Catch::Contains("not a multiple of 32"));
  }
  CHECK_THROWS_WITH(merklize::host_group_root(nullptr, 0, rule), Catch::Contains("no leaves"));
}
