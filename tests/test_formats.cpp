// SPDX-License-Identifier: Apache-2.0 OR MIT
// The formats' host references (formats/*.hpp) against the real tools on the same files:
// veritysetup for dm-verity, fsverity for fs-verity, b3sum and an independent Python model
// (tests/bao_model.py) for Bao outboards. Sizes sit on both sides of every level boundary.
#include "format_oracles.hpp"
#include "helpers.hpp"

#include <merklize/core/block_leaves.hpp>
#include <merklize/formats/dm_verity_superblock.hpp>

using Catch::Matchers::Contains;

namespace {

// Data block counts on both sides of each level boundary of a tree with `per` digests a hash
// block, no more than `max_blocks`.
std::vector<std::uint64_t> boundary_counts(std::uint64_t per, std::uint64_t max_blocks) {
  std::vector<std::uint64_t> counts = {1, 2, 3};
  for (std::uint64_t edge = per; edge <= max_blocks; edge *= per)
    for (std::uint64_t n : {edge - 1, edge, edge + 1})
      if (n > 3 && n <= max_blocks) counts.push_back(n);
  return counts;
}

const std::vector<std::vector<std::uint8_t>> salts = {
    {}, {0xab}, test::random_bytes(32), test::random_bytes(100)};

// dm-verity's options of these block sizes and the salt_index-th of the salts above.
merklize::dm_verity_options dm_options(std::uint64_t data_block, std::uint64_t hash_block,
                                       std::size_t salt_index) {
  merklize::dm_verity_options options;
  options.data_block_bytes = data_block;
  options.hash_block_bytes = hash_block;
  options.salt = salts[salt_index % salts.size()];
  return options;
}

std::string describe(const merklize::dm_verity_options &options, std::uint64_t blocks) {
  return "data block " + std::to_string(options.data_block_bytes) + ", hash block " +
         std::to_string(options.hash_block_bytes) + ", " + std::to_string(blocks) +
         " data blocks, salt " + test::salt_hex(options.salt);
}

} // namespace

TEST_CASE("block leaves: SHA-256 of prefix and block, BLAKE3 plain and keyed", "[formats]") {
  const auto data = test::random_bytes(1000);
  merklize::leaf_rule rule;
  rule.block_bytes = 300;
  rule.prefix = {1, 2, 3};
  const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
  REQUIRE(leaves.size() == 4);
  std::vector<std::uint8_t> last = rule.prefix;
  last.insert(last.end(), data.begin() + 900, data.end()); // 100 bytes, not padded
  CHECK(leaves[3] == merklize::sha256::hash(last.data(), last.size()));
  rule.zero_pad = true;
  last.resize(last.size() + 200, 0);
  CHECK(merklize::block_leaves(rule, data.data(), data.size())[3] ==
        merklize::sha256::hash(last.data(), last.size()));

  merklize::leaf_rule b3{merklize::leaf_hash::blake3, 2049, {}, false, std::nullopt};
  CHECK(merklize::block_leaves(b3, data.data(), data.size()).front() ==
        merklize::blake3::hash(data.data(), data.size()));
  b3.key.emplace();
  for (std::size_t i = 0; i < b3.key->size(); ++i)
    (*b3.key)[i] = static_cast<std::uint8_t>(i);
  CHECK(merklize::block_leaves(b3, data.data(), data.size()).front() ==
        merklize::blake3::keyed_hash(b3.key->data(), data.data(), data.size()));
}

TEST_CASE("block leaves: bad rules are refused, naming the field", "[formats]") {
  const std::uint8_t byte = 0;
  merklize::leaf_rule rule;
  rule.block_bytes = 0;
  CHECK_THROWS_WITH(merklize::block_leaves(rule, &byte, 1), Contains("leaf size is 0"));
  rule.block_bytes = 64;
  CHECK_THROWS_WITH(merklize::block_leaves(rule, &byte, 0), Contains("no data"));
  rule.prefix.assign(257, 0);
  CHECK_THROWS_WITH(merklize::block_leaves(rule, &byte, 1), Contains("more than 256"));
  rule.prefix = {1};
  rule.hash = merklize::leaf_hash::blake3;
  CHECK_THROWS_WITH(merklize::block_leaves(rule, &byte, 1), Contains("takes no prefix"));
}

TEST_CASE("dm-verity: the root and hash device veritysetup writes", "[formats][dm-verity]") {
  if (!test::have_veritysetup()) return;
  const std::pair<std::uint64_t, std::uint64_t> block_sizes[] = {
      {4096, 4096}, {512, 512}, {1024, 512}, {512, 4096}};
  std::size_t salt_index = 0;
  for (const auto &[data_block, hash_block] : block_sizes)
    for (std::uint64_t blocks : boundary_counts(hash_block / 32, (4u << 20) / data_block)) {
      const auto options = dm_options(data_block, hash_block, salt_index++);
      const auto data = test::random_bytes(blocks * data_block);
      const auto file = test::write_file("dm-verity.data", data);
      INFO(describe(options, blocks));
      const auto theirs = test::run_veritysetup(file, options);
      const auto ours = merklize::dm_verity_tree(data.data(), data.size(), options);
      CHECK(merklize::to_hex(ours.root) == theirs.root);
      CHECK(test::as_text(ours.levels) == theirs.hash_device);
    }
}

TEST_CASE("dm-verity: the superblock and hash device veritysetup format writes by default",
          "[formats][dm-verity]") {
  if (!test::have_veritysetup()) return;
  const std::string uuid = "6d65726b-6c69-4a65-8000-0123456789ab";
  const std::pair<std::uint64_t, std::uint64_t> block_sizes[] = {
      {4096, 4096}, {512, 512}, {4096, 1024}};
  std::size_t salt_index = 0;
  for (const auto &[data_block, hash_block] : block_sizes)
    for (std::uint64_t blocks : {1u, 2u, 300u}) {
      const auto options = dm_options(data_block, hash_block, salt_index++);
      const auto data = test::random_bytes(blocks * data_block);
      const auto file = test::write_file("dm-verity-sb.data", data);
      INFO(describe(options, blocks));
      const auto theirs = test::run_veritysetup_superblock(
          file, test::scratch_dir() / "dm-verity-sb.hashes", options, uuid);
      const auto tree = merklize::dm_verity_tree(data.data(), data.size(), options);
      std::string ours(merklize::dm_verity_tree_offset(options), '\0');
      const auto sb =
          merklize::dm_verity_superblock_of(options, blocks, merklize::parse_uuid(uuid));
      std::copy(sb.begin(), sb.end(), ours.begin());
      ours += test::as_text(tree.levels);
      CHECK(ours == theirs.hash_device);
    }
}

TEST_CASE("dm-verity: UUIDs are read and written as veritysetup shows them", "[formats]") {
  const auto uuid = merklize::parse_uuid("0C7CAAF2-9f6f-4c7e-80ac-d84b1ac5308b");
  CHECK(merklize::uuid_text(uuid) == "0c7caaf2-9f6f-4c7e-80ac-d84b1ac5308b");
  for (const char *bad :
       {"", "0c7caaf2-9f6f-4c7e-80ac-d84b1ac5308", "0c7caaf29f6f4c7e80acd84b1ac5308b12",
        "0c7caaf2-9f6f-4c7e-80ac+d84b1ac5308b", "0c7caaf2-9f6f-4c7e-80ac-d84b1ac5308g"})
    CHECK_THROWS_WITH(merklize::parse_uuid(bad), Contains("is not 32 hex digits"));
  merklize::uuid_bytes random{};
  random.fill(0xff);
  // Version 4, variant 10: as RFC 4122 4.4 makes a random UUID.
  CHECK(merklize::uuid_text(merklize::random_uuid(random)) ==
        "ffffffff-ffff-4fff-bfff-ffffffffffff");
}

TEST_CASE("dm-verity: what veritysetup would truncate or refuse is refused", "[formats]") {
  merklize::dm_verity_options options;
  const auto data = test::random_bytes(4096 + 100);
  CHECK_THROWS_WITH(merklize::dm_verity_tree(data.data(), data.size(), options),
                    Contains("not a whole number of 4096-byte data blocks") &&
                        Contains("ignore the last 100 bytes"));
  CHECK_THROWS_WITH(merklize::dm_verity_tree(data.data(), 0, options), Contains("is empty"));
  options.hash_block_bytes = 1000;
  CHECK_THROWS_WITH(merklize::dm_verity_tree(data.data(), 4096, options),
                    Contains("hash block size is 1000"));
  options.hash_block_bytes = 4096;
  options.salt.assign(257, 1);
  CHECK_THROWS_WITH(merklize::dm_verity_tree(data.data(), 4096, options),
                    Contains("salt is 257 bytes"));
}

TEST_CASE("fs-verity: the digest and Merkle tree fsverity writes", "[formats][fs-verity]") {
  if (!test::have_fsverity()) return;
  std::size_t salt_index = 0;
  for (std::uint64_t block : {4096u, 1024u, 64u}) {
    std::vector<std::uint64_t> sizes = {0, 1, block - 1};
    for (std::uint64_t n : boundary_counts(block / 32, (2u << 20) / block))
      for (std::uint64_t size : {n * block - 1, n * block, n * block + 1})
        if (size > block) sizes.push_back(size);
    for (std::uint64_t size : sizes) {
      merklize::fs_verity_options options;
      options.block_bytes = block;
      options.salt = salts[salt_index++ % 3]; // fs-verity salts hold at most 32 bytes
      const auto data = test::random_bytes(size);
      const auto file = test::write_file("fs-verity.data", data);
      INFO("block " << block << ", " << size << " bytes, salt " << test::salt_hex(options.salt));
      const auto theirs = test::run_fsverity(file, options);
      const auto ours = merklize::fs_verity_tree(data.data(), data.size(), options);
      CHECK(merklize::fs_verity_digest_text(ours.file_digest) == theirs.digest);
      CHECK(test::as_text(ours.tree.levels) == theirs.merkle_tree);
    }
  }
}

TEST_CASE("fs-verity: bad block sizes and salts are refused", "[formats]") {
  merklize::fs_verity_options options;
  options.block_bytes = 32;
  CHECK_THROWS_WITH(merklize::fs_verity_tree(nullptr, 0, options), Contains("block size is 32"));
  options.block_bytes = 4096;
  options.salt.assign(33, 0);
  CHECK_THROWS_WITH(merklize::fs_verity_tree(nullptr, 0, options), Contains("salt is 33 bytes"));
}

TEST_CASE("Bao outboard: the Python model's bytes, b3sum's root", "[formats][bao]") {
  if (!test::have_python()) return;
  const bool b3sum = test::have_tool("/usr/bin/b3sum", "b3sum");
  for (std::uint64_t size : {0u, 1u, 1023u, 1024u, 1025u, 2048u, 2049u, 3072u, 3073u, 4096u, 5121u,
                             8192u, 8193u, 16385u, 31745u}) {
    const auto data = test::random_bytes(size);
    const auto file = test::write_file("bao.data", data);
    INFO(size << " bytes");
    const auto ours = merklize::bao_outboard_of(data.data(), data.size());
    CHECK(ours.bytes.size() == merklize::bao_outboard_bytes(size));
    const auto model = test::run_bao_model(file);
    CHECK(test::as_text(ours.bytes) == model.outboard);
    CHECK(merklize::to_hex(ours.root) == model.root);
    CHECK(ours.root == merklize::blake3::hash(data.data(), data.size()));
    if (b3sum)
      CHECK(test::run_program({"/usr/bin/b3sum", "--no-names", file.string()}).out ==
            merklize::to_hex(ours.root) + "\n");
  }
}

TEST_CASE("Bao outboard: the spec's example of 2049 zero bytes", "[formats][bao]") {
  const std::vector<std::uint8_t> zeros(2049, 0);
  const auto outboard = merklize::bao_outboard_of(zeros.data(), zeros.size()).bytes;
  // The spec shows the length, the root parent node a04fc7...c37466..., the left one 91715a...
  REQUIRE(outboard.size() == 8 + 2 * 64);
  CHECK(merklize::to_hex(outboard.data(), 8) == "0108000000000000");
  CHECK(merklize::to_hex(outboard.data() + 8, 3) == "a04fc7");
  CHECK(merklize::to_hex(outboard.data() + 40, 3) == "c37466");
  CHECK(merklize::to_hex(outboard.data() + 72, 3) == "91715a");
}
