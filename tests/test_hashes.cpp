// SPDX-License-Identifier: Apache-2.0 OR MIT
// The table of hashes (core/hashes.hpp) walked row by row, so a new row is tested by being
// written: each node hash's device kernels (every one-level kernel, fused and unfused, the lanes
// kernel where the row says it has one) against its host reference at awkward sizes, outputs
// poisoned; its host engine's pair hashers against the same reference; each leaf hash's name
// parsed back. The oracles that our code did not write (OpenSSL, pycryptodome, the published
// vectors) check the host references themselves (test_sha256, test_keccak_host, test_vectors).
#include "helpers.hpp"
#include "host_helpers.hpp"

#include <merklize/core/hashes.hpp>

#include <catch2/catch.hpp>

#include <cstring>

namespace {

const std::uint64_t awkward[] = {1, 2, 3, 4, 5, 7, 31, 33, 63, 65, 255, 257, 1000, 4097};

struct variant {
  merklize::level_kernel_kind kernel;
  unsigned lanes, levels_per_launch;
  std::size_t work_group_size;
};

std::vector<variant> variants_of(const merklize::node_hash_row &row) {
  using k = merklize::level_kernel_kind;
  std::vector<variant> v = {
      {k::subtree, 1, 0, 32}, {k::subtree, 1, 1, 4}, {k::level, 1, 0, 3}, {k::levels, 1, 0, 4}};
  if (row.lanes_node) v.push_back({k::automatic, 4, 0, 4});
  return v;
}

} // namespace

TEST_CASE("every node hash of the table: its kernels against its host reference",
          "[hashes][random]") {
  for (const merklize::node_hash_row &row : merklize::node_hash_table)
    for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
      const merklize::tree_options tree{row.kind, pad};
      if (row.kind == merklize::hash_kind::rfc6962 && pad == merklize::shape::zero) continue;
      for (const variant v : variants_of(row)) {
        merklize::config cfg{tree};
        cfg.level_kernel = v.kernel;
        cfg.lanes = v.lanes;
        cfg.levels_per_launch = v.levels_per_launch;
        cfg.work_group_size = v.work_group_size;
        merklize::merkleizer m(test::test_device(), cfg);
        for (std::uint64_t n : awkward) {
          INFO(row.name << " " << merklize::to_string(pad) << " kernel "
                        << static_cast<int>(v.kernel) << " lanes " << v.lanes << " wg "
                        << v.work_group_size << " n=" << n);
          const auto leaves = test::random_bytes(n * 32);
          const auto want = merklize::reference_tree(leaves.data(), leaves.size(), tree);
          REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(want));
        }
      }
    }
}

TEST_CASE("every node hash of the table: the host engine's pair hashers", "[hashes][host]") {
  const bool sha_ni = merklize::detail::sha_extensions_used(); // else they would not run here
  for (const merklize::node_hash_row &row : merklize::node_hash_table)
    for (const auto pairs : {row.host_pairs, sha_ni ? row.host_pairs_sha_ni : nullptr})
      for (std::uint64_t n : {0, 1, 2, 3, 5, 17}) {
        if (!pairs) continue;
        INFO(row.name << " n=" << n);
        const auto in = test::random_bytes(64 * n);
        std::vector<std::uint8_t> out(32 * n + 32, test::poison_byte); // one node past the end
        pairs(in.data(), out.data(), n);
        for (std::uint64_t i = 0; i < n; ++i) {
          merklize::digest l, r;
          std::memcpy(l.data(), in.data() + 64 * i, 32);
          std::memcpy(r.data(), in.data() + 64 * i + 32, 32);
          const merklize::digest want = row.node(l, r, false);
          REQUIRE(std::equal(want.begin(), want.end(), out.begin() + 32 * i));
        }
        CHECK(out[32 * n] == test::poison_byte);
      }
}

TEST_CASE("the table's names parse back to their rows", "[hashes]") {
  for (const merklize::node_hash_row &row : merklize::node_hash_table) {
    CHECK(merklize::parse_hash_kind(row.name) == row.kind);
    CHECK(row.digest_bytes == merklize::node_bytes);
  }
  for (const merklize::leaf_hash_row &row : merklize::leaf_hash_table)
    CHECK(merklize::parse_leaf_hash(row.name) == row.kind);
  CHECK_THROWS_WITH(merklize::parse_hash_kind("md5"),
                    Catch::Contains("known: " + merklize::hash_names()));
}
