// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host's BLAKE3 node hashes in vector lanes (host_blake3_simd.hpp): every ISA this CPU runs
// against the portable compression at awkward counts around the lane widths, with both node
// rules' flags, outputs poisoned and in place; against the official BLAKE3 vectors (the 64-byte
// input is one blake3 node, the 2048-byte input's root a PARENT | ROOT compression) and against
// b3sum on files of 64 bytes; and the host engine's blake3 roots against the host reference at
// awkward leaf counts and thread counts.
#include "host_helpers.hpp"

#include <merklize/core/host_blake3_simd.hpp>
#include <merklize/core/reference.hpp>
#include <merklize/engine/host_tree.hpp>

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace {

using merklize::digest;
using merklize::detail::blake3_isa;
namespace b3 = merklize::blake3;

// The ISAs this CPU runs, portable first; a warning names those it does not.
std::vector<blake3_isa> isas_here() {
  std::vector<blake3_isa> here;
  for (const blake3_isa isa : {blake3_isa::portable, blake3_isa::avx2, blake3_isa::avx512}) {
    if (merklize::detail::cpu_has_blake3_isa(isa))
      here.push_back(isa);
    else
      WARN("this CPU does not run the " << merklize::detail::to_string(isa) << " code: not tested");
  }
  return here;
}

std::vector<std::uint8_t> official_input(std::size_t length) {
  std::vector<std::uint8_t> input(length);
  for (std::size_t i = 0; i < length; ++i)
    input[i] = static_cast<std::uint8_t>(i % 251);
  return input;
}

std::string official_hash(std::uint64_t input_len) {
  const json::value vectors = json::parse_file(test::vector_path("blake3_official.json"));
  for (const auto &c : vectors["cases"].items)
    if (c["input_len"].u64() == input_len) return c["hash"].str.substr(0, 64);
  FAIL("no official vector of " << input_len << " bytes");
  return {};
}

// A whole chunk's chaining value by the portable compression: 16 blocks, CHUNK_START on the
// first, CHUNK_END on the last, the chunk's index as the counter.
b3::words8 chunk_cv(const std::uint8_t *chunk, std::uint64_t index) {
  b3::words8 cv{b3::iv[0], b3::iv[1], b3::iv[2], b3::iv[3],
                b3::iv[4], b3::iv[5], b3::iv[6], b3::iv[7]};
  for (int j = 0; j < 16; ++j) {
    const std::uint32_t flags = (j == 0 ? b3::chunk_start : 0u) | (j == 15 ? b3::chunk_end : 0u);
    cv = b3::chaining_value(b3::compress(cv, chunk + 64 * j, index, b3::block_len, flags));
  }
  return cv;
}

std::string hex(const std::uint8_t *bytes, std::size_t size) {
  return merklize::to_hex(bytes, size);
}

} // namespace

TEST_CASE("host BLAKE3 in lanes: equals the portable compression at any count", "[host]") {
  // A loop, not GENERATE: Catch 2.13's generators trip AddressSanitizer's stack-use-after-return
  // check (on by default from GCC 13) when a test re-enters with the next value.
  const std::uint32_t every_flags[] = {merklize::detail::blake3_node_flags, b3::parent,
                                       b3::parent | b3::root};
  for (const std::uint32_t flags : every_flags)
    for (const blake3_isa isa : isas_here()) {
      const auto fn = merklize::detail::blake3_blocks_of(isa);
      for (std::uint64_t blocks : {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 255, 256, 257}) {
        INFO(merklize::detail::to_string(isa) << ", " << blocks << " blocks, flags " << flags);
        const auto in = test::random_bytes(64 * blocks + 1); // +1: never empty
        std::vector<std::uint8_t> want(32 * blocks + 32, 0xA5), out(32 * blocks + 32, 0xA5);
        merklize::detail::portable_blake3_blocks(in.data(), want.data(), blocks, flags);
        fn(in.data(), out.data(), blocks, flags);
        REQUIRE(out == want); // the node past the last is still poison in both
        CHECK(out[32 * blocks] == 0xA5);
        auto inplace = in;
        fn(inplace.data(), inplace.data(), blocks, flags);
        CHECK(std::equal(want.begin(), want.begin() + 32 * blocks, inplace.begin()));
      }
    }
}

TEST_CASE("host BLAKE3 in lanes: the official vectors", "[host]") {
  const auto node_input = official_input(64); // BLAKE3 of 64 bytes: one blake3 node
  const auto chunks = official_input(2048);   // two chunks: the root is their parent
  std::uint8_t parent_block[64];
  const digest left = b3::cv_bytes(chunk_cv(chunks.data(), 0)),
               right = b3::cv_bytes(chunk_cv(chunks.data() + 1024, 1));
  std::memcpy(parent_block, left.data(), 32);
  std::memcpy(parent_block + 32, right.data(), 32);
  // 17 copies each: a whole group of lanes and one more, every lane checked.
  std::vector<std::uint8_t> nodes, parents;
  for (int i = 0; i < 17; ++i) {
    nodes.insert(nodes.end(), node_input.begin(), node_input.end());
    parents.insert(parents.end(), parent_block, parent_block + 64);
  }
  const std::string want_node = official_hash(64), want_parent = official_hash(2048);
  for (const blake3_isa isa : isas_here()) {
    INFO(merklize::detail::to_string(isa));
    const auto fn = merklize::detail::blake3_blocks_of(isa);
    std::vector<std::uint8_t> out(32 * 17);
    fn(nodes.data(), out.data(), 17, merklize::detail::blake3_node_flags);
    for (int i = 0; i < 17; ++i)
      CHECK(hex(out.data() + 32 * i, 32) == want_node);
    fn(parents.data(), out.data(), 17, b3::parent | b3::root);
    for (int i = 0; i < 17; ++i)
      CHECK(hex(out.data() + 32 * i, 32) == want_parent);
  }
}

TEST_CASE("host BLAKE3 in lanes: blake3 nodes equal b3sum of each 64-byte pair", "[host]") {
  if (::access("/usr/bin/b3sum", X_OK) != 0) {
    WARN("SKIPPED: /usr/bin/b3sum is not installed (apt-get install b3sum)");
    return;
  }
  const std::uint64_t pairs = 19; // a group of 16 lanes and 3 more, two of 8 and 3
  const auto in = test::random_bytes(64 * pairs);
  const auto dir =
      std::filesystem::temp_directory_path() / ("merklize-b3simd-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string command = "/usr/bin/b3sum --no-names";
  for (std::uint64_t i = 0; i < pairs; ++i) {
    const auto path = dir / std::to_string(i);
    std::FILE *f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    REQUIRE(std::fwrite(in.data() + 64 * i, 1, 64, f) == 64);
    std::fclose(f);
    command += " " + path.string();
  }
  std::vector<std::string> theirs;
  std::FILE *p = ::popen(command.c_str(), "r");
  REQUIRE(p);
  char line[128];
  while (std::fgets(line, sizeof line, p))
    theirs.push_back(std::string(line).substr(0, 64));
  CHECK(::pclose(p) == 0);
  std::filesystem::remove_all(dir);
  REQUIRE(theirs.size() == pairs);
  std::vector<std::uint8_t> out(32 * pairs);
  merklize::detail::blake3_node_pairs(in.data(), out.data(), pairs);
  for (std::uint64_t i = 0; i < pairs; ++i)
    CHECK(hex(out.data() + 32 * i, 32) == theirs[i]);
}

TEST_CASE("host engine: blake3 roots in lanes equal the reference at awkward counts", "[host]") {
  using merklize::hash_kind;
  using merklize::shape;
  using merklize::tree_options;
  for (const std::uint64_t n : {15, 16, 17, 31, 32, 33, 63, 64, 65, 1000}) {
    const auto leaves = test::random_bytes(32 * n);
    for (const tree_options options :
         {tree_options{hash_kind::blake3}, tree_options{hash_kind::blake3, shape::zero}}) {
      INFO(n << " leaves, shape " << merklize::to_string(options.shape));
      const digest want = merklize::reference_tree(leaves.data(), leaves.size(), options).root();
      for (unsigned threads : {1u, 2u, 3u})
        CHECK(merklize::host_root(leaves.data(), leaves.size(), options, threads) == want);
    }
  }
}
