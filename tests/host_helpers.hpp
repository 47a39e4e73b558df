// SPDX-License-Identifier: Apache-2.0 OR MIT
// Test helpers that need no OpenCL (the sanitized host-only tests use them too): the test
// vectors, leaf generators and random bytes.
#pragma once

#include "json.hpp"

#include <merklize/core/tree.hpp>

#include <random>
#include <vector>

namespace test {

inline std::string vector_path(const std::string &name) {
  return std::string(MERKLIZE_TEST_VECTOR_DIR) + "/" + name;
}

inline const json::value &merkle_vectors() {
  static const json::value v = json::parse_file(vector_path("merkle.json"));
  return v;
}

// leaf[i] = HASH(i as 8-byte little-endian), the rule of tests/vectors/merkle.json: HASH is
// SHA-256 for the sha256 cases, BLAKE3 for the others.
inline std::vector<std::uint8_t>
counting_leaves(std::uint64_t n, merklize::hash_kind hash = merklize::hash_kind::blake3) {
  std::vector<std::uint8_t> leaves(n * merklize::node_bytes);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint8_t le[8];
    for (int b = 0; b < 8; ++b)
      le[b] = static_cast<std::uint8_t>(i >> (8 * b));
    const auto d = hash == merklize::hash_kind::sha256 ? merklize::sha256::hash(le, sizeof le)
                                                       : merklize::blake3::hash(le, sizeof le);
    std::copy(d.begin(), d.end(), leaves.begin() + i * merklize::node_bytes);
  }
  return leaves;
}

inline std::mt19937_64 &rng() {
  static std::mt19937_64 engine(std::random_device{}());
  return engine;
}

inline std::vector<std::uint8_t> random_bytes(std::size_t size) {
  std::vector<std::uint8_t> bytes(size);
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto &b : bytes)
    b = static_cast<std::uint8_t>(byte(rng()));
  return bytes;
}

inline merklize::digest random_digest() {
  const auto bytes = random_bytes(merklize::node_bytes);
  merklize::digest d;
  std::copy(bytes.begin(), bytes.end(), d.begin());
  return d;
}

// `n` random leaves.
inline std::vector<merklize::digest> random_leaves(std::uint64_t n) {
  std::vector<merklize::digest> leaves(static_cast<std::size_t>(n));
  for (auto &leaf : leaves)
    leaf = random_digest();
  return leaves;
}

// The first out_bytes bytes of the host BLAKE3's output for `input`, in h's mode.
inline std::vector<std::uint8_t> host_output(merklize::blake3::hasher h,
                                             const std::vector<std::uint8_t> &input,
                                             std::size_t out_bytes) {
  h.update(input.data(), input.size());
  std::vector<std::uint8_t> out(out_bytes);
  h.finalize(out.data(), out.size());
  return out;
}

// 1, 2, 3, then 2^k - 1, 2^k and 2^k + 1 for k = 2..max_k.
inline std::vector<std::uint64_t> awkward_sizes(unsigned max_k) {
  std::vector<std::uint64_t> sizes{1, 2, 3};
  for (unsigned k = 2; k <= max_k; ++k)
    for (std::uint64_t n : {(1ull << k) - 1, 1ull << k, (1ull << k) + 1})
      sizes.push_back(n);
  return sizes;
}

} // namespace test
