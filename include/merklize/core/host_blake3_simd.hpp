// SPDX-License-Identifier: Apache-2.0 OR MIT
// Many BLAKE3 node hashes at once on the host: out[i] = the chaining value of one compression of
// the 64-byte block in[i] from the IV, counter 0, block length 64 and the caller's flags. Both
// BLAKE3 node rules are such a compression (node_rule.hpp): blake3 with CHUNK_START | CHUNK_END |
// ROOT on every node, blake3-parent with PARENT (and ROOT on the root alone).
//
// How: one message per vector lane, as BLAKE3's specification suggests for hashing many inputs
// (section 5.3): 16 lanes of AVX-512 or 8 of AVX2, chosen at run time with CPUID (and XGETBV, that
// the OS saves the registers), else the portable compression of blake3.hpp. The rounds are
// written once over GCC/clang vector types (always inlined into each ISA's function, which gives
// them its instructions: one vprord per rotation on AVX-512, a byte shuffle for 16 and 8 on
// AVX2); the blocks go into word order and the chaining values back into node order by
// transposing 32-bit words with unpack and lane-exchange shuffles. Written from the BLAKE3
// specification and Intel's intrinsics reference; checked against the portable compression,
// the official vectors and b3sum in tests/test_host_blake3_simd.cpp. No OpenCL.
#pragma once

#include "blake3.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MERKLIZE_BLAKE3_SIMD 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace merklize {
namespace detail {

// Hashes `blocks` 64-byte blocks from `in` into `blocks` chaining values at `out`, which may be
// `in` itself: each value is written after the blocks it could overwrite are read.
using blake3_blocks_fn = void (*)(const std::uint8_t *in, std::uint8_t *out, std::uint64_t blocks,
                                  std::uint32_t flags);

// The flags of the blake3 node rule: the node is BLAKE3 of its 64 bytes, a whole one-block input.
constexpr std::uint32_t blake3_node_flags = blake3::chunk_start | blake3::chunk_end | blake3::root;

// The same from a key (BLAKE3's keyed and derive-key modes hash their parents from it).
using blake3_keyed_blocks_fn = void (*)(const std::uint8_t *in, std::uint8_t *out,
                                        std::uint64_t blocks, const std::uint32_t *key,
                                        std::uint32_t flags);

inline void portable_blake3_keyed_blocks(const std::uint8_t *in, std::uint8_t *out,
                                         std::uint64_t blocks, const std::uint32_t *key_words,
                                         std::uint32_t flags) {
  using namespace blake3;
  words8 key;
  std::copy(key_words, key_words + 8, key.begin());
  for (std::uint64_t i = 0; i < blocks; ++i) {
    const digest d = cv_bytes(chaining_value(compress(key, in + 64 * i, 0, block_len, flags)));
    std::memcpy(out + 32 * i, d.data(), 32);
  }
}

inline void portable_blake3_blocks(const std::uint8_t *in, std::uint8_t *out, std::uint64_t blocks,
                                   std::uint32_t flags) {
  portable_blake3_keyed_blocks(in, out, blocks, blake3::iv, flags);
}

enum class blake3_isa { portable, avx2, avx512 };

inline const char *to_string(blake3_isa isa) {
  return isa == blake3_isa::avx512 ? "AVX-512" : isa == blake3_isa::avx2 ? "AVX2" : "portable";
}

#ifdef MERKLIZE_BLAKE3_SIMD

#define MERKLIZE_B3_INLINE __attribute__((always_inline)) inline
#define MERKLIZE_B3_AVX2 __attribute__((target("avx2")))
#define MERKLIZE_B3_AVX512 __attribute__((target("avx512f")))

typedef std::uint32_t b3_u32x8 __attribute__((vector_size(32)));
typedef std::uint32_t b3_u32x16 __attribute__((vector_size(64)));
typedef std::uint8_t b3_u8x32 __attribute__((vector_size(32)));

// Which message word each round's G functions take: round r uses m[schedule[r][i]], the
// permutation of the specification applied r times.
struct b3_message_schedule {
  std::uint8_t rows[7][16];
};

constexpr b3_message_schedule make_b3_schedule() {
  constexpr std::uint8_t permutation[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
  b3_message_schedule s{};
  for (int i = 0; i < 16; ++i)
    s.rows[0][i] = static_cast<std::uint8_t>(i);
  for (int r = 1; r < 7; ++r)
    for (int i = 0; i < 16; ++i)
      s.rows[r][i] = s.rows[r - 1][permutation[i]];
  return s;
}

inline constexpr b3_message_schedule b3_schedule = make_b3_schedule();

// Rotations right, in place (references: no vector is passed by value outside its ISA's code).
// 16 and 8 bits on 8 lanes as byte shuffles (one instruction on AVX2, where shifts take three).
template <int n, class V> MERKLIZE_B3_INLINE void b3_rotr(V &x) { x = (x >> n) | (x << (32 - n)); }
template <> MERKLIZE_B3_INLINE void b3_rotr<16, b3_u32x8>(b3_u32x8 &x) {
  const b3_u8x32 b = (b3_u8x32)x;
  x = (b3_u32x8)(__builtin_shufflevector(b, b, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                         18, 19, 16, 17, 22, 23, 20, 21, 26, 27, 24, 25, 30, 31, 28,
                                         29));
}
template <> MERKLIZE_B3_INLINE void b3_rotr<8, b3_u32x8>(b3_u32x8 &x) {
  const b3_u8x32 b = (b3_u8x32)x;
  x = (b3_u32x8)(__builtin_shufflevector(b, b, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
                                         17, 18, 19, 16, 21, 22, 23, 20, 25, 26, 27, 24, 29, 30, 31,
                                         28));
}

template <class V>
MERKLIZE_B3_INLINE void b3_g(V (&v)[16], int a, int b, int c, int d, const V &x, const V &y) {
  v[a] = v[a] + v[b] + x;
  v[d] ^= v[a];
  b3_rotr<16>(v[d]);
  v[c] = v[c] + v[d];
  v[b] ^= v[c];
  b3_rotr<12>(v[b]);
  v[a] = v[a] + v[b] + y;
  v[d] ^= v[a];
  b3_rotr<8>(v[d]);
  v[c] = v[c] + v[d];
  v[b] ^= v[c];
  b3_rotr<7>(v[b]);
}

template <int r, class V> MERKLIZE_B3_INLINE void b3_round(V (&v)[16], const V (&m)[16]) {
  constexpr const std::uint8_t *s = b3_schedule.rows[r];
  b3_g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
  b3_g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
  b3_g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
  b3_g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
  b3_g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
  b3_g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
  b3_g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
  b3_g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

// The compression of one block per lane (m[w]: word w of every lane's block) from each lane's
// chaining value in cv[0..7], with its counter (low and high words) and flags, a whole block:
// the lanes' chaining values into cv[0..7].
template <class V>
MERKLIZE_B3_INLINE void b3_compress_from(const V (&m)[16], V (&cv)[8], const V &counter_low,
                                         const V &counter_high, const V &flags) {
  V v[16];
  for (int i = 0; i < 8; ++i)
    v[i] = cv[i];
  for (int i = 0; i < 4; ++i)
    v[8 + i] = V{} + blake3::iv[i];
  v[12] = counter_low;
  v[13] = counter_high;
  v[14] = V{} + std::uint32_t(blake3::block_len);
  v[15] = flags;
  b3_round<0>(v, m);
  b3_round<1>(v, m);
  b3_round<2>(v, m);
  b3_round<3>(v, m);
  b3_round<4>(v, m);
  b3_round<5>(v, m);
  b3_round<6>(v, m);
  for (int i = 0; i < 8; ++i)
    cv[i] = v[i] ^ v[i + 8];
}

// The same from the key (the IV, or a keyed mode's), counter 0: a node or a parent.
template <class V>
MERKLIZE_B3_INLINE void b3_compress_lanes(const V (&m)[16], V (&cv)[8], const std::uint32_t *key,
                                          std::uint32_t flags) {
  for (int i = 0; i < 8; ++i)
    cv[i] = V{} + key[i];
  b3_compress_from(m, cv, V{}, V{}, V{} + flags);
}

// AVX2: 8 rows of 8 words become 8 columns. 32-bit then 64-bit interleaves within each 128-bit
// half leave column 4k + c's rows 0-3 in half k of u[c] and rows 4-7 in half k of u[4 + c]; the
// halves are then exchanged.
MERKLIZE_B3_AVX2 MERKLIZE_B3_INLINE void b3_transpose8(__m256i (&r)[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 2; ++i) {
    u[4 * i] = _mm256_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
    u[4 * i + 1] = _mm256_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
    u[4 * i + 2] = _mm256_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
    u[4 * i + 3] = _mm256_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
  }
  for (int c = 0; c < 4; ++c) {
    r[c] = _mm256_permute2x128_si256(u[c], u[4 + c], 0x20);
    r[4 + c] = _mm256_permute2x128_si256(u[c], u[4 + c], 0x31);
  }
}

// 8 blocks, the j-th at in + stride * j, as message words (m[w]: word w of every block).
MERKLIZE_B3_AVX2 MERKLIZE_B3_INLINE void b3_messages8(const std::uint8_t *in, std::size_t stride,
                                                      b3_u32x8 (&m)[16]) {
  __m256i low[8], high[8];
  for (int j = 0; j < 8; ++j) {
    low[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + stride * j));
    high[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + stride * j + 32));
  }
  b3_transpose8(low);
  b3_transpose8(high);
  for (int w = 0; w < 8; ++w) {
    m[w] = (b3_u32x8)low[w];
    m[8 + w] = (b3_u32x8)high[w];
  }
}

// 8 lanes' chaining values to 8 consecutive 32-byte values at `out`.
MERKLIZE_B3_AVX2 MERKLIZE_B3_INLINE void b3_store_cvs8(const b3_u32x8 (&cv)[8], std::uint8_t *out) {
  __m256i rows[8];
  for (int w = 0; w < 8; ++w)
    rows[w] = (__m256i)cv[w];
  b3_transpose8(rows);
  for (int j = 0; j < 8; ++j)
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + 32 * j), rows[j]);
}

// 8 blocks from `in` (read whole before anything is written) to 8 chaining values at `out`.
MERKLIZE_B3_AVX2 inline void avx2_blake3_8(const std::uint8_t *in, std::uint8_t *out,
                                           const std::uint32_t *key, std::uint32_t flags) {
  b3_u32x8 m[16], cv[8];
  b3_messages8(in, 64, m);
  b3_compress_lanes(m, cv, key, flags);
  b3_store_cvs8(cv, out);
}

// AVX-512, N = 16 or 8 rows of 16 words: 32-bit then 64-bit interleaves within each 128-bit
// quarter, after which quarter k of u[4i + c] is element 4k + c of rows 4i..4i+3.
template <int N>
MERKLIZE_B3_AVX512 MERKLIZE_B3_INLINE void b3_interleave16(const __m512i (&r)[N], __m512i (&u)[N]) {
  __m512i t[N];
  for (int i = 0; i < N / 2; ++i) {
    t[2 * i] = _mm512_maskz_unpacklo_epi32(0xFFFF, r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_maskz_unpackhi_epi32(0xFFFF, r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < N / 4; ++i) {
    u[4 * i] = _mm512_maskz_unpacklo_epi64(0xFF, t[4 * i], t[4 * i + 2]);
    u[4 * i + 1] = _mm512_maskz_unpackhi_epi64(0xFF, t[4 * i], t[4 * i + 2]);
    u[4 * i + 2] = _mm512_maskz_unpacklo_epi64(0xFF, t[4 * i + 1], t[4 * i + 3]);
    u[4 * i + 3] = _mm512_maskz_unpackhi_epi64(0xFF, t[4 * i + 1], t[4 * i + 3]);
  }
}

// Quarters (k, k) of a and b, for k = 0, 1 (low) or 2, 3 (high): a's two, then b's two.
#define MERKLIZE_B3_QUARTERS_LOW(a, b) _mm512_maskz_shuffle_i32x4(0xFFFF, a, b, 0x44)
#define MERKLIZE_B3_QUARTERS_HIGH(a, b) _mm512_maskz_shuffle_i32x4(0xFFFF, a, b, 0xEE)

// 16 rows of 16 words become 16 columns: column 4k + c gathers quarter k of u[c], u[4 + c],
// u[8 + c] and u[12 + c] in two lane-exchange shuffles.
MERKLIZE_B3_AVX512 MERKLIZE_B3_INLINE void b3_transpose16(__m512i (&r)[16]) {
  __m512i u[16];
  b3_interleave16<16>(r, u);
  for (int c = 0; c < 4; ++c) {
    const __m512i low01 = MERKLIZE_B3_QUARTERS_LOW(u[c], u[4 + c]); // rows 0-7, k = 0, 1
    const __m512i low23 = MERKLIZE_B3_QUARTERS_HIGH(u[c], u[4 + c]);
    const __m512i high01 = MERKLIZE_B3_QUARTERS_LOW(u[8 + c], u[12 + c]); // rows 8-15
    const __m512i high23 = MERKLIZE_B3_QUARTERS_HIGH(u[8 + c], u[12 + c]);
    r[c] = _mm512_maskz_shuffle_i32x4(0xFFFF, low01, high01, 0x88);
    r[4 + c] = _mm512_maskz_shuffle_i32x4(0xFFFF, low01, high01, 0xDD);
    r[8 + c] = _mm512_maskz_shuffle_i32x4(0xFFFF, low23, high23, 0x88);
    r[12 + c] = _mm512_maskz_shuffle_i32x4(0xFFFF, low23, high23, 0xDD);
  }
}

// 8 vectors of 16 lanes (word w of every lane) to node order: vector q is lanes 2q and 2q + 1,
// 8 words each. After the interleaves lane 4k + c's words 0-3 are quarter k of u[c] and words
// 4-7 quarter k of u[4 + c].
MERKLIZE_B3_AVX512 MERKLIZE_B3_INLINE void b3_lanes_to_nodes16(__m512i (&r)[8]) {
  __m512i u[8];
  b3_interleave16<8>(r, u);
  for (int c = 0; c < 4; c += 2) { // lanes 4k + c and 4k + c + 1 go to vector 2k + c / 2
    const __m512i a01 = MERKLIZE_B3_QUARTERS_LOW(u[c], u[4 + c]);
    const __m512i a23 = MERKLIZE_B3_QUARTERS_HIGH(u[c], u[4 + c]);
    const __m512i b01 = MERKLIZE_B3_QUARTERS_LOW(u[c + 1], u[5 + c]);
    const __m512i b23 = MERKLIZE_B3_QUARTERS_HIGH(u[c + 1], u[5 + c]);
    r[c / 2] = _mm512_maskz_shuffle_i32x4(0xFFFF, a01, b01, 0x88);
    r[2 + c / 2] = _mm512_maskz_shuffle_i32x4(0xFFFF, a01, b01, 0xDD);
    r[4 + c / 2] = _mm512_maskz_shuffle_i32x4(0xFFFF, a23, b23, 0x88);
    r[6 + c / 2] = _mm512_maskz_shuffle_i32x4(0xFFFF, a23, b23, 0xDD);
  }
}

#undef MERKLIZE_B3_QUARTERS_LOW
#undef MERKLIZE_B3_QUARTERS_HIGH

// 16 blocks, the j-th at in + stride * j, as message words.
MERKLIZE_B3_AVX512 MERKLIZE_B3_INLINE void b3_messages16(const std::uint8_t *in, std::size_t stride,
                                                         b3_u32x16 (&m)[16]) {
  __m512i rows[16];
  for (int j = 0; j < 16; ++j)
    rows[j] = _mm512_loadu_si512(in + stride * j);
  b3_transpose16(rows);
  for (int w = 0; w < 16; ++w)
    m[w] = (b3_u32x16)rows[w];
}

// 16 lanes' chaining values to 16 consecutive 32-byte values at `out`.
MERKLIZE_B3_AVX512 MERKLIZE_B3_INLINE void b3_store_cvs16(const b3_u32x16 (&cv)[8],
                                                          std::uint8_t *out) {
  __m512i nodes[8];
  for (int w = 0; w < 8; ++w)
    nodes[w] = (__m512i)cv[w];
  b3_lanes_to_nodes16(nodes);
  for (int q = 0; q < 8; ++q)
    _mm512_storeu_si512(out + 64 * q, nodes[q]);
}

// 16 blocks from `in` (read whole before anything is written) to 16 chaining values at `out`.
MERKLIZE_B3_AVX512 inline void avx512_blake3_16(const std::uint8_t *in, std::uint8_t *out,
                                                const std::uint32_t *key, std::uint32_t flags) {
  b3_u32x16 m[16], cv[8];
  b3_messages16(in, 64, m);
  b3_compress_lanes(m, cv, key, flags);
  b3_store_cvs16(cv, out);
}

// Groups of `lanes` blocks; a last group of fewer goes through a zeroed buffer of a whole one.
template <int lanes,
          void (*group)(const std::uint8_t *, std::uint8_t *, const std::uint32_t *, std::uint32_t)>
inline void b3_blocks_in_groups(const std::uint8_t *in, std::uint8_t *out, std::uint64_t blocks,
                                const std::uint32_t *key, std::uint32_t flags) {
  std::uint64_t i = 0;
  for (; i + lanes <= blocks; i += lanes)
    group(in + 64 * i, out + 32 * i, key, flags);
  if (i == blocks) return;
  alignas(64) std::uint8_t tail[64 * lanes] = {};
  std::memcpy(tail, in + 64 * i, 64 * (blocks - i));
  group(tail, tail, key, flags);
  std::memcpy(out + 32 * i, tail, 32 * (blocks - i));
}

constexpr blake3_keyed_blocks_fn avx2_blake3_keyed_blocks = b3_blocks_in_groups<8, avx2_blake3_8>;
constexpr blake3_keyed_blocks_fn avx512_blake3_keyed_blocks =
    b3_blocks_in_groups<16, avx512_blake3_16>;

// CPUID leaf 1 ECX bit 27 (OSXSAVE) and XCR0: the OS saves the YMM (bits 1, 2) and, for
// AVX-512, the opmask and ZMM (bits 5, 6, 7) state; leaf 7 EBX bit 5 AVX2, bit 16 AVX512F.
inline bool cpu_has_blake3_isa(blake3_isa isa) {
  if (isa == blake3_isa::portable) return true;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return false;
  unsigned xcr0_low = 0, xcr0_high = 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  if (isa == blake3_isa::avx2) return (xcr0_low & 0x6u) == 0x6u && (b & (1u << 5));
  return (xcr0_low & 0xE6u) == 0xE6u && (b & (1u << 16));
}

#undef MERKLIZE_B3_INLINE
#undef MERKLIZE_B3_AVX2
#undef MERKLIZE_B3_AVX512

#else

inline bool cpu_has_blake3_isa(blake3_isa isa) { return isa == blake3_isa::portable; }

#endif // MERKLIZE_BLAKE3_SIMD

// The keyed blocks function of `isa`, which the caller has checked this CPU runs.
inline blake3_keyed_blocks_fn blake3_keyed_blocks_of(blake3_isa isa) {
#ifdef MERKLIZE_BLAKE3_SIMD
  if (isa == blake3_isa::avx512) return avx512_blake3_keyed_blocks;
  if (isa == blake3_isa::avx2) return avx2_blake3_keyed_blocks;
#endif
  (void)isa;
  return portable_blake3_keyed_blocks;
}

// The blocks function of `isa` (from the IV), which the caller has checked this CPU runs.
inline blake3_blocks_fn blake3_blocks_of(blake3_isa isa) {
#ifdef MERKLIZE_BLAKE3_SIMD
  if (isa == blake3_isa::avx512)
    return
        [](const std::uint8_t *in, std::uint8_t *out, std::uint64_t blocks, std::uint32_t flags) {
          avx512_blake3_keyed_blocks(in, out, blocks, blake3::iv, flags);
        };
  if (isa == blake3_isa::avx2)
    return
        [](const std::uint8_t *in, std::uint8_t *out, std::uint64_t blocks, std::uint32_t flags) {
          avx2_blake3_keyed_blocks(in, out, blocks, blake3::iv, flags);
        };
#endif
  (void)isa;
  return portable_blake3_blocks;
}

// The widest this CPU runs, found once.
inline blake3_isa blake3_isa_used() {
  static const blake3_isa isa = cpu_has_blake3_isa(blake3_isa::avx512) ? blake3_isa::avx512
                                : cpu_has_blake3_isa(blake3_isa::avx2) ? blake3_isa::avx2
                                                                       : blake3_isa::portable;
  return isa;
}

// The lanes of the code blake3_isa_used() picks: what --device auto's estimate weighs
// (engine_choice.hpp's host_estimate).
inline unsigned blake3_lanes_used() {
  const blake3_isa isa = blake3_isa_used();
  return isa == blake3_isa::avx512 ? 16 : isa == blake3_isa::avx2 ? 8 : 1;
}

// blake3 nodes, `pairs` of them, on the widest code this CPU runs: the host engine's node hash.
inline void blake3_node_pairs(const std::uint8_t *in, std::uint8_t *out, std::uint64_t pairs) {
  static const blake3_blocks_fn blocks = blake3_blocks_of(blake3_isa_used());
  blocks(in, out, pairs, blake3_node_flags);
}

} // namespace detail
} // namespace merklize
