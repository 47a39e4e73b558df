R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Keccak-f[1600] (FIPS 202) and its sponge for Keccak-256 and SHA3-256, in plain OpenCL C 1.2:
 * the node hash HASH(left || right) of the "keccak256" and "sha3-256" node modes (keccak_node,
 * for merkle.cl and its kin), the leaves of data blocks of any length (keccak_block_leaves), and
 * a permutation-only kernel with no memory traffic, the bound of both (keccak_permutations,
 * bench/keccak_bench.cpp). The host reference is include/merklize/core/keccak.hpp.
 *
 * The two hashes are one sponge of rate 136 bytes and differ in one byte, the first of the
 * padding: 0x01 for Keccak-256 (Ethereum's keccak256), 0x06 for SHA3-256. keccak_node takes it
 * from the build, -DMERKLIZE_KECCAK_PAD=0x01 or 0x06 (the hash's entry in runtime/kernels.hpp), so
 * the padding lane is a constant folded into the first round; a program built without it has no
 * keccak_node. keccak_block_leaves takes it as an argument.
 *
 * The state is 25 lanes of 64 bits, A[x, y] in a[x + 5y], byte i of the state in lane i / 8,
 * little-endian. Every lane index is a compile-time constant, so the state lives in registers.
 * Nodes arrive as uints in memory order, as merkle.cl loads them; keccak_lane makes a lane of two
 * of them (a bitcast on a little-endian device, byte swaps elsewhere).
 *
 * How a GPU runs it: NVIDIA's GPUs have 32-bit registers and ALUs. An xor of lanes is two LOP3
 * (a three-input logic op: theta's five-way xors and chi's b ^ (~c & d) take one per half), and a
 * 64-bit rotation at best two funnel shifts (SHF.L.W: each half of the result is a 32-bit window
 * of the two halves): per round 130 LOP3 and 58 SHF, some 4,500 ALU instructions a
 * permutation (clang's NVPTX back end and ptxas for sm_90, as a proxy of NVIDIA's compiler).
 * Whether the compiler reaches those two funnel shifts depends on how the rotation is written,
 * and whether 24 unrolled rounds (some 70 KB of SASS) stay in the instruction caches is a
 * question for the device; both are build options, so bench/keccak_run.sh times the variants in
 * one run:
 *   -DMERKLIZE_KECCAK_UNROLL=U  rounds per iteration of the round loop, U dividing 24: 1 (the
 *                               default: a loop of 24 rounds reading the constants from
 *                               __constant) to 24 (no loop, the constants literals). The NVIDIA
 *                               tuning row asks for 24; CPUs keep 1: PoCL compiles a program of
 *                               24 unrolled rounds in ten times the time (35 s against 3.4 s for
 *                               merkle.cl on 2 cores) and runs it no faster
 *   -DMERKLIZE_KECCAK_SHIFTS    rotations as (x << n) | (x >> (64 - n)) rather than rotate()
 *   -DMERKLIZE_KECCAK_NV_SHF    rotations as two PTX funnel shifts (shf.l.wrap.b32) on the
 *                               lane's halves, written out in inline assembly: NVIDIA only (the
 *                               compiler defines cl_nv_pragma_unroll), rotate() elsewhere */

/* Every helper is inlined: a call would pass the state through the private stack, which on a
 * GPU is device memory (as blake3.cl's B3_INLINE). */
#define KECCAK_INLINE inline __attribute__((always_inline))

#ifndef MERKLIZE_KECCAK_UNROLL
#define MERKLIZE_KECCAK_UNROLL 1
#endif
#if MERKLIZE_KECCAK_UNROLL < 1 || 24 % MERKLIZE_KECCAK_UNROLL != 0
#error "MERKLIZE_KECCAK_UNROLL divides 24: 1, 2, 3, 4, 6, 8, 12 or 24"
#endif

/* The rate in bytes and in lanes (capacity 512 bits: 256-bit digests). */
#define KECCAK_RATE 136
#define KECCAK_RATE_LANES 17

/* FIPS 202, 3.2.5: iota's round constants. */
__constant ulong keccak_rc[24] = {
    0x0000000000000001ul, 0x0000000000008082ul, 0x800000000000808Aul, 0x8000000080008000ul,
    0x000000000000808Bul, 0x0000000080000001ul, 0x8000000080008081ul, 0x8000000000008009ul,
    0x000000000000008Aul, 0x0000000000000088ul, 0x0000000080008009ul, 0x000000008000000Aul,
    0x000000008000808Bul, 0x800000000000008Bul, 0x8000000000008089ul, 0x8000000000008003ul,
    0x8000000000008002ul, 0x8000000000000080ul, 0x000000000000800Aul, 0x800000008000000Aul,
    0x8000000080008081ul, 0x8000000000008080ul, 0x0000000080000001ul, 0x8000000080008008ul};

/* A left rotation of a lane by a constant n, 0 < n < 64. */
#if defined(MERKLIZE_KECCAK_NV_SHF) && defined(cl_nv_pragma_unroll)
/* shf.l.wrap.b32 d, lo, hi, n: the high word of the 64-bit hi:lo shifted left by n mod 32. For
 * n < 32 the result's high word is (hi, lo) so shifted and its low word (lo, hi); for n >= 32 the
 * halves trade places. */
KECCAK_INLINE ulong keccak_rotl(ulong x, uint n) {
  const uint2 h = as_uint2(x);
  uint lo, hi;
  if (n < 32) {
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(lo) : "r"(h.y), "r"(h.x), "r"(n));
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(hi) : "r"(h.x), "r"(h.y), "r"(n));
  } else {
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(lo) : "r"(h.x), "r"(h.y), "r"(n));
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(hi) : "r"(h.y), "r"(h.x), "r"(n));
  }
  return as_ulong((uint2)(lo, hi));
}
#define KECCAK_ROTL(x, n) keccak_rotl((x), (n))
#elif defined(MERKLIZE_KECCAK_SHIFTS)
#define KECCAK_ROTL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))
#else
#define KECCAK_ROTL(x, n) rotate((x), (ulong)(n))
#endif

/* One round: theta, rho and pi (A[x, y] to B[y, 2x + 3y], rotated), chi, iota. */
KECCAK_INLINE void keccak_round(ulong a[25], ulong rc) {
  const ulong c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
  const ulong c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
  const ulong c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
  const ulong c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
  const ulong c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
  const ulong d0 = c4 ^ KECCAK_ROTL(c1, 1);
  const ulong d1 = c0 ^ KECCAK_ROTL(c2, 1);
  const ulong d2 = c1 ^ KECCAK_ROTL(c3, 1);
  const ulong d3 = c2 ^ KECCAK_ROTL(c4, 1);
  const ulong d4 = c3 ^ KECCAK_ROTL(c0, 1);
  const ulong b0 = a[0] ^ d0;
  const ulong b1 = KECCAK_ROTL(a[6] ^ d1, 44);
  const ulong b2 = KECCAK_ROTL(a[12] ^ d2, 43);
  const ulong b3 = KECCAK_ROTL(a[18] ^ d3, 21);
  const ulong b4 = KECCAK_ROTL(a[24] ^ d4, 14);
  const ulong b5 = KECCAK_ROTL(a[3] ^ d3, 28);
  const ulong b6 = KECCAK_ROTL(a[9] ^ d4, 20);
  const ulong b7 = KECCAK_ROTL(a[10] ^ d0, 3);
  const ulong b8 = KECCAK_ROTL(a[16] ^ d1, 45);
  const ulong b9 = KECCAK_ROTL(a[22] ^ d2, 61);
  const ulong b10 = KECCAK_ROTL(a[1] ^ d1, 1);
  const ulong b11 = KECCAK_ROTL(a[7] ^ d2, 6);
  const ulong b12 = KECCAK_ROTL(a[13] ^ d3, 25);
  const ulong b13 = KECCAK_ROTL(a[19] ^ d4, 8);
  const ulong b14 = KECCAK_ROTL(a[20] ^ d0, 18);
  const ulong b15 = KECCAK_ROTL(a[4] ^ d4, 27);
  const ulong b16 = KECCAK_ROTL(a[5] ^ d0, 36);
  const ulong b17 = KECCAK_ROTL(a[11] ^ d1, 10);
  const ulong b18 = KECCAK_ROTL(a[17] ^ d2, 15);
  const ulong b19 = KECCAK_ROTL(a[23] ^ d3, 56);
  const ulong b20 = KECCAK_ROTL(a[2] ^ d2, 62);
  const ulong b21 = KECCAK_ROTL(a[8] ^ d3, 55);
  const ulong b22 = KECCAK_ROTL(a[14] ^ d4, 39);
  const ulong b23 = KECCAK_ROTL(a[15] ^ d0, 41);
  const ulong b24 = KECCAK_ROTL(a[21] ^ d1, 2);
  a[0] = b0 ^ (~b1 & b2) ^ rc;
  a[1] = b1 ^ (~b2 & b3);
  a[2] = b2 ^ (~b3 & b4);
  a[3] = b3 ^ (~b4 & b0);
  a[4] = b4 ^ (~b0 & b1);
  a[5] = b5 ^ (~b6 & b7);
  a[6] = b6 ^ (~b7 & b8);
  a[7] = b7 ^ (~b8 & b9);
  a[8] = b8 ^ (~b9 & b5);
  a[9] = b9 ^ (~b5 & b6);
  a[10] = b10 ^ (~b11 & b12);
  a[11] = b11 ^ (~b12 & b13);
  a[12] = b12 ^ (~b13 & b14);
  a[13] = b13 ^ (~b14 & b10);
  a[14] = b14 ^ (~b10 & b11);
  a[15] = b15 ^ (~b16 & b17);
  a[16] = b16 ^ (~b17 & b18);
  a[17] = b17 ^ (~b18 & b19);
  a[18] = b18 ^ (~b19 & b15);
  a[19] = b19 ^ (~b15 & b16);
  a[20] = b20 ^ (~b21 & b22);
  a[21] = b21 ^ (~b22 & b23);
  a[22] = b22 ^ (~b23 & b24);
  a[23] = b23 ^ (~b24 & b20);
  a[24] = b24 ^ (~b20 & b21);
}

/* Keccak-f[1600]: 24 rounds, MERKLIZE_KECCAK_UNROLL of them written out per loop iteration. */
KECCAK_INLINE void keccak_f1600(ulong a[25]) {
#if MERKLIZE_KECCAK_UNROLL == 24
#pragma unroll
  for (int r = 0; r < 24; ++r)
    keccak_round(a, keccak_rc[r]);
#else
#pragma unroll 1
  for (int r = 0; r < 24; r += MERKLIZE_KECCAK_UNROLL) {
#pragma unroll
    for (int k = 0; k < MERKLIZE_KECCAK_UNROLL; ++k)
      keccak_round(a, keccak_rc[r + k]);
  }
#endif
}

/* The lane of eight bytes that lie in memory as the uints w0, w1 (w0 first), and back. */
#if defined(__ENDIAN_LITTLE__)
KECCAK_INLINE ulong keccak_lane(uint w0, uint w1) { return as_ulong((uint2)(w0, w1)); }
KECCAK_INLINE uint2 keccak_words(ulong lane) { return as_uint2(lane); }
#else
KECCAK_INLINE uint keccak_swap(uint w) {
  return rotate(w & 0x00FF00FFu, 24u) | rotate(w & 0xFF00FF00u, 8u);
}
KECCAK_INLINE ulong keccak_lane(uint w0, uint w1) {
  return (ulong)keccak_swap(w1) << 32 | keccak_swap(w0);
}
KECCAK_INLINE uint2 keccak_words(ulong lane) {
  return (uint2)(keccak_swap((uint)lane), keccak_swap((uint)(lane >> 32)));
}
#endif

/* The digest: the first 32 bytes of the state, as eight uints in memory order. */
KECCAK_INLINE uint8 keccak_digest(const ulong a[25]) {
  return (uint8)(keccak_words(a[0]), keccak_words(a[1]), keccak_words(a[2]), keccak_words(a[3]));
}

/* HASH(left || right) with the padding byte `pad`: 64 bytes, one block (the rate is 136), so the
 * state starts as the eight lanes of the children, the padding byte after them (lane 8), zeros,
 * and 0x80 in the block's last byte (lane 16's top). */
KECCAK_INLINE uint8 keccak_pair(uint8 left, uint8 right, ulong pad) {
  ulong a[25] = {keccak_lane(left.s0, left.s1),
                 keccak_lane(left.s2, left.s3),
                 keccak_lane(left.s4, left.s5),
                 keccak_lane(left.s6, left.s7),
                 keccak_lane(right.s0, right.s1),
                 keccak_lane(right.s2, right.s3),
                 keccak_lane(right.s4, right.s5),
                 keccak_lane(right.s6, right.s7),
                 pad,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0x8000000000000000ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul,
                 0ul};
  keccak_f1600(a);
  return keccak_digest(a);
}

/* The node function of merkle.cl (uint8 f(uint8 left, uint8 right, int is_root)) for the hash
 * whose padding byte the build names. No root flag. */
#if defined(MERKLIZE_KECCAK_PAD)
KECCAK_INLINE uint8 keccak_node(uint8 left, uint8 right, int is_root) {
  return keccak_pair(left, right, (ulong)(MERKLIZE_KECCAK_PAD));
}
#endif

/* Bytes [at, at + 8) of a message whose first `len` bytes are `data` and the rest zeros, as a
 * lane; `aligned`: data is 4-byte aligned (at is a multiple of 8), so whole lanes load as two
 * uints (NVIDIA faults on a misaligned word; x86 does not). */
KECCAK_INLINE ulong keccak_message_lane(__global const uchar *data, ulong len, ulong at,
                                        int aligned) {
  if (aligned && at + 8 <= len) {
    __global const uint *words = (__global const uint *)(data + at);
    return keccak_lane(words[0], words[1]);
  }
  ulong lane = 0;
  for (int b = 0; b < 8; ++b)
    if (at + b < len) lane |= (ulong)data[at + b] << (8 * b);
  return lane;
}

/* Leaves hashed from data blocks (include/merklize/core/block_leaves.hpp): one work-item hashes one
 * block of L = block_bytes bytes, block i being bytes [i L, min((i + 1) L, bytes)) of `in` from
 * in_offset on, the last one shorter, and with zero_pad its message zero-padded to L bytes; the
 * digest goes to out[out_first + i]. `pad` is the padding byte, 0x01 (Keccak-256) or 0x06
 * (SHA3-256). The message is absorbed in blocks of 136 bytes, the last of which (maybe of no
 * message byte at all) holds the padding: one permutation for every block, one copy of it. */
__kernel void keccak_block_leaves(__global const uchar *in, ulong in_offset, ulong bytes,
                                  ulong block_bytes, uint pad, int zero_pad, __global uint8 *out,
                                  ulong out_first) {
  const ulong i = get_global_id(0);
  if (i * block_bytes >= bytes) return; /* the global size is rounded up to the work-group size */
  const ulong len = min(block_bytes, bytes - i * block_bytes);
  const ulong total = zero_pad ? block_bytes : len;
  __global const uchar *data = in + in_offset + i * block_bytes;
  const int aligned = ((in_offset + i * block_bytes) & 3) == 0;
  const ulong last = total / KECCAK_RATE; /* the block with the padding */
  const uint tail = (uint)(total % KECCAK_RATE);
  ulong a[25] = {0};
  for (ulong block = 0; block <= last; ++block) {
    const ulong at = block * KECCAK_RATE;
#pragma unroll
    for (int k = 0; k < KECCAK_RATE_LANES; ++k) {
      ulong lane = keccak_message_lane(data, len, at + 8 * k, aligned);
      if (block == last) {
        if (k == tail / 8) lane ^= (ulong)(pad & 0xFFu) << (8 * (tail % 8));
        if (k == KECCAK_RATE_LANES - 1) lane ^= 0x8000000000000000ul;
      }
      a[k] ^= lane;
    }
    keccak_f1600(a);
  }
  out[out_first + i] = keccak_digest(a);
}

/* The permutation alone, for its rate (bench/keccak_bench.cpp): each work-item permutes a state
 * of its own `count` times in registers and writes one lane-sized fold of it, so nothing but the
 * permutations is timed and none of them can be left out. */
__kernel void keccak_permutations(__global ulong *out, uint count) {
  const ulong i = get_global_id(0);
  ulong a[25];
#pragma unroll
  for (int k = 0; k < 25; ++k)
    a[k] = i * 0x9E3779B97F4A7C15ul + (ulong)k;
#pragma unroll 1
  for (uint n = 0; n < count; ++n)
    keccak_f1600(a);
  ulong fold = 0;
#pragma unroll
  for (int k = 0; k < 25; ++k)
    fold ^= a[k];
  out[i] = fold;
}
)merklize_cl"
