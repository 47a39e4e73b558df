// SPDX-License-Identifier: Apache-2.0 OR MIT
// Portable host Keccak-256 and SHA3-256, written from FIPS 202: the permutation Keccak-f[1600],
// one sponge of rate 136 bytes (capacity 512 bits) with an incremental hasher for messages of any
// length, and the 64-byte two-to-one hash of the "keccak256" and "sha3-256" node modes.
//
//   merklize::digest a = merklize::keccak::keccak256(data, size); // Ethereum's keccak256
//   merklize::digest b = merklize::keccak::sha3_256(data, size);  // FIPS 202 SHA3-256
//   merklize::keccak::hasher h(merklize::keccak::sha3_pad);       // incremental
//   h.update(p, n).update(q, m);
//   merklize::digest c = h.finalize();
//
// The two hashes are one sponge: they differ only in the byte that starts the padding, 0x01 for
// Keccak-256 (the Keccak team's submission, which Ethereum kept) and 0x06 for SHA3-256 (FIPS 202
// appends the domain bits 01 first). Lanes are built from bytes little-endian, so it is right on
// any host. It favours clarity over speed: merklize uses it for zero-subtree roots, host
// references and checks; the devices' kernels are kernels/keccak.cl.
#pragma once

#include "digest.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace merklize {
namespace keccak {

// Bytes absorbed per permutation for 256-bit digests: 1600 - 2 * 256 bits.
constexpr std::size_t rate = 136;

// The first padding byte (pad10*1 with the domain bits before it): the only difference between
// the two hashes.
constexpr std::uint8_t keccak_pad = 0x01; // Keccak-256
constexpr std::uint8_t sha3_pad = 0x06;   // SHA3-256: domain bits 01, then pad10*1

// FIPS 202, 3.2.5: the round constants of iota, from the LFSR rc(t).
constexpr std::uint64_t round_constants[24] = {
    0x0000000000000001u, 0x0000000000008082u, 0x800000000000808Au, 0x8000000080008000u,
    0x000000000000808Bu, 0x0000000080000001u, 0x8000000080008081u, 0x8000000000008009u,
    0x000000000000008Au, 0x0000000000000088u, 0x0000000080008009u, 0x000000008000000Au,
    0x000000008000808Bu, 0x800000000000008Bu, 0x8000000000008089u, 0x8000000000008003u,
    0x8000000000008002u, 0x8000000000000080u, 0x000000000000800Au, 0x800000008000000Au,
    0x8000000080008081u, 0x8000000000008080u, 0x0000000080000001u, 0x8000000080008008u};

// FIPS 202, 3.2.2, Table 2: rho's rotation of lane A[x, y], at index x + 5 y.
constexpr unsigned rotations[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                    25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

// The state: lane A[x, y] at index x + 5 y, byte i of the state in lane i / 8, little-endian.
using state = std::array<std::uint64_t, 25>;

namespace detail {

inline std::uint64_t rotl(std::uint64_t x, unsigned n) {
  return n == 0 ? x : x << n | x >> (64 - n);
}

inline std::uint64_t load_le(const std::uint8_t *p) {
  std::uint64_t lane = 0;
  for (int i = 7; i >= 0; --i)
    lane = lane << 8 | p[i];
  return lane;
}

} // namespace detail

// Keccak-f[1600]: 24 rounds of theta, rho, pi, chi and iota (FIPS 202, 3.3 and 3.4).
inline void permute(state &a) {
  for (const std::uint64_t rc : round_constants) {
    std::uint64_t c[5], d[5];
    for (int x = 0; x < 5; ++x) // theta
      c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; ++x)
      d[x] = c[(x + 4) % 5] ^ detail::rotl(c[(x + 1) % 5], 1);
    state b;
    for (int y = 0; y < 5; ++y) // rho, then pi: A[x, y] moves to B[y, 2x + 3y]
      for (int x = 0; x < 5; ++x)
        b[y + 5 * ((2 * x + 3 * y) % 5)] = detail::rotl(a[x + 5 * y] ^ d[x], rotations[x + 5 * y]);
    for (int y = 0; y < 5; ++y) // chi
      for (int x = 0; x < 5; ++x)
        a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
    a[0] ^= rc; // iota
  }
}

// The sponge of a 256-bit digest over a message of any length: absorb in blocks of `rate`
// bytes, pad (the domain byte `pad` after the message, 0x80 into the block's last byte), squeeze
// the first 32 bytes. Copyable: finalize() leaves the hasher as it was.
class hasher {
public:
  explicit hasher(std::uint8_t pad = keccak_pad) : pad_(pad) {}

  hasher &update(const void *data, std::size_t size) {
    auto input = static_cast<const std::uint8_t *>(data);
    while (size > 0) {
      const std::size_t take = std::min(rate - buffered_, size);
      std::memcpy(block_ + buffered_, input, take);
      buffered_ += take;
      input += take;
      size -= take;
      if (buffered_ == rate) {
        absorb(a_, block_);
        buffered_ = 0;
      }
    }
    return *this;
  }

  digest finalize() const {
    std::uint8_t last[rate] = {};
    std::memcpy(last, block_, buffered_);
    last[buffered_] ^= pad_; // buffered_ < rate: a full block was absorbed when it filled
    last[rate - 1] ^= 0x80;
    state a = a_;
    absorb(a, last);
    digest d;
    for (std::size_t i = 0; i < d.size(); ++i)
      d[i] = static_cast<std::uint8_t>(a[i / 8] >> (8 * (i % 8)));
    return d;
  }

private:
  static void absorb(state &a, const std::uint8_t block[rate]) {
    for (std::size_t i = 0; i < rate / 8; ++i)
      a[i] ^= detail::load_le(block + 8 * i);
    permute(a);
  }

  state a_{};
  std::uint8_t block_[rate] = {};
  std::size_t buffered_ = 0;
  std::uint8_t pad_;
};

// Keccak-256 as Ethereum computes it (keccak256 in Solidity, Keccak256 in go-ethereum).
inline digest keccak256(const void *data, std::size_t size) {
  return hasher(keccak_pad).update(data, size).finalize();
}

// SHA3-256 of FIPS 202 (hashlib.sha3_256).
inline digest sha3_256(const void *data, std::size_t size) {
  return hasher(sha3_pad).update(data, size).finalize();
}

// HASH(left || right) of the node modes "keccak256" (pad keccak_pad) and "sha3-256" (sha3_pad):
// 64 bytes, under the rate, so one permutation.
inline digest hash_pair(std::uint8_t pad, const digest &left, const digest &right) {
  return hasher(pad).update(left.data(), left.size()).update(right.data(), right.size()).finalize();
}

} // namespace keccak
} // namespace merklize
