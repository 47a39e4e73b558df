/* One level of a BLAKE3-family Merkle tree with one node per vector lane: each work-item hashes
 * MERKLIZE_LANES nodes at once with uintN arithmetic. CPU devices (PoCL) do not vectorize the
 * one-node-per-work-item kernel across work-items, so they take their preferred vector width;
 * GPUs gain instruction-level parallelism from 2 lanes. The host chooses at run time.
 *
 * Needs blake3.cl and merkle.cl before it, and -DMERKLIZE_LANES=2|4|8|16 and
 * -DMERKLIZE_NODE_FLAGS=<flags macro of the node mode> besides -DMERKLIZE_NODE. */

#if MERKLIZE_LANES == 2
#define LANE_T uint2
#define LANE_TWO_TO_ONE blake3_two_to_one2
#elif MERKLIZE_LANES == 4
#define LANE_T uint4
#define LANE_TWO_TO_ONE blake3_two_to_one4
#elif MERKLIZE_LANES == 8
#define LANE_T uint8
#define LANE_TWO_TO_ONE blake3_two_to_one8
#elif MERKLIZE_LANES == 16
#define LANE_T uint16
#define LANE_TWO_TO_ONE blake3_two_to_one16
#else
#error "MERKLIZE_LANES must be 2, 4, 8 or 16"
#endif

/* The transposition goes through a union: PoCL turns it into shuffles, and it ran 1.5 times
 * faster than building each vector from scalar loads by name (16 cores, AVX-512, PoCL 5). */
typedef union {
  LANE_T v;
  uint s[MERKLIZE_LANES];
} lanes_t;

/* Node i of the level above is written at out_first + i; the arguments mean what they mean for
 * merkle_subtree with a single level. */
__kernel void merkle_level_lanes(__global const uint *in, ulong in_first, ulong in_count,
                                 __global uint *out, ulong out_first, __global const uint *zeros,
                                 ulong zeros_first, int pad_with_node, int is_top) {
  const ulong first = get_global_id(0) * MERKLIZE_LANES;
  const ulong out_count = (in_count + 1) / 2;
  /* if/else rather than early returns: llvm-spirv-14 emits invalid block order for the latter */
  if (2 * (first + MERKLIZE_LANES) <= in_count) { /* every lane has both children */
    __global const uint *pairs = in + (in_first + 2 * first) * 8;
    lanes_t m[16], cv[8];
    for (int lane = 0; lane < MERKLIZE_LANES; ++lane)
      for (int j = 0; j < 16; ++j)
        m[j].s[lane] = pairs[16 * lane + j];
    LANE_T words[16], hashed[8];
    for (int j = 0; j < 16; ++j)
      words[j] = m[j].v;
    LANE_TWO_TO_ONE(words, MERKLIZE_NODE_FLAGS(is_top), hashed);
    for (int w = 0; w < 8; ++w)
      cv[w].v = hashed[w];
    __global uint *nodes = out + (out_first + first) * 8;
    for (int lane = 0; lane < MERKLIZE_LANES; ++lane)
      for (int w = 0; w < 8; ++w)
        nodes[8 * lane + w] = cv[w].s[lane];
  } else { /* the level's last few nodes, a lone one among them: one at a time */
    const ulong end = min(out_count, first + MERKLIZE_LANES);
    for (ulong i = first; i < end; ++i) {
      const uint8 l = vload8(in_first + 2 * i, in);
      uint8 node = l;
      if (2 * i + 1 < in_count)
        node = MERKLIZE_NODE(l, vload8(in_first + 2 * i + 1, in), is_top);
      else if (pad_with_node)
        node = MERKLIZE_NODE(l, vload8(zeros_first, zeros), is_top);
      vstore8(node, out_first + i, out);
    }
  }
}
