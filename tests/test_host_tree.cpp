// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine (host_tree.hpp): its node hashes against OpenSSL (on the SHA extensions where
// the CPU has them, and the portable code), its roots against the host reference and against a
// tree of OpenSSL hashes, at awkward leaf counts around its block size and on 1..3 threads; from
// memory, a file and a pipe written in awkward pieces; and its errors.
#include "pipe_input.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/host_tree.hpp>
#include <merklize/plan/engine_choice.hpp>

#include <catch2/catch.hpp>

#include <openssl/sha.h>

#include <cstdio>
#include <random>
#include <unistd.h>

namespace {

using merklize::digest;
using merklize::hash_kind;
using merklize::shape;
using merklize::tree_options;

std::vector<std::uint8_t> random_bytes(std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> out(size);
  for (auto &b : out)
    b = static_cast<std::uint8_t>(rng());
  return out;
}

// SHA-256 of `prefix` (if any) || 64 bytes, by OpenSSL.
digest openssl_node(const std::uint8_t *pair, bool rfc6962) {
  std::uint8_t message[65] = {merklize::rfc6962_node_prefix};
  std::memcpy(message + (rfc6962 ? 1 : 0), pair, 64);
  digest d;
  SHA256(message, rfc6962 ? 65 : 64, d.data());
  return d;
}

// RFC 6962 2.1's MTH by OpenSSL, split at the largest power of two below n: the promote shape,
// computed top-down, as independent of the engine's bottom-up levels as it gets.
digest openssl_mth(const std::uint8_t *leaves, std::uint64_t n, bool rfc6962) {
  if (n == 1) {
    digest d;
    std::memcpy(d.data(), leaves, 32);
    return d;
  }
  std::uint64_t k = 1;
  while (2 * k < n)
    k *= 2;
  std::uint8_t pair[64];
  const digest l = openssl_mth(leaves, k, rfc6962),
               r = openssl_mth(leaves + 32 * k, n - k, rfc6962);
  std::memcpy(pair, l.data(), 32);
  std::memcpy(pair + 32, r.data(), 32);
  return openssl_node(pair, rfc6962);
}

digest reference_root(const std::vector<std::uint8_t> &leaves, const tree_options &options) {
  return merklize::reference_tree(leaves.data(), leaves.size(), options).root();
}

const std::uint64_t block = std::uint64_t(1) << merklize::detail::host_block_log2;

} // namespace

TEST_CASE("host engine: its features are the code it runs, as host_estimate names it", "[host]") {
  const bool sha = merklize::host_engine_sha_extensions();
  const unsigned lanes = merklize::host_engine_blake3_lanes();
  const merklize::node_hash_row &sha256 = merklize::row_of(hash_kind::sha256);
  CHECK((merklize::detail::pair_hasher(sha256) == sha256.host_pairs_sha_ni) == sha);
  const auto isa = merklize::detail::blake3_isa_used();
  CHECK(lanes == (isa == merklize::detail::blake3_isa::avx512 ? 16u
                  : isa == merklize::detail::blake3_isa::avx2 ? 8u
                                                              : 1u));
  const std::string code = lanes == 16 ? "AVX-512" : lanes == 8 ? "AVX2" : "portable";
  CHECK(merklize::host_estimate(hash_kind::blake3, 1, sha, lanes).name ==
        "host (" + code + ", 1 thread)");
  CHECK(merklize::host_estimate(hash_kind::sha256, 1, sha, lanes).name ==
        std::string("host (") + (sha ? "SHA extensions" : "portable SHA-256") + ", 1 thread)");
}

TEST_CASE("host engine: node hashes equal OpenSSL's, in place and at any count", "[host]") {
  const bool rfc6962 = GENERATE(false, true);
  const auto hash = rfc6962 ? hash_kind::rfc6962 : hash_kind::sha256;
  INFO("hash " << merklize::to_string(hash) << ", SHA extensions "
               << merklize::detail::sha_extensions_used());
  for (const auto fn : {merklize::detail::pair_hasher(merklize::row_of(hash)),
                        rfc6962 ? merklize::detail::portable_rfc6962_pairs
                                : merklize::detail::portable_sha256_pairs}) {
    for (std::uint64_t pairs : {0, 1, 2, 3, 4, 5, 17}) {
      const auto in = random_bytes(64 * pairs, static_cast<unsigned>(pairs));
      std::vector<std::uint8_t> out(32 * pairs + 32, 0xA5); // poisoned, one node past the end
      fn(in.data(), out.data(), pairs);
      for (std::uint64_t i = 0; i < pairs; ++i) {
        const digest want = openssl_node(in.data() + 64 * i, rfc6962);
        REQUIRE(std::equal(want.begin(), want.end(), out.begin() + 32 * i));
      }
      CHECK(out[32 * pairs] == 0xA5); // nothing written past the last node
      auto inplace = in;
      fn(inplace.data(), inplace.data(), pairs);
      CHECK(std::equal(out.begin(), out.begin() + 32 * pairs, inplace.begin()));
    }
  }
}

TEST_CASE("host engine: Keccak-256 and SHA3-256 roots equal the host reference's", "[host]") {
  for (const std::uint64_t n :
       {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3), block - 1, block + 1})
    for (const tree_options options :
         {tree_options{hash_kind::keccak256}, tree_options{hash_kind::sha3_256, shape::zero},
          tree_options{hash_kind::keccak256, shape::zero, 20}}) {
      INFO(n << " leaves, " << merklize::to_string(options.hash));
      const auto leaves = random_bytes(32 * n, static_cast<unsigned>(n));
      CHECK(merklize::host_root(leaves.data(), leaves.size(), options, 2) ==
            reference_root(leaves, options));
    }
}

TEST_CASE("host engine: roots equal the host reference's and OpenSSL's", "[host]") {
  const std::uint64_t n =
      GENERATE_COPY(1, 2, 3, 4, 5, 7, 8, 9, block - 1, block, block + 1, 2 * block + 3, 4 * block);
  const auto leaves = random_bytes(32 * n, static_cast<unsigned>(n));
  for (const tree_options options :
       {tree_options{hash_kind::sha256, shape::promote},
        tree_options{hash_kind::sha256, shape::zero},
        tree_options{hash_kind::sha256, shape::zero, 20}, tree_options{hash_kind::rfc6962},
        tree_options{hash_kind::blake3}, tree_options{hash_kind::blake3, shape::zero, 20}}) {
    INFO(n << " leaves, " << merklize::to_string(options.hash) << " "
           << merklize::to_string(options.shape) << (options.depth ? " depth 20" : ""));
    const digest want = reference_root(leaves, options);
    for (unsigned threads : {1u, 2u, 3u})
      REQUIRE(merklize::host_root(leaves.data(), leaves.size(), options, threads) == want);
    if (options.shape == shape::promote && options.hash != hash_kind::blake3)
      CHECK(want == openssl_mth(leaves.data(), n, options.hash == hash_kind::rfc6962));
  }
}

namespace {

// The root of `bytes` through a pipe, written in pieces of `piece` bytes by another thread.
digest root_through_pipe(const std::vector<std::uint8_t> &bytes, std::size_t piece,
                         const tree_options &options) {
  test::pipe_input pipe(bytes, test::pipe_writes::in_pieces(piece), "a pipe");
  return merklize::host_root(pipe.get(), options, 2);
}

} // namespace

TEST_CASE("host engine: files and pipes give the memory's root", "[host]") {
  const std::uint64_t n = GENERATE_COPY(1, 3, block - 1, block + 1, 3 * block + 1);
  const tree_options options{hash_kind::sha256, shape::zero};
  const auto leaves = random_bytes(32 * n, 7);
  const digest want = reference_root(leaves, options);
  for (std::size_t piece : {std::size_t(1), std::size_t(31), std::size_t(65537)})
    CHECK(root_through_pipe(leaves, piece, options) == want);
  char path[] = "/tmp/merklize_host_tree_XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, leaves.data(), leaves.size()) == static_cast<ssize_t>(leaves.size()));
  ::close(fd);
  merklize::input file(path, "leaves.bin"); // over 1 MiB: read at offsets; else as a stream
  CHECK(merklize::host_root(file, options, 3) == want);
  ::unlink(path);
}

TEST_CASE("host engine: a widened pipe written at once gives the memory's root, on 1..3 threads",
          "[host][stdin]") {
  const std::uint64_t n = GENERATE_COPY(1, 2, 3, block - 1, block, block + 1, 5 * block + 1);
  const unsigned threads = GENERATE(1u, 3u);
  const tree_options options{hash_kind::sha256, shape::zero};
  const auto leaves = random_bytes(32 * n, 11);
  const digest want = reference_root(leaves, options);
  INFO(n << " leaves on " << threads << " threads");
  test::pipe_input pipe(leaves, test::pipe_writes::widened_at_once(), "a pipe");
  merklize::input &in = pipe.get();
  CHECK(merklize::host_root(in, options, threads) == want);
  CHECK(in.reading_ahead()); // the blocks were taken from the read-ahead thread, uncopied
}

TEST_CASE("host engine: a stream read ahead and partly read before gives the rest's root",
          "[host][stdin]") {
  // read_some took part of a read-ahead block, so the engine reads the rest in turn (copied).
  const tree_options options{hash_kind::rfc6962};
  const auto leaves = random_bytes(32 * (2 * block + 5), 12);
  test::pipe_input pipe(leaves, test::pipe_writes::widened_at_once(), "a pipe");
  merklize::input &in = pipe.get();
  in.read_ahead(std::uint64_t(4) << 20);
  std::uint8_t first[64];
  REQUIRE(in.read_full(first, sizeof first) == sizeof first);
  CHECK_FALSE(in.takes_blocks());
  const std::vector<std::uint8_t> rest(leaves.begin() + 64, leaves.end());
  CHECK(merklize::host_root(in, options, 2) == reference_root(rest, options));
}

TEST_CASE("host engine: empty and partial inputs, and other hashes, are refused", "[host]") {
  const std::vector<std::uint8_t> none;
  CHECK(merklize::host_root(none.data(), 0, tree_options{hash_kind::rfc6962}) ==
        merklize::sha256::hash(nullptr, 0)); // RFC 6962's MTH({})
  CHECK_THROWS_WITH(merklize::host_root(none.data(), 0, tree_options{hash_kind::sha256}),
                    Catch::Contains("no leaves"));
  const auto odd = random_bytes(32 * block + 5, 3);
  CHECK_THROWS_WITH(root_through_pipe(odd, 4096, tree_options{hash_kind::sha256}),
                    Catch::Contains("a pipe") && Catch::Contains("not a multiple of 32"));
  CHECK_THROWS_WITH(merklize::host_root(odd.data(), 64, tree_options{hash_kind::blake3_parent}),
                    Catch::Contains("not blake3-parent"));
}
