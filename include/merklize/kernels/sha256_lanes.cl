R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* SHA-256 nodes (merklize's "sha256": SHA-256 of the 64 bytes left || right) in vector lanes, one
 * node per lane of a uintN: what merkle_lanes.cl's merkle_level_lanes calls with
 * -DMERKLIZE_LANES_NODE=sha256. CPU devices (PoCL) do not vectorize the one-node-per-work-item
 * kernel across work-items, so each work-item hashes 4, 8 or 16 nodes with uint4/8/16 arithmetic,
 * as SIMD SHA-256 libraries do with AVX2 and AVX-512 registers (one message per 32-bit lane).
 *
 * Needs sha256.cl before it (sha256_k, sha256_padding_kw, Ch and Maj). The rounds are those of
 * FIPS 180-4 over vectors: the first block is the message, its schedule computed in a 16-word
 * window; the second is the padding block of every 64-byte message, whose K[t] + W[t] are the
 * constants of sha256_padding_kw. Words arrive as uints loaded from memory (LE on the devices
 * this is for), so each is byte-swapped into SHA-256's big-endian words and the digest back. */

/* No root flag: merkle_lanes.cl passes MERKLIZE_NODE_FLAGS(is_top), which SHA-256 ignores. */
#define sha256_node_flags(is_top) 0u

/* rotate() wants both operands of one type: (x) * 0u + k is k as a uint of x's width. */
#define SHA256_LANES_ROTR(x, n) rotate((x), (x)*0u + (32u - (n)))
#define SHA256_LANES_BSIG0(x)                                                                      \
  (SHA256_LANES_ROTR(x, 2u) ^ SHA256_LANES_ROTR(x, 13u) ^ SHA256_LANES_ROTR(x, 22u))
#define SHA256_LANES_BSIG1(x)                                                                      \
  (SHA256_LANES_ROTR(x, 6u) ^ SHA256_LANES_ROTR(x, 11u) ^ SHA256_LANES_ROTR(x, 25u))
#define SHA256_LANES_SSIG0(x) (SHA256_LANES_ROTR(x, 7u) ^ SHA256_LANES_ROTR(x, 18u) ^ ((x) >> 3))
#define SHA256_LANES_SSIG1(x) (SHA256_LANES_ROTR(x, 17u) ^ SHA256_LANES_ROTR(x, 19u) ^ ((x) >> 10))

/* The big-endian word of a uint as it lies in memory, and back: a byte swap on little-endian
 * devices, as two rotations and masks (LLVM makes one byte shuffle of it for a whole vector). */
#if defined(__ENDIAN_LITTLE__)
#define SHA256_LANES_SWAP(x)                                                                       \
  ((rotate((x), (x)*0u + 8u) & 0x00FF00FFu) | (rotate((x), (x)*0u + 24u) & 0xFF00FF00u))
#else
#define SHA256_LANES_SWAP(x) (x)
#endif

/* One round on vectors of type T; the caller rotates the names instead of moving eight words. */
#define SHA256_LANES_ROUND(T, a, b, c, d, e, f, g, h, kw)                                          \
  {                                                                                                \
    const T t1 = h + SHA256_LANES_BSIG1(e) + SHA256_CH(e, f, g) + (kw);                            \
    d += t1;                                                                                       \
    h = t1 + SHA256_LANES_BSIG0(a) + SHA256_MAJ(a, b, c);                                          \
  }

#define SHA256_LANES_8_ROUNDS(T, t, KW)                                                            \
  SHA256_LANES_ROUND(T, a, b, c, d, e, f, g, h, KW(t))                                             \
  SHA256_LANES_ROUND(T, h, a, b, c, d, e, f, g, KW(t + 1))                                         \
  SHA256_LANES_ROUND(T, g, h, a, b, c, d, e, f, KW(t + 2))                                         \
  SHA256_LANES_ROUND(T, f, g, h, a, b, c, d, e, KW(t + 3))                                         \
  SHA256_LANES_ROUND(T, e, f, g, h, a, b, c, d, KW(t + 4))                                         \
  SHA256_LANES_ROUND(T, d, e, f, g, h, a, b, c, KW(t + 5))                                         \
  SHA256_LANES_ROUND(T, c, d, e, f, g, h, a, b, KW(t + 6))                                         \
  SHA256_LANES_ROUND(T, b, c, d, e, f, g, h, a, KW(t + 7))

/* The 64 rounds over a..h, KW(t) giving K[t] + W[t]; the caller adds the state before them. */
#define SHA256_LANES_64_ROUNDS(T, KW)                                                              \
  SHA256_LANES_8_ROUNDS(T, 0, KW)                                                                  \
  SHA256_LANES_8_ROUNDS(T, 8, KW)                                                                  \
  SHA256_LANES_8_ROUNDS(T, 16, KW)                                                                 \
  SHA256_LANES_8_ROUNDS(T, 24, KW)                                                                 \
  SHA256_LANES_8_ROUNDS(T, 32, KW)                                                                 \
  SHA256_LANES_8_ROUNDS(T, 40, KW)                                                                 \
  SHA256_LANES_8_ROUNDS(T, 48, KW)                                                                 \
  SHA256_LANES_8_ROUNDS(T, 56, KW)

/* The message schedule in a 16-word window w: W[t] for t >= 16 replaces W[t - 16]. */
#define SHA256_LANES_W(t)                                                                          \
  ((t) < 16 ? w[(t)&15]                                                                            \
            : (w[(t)&15] += SHA256_LANES_SSIG1(w[((t)-2) & 15]) + w[((t)-7) & 15] +                \
                            SHA256_LANES_SSIG0(w[((t)-15) & 15])))
#define SHA256_LANES_KW_MESSAGE(t) (sha256_k[t] + SHA256_LANES_W(t))
#define SHA256_LANES_KW_PADDING(t) sha256_padding_kw[t]

/* m[w]: word w of every lane's 64-byte pair, as loaded from memory; out[w]: word w of every
 * lane's node, to be stored as it is. */
#define SHA256_DEFINE_TWO_TO_ONE_LANES(T, name)                                                    \
  inline void name(const T m[16], uint flags, T out[8]) {                                          \
    T w[16];                                                                                       \
    for (int i = 0; i < 16; ++i)                                                                   \
      w[i] = SHA256_LANES_SWAP(m[i]);                                                              \
    const T iv[8] = {(T)0x6a09e667u, (T)0xbb67ae85u, (T)0x3c6ef372u, (T)0xa54ff53au,               \
                     (T)0x510e527fu, (T)0x9b05688cu, (T)0x1f83d9abu, (T)0x5be0cd19u};              \
    T a = iv[0], b = iv[1], c = iv[2], d = iv[3], e = iv[4], f = iv[5], g = iv[6], h = iv[7];      \
    SHA256_LANES_64_ROUNDS(T, SHA256_LANES_KW_MESSAGE)                                             \
    T s[8] = {iv[0] + a, iv[1] + b, iv[2] + c, iv[3] + d,                                          \
              iv[4] + e, iv[5] + f, iv[6] + g, iv[7] + h};                                         \
    a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];                \
    SHA256_LANES_64_ROUNDS(T, SHA256_LANES_KW_PADDING)                                             \
    const T end[8] = {s[0] + a, s[1] + b, s[2] + c, s[3] + d,                                      \
                      s[4] + e, s[5] + f, s[6] + g, s[7] + h};                                     \
    for (int i = 0; i < 8; ++i)                                                                    \
      out[i] = SHA256_LANES_SWAP(end[i]);                                                          \
    (void)flags;                                                                                   \
  }

SHA256_DEFINE_TWO_TO_ONE_LANES(uint2, sha256_two_to_one2)
SHA256_DEFINE_TWO_TO_ONE_LANES(uint4, sha256_two_to_one4)
SHA256_DEFINE_TWO_TO_ONE_LANES(uint8, sha256_two_to_one8)
SHA256_DEFINE_TWO_TO_ONE_LANES(uint16, sha256_two_to_one16)
)merklize_cl"
