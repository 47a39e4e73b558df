// SPDX-License-Identifier: Apache-2.0 OR MIT
// The table of hashes (core/hashes.hpp) walked row by row, so a new row is tested by being
// written: each node hash's device kernels (every one-level kernel, fused and unfused, the lanes
// kernel where the row says it has one) against its host reference at awkward sizes, outputs
// poisoned; its host engine's pair hashers against the same reference; each leaf hash's name
// parsed back. The oracles that our code did not write (OpenSSL, pycryptodome, the published
// vectors) check the host references themselves (test_sha256, test_keccak_host, test_vectors).
#include "helpers.hpp"
#include "host_helpers.hpp"

#include <merklize/core/block_leaves.hpp>
#include <merklize/core/hashes.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <string_view>

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

TEST_CASE("every leaf hash of the table: block leaves by its family, against its reference",
          "[hashes]") {
  for (const merklize::leaf_hash_row &row : merklize::leaf_hash_table)
    for (std::uint64_t size : {1, 135, 136, 137, 1000, 4096}) {
      INFO(row.name << " blocks of " << size << " bytes");
      const auto data = test::random_bytes(2 * size + 1); // two blocks and one byte
      const merklize::leaf_rule rule{row.kind, size, {}, false, std::nullopt};
      const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
      REQUIRE(leaves.size() == 3);
      CHECK(leaves[0] == row.hash(data.data(), size));
      CHECK(leaves[1] == row.hash(data.data() + size, size));
      CHECK(leaves[2] == row.hash(data.data() + 2 * size, 1));
    }
}

TEST_CASE("the help names every hash of the table", "[hashes]") {
  for (const merklize::node_hash_row &row : merklize::node_hash_table)
    CHECK_THAT(merklize::hash_help(),
               Catch::Contains(std::string(row.name) + " (" + row.about + ")"));
  for (const merklize::leaf_hash_row &row : merklize::leaf_hash_table)
    CHECK_THAT(merklize::leaf_hash_list(), Catch::Contains(row.name));
  CHECK(merklize::hash_list([](const merklize::node_hash_row &row) {
          return row.kind == merklize::hash_kind::sha256 ||
                 row.kind == merklize::hash_kind::rfc6962;
        }) == "sha256 or rfc6962");
}

TEST_CASE("a row says only what differs from the defaults", "[hashes]") {
  using merklize::hash_kind;
  constexpr merklize::node_hash_row bare = merklize::hash_row(hash_kind::sha256, "h", "about h");
  static_assert(bare.digest_bytes == 32 && !bare.root_flag && !bare.lanes_node &&
                    bare.tuning == merklize::tuning_class::standard && !bare.non_canonical &&
                    !bare.mmcs && std::string_view(bare.kernel_options).empty(),
                "a bare row is a 32-byte hash of bytes with the default tuning");
  constexpr merklize::node_hash_row lanes = bare.in_lanes("h").on_device("h.cl", "h_node", "m-h");
  static_assert(std::string_view(lanes.lanes_node) == "h" && !lanes.lanes_file &&
                    std::string_view(lanes.kernel_file) == "h.cl",
                "each call sets its fields and keeps the others");
  // Every row of the table says what each layer reads.
  for (const merklize::node_hash_row &row : merklize::node_hash_table) {
    INFO(row.name);
    CHECK(row.about);
    CHECK(row.kernel_file);
    CHECK(row.kernel_function);
    CHECK(row.program_name);
    CHECK(row.node);
    CHECK((row.non_canonical != nullptr) == (row.no_blocks != nullptr));
    CHECK((row.mmcs == nullptr || row.non_canonical != nullptr)); // a commitment of field elements
  }
}

TEST_CASE("the matrix commitments' hashes come from the table", "[hashes]") {
  using merklize::hash_kind;
  CHECK(merklize::mmcs_instance_of(hash_kind::poseidon2_babybear) ==
        &merklize::poseidon2::babybear_16);
  CHECK(merklize::mmcs_instance_of(hash_kind::poseidon2_koalabear) ==
        &merklize::poseidon2::koalabear_16);
  CHECK(merklize::mmcs_instance_of(hash_kind::poseidon2_goldilocks) ==
        &merklize::poseidon2::goldilocks_8);
  CHECK(merklize::mmcs_instance_of(hash_kind::sha256) == nullptr);
  CHECK(merklize::mmcs_instance_of(hash_kind::poseidon2_bn254) == nullptr);
  CHECK(merklize::mmcs_refusal(hash_kind::poseidon2_bn254) ==
        "poseidon2-bn254 has no matrix commitment here yet");
  CHECK(merklize::mmcs_refusal(hash_kind::keccak256) ==
        "keccak256 is not a hash over field elements");
  CHECK(merklize::mmcs_hash_names() ==
        "poseidon2-babybear, poseidon2-koalabear or poseidon2-goldilocks");
}
