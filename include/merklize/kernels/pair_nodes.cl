R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* The pair hashes of formats/pair_rules.hpp that build on SHA-256 (sha256.cl comes first), with
 * merkle.cl's node signature (left, right, is_root; neither has a root flag), so that any level
 * kernel that takes a node function takes these:
 *   sha256d_node          Bitcoin: SHA-256(SHA-256(left || right))
 *   sha256_trunc254_node  Filecoin: SHA-256(left || right), the top two bits of byte 31 cleared
 * Nodes are uint8s of words as they lie in memory, as sha256_node takes and returns them. */

/* The second SHA-256 of sha256d hashes the 32-byte digest: one block, the digest's eight words,
 * then the padding (0x80, zeros) and the bit length 256. */
inline uint8 sha256d_node(uint8 left, uint8 right, int is_root) {
  const uint8 once = sha256_node(left, right, 0);
  uint w[16] = {sha256_word(once.s0),
                sha256_word(once.s1),
                sha256_word(once.s2),
                sha256_word(once.s3),
                sha256_word(once.s4),
                sha256_word(once.s5),
                sha256_word(once.s6),
                sha256_word(once.s7),
                0x80000000u,
                0u,
                0u,
                0u,
                0u,
                0u,
                0u,
                256u};
  const uint8 digest = sha256_compress_message(sha256_iv(), w);
  return (uint8)(sha256_memory_word(digest.s0), sha256_memory_word(digest.s1),
                 sha256_memory_word(digest.s2), sha256_memory_word(digest.s3),
                 sha256_memory_word(digest.s4), sha256_memory_word(digest.s5),
                 sha256_memory_word(digest.s6), sha256_memory_word(digest.s7));
}

/* Byte 31 is the last byte of the last word in memory order, whatever the device's byte order. */
inline uint8 sha256_trunc254_node(uint8 left, uint8 right, int is_root) {
  uint8 digest = sha256_node(left, right, 0);
  uchar4 last = as_uchar4(digest.s7);
  last.s3 &= (uchar)0x3F;
  digest.s7 = as_uint(last);
  return digest;
}
)merklize_cl"
