// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine over data blocks (host_blocks.hpp): SHA-256 of many salted blocks against
// OpenSSL (on the SHA extensions and portably), the leaves and trees of --leaf-size, dm-verity
// and fs-verity against their host references (formats/*.hpp) and the real tools (veritysetup
// with and without a superblock's offset, fsverity), at awkward sizes: empty, one byte, a block
// less one, a block, a block and one, whole hash blocks of leaves and one more, several levels;
// from memory, files (read at offsets past 1 MiB) and pipes written in awkward pieces.
#include "format_oracles.hpp"
#include "pipe_input.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/host_blocks.hpp>

#include <catch2/catch.hpp>

#include <openssl/sha.h>

namespace {

using merklize::digest;
using merklize::leaf_rule;

// Sizes around `block`-byte blocks and `per_block` of them a hash block: every edge the trees
// have, the empty input aside.
std::vector<std::uint64_t> block_edges(std::uint64_t block, std::uint64_t per_block) {
  std::vector<std::uint64_t> sizes{1, block - 1, block, block + 1, 2 * block};
  for (const std::uint64_t blocks : {per_block, per_block * per_block})
    for (const std::uint64_t n : {blocks - 1, blocks, blocks + 1})
      sizes.push_back(n * block);
  sizes.push_back(per_block * per_block * block + 5);
  return sizes;
}

std::vector<std::uint8_t> openssl_leaf(const std::vector<std::uint8_t> &prefix,
                                       const std::uint8_t *block, std::uint64_t size,
                                       std::uint64_t padded) {
  std::vector<std::uint8_t> message(prefix);
  message.insert(message.end(), block, block + size);
  message.resize(prefix.size() + std::max(size, padded), 0);
  std::vector<std::uint8_t> d(32);
  SHA256(message.data(), message.size(), d.data());
  return d;
}

// The same digests by OpenSSL, sha256_many's lanes and its portable code.
void check_sha256_many(const std::vector<std::uint8_t> &prefix,
                       const std::vector<std::uint8_t> &data, std::uint64_t block, bool zero_pad) {
  const auto p = merklize::detail::sha256_prefix_of(prefix.data(), prefix.size());
  const std::uint64_t count = merklize::block_count(data.size(), block);
  std::vector<std::uint8_t> fast(32 * count, 0xAA), portable(32 * count, 0x55), want;
  merklize::detail::sha256_block_leaves(p, data.data(), data.size(), block, zero_pad, fast.data());
  merklize::detail::portable_sha256_many(p, count, [&](std::uint64_t i) {
    const std::uint64_t size = std::min(block, data.size() - i * block);
    return merklize::detail::sha256_message{data.data() + i * block, size,
                                            zero_pad ? block - size : 0, portable.data() + 32 * i};
  });
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto d = openssl_leaf(prefix, data.data() + i * block,
                                std::min(block, data.size() - i * block), zero_pad ? block : 0);
    want.insert(want.end(), d.begin(), d.end());
  }
  CHECK(fast == want);
  CHECK(portable == want);
}

// A file of `bytes` in the scratch folder.
test::fs::path file_of(const std::vector<std::uint8_t> &bytes, const std::string &name) {
  return test::write_file(name, bytes);
}

} // namespace

TEST_CASE("host engine: SHA-256 of many salted blocks is OpenSSL's", "[host][blocks]") {
  INFO("the SHA extensions are " << (merklize::detail::sha_extensions_used() ? "" : "not ")
                                 << "used");
  for (const std::size_t salt : {0, 1, 31, 32, 55, 56, 63, 64, 65, 119, 256})
    for (const std::uint64_t block : {1, 55, 56, 64, 65, 128, 4096})
      for (const std::uint64_t size :
           {std::uint64_t(1), block - 1, block, block + 1, 3 * block + 7})
        for (const bool zero_pad : {false, true}) {
          if (size == 0) continue;
          INFO("salt " << salt << ", block " << block << ", size " << size << ", zero_pad "
                       << zero_pad);
          check_sha256_many(test::random_bytes(salt), test::random_bytes(size), block, zero_pad);
        }
}

TEST_CASE("host engine: block leaves and trees are the host reference's", "[host][blocks]") {
  const merklize::hash_kind node =
      GENERATE(merklize::hash_kind::sha256, merklize::hash_kind::blake3);
  const merklize::leaf_hash leaf = GENERATE(
      merklize::leaf_hash::sha256, merklize::leaf_hash::blake3, merklize::leaf_hash::keccak256);
  leaf_rule rule{leaf, 512, {}, false, std::nullopt};
  if (leaf == merklize::leaf_hash::sha256) rule.prefix = test::random_bytes(33);
  const merklize::tree_options options{node, merklize::shape::zero};
  for (const std::uint64_t size :
       {std::uint64_t(1), std::uint64_t(511), std::uint64_t(3 << 20) + 513}) {
    INFO("leaf " << merklize::to_string(leaf) << ", node " << merklize::to_string(node) << ", "
                 << size << " bytes");
    const auto data = test::random_bytes(size);
    const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
    const digest want =
        merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes, options)
            .root();
    merklize::input file(file_of(data, "blocks.bin").string());
    CHECK(merklize::host_block_tree_root(file, rule, options, 3) == want);
    test::pipe_input pipe(data, true);
    CHECK(merklize::host_block_tree_root(pipe.get(), rule, options, 2) == want);
  }
}

TEST_CASE("host engine: dm-verity is the host reference's and veritysetup's", "[host][blocks]") {
  merklize::dm_verity_options options;
  options.data_block_bytes = GENERATE(512, 4096);
  options.hash_block_bytes = 512;
  options.salt =
      GENERATE(std::vector<std::uint8_t>{}, test::random_bytes(32), test::random_bytes(100));
  const bool tool = test::have_veritysetup();
  for (const std::uint64_t size : block_edges(options.data_block_bytes, 16)) {
    if (size % options.data_block_bytes) continue;
    INFO(size << " bytes, data blocks of " << options.data_block_bytes << ", salt of "
              << options.salt.size());
    const auto data = test::random_bytes(size);
    const auto want = merklize::dm_verity_tree(data.data(), data.size(), options);
    const auto path = file_of(data, "dm.img");
    merklize::input file(path.string());
    const auto got = merklize::host_dm_verity_tree(file, options, true, 2);
    CHECK(got.root == want.root);
    CHECK(got.levels == want.levels);
    test::pipe_input pipe(data, true);
    CHECK(merklize::host_dm_verity_tree(pipe.get(), options, false, 3).root == want.root);
    if (!tool) continue;
    const auto real = test::run_veritysetup(path, options);
    CHECK(merklize::to_hex(got.root) == real.root);
    CHECK(test::as_text(got.levels) == real.hash_device);
  }
}

TEST_CASE("host engine: dm-verity refuses what veritysetup would", "[host][blocks]") {
  merklize::dm_verity_options options;
  merklize::input empty(file_of({}, "empty.img").string());
  CHECK_THROWS_WITH(merklize::host_dm_verity_tree(empty, options),
                    Catch::Contains("empty") && Catch::Contains("at least one data block"));
  test::pipe_input partial(test::random_bytes(4096 + 7), true, "the partial pipe");
  CHECK_THROWS_WITH(merklize::host_dm_verity_tree(partial.get(), options),
                    Catch::Contains("the partial pipe") && Catch::Contains("4103 bytes"));
}

TEST_CASE("host engine: fs-verity is the host reference's and fsverity's", "[host][blocks]") {
  merklize::fs_verity_options options;
  options.block_bytes = GENERATE(1024, 4096);
  options.salt =
      GENERATE(std::vector<std::uint8_t>{}, test::random_bytes(5), test::random_bytes(32));
  const bool tool = test::have_fsverity();
  std::vector<std::uint64_t> sizes = block_edges(options.block_bytes, options.block_bytes / 32);
  if (options.block_bytes == 4096) sizes.resize(8); // 4 KiB blocks: two levels at most
  sizes.push_back(0);
  for (const std::uint64_t size : sizes) {
    INFO(size << " bytes, blocks of " << options.block_bytes << ", salt of "
              << options.salt.size());
    const auto data = test::random_bytes(size);
    const auto want = merklize::fs_verity_tree(data.data(), data.size(), options);
    const auto path = file_of(data, "fs.bin");
    merklize::input file(path.string());
    const auto got = merklize::host_fs_verity_tree(file, options, true, 3);
    CHECK(got.file_digest == want.file_digest);
    CHECK(got.tree.levels == want.tree.levels);
    test::pipe_input pipe(data, true);
    CHECK(merklize::host_fs_verity_tree(pipe.get(), options, false, 2).file_digest ==
          want.file_digest);
    if (!tool) continue;
    const auto real = test::run_fsverity(path, options);
    CHECK(merklize::fs_verity_digest_text(got.file_digest) == real.digest);
    CHECK(test::as_text(got.tree.levels) == real.merkle_tree);
  }
}

TEST_CASE("host engine: blocks that do not divide its pieces go to a device", "[host][blocks]") {
  CHECK(merklize::host_engine_hashes_blocks({merklize::leaf_hash::sha256, 4096, {}, false, {}}));
  CHECK(merklize::host_engine_hashes_blocks({merklize::leaf_hash::sha256, 1 << 20, {}, false, {}}));
  CHECK_FALSE(
      merklize::host_engine_hashes_blocks({merklize::leaf_hash::sha256, 2 << 20, {}, false, {}}));
  CHECK_FALSE(
      merklize::host_engine_hashes_blocks({merklize::leaf_hash::sha256, 1000, {}, false, {}}));
  merklize::input in(file_of(test::random_bytes(3000), "odd.bin").string());
  CHECK_THROWS_WITH(
      merklize::host_block_leaves(in, {merklize::leaf_hash::sha256, 1000, {}, false, {}}),
      Catch::Contains("1000-byte"));
}
