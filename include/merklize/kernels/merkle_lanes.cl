R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* One level of a BLAKE3-family Merkle tree with one node per vector lane: each work-item hashes
 * MERKLIZE_LANES nodes at once with uintN arithmetic. CPU devices (PoCL) do not vectorize the
 * one-node-per-work-item kernel across work-items, so they take their preferred vector width;
 * GPUs gain instruction-level parallelism from 2 lanes. The host chooses at run time.
 *
 * Needs blake3.cl and merkle.cl before it, and -DMERKLIZE_LANES=2|4|8|16 and
 * -DMERKLIZE_NODE_FLAGS=<flags macro of the node mode> besides -DMERKLIZE_NODE; for SHA-256 nodes
 * sha256.cl, merkle.cl and sha256_lanes.cl, and -DMERKLIZE_LANES_NODE=sha256. */

/* The lanes' node function, <node>_two_to_one<lanes>: BLAKE3's (blake3.cl) unless
 * MERKLIZE_LANES_NODE names another (sha256: sha256_lanes.cl). */
#ifndef MERKLIZE_LANES_NODE
#define MERKLIZE_LANES_NODE blake3
#endif
#define LANE_NODE_CAT(node, n) node##_two_to_one##n
#define LANE_NODE_FN(node, n) LANE_NODE_CAT(node, n)

#if MERKLIZE_LANES == 2
#define LANE_T uint2
#define LANE_TWO_TO_ONE LANE_NODE_FN(MERKLIZE_LANES_NODE, 2)
#define LANE_LOAD vload2
#define LANE_STORE vstore2
#define LANES_LOG2 1
#elif MERKLIZE_LANES == 4
#define LANE_T uint4
#define LANE_TWO_TO_ONE LANE_NODE_FN(MERKLIZE_LANES_NODE, 4)
#define LANE_LOAD vload4
#define LANE_STORE vstore4
#define LANES_LOG2 2
#elif MERKLIZE_LANES == 8
#define LANE_T uint8
#define LANE_TWO_TO_ONE LANE_NODE_FN(MERKLIZE_LANES_NODE, 8)
#define LANE_LOAD vload8
#define LANE_STORE vstore8
#define LANES_LOG2 3
#elif MERKLIZE_LANES == 16
#define LANE_T uint16
#define LANE_TWO_TO_ONE LANE_NODE_FN(MERKLIZE_LANES_NODE, 16)
#define LANE_LOAD vload16
#define LANE_STORE vstore16
#define LANES_LOG2 4
#else
#error "MERKLIZE_LANES must be 2, 4, 8 or 16"
#endif

/* The words move between node order and lane order by de-interleaving ("unzip") steps. Read as
 * one flat array, n vectors hold element e of vector v at index v * LANES + e; a step writes
 * the even elements of each pair of vectors (2v, 2v + 1) to vector v and the odd ones to
 * v + n/2, which rotates the bits of every element's index right by one. The 16 vectors loaded
 * from LANES consecutive 64-byte pairs hold word j of lane r at r * 16 + j, so 4 steps put it at
 * j * LANES + r: vector j is word j of every lane. The 8 hashed vectors go back to node order in
 * log2(LANES) steps. PoCL had turned the previous per-word transposition (a union written word
 * by word) into gathers, about half the kernel's time; this is 16 x 4 + 8 x log2(LANES) shuffles,
 * with every loop unrolled so the vectors stay in registers (2^22 leaves on 2 AVX-512 cores,
 * PoCL 3.1: 51-53 -> 29-31 ms of kernels).
 *
 * For 16 lanes one two-source shuffle per vector where the compiler has clang's builtin: LLVM
 * lowers the portable form, the halves' .even joined, as truncations and inserts there (a third
 * slower); for 8 lanes the portable form was the faster unzip, and 2 and 4 lanes keep it too.
 * Where the builtin exists, 8 lanes take TRANSPOSE8 below instead of unzipping. */
#define UNZIP_STEP(to, from, n)                                                                    \
  _Pragma("unroll") for (int v = 0; v < (n) / 2; ++v) {                                            \
    to[v] = LANE_EVENS(from[2 * v], from[2 * v + 1]);                                              \
    to[v + (n) / 2] = LANE_ODDS(from[2 * v], from[2 * v + 1]);                                     \
  }

#if defined(__has_builtin)
#if MERKLIZE_LANES == 16 && __has_builtin(__builtin_shufflevector)
#define LANE_EVENS(a, b)                                                                           \
  __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
#define LANE_ODDS(a, b)                                                                            \
  __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31)
#endif
#endif
#ifndef LANE_EVENS
#define LANE_EVENS(a, b) ((LANE_T)((a).even, (b).even))
#define LANE_ODDS(a, b) ((LANE_T)((a).odd, (b).odd))
#endif

/* For 8 lanes, where the compiler has clang's two-source shuffle, a transposition of 8 vectors in
 * 24 shuffles instead (as BLAKE3's own AVX2 code does it): 32-bit and then 64-bit interleaves
 * within each 128-bit half, then the halves exchanged; each is one instruction on AVX2, where an
 * unzip step's evens across the halves take two. Rows r[0..7] become columns: element e of
 * vector v goes to element v of vector e. Node order and lane order are each other's transpose,
 * so one TRANSPOSE8 loads a block of 8 words per lane and one stores the hashed nodes. */
#if defined(__has_builtin)
#if MERKLIZE_LANES == 8 && __has_builtin(__builtin_shufflevector)
#define LANE_TRANSPOSE8 1
#define SHUFFLE8(a, b, m0, m1, m2, m3, m4, m5, m6, m7)                                             \
  __builtin_shufflevector(a, b, m0, m1, m2, m3, m4, m5, m6, m7)
#define TRANSPOSE8(r)                                                                              \
  {                                                                                                \
    LANE_T t_[8], u_[8];                                                                           \
    _Pragma("unroll") for (int i = 0; i < 4; ++i) {                                                \
      t_[2 * i] = SHUFFLE8(r[2 * i], r[2 * i + 1], 0, 8, 1, 9, 4, 12, 5, 13);                      \
      t_[2 * i + 1] = SHUFFLE8(r[2 * i], r[2 * i + 1], 2, 10, 3, 11, 6, 14, 7, 15);                \
    }                                                                                              \
    _Pragma("unroll") for (int i = 0; i < 2; ++i) {                                                \
      _Pragma("unroll") for (int j = 0; j < 2; ++j) {                                              \
        u_[4 * i + 2 * j] = SHUFFLE8(t_[4 * i + j], t_[4 * i + j + 2], 0, 1, 8, 9, 4, 5, 12, 13);  \
        u_[4 * i + 2 * j + 1] =                                                                    \
            SHUFFLE8(t_[4 * i + j], t_[4 * i + j + 2], 2, 3, 10, 11, 6, 7, 14, 15);                \
      }                                                                                            \
    }                                                                                              \
    _Pragma("unroll") for (int i = 0; i < 4; ++i) {                                                \
      r[i] = SHUFFLE8(u_[i], u_[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);                                 \
      r[i + 4] = SHUFFLE8(u_[i], u_[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);                           \
    }                                                                                              \
  }
#endif
#endif

/* `steps` unzip steps over words[n], through scratch[n]; unrolled, so both stay in registers. */
#define UNZIP(words, scratch, n, steps)                                                            \
  _Pragma("unroll") for (int step = 0; step < (steps); ++step) {                                   \
    UNZIP_STEP(scratch, words, n)                                                                  \
    _Pragma("unroll") for (int v = 0; v < (n); ++v) words[v] = scratch[v];                         \
  }

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
#if defined(LANE_TRANSPOSE8)
    LANE_T left[8], right[8]; /* lane r's two children: rows 2r and 2r + 1 of `pairs` */
#pragma unroll
    for (int r = 0; r < 8; ++r) {
      left[r] = LANE_LOAD(2 * r, pairs);
      right[r] = LANE_LOAD(2 * r + 1, pairs);
    }
    TRANSPOSE8(left)
    TRANSPOSE8(right)
#pragma unroll
    for (int w = 0; w < 8; ++w) {
      words[w] = left[w];
      words[w + 8] = right[w];
    }
    LANE_TWO_TO_ONE(words, MERKLIZE_NODE_FLAGS(is_top), hashed);
    TRANSPOSE8(hashed)
#else
    LANE_T scratch[16];
#pragma unroll
    for (int v = 0; v < 16; ++v)
      words[v] = LANE_LOAD(v, pairs);
    UNZIP(words, scratch, 16, 4)
    LANE_TWO_TO_ONE(words, MERKLIZE_NODE_FLAGS(is_top), hashed);
    UNZIP(hashed, scratch, 8, LANES_LOG2)
#endif
    __global uint *nodes = out + (out_first + first) * 8;
#pragma unroll
    for (int v = 0; v < 8; ++v)
      LANE_STORE(hashed[v], v, nodes);
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
)merklize_cl"
