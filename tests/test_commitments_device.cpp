// SPDX-License-Identifier: Apache-2.0 OR MIT
// The pair rules on the device (pair_tree.hpp) against their host references (formats/) at
// awkward sizes, every buffer poisoned first: Bitcoin's levels, the heap array, Filecoin's
// commitment streamed in pieces of several sizes from memory, a file and a pipe.
#include "helpers.hpp"
#include "host_helpers.hpp"
#include "pipe_input.hpp"
#include "process.hpp"

#include <merklize/engine/pair_tree.hpp>
#include <merklize/formats/oz_standard.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
using merklize::digest;
using merklize::pair_hash;

namespace {

merklize::pair_tree_device &device() {
  static merklize::pair_tree_device d = [] {
    merklize::pair_tree_device made(test::test_device());
    made.set_poison(true);
    return made;
  }();
  return d;
}

std::vector<digest> random_digests(std::uint64_t n) {
  const auto bytes = test::random_bytes(n * merklize::node_bytes);
  std::vector<digest> out(n);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

merklize::filecoin_piece commitment_of(const std::vector<std::uint8_t> &data, unsigned piece_log2) {
  std::size_t at = 0;
  return merklize::filecoin_commitment(
      device(),
      [&](std::uint8_t *buffer, std::uint64_t n) {
        const std::size_t take = std::min<std::size_t>(n, data.size() - at);
        std::memcpy(buffer, data.data() + at, take);
        at += take;
        return take;
      },
      "the data", piece_log2);
}

// Awkward sizes and, around the work-group size w, the leaf counts whose first level is w - 1,
// w and w + 1 work-items.
std::vector<std::uint64_t> tree_sizes() {
  auto sizes = test::awkward_sizes(10);
  const std::uint64_t w = std::min(device().runtime().tuning_row().batch_work_group_size,
                                   device().runtime().facts().max_work_group_size);
  for (const std::uint64_t n : {w - 1, w + 1, 2 * w - 2, 2 * w - 1, 2 * w + 1, 2 * w + 2})
    sizes.push_back(n);
  return sizes;
}

} // namespace

TEST_CASE("Bitcoin's levels on the device are the host's", "[commitments][bitcoin]") {
  for (const std::uint64_t n : tree_sizes()) {
    INFO(n << " txids");
    const auto txids = random_digests(n);
    const auto host = merklize::bitcoin::levels_of(txids);
    const auto dev = merklize::bitcoin_levels(device(), txids);
    CHECK(dev.levels == host.levels);
    CHECK(!dev.mutated);
  }
  auto txids = random_digests(5);
  txids.push_back(txids.back()); // [a b c d e e]: e paired with itself, Bitcoin Core's mutation
  CHECK(merklize::bitcoin_levels(device(), txids).mutated);
  CHECK_THROWS_WITH(merklize::bitcoin_levels(device(), {}), Contains("at least one transaction"));
}

TEST_CASE("the heap array on the device is the host's", "[commitments][heap]") {
  // heap_level over every pair hash this build has kernels for: OpenZeppelin's keccak256_sorted
  // needs kernels/keccak.cl, the device Keccak-256.
  for (const pair_hash hash :
       {pair_hash::sha256d, pair_hash::sha256_trunc254, pair_hash::keccak256_sorted}) {
    if (!merklize::detail::has_pair_kernels(hash)) {
      WARN("SKIPPED: " << merklize::to_string(hash) << " on the device: this build has no "
                       << "kernels/keccak.cl (the device Keccak-256); the host builds its trees");
      continue;
    }
    for (const std::uint64_t n : tree_sizes()) {
      INFO(n << " leaves, " << merklize::to_string(hash));
      const auto leaves = random_digests(n);
      CHECK(device().heap_tree(hash, leaves) == merklize::heap_tree(hash, leaves));
    }
  }
  // Whichever builds it, OpenZeppelin's array is the host reference's.
  const auto leaves = random_digests(37);
  CHECK(merklize::oz_standard_array(device(), leaves) == merklize::oz::make_tree(leaves));
}

TEST_CASE("Filecoin's commitment on the device is the host's", "[commitments][filecoin]") {
  std::vector<std::uint64_t> sizes{1,   2,   64,  65,   126,  127,  128,  253,  254,
                                   255, 508, 509, 1016, 1017, 2032, 4064, 4065, 100000};
  for (int i = 0; i < 6; ++i)
    sizes.push_back(1 + test::random_bytes(2)[0] * 131 + test::random_bytes(1)[0]);
  for (const std::uint64_t size : sizes) {
    const auto data = test::random_bytes(size);
    const digest host = merklize::filecoin::piece_commitment(data.data(), data.size());
    for (const unsigned piece_log2 : {2u, 3u, 5u, 20u}) { // one 127-byte block a piece, and more
      INFO(size << " bytes, pieces of 2^" << piece_log2 << " leaves");
      const auto piece = commitment_of(data, piece_log2);
      CHECK(piece.commitment == host);
      CHECK(piece.data_bytes == size);
      CHECK(piece.padded_bytes == merklize::filecoin::padded_piece_size(size));
    }
  }
  CHECK_THROWS_WITH(commitment_of({}, 20), Contains("the data is empty"));
  CHECK_THROWS_WITH(commitment_of({1}, 1), Contains("2^2 to 2^30"));
}

TEST_CASE("Filecoin's commitment of zero data is the published one", "[commitments][filecoin]") {
  // 4096 blocks of zeros: a padded piece of 2^19 bytes, streamed in 4 pieces of 1024 blocks
  // (zero_piece_commitment is checked against go-commp-utils' table by the host's tests).
  const std::vector<std::uint8_t> zeros(127 * 4096, 0);
  const auto piece = commitment_of(zeros, 12);
  CHECK(piece.commitment == merklize::filecoin::zero_piece_commitment(19));
  CHECK(piece.padded_bytes == 512 * 1024);
}

TEST_CASE("Filecoin's commitment of a file and of a pipe", "[commitments][filecoin]") {
  const auto data = test::random_bytes(127 * 300 + 17);
  const digest host = merklize::filecoin::piece_commitment(data.data(), data.size());
  merklize::input in(test::write_file("commitment-data", data).string());
  CHECK(merklize::filecoin_commitment(device(), in, 6).commitment == host);
  test::pipe_input pipe(data);
  CHECK(merklize::filecoin_commitment(device(), pipe.get(), 4).commitment == host);
}
