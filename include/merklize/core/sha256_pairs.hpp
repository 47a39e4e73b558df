// SPDX-License-Identifier: Apache-2.0 OR MIT
// Many node hashes at once on the host, the host engine's (host_tree.hpp; each hash's row in
// hashes.hpp names its pair hashers; blake3's are host_blake3_simd.hpp's lanes):
// out[i] = node(in[2i], in[2i+1]) for the sha256 node (SHA-256 of the 64-byte pair) and the
// rfc6962 node (SHA-256 of 0x01 || pair). On x86-64 CPUs with the SHA extensions (sha_ni, found at
// run time with CPUID) the rounds run on them, two messages interleaved because each SHA256RNDS2
// waits for the one before; the 64-byte pair's second block is always the same padding, so its
// words plus round constants are computed once. Elsewhere the portable sha256.hpp runs. Written
// from FIPS 180-4 and Intel's SHA extensions reference (the instructions' definitions), checked
// against sha256.hpp and OpenSSL in tests/test_host_tree.cpp. No OpenCL.
#pragma once

#include "hash_row.hpp"
#include "sha256.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MERKLIZE_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace merklize {
namespace detail {

// Each is a pair_hash_fn (hash_row.hpp).

inline void portable_sha256_pairs(const std::uint8_t *in, std::uint8_t *out, std::uint64_t pairs) {
  for (std::uint64_t i = 0; i < pairs; ++i) {
    digest l, r;
    std::memcpy(l.data(), in + 64 * i, 32);
    std::memcpy(r.data(), in + 64 * i + 32, 32);
    const digest d = sha256::hash_pair(l, r);
    std::memcpy(out + 32 * i, d.data(), 32);
  }
}

inline void portable_rfc6962_pairs(const std::uint8_t *in, std::uint8_t *out, std::uint64_t pairs) {
  for (std::uint64_t i = 0; i < pairs; ++i) {
    digest l, r;
    std::memcpy(l.data(), in + 64 * i, 32);
    std::memcpy(r.data(), in + 64 * i + 32, 32);
    const digest d = sha256_prefixed_pair(rfc6962_node_prefix, l, r);
    std::memcpy(out + 32 * i, d.data(), 32);
  }
}

#ifdef MERKLIZE_SHA_NI

// CPUID leaf 7 EBX bit 29: the SHA extensions; leaf 1 ECX bits 9 and 19: SSSE3 and SSE4.1.
inline bool cpu_has_sha_ni() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19))) return false;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b & (1u << 29)) != 0;
}

#define MERKLIZE_SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))
// The lanes' loops written out whatever the optimisation level: at -O2 GCC keeps them as loops,
// which serialises the lanes' rounds and loses most of what interleaving them gains.
#define MERKLIZE_SHA_UNROLL _Pragma("GCC unroll 16")

// Two-lane SHA-256 state in the instructions' layout: (A, B, E, F) and (C, D, G, H).
struct sha_ni_state {
  __m128i abef, cdgh;
};

// The instructions' layout of a state given as words A..H (the IV, or a prefix's state).
MERKLIZE_SHA_TARGET inline sha_ni_state sha_ni_state_of(const std::uint32_t *words) {
  const __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i *>(words));
  const __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i *>(words + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  return {_mm_alignr_epi8(cdab, efgh, 8), _mm_blend_epi16(efgh, cdab, 0xF0)};
}

// Four rounds on N states, each with its own W[t..t+3] + K[t..t+3] in wk[j].
template <int N>
MERKLIZE_SHA_TARGET inline void sha_ni_rounds4(sha_ni_state (&s)[N], const __m128i (&wk)[N]) {
  MERKLIZE_SHA_UNROLL
  for (int j = 0; j < N; ++j)
    s[j].cdgh = _mm_sha256rnds2_epu32(s[j].cdgh, s[j].abef, wk[j]);
  MERKLIZE_SHA_UNROLL
  for (int j = 0; j < N; ++j)
    s[j].abef = _mm_sha256rnds2_epu32(s[j].abef, s[j].cdgh, _mm_shuffle_epi32(wk[j], 0x0E));
}

// N blocks (big-endian words) into N states, interleaved.
template <int N>
MERKLIZE_SHA_TARGET inline void sha_ni_compress(sha_ni_state (&s)[N],
                                                const std::uint8_t *const (&block)[N]) {
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  sha_ni_state start[N];
  __m128i w[N][4], wk[N];
  for (int j = 0; j < N; ++j)
    start[j] = s[j];
  MERKLIZE_SHA_UNROLL
  for (int g = 0; g < 16; ++g) {
    const __m128i k4 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(sha256::k + 4 * g));
    MERKLIZE_SHA_UNROLL
    for (int j = 0; j < N; ++j) {
      __m128i &m = w[j][g % 4];
      if (g < 4) {
        m = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(block[j] + 16 * g)),
                             swap);
      } else { // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four at a time
        const __m128i prev = w[j][(g + 3) % 4], prev2 = w[j][(g + 2) % 4];
        m = _mm_sha256msg1_epu32(m, w[j][(g + 1) % 4]);
        m = _mm_add_epi32(m, _mm_alignr_epi8(prev, prev2, 4));
        m = _mm_sha256msg2_epu32(m, prev);
      }
      wk[j] = _mm_add_epi32(m, k4);
    }
    sha_ni_rounds4<N>(s, wk);
  }
  for (int j = 0; j < N; ++j) {
    s[j].abef = _mm_add_epi32(s[j].abef, start[j].abef);
    s[j].cdgh = _mm_add_epi32(s[j].cdgh, start[j].cdgh);
  }
}

// The 64-byte message's padding block (0x80, zeros, bit length 512) as W[t] + K[t], made once.
inline const std::uint32_t *sha256_pad64_wk() {
  static const auto table = [] {
    struct words {
      std::uint32_t wk[64];
    } out{};
    std::uint32_t w[64] = {0x80000000u};
    w[15] = 512;
    using sha256::detail::rotr;
    for (int t = 16; t < 64; ++t)
      w[t] = w[t - 16] + (rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)) + w[t - 7] +
             (rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10));
    for (int t = 0; t < 64; ++t)
      out.wk[t] = w[t] + sha256::k[t];
    return out;
  }();
  return table.wk;
}

// The padding block on N states: its words plus constants are the table's.
template <int N>
MERKLIZE_SHA_TARGET inline void sha_ni_pad64(sha_ni_state (&s)[N], const std::uint32_t *pad_wk) {
  sha_ni_state start[N];
  __m128i wk[N];
  for (int j = 0; j < N; ++j)
    start[j] = s[j];
  for (int g = 0; g < 16; ++g) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(pad_wk + 4 * g));
    for (int j = 0; j < N; ++j)
      wk[j] = c;
    sha_ni_rounds4<N>(s, wk);
  }
  for (int j = 0; j < N; ++j) {
    s[j].abef = _mm_add_epi32(s[j].abef, start[j].abef);
    s[j].cdgh = _mm_add_epi32(s[j].cdgh, start[j].cdgh);
  }
}

// The digest of a state: words A..H big-endian.
MERKLIZE_SHA_TARGET inline void sha_ni_store(const sha_ni_state &s, std::uint8_t *out) {
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  const __m128i feba = _mm_shuffle_epi32(s.abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(s.cdgh, 0xB1);
  const __m128i dcba = _mm_blend_epi16(feba, dchg, 0xF0);
  const __m128i hgfe = _mm_alignr_epi8(dchg, feba, 8);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(out), _mm_shuffle_epi8(dcba, swap));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 16), _mm_shuffle_epi8(hgfe, swap));
}

// sha256 nodes: two at a time (their blocks are read before either digest is written, so `out`
// may be `in`), then the odd one.
MERKLIZE_SHA_TARGET inline void sha_ni_sha256_pairs(const std::uint8_t *in, std::uint8_t *out,
                                                    std::uint64_t pairs) {
  const std::uint32_t *pad = sha256_pad64_wk();
  const sha_ni_state iv = sha_ni_state_of(sha256::iv);
  std::uint64_t i = 0;
  for (; i + 2 <= pairs; i += 2) {
    sha_ni_state s[2] = {iv, iv};
    const std::uint8_t *const blocks[2] = {in + 64 * i, in + 64 * i + 64};
    sha_ni_compress<2>(s, blocks);
    sha_ni_pad64<2>(s, pad);
    sha_ni_store(s[0], out + 32 * i);
    sha_ni_store(s[1], out + 32 * i + 32);
  }
  if (i < pairs) {
    sha_ni_state s[1] = {iv};
    const std::uint8_t *const blocks[1] = {in + 64 * i};
    sha_ni_compress<1>(s, blocks);
    sha_ni_pad64<1>(s, pad);
    sha_ni_store(s[0], out + 32 * i);
  }
}

// rfc6962 nodes: 0x01 || left || right is 65 bytes, two blocks that both depend on the pair.
MERKLIZE_SHA_TARGET inline void sha_ni_rfc6962_pairs(const std::uint8_t *in, std::uint8_t *out,
                                                     std::uint64_t pairs) {
  const sha_ni_state iv = sha_ni_state_of(sha256::iv);
  for (std::uint64_t i = 0; i < pairs; ++i) {
    alignas(16) std::uint8_t first[64], second[64] = {};
    first[0] = rfc6962_node_prefix;
    std::memcpy(first + 1, in + 64 * i, 63);
    second[0] = in[64 * i + 63];
    second[1] = 0x80;
    second[62] = 0x02; // 520 bits
    second[63] = 0x08;
    sha_ni_state s[1] = {iv};
    const std::uint8_t *const b1[1] = {first}, *const b2[1] = {second};
    sha_ni_compress<1>(s, b1);
    sha_ni_compress<1>(s, b2);
    sha_ni_store(s[0], out + 32 * i);
  }
}

#undef MERKLIZE_SHA_TARGET
#undef MERKLIZE_SHA_UNROLL

#else
// No SHA extensions to build for: the table of hashes names these, and nothing runs them.
constexpr pair_hash_fn sha_ni_sha256_pairs = nullptr, sha_ni_rfc6962_pairs = nullptr;
#endif // MERKLIZE_SHA_NI

// Whether this CPU has the SHA extensions (and this build their code): the host engine then runs
// a hash's sha_ni pair hasher (hashes.hpp) where it has one.
inline bool sha_extensions_used() {
#ifdef MERKLIZE_SHA_NI
  static const bool has = cpu_has_sha_ni();
  return has;
#else
  return false;
#endif
}

} // namespace detail
} // namespace merklize
