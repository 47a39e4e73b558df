// SPDX-License-Identifier: Apache-2.0 OR MIT
// Leaves hashed from data blocks on the device (block_hasher.hpp) and the trees built from them
// (block_tree.hpp), against the host references (block_leaves.hpp, formats/*.hpp) at awkward
// sizes: device buffers into poisoned outputs, files and pipes streamed in several pieces. Keccak
// leaves also against OpenSSL's SHA3-256 and the published vectors, and keccak.cl's
// permutation-only kernel against the host permutation.
#include "block_helpers.hpp"
#include "format_oracles.hpp"
#include "helpers.hpp"
#include "pipe_input.hpp"

#include <merklize/engine/block_tree.hpp>

#include <openssl/evp.h>

#include <cstring>

using Catch::Matchers::Contains;

namespace {

using test::as_digests;
using test::hasher;

// The leaves of `data` hashed on the device from device buffers, written from node `first` on
// into a poisoned buffer with a poisoned node after them, which must stay poisoned.
std::vector<merklize::digest> device_leaves(const merklize::leaf_rule &rule,
                                            const std::vector<std::uint8_t> &data,
                                            std::uint64_t in_offset = 3, std::uint64_t first = 2) {
  auto &h = hasher();
  std::vector<std::uint8_t> padded(in_offset, 0x5a);
  padded.insert(padded.end(), data.begin(), data.end());
  const cl::Buffer in(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, padded.size(),
                      padded.data());
  const std::uint64_t count = merklize::block_count(data.size(), rule.block_bytes);
  const std::size_t out_bytes = (first + count + 1) * merklize::node_bytes;
  const cl::Buffer out = test::poisoned_buffer(h.context(), h.queue(), out_bytes);
  h.enqueue_leaves(rule, in, in_offset, data.size(), out, first).wait();
  const auto got = test::read_buffer(h.queue(), out, out_bytes);
  for (std::size_t i = 0; i < merklize::node_bytes; ++i) {
    REQUIRE(got[i] == test::poison_byte);                                     // before
    REQUIRE(got[got.size() - merklize::node_bytes + i] == test::poison_byte); // after
  }
  return as_digests({got.begin() + static_cast<std::ptrdiff_t>(first * merklize::node_bytes),
                     got.end() - merklize::node_bytes});
}

merklize::leaf_rule sha256_rule(std::uint64_t block, std::vector<std::uint8_t> prefix, bool pad) {
  return {merklize::leaf_hash::sha256, block, std::move(prefix), pad, std::nullopt};
}

} // namespace

TEST_CASE("device SHA-256 block leaves match the host's", "[block-leaves]") {
  for (std::uint64_t block : {1u, 55u, 56u, 63u, 64u, 65u, 119u, 120u, 4096u})
    for (std::size_t prefix : {0u, 3u, 4u, 32u, 64u, 100u})
      for (bool pad : {false, true}) {
        const auto rule = sha256_rule(block, test::random_bytes(prefix), pad);
        const auto data = test::random_bytes(block * 3 + block / 2 + 1);
        INFO("L " << block << ", prefix " << prefix << " bytes, zero_pad " << pad);
        CHECK(device_leaves(rule, data) == merklize::block_leaves(rule, data.data(), data.size()));
      }
}

TEST_CASE("device BLAKE3 block leaves and chunk chaining values match the host's",
          "[block-leaves]") {
  std::array<std::uint8_t, 32> key;
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<std::uint8_t>(7 * i);
  for (std::uint64_t block : {1u, 64u, 65u, 1024u, 1025u, 2048u, 3073u, 5000u})
    for (bool keyed : {false, true})
      for (bool pad : {false, true}) {
        merklize::leaf_rule rule{merklize::leaf_hash::blake3, block, {}, pad, std::nullopt};
        if (keyed) rule.key = key;
        const auto data = test::random_bytes(block * 2 + block / 3 + 1);
        INFO("L " << block << ", keyed " << keyed << ", zero_pad " << pad);
        CHECK(device_leaves(rule, data) == merklize::block_leaves(rule, data.data(), data.size()));
      }
  auto &h = hasher();
  const auto data = test::random_bytes(5 * 1024 + 17);
  const cl::Buffer in(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size(),
                      const_cast<std::uint8_t *>(data.data()));
  const cl::Buffer out = test::poisoned_buffer(h.context(), h.queue(), 6 * 32);
  h.enqueue_chunk_cvs(in, data.size(), 0, out, 0).wait();
  CHECK(as_digests(test::read_buffer(h.queue(), out, 6 * 32)) ==
        merklize::bao_chunk_cvs(data.data(), data.size()));
}

TEST_CASE("device Keccak-256 and SHA3-256 block leaves match the host's and OpenSSL's",
          "[block-leaves][keccak]") {
  // Block sizes around the rate (136) and its multiples, data aligned to 4 bytes and not.
  for (auto hash : {merklize::leaf_hash::keccak256, merklize::leaf_hash::sha3_256})
    for (std::uint64_t block :
         {1u, 7u, 8u, 63u, 64u, 135u, 136u, 137u, 271u, 272u, 273u, 1000u, 4096u})
      for (std::uint64_t in_offset : {0u, 3u, 4u})
        for (bool pad : {false, true}) {
          const merklize::leaf_rule rule{hash, block, {}, pad, std::nullopt};
          const auto data = test::random_bytes(block * 3 + block / 2 + 1);
          INFO(merklize::to_string(hash)
               << " L " << block << ", offset " << in_offset << ", zero_pad " << pad);
          const auto got = device_leaves(rule, data, in_offset);
          CHECK(got == merklize::block_leaves(rule, data.data(), data.size()));
          if (hash != merklize::leaf_hash::sha3_256 || pad) continue;
          for (std::size_t i = 0; i < got.size(); ++i) { // OpenSSL's SHA3-256, an outside oracle
            const std::size_t at = i * block, len = std::min<std::size_t>(block, data.size() - at);
            merklize::digest want;
            unsigned int length = 0;
            EVP_Digest(data.data() + at, len, want.data(), &length, EVP_sha3_256(), nullptr);
            CHECK(got[i] == want);
          }
        }
}

TEST_CASE("device Keccak block leaves at awkward block counts", "[block-leaves][keccak]") {
  // 1, 2, 3 blocks and around the block hasher's work-group size, the last block whole or short.
  const std::uint64_t wg = hasher().work_group_size();
  for (auto hash : {merklize::leaf_hash::keccak256, merklize::leaf_hash::sha3_256})
    for (std::uint64_t block : {1u, 136u, 137u, 272u})
      for (std::uint64_t count :
           {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3), wg - 1, wg, wg + 1, 2 * wg + 1})
        for (std::uint64_t short_by : {std::uint64_t(0), block / 2}) {
          if (count == 0) continue;
          const merklize::leaf_rule rule{hash, block, {}, false, std::nullopt};
          const auto data = test::random_bytes(count * block - short_by);
          INFO(merklize::to_string(hash) << " L " << block << ", " << count << " blocks, the last "
                                         << short_by << " bytes short");
          const auto got = device_leaves(rule, data);
          REQUIRE(got.size() == count);
          CHECK(got == merklize::block_leaves(rule, data.data(), data.size()));
        }
}

TEST_CASE("device Keccak leaves of the published vectors' messages", "[block-leaves][keccak]") {
  const json::value v = json::parse_file(test::vector_path("keccak_sha3_256_vectors.json"));
  for (const auto &c : v["vectors"].items) {
    const auto input = merklize::from_hex(c["input_hex"].str);
    if (input.empty()) continue; // a block has at least one byte
    const auto hash =
        c["alg"].str == "SHA3-256" ? merklize::leaf_hash::sha3_256 : merklize::leaf_hash::keccak256;
    INFO(c["alg"].str << ": " << c["name"].str);
    const merklize::leaf_rule rule{hash, input.size(), {}, false, std::nullopt};
    CHECK(merklize::to_hex(device_leaves(rule, input).at(0)) == c["digest"].str);
  }
}

TEST_CASE("the Keccak permutation-only kernel permutes as the host does", "[keccak]") {
  auto &h = hasher();
  const auto spec = merklize::detail::keccak_program();
  const cl::Program program = merklize::detail::tuned_program(h.context(), h.device(), spec);
  cl::Kernel kernel(program, "keccak_permutations");
  const std::size_t items = 100;
  for (cl_uint count : {0u, 1u, 3u}) {
    const cl::Buffer out = test::poisoned_buffer(h.context(), h.queue(), items * 8);
    kernel.setArg(0, out);
    kernel.setArg(1, count);
    h.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items));
    const auto folds = test::read_buffer(h.queue(), out, items * 8);
    for (std::size_t i = 0; i < items; ++i) {
      merklize::keccak::state a;
      for (std::size_t k = 0; k < a.size(); ++k)
        a[k] = i * 0x9E3779B97F4A7C15u + k;
      for (cl_uint n = 0; n < count; ++n)
        merklize::keccak::permute(a);
      std::uint64_t fold = 0, got = 0;
      for (const std::uint64_t lane : a)
        fold ^= lane;
      std::memcpy(&got, folds.data() + 8 * i, 8);
      INFO(count << " permutations, work-item " << i);
      CHECK(got == fold);
    }
  }
}

TEST_CASE("trees over block leaves from files and pipes in several pieces", "[block-leaves]") {
  auto &h = hasher();
  h.set_piece_target(8192); // a few blocks a piece
  for (std::uint64_t size : {1u, 4095u, 4096u, 4097u, 40000u, 100000u})
    for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3,
                      merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256})
      for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
        const auto data = test::random_bytes(size);
        merklize::leaf_rule rule;
        rule.block_bytes = 1000;
        rule.hash = merklize::leaf_hash_of(hash);
        const merklize::tree_options options{hash, pad};
        const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
        const auto expected =
            merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes, options);
        INFO(size << " bytes, " << merklize::to_string(hash) << " " << merklize::to_string(pad));
        merklize::input file(test::write_file("blocks.data", data).string());
        CHECK(merklize::block_tree_root(h, file, rule, options) == expected.root());
        test::pipe_input piped(data);
        CHECK(merklize::block_tree_root(h, piped.get(), rule, options) == expected.root());
      }
  h.set_piece_target(std::uint64_t(16) << 20);
}

// Runs check(input) on `data` as a file and as a pipe.
template <class Check> void from_file_and_pipe(const std::vector<std::uint8_t> &data, Check check) {
  merklize::input file(test::write_file("formats.data", data).string());
  check(file);
  test::pipe_input piped(data);
  check(piped.get());
}

TEST_CASE("dm-verity on the device matches the host reference", "[block-leaves][formats]") {
  auto &h = hasher();
  h.set_piece_target(3 * 4096);
  merklize::dm_verity_options options;
  options.hash_block_bytes = 512; // 16 digests a block: three levels from 257 data blocks
  options.salt = test::random_bytes(32);
  for (std::uint64_t blocks : {1u, 2u, 16u, 17u, 256u, 257u}) {
    const auto data = test::random_bytes(blocks * 4096);
    const auto expected = merklize::dm_verity_tree(data.data(), data.size(), options);
    INFO(blocks << " data blocks");
    from_file_and_pipe(data, [&](merklize::input &in) {
      const auto got = merklize::dm_verity_tree(h, in, options);
      CHECK(got.root == expected.root);
      CHECK(got.levels == expected.levels);
    });
  }
  const auto partial = test::random_bytes(4096 + 1);
  from_file_and_pipe(partial, [&](merklize::input &in) {
    CHECK_THROWS_WITH(merklize::dm_verity_tree(h, in, options),
                      Contains("not a whole number of 4096-byte data blocks"));
  });
  h.set_piece_target(std::uint64_t(16) << 20);
}

TEST_CASE("fs-verity on the device matches the host reference", "[block-leaves][formats]") {
  auto &h = hasher();
  h.set_piece_target(3 * 1024);
  merklize::fs_verity_options options;
  options.block_bytes = 1024; // 32 digests a block
  options.salt = {1, 2, 3};
  for (std::uint64_t size :
       {0u, 1u, 1023u, 1024u, 1025u, 32u * 1024, 32u * 1024 + 1, 32u * 32 * 1024 + 1}) {
    const auto data = test::random_bytes(size);
    const auto expected = merklize::fs_verity_tree(data.data(), data.size(), options);
    INFO(size << " bytes");
    from_file_and_pipe(data, [&](merklize::input &in) {
      const auto got = merklize::fs_verity_tree(h, in, options);
      CHECK(got.file_digest == expected.file_digest);
      CHECK(got.tree.levels == expected.tree.levels);
    });
  }
  h.set_piece_target(std::uint64_t(16) << 20);
}

namespace {

// Input lengths around Bao's boundaries: an empty chunk, one byte, a chunk's edges, 2^k chunks
// and one byte either side, 2^k - 1 chunks, and a few MiB.
std::vector<std::uint64_t> bao_sizes() {
  std::vector<std::uint64_t> sizes = {0, 1, 1023, 1024, 1025, 2048, 2049, 3072, 33 * 1024 + 7};
  for (unsigned k = 1; k <= 11; k += 2)
    for (std::uint64_t chunks : {(std::uint64_t(1) << k) - 1, std::uint64_t(1) << k})
      for (int edge : {-1, 0, 1})
        sizes.push_back(chunks * 1024 + edge);
  sizes.push_back((std::uint64_t(3) << 20) + 5);
  return sizes;
}

} // namespace

TEST_CASE("Bao outboards on the device match the host reference", "[block-leaves][formats]") {
  auto &h = hasher();
  h.set_piece_target(64 * 1024); // several pieces from 65 chunks on
  for (const std::uint64_t size : bao_sizes()) {
    const auto data = test::random_bytes(size);
    const auto expected = merklize::bao_outboard_of(data.data(), data.size());
    INFO(size << " bytes");
    from_file_and_pipe(data, [&](merklize::input &in) {
      const auto got = merklize::bao_outboard_of(h, in);
      CHECK(got.root == expected.root);
      CHECK(got.bytes == expected.bytes);
    });
  }
  h.set_piece_target(std::uint64_t(16) << 20);
}

TEST_CASE("Bao outboards on the device: the Python model's bytes, b3sum's root",
          "[block-leaves][formats][bao]") {
  if (!test::have_python()) return;
  const bool b3sum = test::have_tool("/usr/bin/b3sum", "b3sum");
  for (std::uint64_t size :
       {0u, 1u, 1023u, 1024u, 1025u, 2048u, 3072u, 3u * 1024 * 1024 / 4 + 1, 1024u * 1024 + 1}) {
    const auto data = test::random_bytes(size);
    const auto file = test::write_file("bao-device.data", data);
    INFO(size << " bytes");
    merklize::input in(file.string());
    const auto got = merklize::bao_outboard_of(hasher(), in);
    const auto model = test::run_bao_model(file);
    CHECK(test::as_text(got.bytes) == model.outboard);
    CHECK(merklize::to_hex(got.root) == model.root);
    if (b3sum)
      CHECK(test::run_program({"/usr/bin/b3sum", "--no-names", file.string()}).out ==
            merklize::to_hex(got.root) + "\n");
  }
}
