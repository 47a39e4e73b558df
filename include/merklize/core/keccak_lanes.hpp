// SPDX-License-Identifier: Apache-2.0 OR MIT
// Keccak-256 and SHA3-256 nodes several at once in vector lanes, the host engine's keccak node
// hash (hashes.hpp's keccak_pairs): lane j of every vector holds the same state word of node j's
// sponge, so one instruction runs a step of Keccak-f[1600] for 8 nodes (AVX-512) or 4 (AVX2). A
// node hashes 64 bytes, which fit one block of the sponge (rate 136), so it is one permutation:
// the children as words 0-7, the padding byte into word 8, 0x80 into word 16's last byte.
//
// Why written here: no Debian package hashes many Keccak messages at once (XKCP is not
// packaged), and OpenSSL 3.0 hashes one SHA3-256 message at a time and has no Keccak-256.
// The vectors are GCC's vector extensions (also clang's), compiled for each ISA by a target
// attribute and chosen at run time, as host_blake3_simd.hpp does; elsewhere the portable sponge
// of keccak.hpp runs. Checked against it in tests/test_keccak_host.cpp.
#pragma once

#include "keccak.hpp"

#include <cstdint>
#include <cstring>

namespace merklize {
namespace detail {

enum class keccak_isa { portable, avx2, avx512 };

// Nodes `pairs` at `in` (64 bytes each) into `out` (32 bytes each), a node at a time.
inline void keccak_pairs_portable(std::uint8_t pad, const std::uint8_t *in, std::uint8_t *out,
                                  std::uint64_t pairs) {
  for (std::uint64_t i = 0; i < pairs; ++i) {
    digest l, r;
    std::memcpy(l.data(), in + 64 * i, 32);
    std::memcpy(r.data(), in + 64 * i + 32, 32);
    const digest d = keccak::hash_pair(pad, l, r);
    std::memcpy(out + 32 * i, d.data(), 32);
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MERKLIZE_KECCAK_LANES 1

// Keccak-f[1600] on `Lanes` states at once, as keccak::permute does on one. Inlined into each
// ISA's function, so that it is compiled for that ISA; vectors pass by pointer only (a vector
// argument's ABI depends on the ISA).
template <class V> __attribute__((always_inline)) inline void keccak_permute_lanes(V *a) {
  for (const std::uint64_t rc : keccak::round_constants) {
    V c[5], b[25];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) // theta
      c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) {
      const V t = c[(x + 1) % 5];
      const V d = c[(x + 4) % 5] ^ ((t << 1) | (t >> 63));
#pragma GCC unroll 5
      for (int y = 0; y < 5; ++y) { // rho, then pi: A[x, y] moves to B[y, 2x + 3y]
        const V v = a[x + 5 * y] ^ d;
        const unsigned n = keccak::rotations[x + 5 * y];
        b[y + 5 * ((2 * x + 3 * y) % 5)] = n == 0 ? v : (v << n) | (v >> (64 - n));
      }
    }
#pragma GCC unroll 5
    for (int y = 0; y < 5; ++y) // chi
#pragma GCC unroll 5
      for (int x = 0; x < 5; ++x)
        a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
    a[0] ^= rc; // iota
  }
}

// `Lanes` nodes at `in` into `out`, one in each lane.
template <class V, unsigned Lanes>
__attribute__((always_inline)) inline void
keccak_nodes_lanes(std::uint8_t pad, const std::uint8_t *in, std::uint8_t *out) {
  V a[25];
  for (int w = 0; w < 25; ++w)
    a[w] = a[w] ^ a[w]; // zeros, in the vector type whatever its width
  for (unsigned w = 0; w < 8; ++w)
    for (unsigned j = 0; j < Lanes; ++j) {
      std::uint64_t word;
      std::memcpy(&word, in + 64 * j + 8 * w, 8); // little-endian, as the sponge reads bytes
      a[w][j] = word;
    }
  a[8] ^= std::uint64_t(pad);
  a[16] ^= std::uint64_t(0x80) << 56; // the rate's last byte, 135
  keccak_permute_lanes(a);
  for (unsigned j = 0; j < Lanes; ++j)
    for (unsigned w = 0; w < 4; ++w) {
      const std::uint64_t word = a[w][j];
      std::memcpy(out + 32 * j + 8 * w, &word, 8);
    }
}

__attribute__((target("avx2"))) inline void keccak_pairs_avx2(std::uint8_t pad,
                                                              const std::uint8_t *in,
                                                              std::uint8_t *out,
                                                              std::uint64_t pairs) {
  typedef std::uint64_t lanes4 __attribute__((vector_size(32)));
  std::uint64_t i = 0;
  for (; i + 4 <= pairs; i += 4)
    keccak_nodes_lanes<lanes4, 4>(pad, in + 64 * i, out + 32 * i);
  keccak_pairs_portable(pad, in + 64 * i, out + 32 * i, pairs - i);
}

__attribute__((target("avx512f"))) inline void keccak_pairs_avx512(std::uint8_t pad,
                                                                   const std::uint8_t *in,
                                                                   std::uint8_t *out,
                                                                   std::uint64_t pairs) {
  typedef std::uint64_t lanes8 __attribute__((vector_size(64)));
  std::uint64_t i = 0;
  for (; i + 8 <= pairs; i += 8)
    keccak_nodes_lanes<lanes8, 8>(pad, in + 64 * i, out + 32 * i);
  keccak_pairs_avx2(pad, in + 64 * i, out + 32 * i, pairs - i);
}

// The widest of them this CPU runs.
inline keccak_isa keccak_isa_used() {
  static const keccak_isa isa = __builtin_cpu_supports("avx512f") ? keccak_isa::avx512
                                : __builtin_cpu_supports("avx2")  ? keccak_isa::avx2
                                                                  : keccak_isa::portable;
  return isa;
}
#else
inline keccak_isa keccak_isa_used() { return keccak_isa::portable; }
#endif

// Nodes `pairs` at `in` into `out` on the code `isa` names (one this CPU runs).
inline void keccak_pairs_on(keccak_isa isa, std::uint8_t pad, const std::uint8_t *in,
                            std::uint8_t *out, std::uint64_t pairs) {
#ifdef MERKLIZE_KECCAK_LANES
  if (isa == keccak_isa::avx512) return keccak_pairs_avx512(pad, in, out, pairs);
  if (isa == keccak_isa::avx2) return keccak_pairs_avx2(pad, in, out, pairs);
#endif
  (void)isa;
  keccak_pairs_portable(pad, in, out, pairs);
}

} // namespace detail
} // namespace merklize
