// SPDX-License-Identifier: Apache-2.0 OR MIT
// BLAKE3's chunks many at once on the host: the chaining values of whole 1024-byte chunks, one
// chunk a vector lane (16 lanes of AVX-512, 8 of AVX2, chosen with CPUID as host_blake3_simd.hpp
// chooses; else the portable compression), each lane compressing its chunk's 16 blocks in turn
// with its own counter. This is section 5.3 of the BLAKE3 specification ("hash many chunks in
// parallel"), what its C code's blake3_hash_many does; the host engine's full BLAKE3 and Bao
// outboards (engine/host_blake3.hpp) run on it.
//
// Why not BLAKE3's own C code: Debian packages it only inside b3sum and the Rust crate's sources
// (librust-blake3-dev), not as a library with headers, so it could not be linked or included as
// a dependency; this reuses host_blake3_simd.hpp's rounds and transposes instead. Checked against
// the portable code, the official vectors and b3sum in tests/test_host_blake3.cpp. No OpenCL.
#pragma once

#include "host_blake3_simd.hpp"

#include <algorithm>

namespace merklize {
namespace detail {

// The chaining values of `chunks` whole chunks at `in` (1024 bytes each), the first of chunk
// counter `counter`, from `key` in the mode of `flags` (0, keyed, derive-key material), into
// chunks * 32 bytes at `out`.
using blake3_chunks_fn = void (*)(const std::uint8_t *in, std::uint64_t chunks,
                                  const std::uint32_t *key, std::uint64_t counter,
                                  std::uint32_t flags, std::uint8_t *out);

// One chunk of `size` bytes (0 to 1024) portably: its chaining value (not a root).
inline digest portable_chunk_cv(const std::uint8_t *chunk, std::size_t size,
                                const std::uint32_t *key, std::uint64_t counter,
                                std::uint32_t flags) {
  blake3::words8 cv;
  std::copy(key, key + 8, cv.begin());
  const std::size_t blocks = size == 0 ? 1 : (size + blake3::block_len - 1) / blake3::block_len;
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint8_t block[blake3::block_len] = {};
    const std::size_t at = b * blake3::block_len;
    const std::size_t take = std::min(blake3::block_len, size - at);
    if (take > 0) std::memcpy(block, chunk + at, take);
    const std::uint32_t block_flags =
        flags | (b == 0 ? blake3::chunk_start : 0u) | (b + 1 == blocks ? blake3::chunk_end : 0u);
    cv = blake3::chaining_value(
        blake3::compress(cv, block, counter, static_cast<std::uint32_t>(take), block_flags));
  }
  return blake3::cv_bytes(cv);
}

inline void portable_blake3_chunks(const std::uint8_t *in, std::uint64_t chunks,
                                   const std::uint32_t *key, std::uint64_t counter,
                                   std::uint32_t flags, std::uint8_t *out) {
  for (std::uint64_t i = 0; i < chunks; ++i) {
    const digest d =
        portable_chunk_cv(in + blake3::chunk_len * i, blake3::chunk_len, key, counter + i, flags);
    std::memcpy(out + 32 * i, d.data(), 32);
  }
}

#ifdef MERKLIZE_BLAKE3_SIMD

#define MERKLIZE_B3_CHUNKS_AVX2 __attribute__((target("avx2")))
#define MERKLIZE_B3_CHUNKS_AVX512 __attribute__((target("avx512f")))

// The flags of block b of a chunk: CHUNK_START on the first, CHUNK_END on the last.
inline std::uint32_t chunk_block_flags(std::uint32_t flags, int b) {
  return flags | (b == 0 ? blake3::chunk_start : 0u) | (b == 15 ? blake3::chunk_end : 0u);
}

// The counters of `lanes` consecutive chunks from `counter`, low and high words.
template <class V, int lanes> inline void chunk_counters(std::uint64_t counter, V &low, V &high) {
  for (int j = 0; j < lanes; ++j) {
    low[j] = static_cast<std::uint32_t>(counter + j);
    high[j] = static_cast<std::uint32_t>((counter + j) >> 32);
  }
}

// 16 chunks, one a lane of AVX-512: block b of every chunk transposed into the message words.
MERKLIZE_B3_CHUNKS_AVX512 inline void avx512_chunks16(const std::uint8_t *in,
                                                      const std::uint32_t *key,
                                                      std::uint64_t counter, std::uint32_t flags,
                                                      std::uint8_t *out) {
  b3_u32x16 cv[8], low, high, m[16];
  for (int i = 0; i < 8; ++i)
    cv[i] = b3_u32x16{} + key[i];
  chunk_counters<b3_u32x16, 16>(counter, low, high);
  for (int b = 0; b < 16; ++b) {
    b3_messages16(in + 64 * b, blake3::chunk_len, m);
    b3_compress_from(m, cv, low, high, b3_u32x16{} + chunk_block_flags(flags, b));
  }
  b3_store_cvs16(cv, out);
}

// 8 chunks, one a lane of AVX2.
MERKLIZE_B3_CHUNKS_AVX2 inline void avx2_chunks8(const std::uint8_t *in, const std::uint32_t *key,
                                                 std::uint64_t counter, std::uint32_t flags,
                                                 std::uint8_t *out) {
  b3_u32x8 cv[8], low, high, m[16];
  for (int i = 0; i < 8; ++i)
    cv[i] = b3_u32x8{} + key[i];
  chunk_counters<b3_u32x8, 8>(counter, low, high);
  for (int b = 0; b < 16; ++b) {
    b3_messages8(in + 64 * b, blake3::chunk_len, m);
    b3_compress_from(m, cv, low, high, b3_u32x8{} + chunk_block_flags(flags, b));
  }
  b3_store_cvs8(cv, out);
}

#undef MERKLIZE_B3_CHUNKS_AVX2
#undef MERKLIZE_B3_CHUNKS_AVX512

// Groups of `lanes` chunks, the rest portably.
template <int lanes, void (*group)(const std::uint8_t *, const std::uint32_t *, std::uint64_t,
                                   std::uint32_t, std::uint8_t *)>
inline void chunks_in_groups(const std::uint8_t *in, std::uint64_t chunks, const std::uint32_t *key,
                             std::uint64_t counter, std::uint32_t flags, std::uint8_t *out) {
  std::uint64_t i = 0;
  for (; i + lanes <= chunks; i += lanes)
    group(in + blake3::chunk_len * i, key, counter + i, flags, out + 32 * i);
  portable_blake3_chunks(in + blake3::chunk_len * i, chunks - i, key, counter + i, flags,
                         out + 32 * i);
}

#endif // MERKLIZE_BLAKE3_SIMD

// The chunks function of `isa`, which the caller has checked this CPU runs.
inline blake3_chunks_fn blake3_chunks_of(blake3_isa isa) {
#ifdef MERKLIZE_BLAKE3_SIMD
  if (isa == blake3_isa::avx512) return chunks_in_groups<16, avx512_chunks16>;
  if (isa == blake3_isa::avx2) return chunks_in_groups<8, avx2_chunks8>;
#endif
  (void)isa;
  return portable_blake3_chunks;
}

} // namespace detail
} // namespace merklize
