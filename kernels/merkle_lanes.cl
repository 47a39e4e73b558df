/* One level of a BLAKE3-family Merkle tree with one node per vector lane: each work-item hashes
 * MERKLIZE_LANES nodes at once with uintN arithmetic. This is for CPU devices (PoCL), which do
 * not vectorize the one-node-per-work-item kernel across work-items; the vector width is the
 * device's preferred one, chosen by the host at run time.
 *
 * Needs blake3.cl and merkle.cl before it, and -DMERKLIZE_LANES=4|8|16 and
 * -DMERKLIZE_NODE_FLAGS=<flags macro of the node mode> besides -DMERKLIZE_NODE. */

/* GATHER(p, j): word j of each lane's 64-byte block (lane l's block at p + 16 l), as a vector.
 * SCATTER(q, w, v): word w of each lane's node (lane l's node at q + 8 l) from vector v. Written
 * out lane by lane: component access by constant name compiles to plain inserts and extracts,
 * where a union or a lane loop made PoCL go through memory. */
#if MERKLIZE_LANES == 4
#define LANE_T uint4
#define LANE_TWO_TO_ONE blake3_two_to_one4
#define GATHER(p, j) ((uint4)((p)[j], (p)[16 + (j)], (p)[32 + (j)], (p)[48 + (j)]))
#define SCATTER(q, w, v)                                                                           \
  (q)[w] = (v).s0, (q)[8 + (w)] = (v).s1, (q)[16 + (w)] = (v).s2, (q)[24 + (w)] = (v).s3
#elif MERKLIZE_LANES == 8
#define LANE_T uint8
#define LANE_TWO_TO_ONE blake3_two_to_one8
#define GATHER(p, j)                                                                               \
  ((uint8)((p)[j], (p)[16 + (j)], (p)[32 + (j)], (p)[48 + (j)], (p)[64 + (j)], (p)[80 + (j)],      \
           (p)[96 + (j)], (p)[112 + (j)]))
#define SCATTER(q, w, v)                                                                           \
  (q)[w] = (v).s0, (q)[8 + (w)] = (v).s1, (q)[16 + (w)] = (v).s2, (q)[24 + (w)] = (v).s3,          \
  (q)[32 + (w)] = (v).s4, (q)[40 + (w)] = (v).s5, (q)[48 + (w)] = (v).s6, (q)[56 + (w)] = (v).s7
#elif MERKLIZE_LANES == 16
#define LANE_T uint16
#define LANE_TWO_TO_ONE blake3_two_to_one16
#define GATHER(p, j)                                                                               \
  ((uint16)((p)[j], (p)[16 + (j)], (p)[32 + (j)], (p)[48 + (j)], (p)[64 + (j)], (p)[80 + (j)],     \
            (p)[96 + (j)], (p)[112 + (j)], (p)[128 + (j)], (p)[144 + (j)], (p)[160 + (j)],         \
            (p)[176 + (j)], (p)[192 + (j)], (p)[208 + (j)], (p)[224 + (j)], (p)[240 + (j)]))
#define SCATTER(q, w, v)                                                                           \
  (q)[w] = (v).s0, (q)[8 + (w)] = (v).s1, (q)[16 + (w)] = (v).s2, (q)[24 + (w)] = (v).s3,          \
  (q)[32 + (w)] = (v).s4, (q)[40 + (w)] = (v).s5, (q)[48 + (w)] = (v).s6, (q)[56 + (w)] = (v).s7,  \
  (q)[64 + (w)] = (v).s8, (q)[72 + (w)] = (v).s9, (q)[80 + (w)] = (v).sa, (q)[88 + (w)] = (v).sb,  \
  (q)[96 + (w)] = (v).sc, (q)[104 + (w)] = (v).sd, (q)[112 + (w)] = (v).se,                        \
  (q)[120 + (w)] = (v).sf
#else
#error "MERKLIZE_LANES must be 4, 8 or 16"
#endif

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
    LANE_T words[16], hashed[8];
    for (int j = 0; j < 16; ++j)
      words[j] = GATHER(pairs, j);
    LANE_TWO_TO_ONE(words, MERKLIZE_NODE_FLAGS(is_top), hashed);
    __global uint *nodes = out + (out_first + first) * 8;
    for (int w = 0; w < 8; ++w)
      SCATTER(nodes, w, hashed[w]);
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
