R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* The known-answer self-test every program carries (the library appends this file to each):
 * one work-item hashes a fixed pair of nodes with each node hash the program's files define, and
 * the host compares the results with its own (runtime/self_test.hpp). A binary that a compiler
 * got wrong (a changed constant, a miscompiled round) or that is not the program it claims to be
 * answers differently, and is not used.
 *
 * The pair: left holds the bytes 0..31, right 32..63; nodes are eight uints in memory order.
 * Slots of `out`, 32 bytes each, left as they are where the program lacks the hash:
 *   0 blake3_node, 1 blake3_parent_node, 2 blake3_parent_node as the root (blake3.cl)
 *   3 sha256_node, 4 rfc6962_node (sha256.cl)
 *   5 .. 5 + MERKLIZE_LANES - 1: the lanes' two-to-one parent compression, lane r hashing
 *     left with r xored into its first word, and right (merkle_lanes.cl); SHA-256's node in
 *     the lanes where the program has sha256_lanes.cl (no blake3.cl, so no B3_PARENT) */

inline uint self_test_word(uint k) {
  return (4u * k) | (4u * k + 1u) << 8 | (4u * k + 2u) << 16 | (4u * k + 3u) << 24;
}

__kernel void merklize_self_test(__global uint8 *out) {
  if (get_global_id(0) != 0) return;
  const uint8 left =
      (uint8)(self_test_word(0), self_test_word(1), self_test_word(2), self_test_word(3),
              self_test_word(4), self_test_word(5), self_test_word(6), self_test_word(7));
  const uint8 right =
      (uint8)(self_test_word(8), self_test_word(9), self_test_word(10), self_test_word(11),
              self_test_word(12), self_test_word(13), self_test_word(14), self_test_word(15));
#ifdef B3_IV0
  out[0] = blake3_node(left, right, 0);
  out[1] = blake3_parent_node(left, right, 0);
  out[2] = blake3_parent_node(left, right, 1);
#endif
#ifdef SHA256_ROUND
  out[3] = sha256_node(left, right, 0);
  out[4] = rfc6962_node(left, right, 0);
#endif
#ifdef LANE_T
  LANE_T m[16], cv[8];
  for (uint j = 0; j < 16; ++j)
    for (uint r = 0; r < MERKLIZE_LANES; ++r)
      ((uint *)&m[j])[r] = self_test_word(j) ^ (j == 0 ? r : 0u);
#ifdef B3_PARENT
  LANE_TWO_TO_ONE(m, B3_PARENT, cv);
#else
  LANE_TWO_TO_ONE(m, 0u, cv);
#endif
  for (uint r = 0; r < MERKLIZE_LANES; ++r)
    out[5 + r] =
        (uint8)(((uint *)&cv[0])[r], ((uint *)&cv[1])[r], ((uint *)&cv[2])[r], ((uint *)&cv[3])[r],
                ((uint *)&cv[4])[r], ((uint *)&cv[5])[r], ((uint *)&cv[6])[r], ((uint *)&cv[7])[r]);
#endif
}
)merklize_cl"
