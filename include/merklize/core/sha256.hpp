// SPDX-License-Identifier: Apache-2.0 OR MIT
// Portable host SHA-256, written from FIPS 180-4: the compression function, an incremental hasher
// for messages of any length, and the 64-byte two-to-one hash of merklize's "sha256" node mode.
// Words are built from bytes big-endian, so it is right on any host. It favours clarity over
// speed: merklize uses it for zero-subtree roots, host references and checks.
#pragma once

#include "digest.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace merklize {
namespace sha256 {

constexpr std::size_t block_len = 64;

// FIPS 180-4, 5.3.3: the first 32 bits of the fractional parts of the square roots of the
// first eight primes.
constexpr std::uint32_t iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

// FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
// 64 primes.
constexpr std::uint32_t k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u};

using state = std::array<std::uint32_t, 8>;

namespace detail {

inline std::uint32_t rotr(std::uint32_t x, int n) { return x >> n | x << (32 - n); }

inline std::uint32_t load_be(const std::uint8_t *p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 |
         std::uint32_t(p[3]);
}

inline void store_be(std::uint8_t *p, std::uint32_t w) {
  for (int i = 0; i < 4; ++i)
    p[i] = static_cast<std::uint8_t>(w >> (24 - 8 * i));
}

inline digest digest_of(const state &h) {
  digest d;
  for (int i = 0; i < 8; ++i)
    store_be(d.data() + 4 * i, h[i]);
  return d;
}

} // namespace detail

// FIPS 180-4, 6.2.2: one 64-byte block into the running state.
inline void compress(state &h, const std::uint8_t block[block_len]) {
  using detail::rotr;
  std::uint32_t w[64];
  for (int t = 0; t < 16; ++t)
    w[t] = detail::load_be(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  state v = h;
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t big_sigma1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
    const std::uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
    const std::uint32_t t1 = v[7] + big_sigma1 + ch + k[t] + w[t];
    const std::uint32_t big_sigma0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
    const std::uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    v = {t1 + big_sigma0 + maj, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
  }
  for (int i = 0; i < 8; ++i)
    h[i] += v[i];
}

// Incremental SHA-256 of a message of any length (FIPS 180-4, 5.1.1 padding).
class hasher {
public:
  hasher &update(const void *data, std::size_t size) {
    auto input = static_cast<const std::uint8_t *>(data);
    length_ += size;
    while (size > 0) {
      const std::size_t take = std::min(block_len - buffered_, size);
      std::memcpy(block_ + buffered_, input, take);
      buffered_ += take;
      input += take;
      size -= take;
      if (buffered_ == block_len) {
        compress(h_, block_);
        buffered_ = 0;
      }
    }
    return *this;
  }

  // The padding: 0x80, zeros up to 8 bytes short of a block's end, the bit length big-endian.
  digest finalize() const {
    hasher last = *this;
    std::uint8_t padding[2 * block_len] = {0x80};
    const std::size_t zeros_end = buffered_ < block_len - 8 ? block_len - 8 : 2 * block_len - 8;
    const std::size_t size = zeros_end - buffered_ + 8;
    const std::uint64_t bits = length_ * 8;
    for (int i = 0; i < 8; ++i)
      padding[size - 8 + i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
    last.update(padding, size);
    return detail::digest_of(last.h_);
  }

private:
  state h_{iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]};
  std::uint8_t block_[block_len] = {};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

inline digest hash(const void *data, std::size_t size) {
  return hasher().update(data, size).finalize();
}

// SHA-256(left || right): the node hash of merklize's "sha256" mode and of SSZ. A 64-byte
// message is its block, then a padding block that is the same for every such message.
inline digest hash_pair(const digest &left, const digest &right) {
  std::uint8_t padding[block_len] = {0x80}; // then zeros, and the bit length: 512
  padding[block_len - 2] = 0x02;
  std::uint8_t block[block_len];
  std::memcpy(block, left.data(), node_bytes);
  std::memcpy(block + node_bytes, right.data(), node_bytes);
  state h{iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]};
  compress(h, block);
  compress(h, padding);
  return detail::digest_of(h);
}

} // namespace sha256

// RFC 6962 2.1's prefixes: a leaf hash is SHA-256(0x00 || entry), a node SHA-256(0x01 || l || r).
constexpr std::uint8_t rfc6962_leaf_prefix = 0x00, rfc6962_node_prefix = 0x01;

// SHA-256(prefix || left || right): a 65-byte message.
inline digest sha256_prefixed_pair(std::uint8_t prefix, const digest &left, const digest &right) {
  return sha256::hasher()
      .update(&prefix, 1)
      .update(left.data(), left.size())
      .update(right.data(), right.size())
      .finalize();
}

} // namespace merklize
