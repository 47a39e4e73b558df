R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* BLAKE3 compression and the two BLAKE3 node hashes of merklize, in plain OpenCL C 1.2.
 *
 * Words are little-endian as BLAKE3 defines them; the host checks that the device is
 * little-endian, so a node loaded as eight uints is already in message-word order.
 *
 * The message schedule is written out per round (BLAKE3's permutation applied r times) so
 * every message index is a compile-time constant and the state stays in registers. */

/* Every helper is inlined: a call would pass the state and message arrays through the private
 * stack, which on a GPU is device memory. `inline` alone is a hint that compilers decline for
 * functions as large as the rounds (clang does, for nvptx). */
#define B3_INLINE inline __attribute__((always_inline))

#define B3_IV0 0x6A09E667u
#define B3_IV1 0xBB67AE85u
#define B3_IV2 0x3C6EF372u
#define B3_IV3 0xA54FF53Au
#define B3_IV4 0x510E527Fu
#define B3_IV5 0x9B05688Cu
#define B3_IV6 0x1F83D9ABu
#define B3_IV7 0x5BE0CD19u

#define B3_CHUNK_START 1u
#define B3_CHUNK_END 2u
#define B3_PARENT 4u
#define B3_ROOT 8u
#define B3_KEYED_HASH 16u
#define B3_DERIVE_KEY_CONTEXT 32u
#define B3_DERIVE_KEY_MATERIAL 64u

/* A right rotation by OpenCL's rotate() (a left rotation), never as shifts and an or: NVIDIA's
 * OpenCL compiler turns that idiom into three instructions where rotate() gives one funnel shift
 * (PTX on an H200: 449 shl + 452 shr + 446 or, against 448 shf; the tree kernels ran 1.6x
 * faster). rotate() wants both operands of one type, so (x) * 0u + k makes k a uint or a uintN
 * like x, and one macro serves every lane width. */
#define B3_ROTR(x, n) rotate((x), (x)*0u + (32u - (n)))

/* A G's adds, on the multiply-add pipe where the program is built with -DMERKLIZE_B3_FMA_ADDS (a
 * tuning row's kernel_options, tuning.hpp). NVIDIA GPUs since Volta issue integer adds, logic ops
 * and shifts on one ALU pipe and integer multiply-adds on the FMA pipe beside it; a G's adds,
 * xors and rotations are all ALU work. x * one + y, `one` being get_num_groups(1) (1 in the
 * one-dimensional launches of every kernel here, and a value the compiler cannot know), must be
 * issued as a multiply-add. On an H200 that took full BLAKE3 of 1 GiB from 0.702 to 0.658 ms and
 * the 2^20-leaf tree from 0.075 to 0.072 ms; the 2^25-leaf tree stayed at 1.24 ms. Moving the
 * rotations too (a multiply-add and a mul_hi each) was slower (dev/PERFORMANCE_LOG.md). */
#if defined(MERKLIZE_B3_FMA_ADDS)
#define B3_ADD(x, y) ((x) * (uint)get_num_groups(1) + (y))
#else
#define B3_ADD(x, y) ((x) + (y))
#endif

#define B3_G(a, b, c, d, x, y)                                                                     \
  a = B3_ADD(B3_ADD(a, b), (x));                                                                   \
  d = B3_ROTR(d ^ a, 16);                                                                          \
  c = B3_ADD(c, d);                                                                                \
  b = B3_ROTR(b ^ c, 12);                                                                          \
  a = B3_ADD(B3_ADD(a, b), (y));                                                                   \
  d = B3_ROTR(d ^ a, 8);                                                                           \
  c = B3_ADD(c, d);                                                                                \
  b = B3_ROTR(b ^ c, 7);

#define B3_ROUND(m, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15)          \
  B3_G(v[0], v[4], v[8], v[12], m[s0], m[s1]);                                                     \
  B3_G(v[1], v[5], v[9], v[13], m[s2], m[s3]);                                                     \
  B3_G(v[2], v[6], v[10], v[14], m[s4], m[s5]);                                                    \
  B3_G(v[3], v[7], v[11], v[15], m[s6], m[s7]);                                                    \
  B3_G(v[0], v[5], v[10], v[15], m[s8], m[s9]);                                                    \
  B3_G(v[1], v[6], v[11], v[12], m[s10], m[s11]);                                                  \
  B3_G(v[2], v[7], v[8], v[13], m[s12], m[s13]);                                                   \
  B3_G(v[3], v[4], v[9], v[14], m[s14], m[s15]);

/* The seven rounds over a state v[16] already holding cv, IV, counter, block_len and flags,
 * for one message (T = uint) or one message per vector lane (T = uint2 .. uint16). */
#define B3_DEFINE_ROUNDS(T, name)                                                                  \
  B3_INLINE void name(T v[16], const T m[16]) {                                                    \
    B3_ROUND(m, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);                             \
    B3_ROUND(m, 2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8);                             \
    B3_ROUND(m, 3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1);                             \
    B3_ROUND(m, 10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6);                             \
    B3_ROUND(m, 12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4);                             \
    B3_ROUND(m, 9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7);                             \
    B3_ROUND(m, 11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13);                             \
  }

B3_DEFINE_ROUNDS(uint, blake3_rounds)
B3_DEFINE_ROUNDS(uint2, blake3_rounds2)
B3_DEFINE_ROUNDS(uint4, blake3_rounds4)
B3_DEFINE_ROUNDS(uint8, blake3_rounds8)
B3_DEFINE_ROUNDS(uint16, blake3_rounds16)

/* One 64-byte block per lane from the IV, counter 0: the chaining values, word by word. */
#define B3_DEFINE_TWO_TO_ONE_LANES(T, name, rounds)                                                \
  B3_INLINE void name(const T m[16], uint flags, T cv[8]) {                                        \
    T v[16] = {(T)B3_IV0, (T)B3_IV1, (T)B3_IV2, (T)B3_IV3, (T)B3_IV4, (T)B3_IV5,                   \
               (T)B3_IV6, (T)B3_IV7, (T)B3_IV0, (T)B3_IV1, (T)B3_IV2, (T)B3_IV3,                   \
               (T)0u,     (T)0u,     (T)64u,    (T)flags};                                         \
    rounds(v, m);                                                                                  \
    for (int i = 0; i < 8; ++i)                                                                    \
      cv[i] = v[i] ^ v[i + 8];                                                                     \
  }

B3_DEFINE_TWO_TO_ONE_LANES(uint2, blake3_two_to_one2, blake3_rounds2)
B3_DEFINE_TWO_TO_ONE_LANES(uint4, blake3_two_to_one4, blake3_rounds4)
B3_DEFINE_TWO_TO_ONE_LANES(uint8, blake3_two_to_one8, blake3_rounds8)
B3_DEFINE_TWO_TO_ONE_LANES(uint16, blake3_two_to_one16, blake3_rounds16)

/* The compression function's state after its seven rounds, before the final xors. */
B3_INLINE void blake3_compress_state(uint v[16], uint8 cv, const uint m[16], ulong counter,
                                     uint block_len, uint flags) {
  v[0] = cv.s0;
  v[1] = cv.s1;
  v[2] = cv.s2;
  v[3] = cv.s3;
  v[4] = cv.s4;
  v[5] = cv.s5;
  v[6] = cv.s6;
  v[7] = cv.s7;
  v[8] = B3_IV0;
  v[9] = B3_IV1;
  v[10] = B3_IV2;
  v[11] = B3_IV3;
  v[12] = (uint)counter;
  v[13] = (uint)(counter >> 32);
  v[14] = block_len;
  v[15] = flags;
  blake3_rounds(v, m);
}

/* The compression function truncated to its first eight output words: the chaining value. */
B3_INLINE uint8 blake3_compress_cv(uint8 cv, const uint m[16], ulong counter, uint block_len,
                                   uint flags) {
  uint v[16];
  blake3_compress_state(v, cv, m, counter, block_len, flags);
  return (uint8)(v[0] ^ v[8], v[1] ^ v[9], v[2] ^ v[10], v[3] ^ v[11], v[4] ^ v[12], v[5] ^ v[13],
                 v[6] ^ v[14], v[7] ^ v[15]);
}

B3_INLINE uint8 blake3_iv(void) {
  return (uint8)(B3_IV0, B3_IV1, B3_IV2, B3_IV3, B3_IV4, B3_IV5, B3_IV6, B3_IV7);
}

/* Two 32-byte nodes compressed as one 64-byte block from `key` (the IV, or a keyed mode's key). */
B3_INLINE uint8 blake3_compress_pair(uint8 key, uint8 left, uint8 right, uint flags) {
  const uint m[16] = {left.s0,  left.s1,  left.s2,  left.s3,  left.s4,  left.s5,
                      left.s6,  left.s7,  right.s0, right.s1, right.s2, right.s3,
                      right.s4, right.s5, right.s6, right.s7};
  return blake3_compress_cv(key, m, 0, 64u, flags);
}

B3_INLINE uint8 blake3_two_to_one(uint8 left, uint8 right, uint flags) {
  return blake3_compress_pair(blake3_iv(), left, right, flags);
}

/* Node mode "blake3": the standard BLAKE3 hash of the 64-byte message left || right, which is a
 * single chunk of one block, hence CHUNK_START | CHUNK_END | ROOT on every node. */
#define blake3_node_flags(is_root) (B3_CHUNK_START | B3_CHUNK_END | B3_ROOT)

/* Node mode "blake3-parent": BLAKE3's own parent compression, ROOT on the tree's root only. */
#define blake3_parent_node_flags(is_root) (B3_PARENT | ((is_root) ? B3_ROOT : 0u))

B3_INLINE uint8 blake3_node(uint8 left, uint8 right, int is_root) {
  return blake3_two_to_one(left, right, blake3_node_flags(is_root));
}

B3_INLINE uint8 blake3_parent_node(uint8 left, uint8 right, int is_root) {
  return blake3_two_to_one(left, right, blake3_parent_node_flags(is_root));
}
)merklize_cl"
