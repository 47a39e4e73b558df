// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine's inclusion proofs (host_proof.hpp) against prove() of the host reference's
// whole tree, at awkward leaf counts around its block size, leaves at both ends of blocks and of
// the tree, every shape and a fixed depth, from a file, a pipe and memory on 1..3 threads; and
// that each verifies, and that bad indices are refused.
#include "pipe_input.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/host_proof.hpp>
#include <merklize/proofs/proof_verify.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <set>

#include <unistd.h>

namespace {

using merklize::hash_kind;
using merklize::shape;
using merklize::tree_options;

const std::uint64_t block = std::uint64_t(1) << merklize::detail::host_block_log2;

std::vector<std::uint8_t> random_leaves(std::uint64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> out(32 * n);
  for (auto &b : out)
    b = static_cast<std::uint8_t>(rng());
  return out;
}

// A temporary file holding `bytes`, removed with it.
struct temp_file {
  std::string path;
  explicit temp_file(const std::vector<std::uint8_t> &bytes) {
    char name[] = "/tmp/merklize_host_proof_XXXXXX";
    const int fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    ::close(fd);
    path = name;
  }
  ~temp_file() { ::unlink(path.c_str()); }
};

// The proof through a pipe, written at once by another thread.
merklize::inclusion_proof prove_through_pipe(const std::vector<std::uint8_t> &bytes,
                                             const tree_options &options, std::uint64_t index) {
  test::pipe_input pipe(bytes, false, "a pipe");
  return merklize::host_prove(pipe.get(), options, index, 2);
}

} // namespace

TEST_CASE("host engine: proofs equal the whole tree's, and verify", "[host][proof]") {
  const std::uint64_t n = GENERATE_COPY(1, 2, 3, 5, block - 1, block, block + 1, 2 * block + 3);
  const auto leaves = random_leaves(n, static_cast<unsigned>(n));
  const temp_file file(leaves);
  const std::set<std::uint64_t> indices{
      0, 1 % n, n / 2, n - 1, (n - 1) / 2 * 2, block % n, (block - 1) % n, (2 * block + 1) % n};
  for (const tree_options options :
       {tree_options{hash_kind::sha256, shape::promote},
        tree_options{hash_kind::sha256, shape::zero},
        tree_options{hash_kind::sha256, shape::zero, 20}, tree_options{hash_kind::rfc6962},
        tree_options{hash_kind::blake3}, tree_options{hash_kind::keccak256, shape::zero}}) {
    const merklize::tree whole = merklize::reference_tree(leaves.data(), leaves.size(), options);
    for (const std::uint64_t index : indices) {
      INFO(n << " leaves, leaf " << index << ", " << merklize::to_string(options.hash) << " "
             << merklize::to_string(options.shape) << (options.depth ? " depth 20" : ""));
      const merklize::inclusion_proof want = merklize::prove(whole, index);
      for (unsigned threads : {1u, 3u}) {
        merklize::input in(file.path, "leaves.bin");
        const merklize::inclusion_proof got = merklize::host_prove(in, options, index, threads);
        REQUIRE(got == want);
        REQUIRE(merklize::host_prove(leaves.data(), leaves.size(), options, index, threads) ==
                want); // the same leaves in memory
        CHECK(merklize::host_prove_with_root(leaves.data(), leaves.size(), options, index,
                                             threads) == std::make_pair(want, whole.root()));
        merklize::digest leaf;
        std::memcpy(leaf.data(), leaves.data() + 32 * index, 32);
        CHECK(merklize::verify(got, leaf, whole.root()).valid);
      }
    }
  }
}

TEST_CASE("host engine: a pipe's proof is the file's", "[host][proof]") {
  const std::uint64_t n = GENERATE_COPY(3, block + 1, 3 * block - 1);
  const auto leaves = random_leaves(n, 11);
  const tree_options options{hash_kind::sha256, shape::zero};
  const merklize::tree whole = merklize::reference_tree(leaves.data(), leaves.size(), options);
  for (const std::uint64_t index : {std::uint64_t(0), n - 1, n / 2})
    CHECK(prove_through_pipe(leaves, options, index) == merklize::prove(whole, index));
}

TEST_CASE("host engine: proofs of leaves past the end, and of other hashes, are refused",
          "[host][proof]") {
  const auto leaves = random_leaves(block + 1, 5);
  const temp_file file(leaves);
  merklize::input in(file.path, "leaves.bin");
  CHECK_THROWS_WITH(merklize::host_prove(in, tree_options{hash_kind::sha256}, block + 1),
                    Catch::Contains("leaf index 32769 out of range") &&
                        Catch::Contains("32769 leaves"));
  CHECK_THROWS_WITH(prove_through_pipe(leaves, tree_options{hash_kind::sha256}, block + 7),
                    Catch::Contains("leaf index 32775 out of range"));
  CHECK_THROWS_WITH(merklize::host_prove(leaves.data(), leaves.size(),
                                         tree_options{hash_kind::sha256}, block + 1),
                    Catch::Contains("leaf index 32769 out of range"));
  merklize::input other(file.path, "leaves.bin");
  CHECK_THROWS_WITH(merklize::host_prove(other, tree_options{hash_kind::blake3_parent}, 0),
                    Catch::Contains("the host engine builds"));
}
