R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* OpenZeppelin's pair hash (formats/pair_rules.hpp, pair_hash::keccak256_sorted), after
 * keccak.cl: Keccak-256 of the two children in ascending byte order, with merkle.cl's node
 * signature (no root flag), for pair_levels.cl. Nodes are uint8s of words as they lie in memory,
 * so the order of two nodes is that of their bytes: the words compared as big-endian numbers. */

/* The big-endian number of a word's four bytes in memory order. */
inline uint sorted_pairs_be(uint memory_word) {
  const uchar4 b = as_uchar4(memory_word);
  return (uint)b.s0 << 24 | (uint)b.s1 << 16 | (uint)b.s2 << 8 | (uint)b.s3;
}

/* Whether node a's bytes come before node b's. */
inline int sorted_pairs_less(uint8 a, uint8 b) {
  const uint x[8] = {a.s0, a.s1, a.s2, a.s3, a.s4, a.s5, a.s6, a.s7};
  const uint y[8] = {b.s0, b.s1, b.s2, b.s3, b.s4, b.s5, b.s6, b.s7};
  for (int k = 0; k < 8; ++k) {
    const uint u = sorted_pairs_be(x[k]), v = sorted_pairs_be(y[k]);
    if (u != v) return u < v;
  }
  return 0;
}

inline uint8 keccak256_sorted_node(uint8 left, uint8 right, int is_root) {
  const int swap = sorted_pairs_less(right, left);
  return keccak_pair(swap ? right : left, swap ? left : right, 0x01ul); /* Keccak-256's padding */
}
)merklize_cl"
