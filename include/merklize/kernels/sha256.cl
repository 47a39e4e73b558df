R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* SHA-256 (FIPS 180-4) of 64-byte messages in plain OpenCL C 1.2: merklize's "sha256" node,
 * SHA-256(left || right) as in SSZ, and its "rfc6962" node, SHA-256(0x01 || left || right); the
 * layer kernels of the hashtree contract are sha256_layer.cl's.
 *
 * Byte order: SHA-256 works on big-endian 32-bit words, but nodes arrive as uints loaded from
 * memory as they are (vload), whose value depends on the device's byte order. sha256_word takes
 * the four bytes of such a uint in memory order (as_uchar4, a bitcast) and assembles the word: a
 * byte swap where the compiler defines __ENDIAN_LITTLE__, shifts elsewhere; sha256_memory_word
 * does the reverse for the digest.
 *
 * A 64-byte message is hashed as two blocks: the message, then the padding block (0x80, zeros,
 * the bit length 512). The padding block is the same for every input, and so is its message
 * schedule: sha256_padding_kw holds K[t] + W[t] for it, precomputed, so the second compression
 * does no schedule work (as hashtree does). Rounds are written out by macros so every index is a
 * compile-time constant and the state and schedule stay in registers. */

__constant uint sha256_k[64] = {
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

/* K[t] + W[t] of the padding block of a 64-byte message: W[0] = 0x80000000, W[1..14] = 0,
 * W[15] = 512, W[16..63] by the FIPS 180-4 schedule. */
__constant uint sha256_padding_kw[64] = {
    0xc28a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf374u, 0x649b69c1u, 0xf0fe4786u, 0x0fe1edc6u, 0x240cf254u, 0x4fe9346fu,
    0x6cc984beu, 0x61b9411eu, 0x16f988fau, 0xf2c65152u, 0xa88e5a6du, 0xb019fc65u, 0xb9d99ec7u,
    0x9a1231c3u, 0xe70eeaa0u, 0xfdb1232bu, 0xc7353eb0u, 0x3069bad5u, 0xcb976d5fu, 0x5a0f118fu,
    0xdc1eeefdu, 0x0a35b689u, 0xde0b7a04u, 0x58f4ca9du, 0xe15d5b16u, 0x007f3e86u, 0x37088980u,
    0xa507ea32u, 0x6fab9537u, 0x17406110u, 0x0d8cd6f1u, 0xcdaa3b6du, 0xc0bbbe37u, 0x83613bdau,
    0xdb48a363u, 0x0b02e931u, 0x6fd15ca7u, 0x521afacau, 0x31338431u, 0x6ed41a95u, 0x6d437890u,
    0xc39c91f2u, 0x9eccabbdu, 0xb5c9a0e6u, 0x532fb63cu, 0xd2c741c6u, 0x07237ea3u, 0xa4954b68u,
    0x4c191d76u};

/* OpenCL's rotate() turns left: a right turn by n is a left turn by 32 - n. */
#define SHA256_ROTR(x, n) rotate((x), 32u - (n))
#define SHA256_BSIG0(x) (SHA256_ROTR(x, 2u) ^ SHA256_ROTR(x, 13u) ^ SHA256_ROTR(x, 22u))
#define SHA256_BSIG1(x) (SHA256_ROTR(x, 6u) ^ SHA256_ROTR(x, 11u) ^ SHA256_ROTR(x, 25u))
#define SHA256_SSIG0(x) (SHA256_ROTR(x, 7u) ^ SHA256_ROTR(x, 18u) ^ ((x) >> 3))
#define SHA256_SSIG1(x) (SHA256_ROTR(x, 17u) ^ SHA256_ROTR(x, 19u) ^ ((x) >> 10))
/* Ch: f where e is set, else g. Maj: where a and c differ b decides, else a (= c). */
#define SHA256_CH(e, f, g) bitselect((g), (f), (e))
#define SHA256_MAJ(a, b, c) bitselect((a), (b), (a) ^ (c))

/* One round; the caller rotates the names instead of moving eight words. */
#define SHA256_ROUND(a, b, c, d, e, f, g, h, kw)                                                   \
  {                                                                                                \
    const uint t1 = h + SHA256_BSIG1(e) + SHA256_CH(e, f, g) + (kw);                               \
    d += t1;                                                                                       \
    h = t1 + SHA256_BSIG0(a) + SHA256_MAJ(a, b, c);                                                \
  }

#define SHA256_8_ROUNDS(t, KW)                                                                     \
  SHA256_ROUND(a, b, c, d, e, f, g, h, KW(t))                                                      \
  SHA256_ROUND(h, a, b, c, d, e, f, g, KW(t + 1))                                                  \
  SHA256_ROUND(g, h, a, b, c, d, e, f, KW(t + 2))                                                  \
  SHA256_ROUND(f, g, h, a, b, c, d, e, KW(t + 3))                                                  \
  SHA256_ROUND(e, f, g, h, a, b, c, d, KW(t + 4))                                                  \
  SHA256_ROUND(d, e, f, g, h, a, b, c, KW(t + 5))                                                  \
  SHA256_ROUND(c, d, e, f, g, h, a, b, KW(t + 6))                                                  \
  SHA256_ROUND(b, c, d, e, f, g, h, a, KW(t + 7))

/* The compression function: `state` plus the 64 rounds over it, KW(t) giving K[t] + W[t]. */
#define SHA256_COMPRESS(state, KW)                                                                 \
  uint a = state.s0, b = state.s1, c = state.s2, d = state.s3, e = state.s4, f = state.s5,         \
       g = state.s6, h = state.s7;                                                                 \
  SHA256_8_ROUNDS(0, KW)                                                                           \
  SHA256_8_ROUNDS(8, KW)                                                                           \
  SHA256_8_ROUNDS(16, KW)                                                                          \
  SHA256_8_ROUNDS(24, KW)                                                                          \
  SHA256_8_ROUNDS(32, KW)                                                                          \
  SHA256_8_ROUNDS(40, KW)                                                                          \
  SHA256_8_ROUNDS(48, KW)                                                                          \
  SHA256_8_ROUNDS(56, KW)                                                                          \
  return state + (uint8)(a, b, c, d, e, f, g, h);

/* The message schedule in a 16-word window: W[t] for t >= 16 replaces W[t - 16]. */
#define SHA256_W(t)                                                                                \
  ((t) < 16 ? w[(t)&15]                                                                            \
            : (w[(t)&15] +=                                                                        \
               SHA256_SSIG1(w[((t)-2) & 15]) + w[((t)-7) & 15] + SHA256_SSIG0(w[((t)-15) & 15])))
#define SHA256_KW_MESSAGE(t) (sha256_k[t] + SHA256_W(t))
#define SHA256_KW_PADDING(t) sha256_padding_kw[t]

inline uint8 sha256_compress_message(uint8 state, uint w[16]) {
  SHA256_COMPRESS(state, SHA256_KW_MESSAGE)
}

inline uint8 sha256_compress_padding(uint8 state) { SHA256_COMPRESS(state, SHA256_KW_PADDING) }

inline uint8 sha256_iv(void) {
  return (uint8)(0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu,
                 0x1f83d9abu, 0x5be0cd19u);
}

/* The big-endian word of the four bytes of a uint as it lies in memory. On a little-endian
 * device that is a byte swap, written as a swizzle because NVIDIA's compiler makes one byte
 * permute (PRMT) of it, where the shifts and ors of the portable form cost about five
 * instructions: 24 swaps a node, 8% of the SHA-256 tree's time (dev/PERFORMANCE_LOG.md). */
inline uint sha256_word(uint memory_word) {
#if defined(__ENDIAN_LITTLE__)
  return as_uint(as_uchar4(memory_word).s3210);
#else
  const uchar4 bytes = as_uchar4(memory_word);
  return (uint)bytes.s0 << 24 | (uint)bytes.s1 << 16 | (uint)bytes.s2 << 8 | (uint)bytes.s3;
#endif
}

/* The uint that lies in memory as the big-endian bytes of `word`. */
inline uint sha256_memory_word(uint word) {
#if defined(__ENDIAN_LITTLE__)
  return as_uint(as_uchar4(word).s3210);
#else
  return as_uint(
      (uchar4)((uchar)(word >> 24), (uchar)(word >> 16), (uchar)(word >> 8), (uchar)word));
#endif
}

/* Node mode "sha256": SHA-256 of the 64 bytes left || right. There is no root flag. */
inline uint8 sha256_node(uint8 left, uint8 right, int is_root) {
  uint w[16] = {
      sha256_word(left.s0),  sha256_word(left.s1),  sha256_word(left.s2),  sha256_word(left.s3),
      sha256_word(left.s4),  sha256_word(left.s5),  sha256_word(left.s6),  sha256_word(left.s7),
      sha256_word(right.s0), sha256_word(right.s1), sha256_word(right.s2), sha256_word(right.s3),
      sha256_word(right.s4), sha256_word(right.s5), sha256_word(right.s6), sha256_word(right.s7)};
  const uint8 digest = sha256_compress_padding(sha256_compress_message(sha256_iv(), w));
  return (uint8)(sha256_memory_word(digest.s0), sha256_memory_word(digest.s1),
                 sha256_memory_word(digest.s2), sha256_memory_word(digest.s3),
                 sha256_memory_word(digest.s4), sha256_memory_word(digest.s5),
                 sha256_memory_word(digest.s6), sha256_memory_word(digest.s7));
}

/* SHA-256 of the 65 bytes prefix || left || right (prefix: one byte, in the low 8 bits). The
 * byte shifts every word of the message: block 1 is the prefix, left and 31 bytes of right, with
 * a full message schedule, as much work as sha256_node's first block; block 2 is right's last
 * byte, the padding (0x80, zeros) and the bit length 520. Only its first word depends on the data,
 * so its schedule cannot be precomputed as sha256_padding_kw is, but its other fifteen words are
 * constants here: with the rounds unrolled, the compiler folds every term they contribute
 * (W[1..14] = 0 adds nothing, K[t] + W[t] of rounds 1..15 is a constant). */
inline uint8 sha256_prefixed_node(uint prefix, uint8 left, uint8 right) {
  const uint l[8] = {sha256_word(left.s0), sha256_word(left.s1), sha256_word(left.s2),
                     sha256_word(left.s3), sha256_word(left.s4), sha256_word(left.s5),
                     sha256_word(left.s6), sha256_word(left.s7)};
  const uint r[8] = {sha256_word(right.s0), sha256_word(right.s1), sha256_word(right.s2),
                     sha256_word(right.s3), sha256_word(right.s4), sha256_word(right.s5),
                     sha256_word(right.s6), sha256_word(right.s7)};
  uint w[16] = {prefix << 24 | l[0] >> 8, l[0] << 24 | l[1] >> 8, l[1] << 24 | l[2] >> 8,
                l[2] << 24 | l[3] >> 8,   l[3] << 24 | l[4] >> 8, l[4] << 24 | l[5] >> 8,
                l[5] << 24 | l[6] >> 8,   l[6] << 24 | l[7] >> 8, l[7] << 24 | r[0] >> 8,
                r[0] << 24 | r[1] >> 8,   r[1] << 24 | r[2] >> 8, r[2] << 24 | r[3] >> 8,
                r[3] << 24 | r[4] >> 8,   r[4] << 24 | r[5] >> 8, r[5] << 24 | r[6] >> 8,
                r[6] << 24 | r[7] >> 8};
  uint tail[16] = {
      r[7] << 24 | 0x00800000u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 520u};
  const uint8 digest = sha256_compress_message(sha256_compress_message(sha256_iv(), w), tail);
  return (uint8)(sha256_memory_word(digest.s0), sha256_memory_word(digest.s1),
                 sha256_memory_word(digest.s2), sha256_memory_word(digest.s3),
                 sha256_memory_word(digest.s4), sha256_memory_word(digest.s5),
                 sha256_memory_word(digest.s6), sha256_memory_word(digest.s7));
}

/* Node mode "rfc6962": RFC 6962's interior node, SHA-256(0x01 || left || right). No root flag. */
inline uint8 rfc6962_node(uint8 left, uint8 right, int is_root) {
  return sha256_prefixed_node(0x01u, left, right);
}
)merklize_cl"
