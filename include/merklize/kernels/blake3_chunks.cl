R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* BLAKE3 of whole inputs, in plain OpenCL C 1.2, built after blake3.cl with
 * -DMERKLIZE_LANES=N: the chunks (1, 2, 4, 8 or 16) that one work-item of blake3_chunk_cvs hashes
 * at once, in the lanes of a uintN.
 *
 * The input is cut into 1024-byte chunks, the last one shorter (an empty input is one empty
 * chunk). blake3_chunk_cvs gives each chunk's chaining value, blake3_parents merges them two by
 * two as BLAKE3's tree does, and blake3_root_output finishes the root node with the ROOT flag into
 * any number of output bytes. No kernel here sets ROOT on a chaining value: the host reduces the
 * tree to the root's two children (or, for a one-chunk input, blake3_single_chunk_root keeps the
 * chunk's last block unfinished), so the root is only ever compressed by blake3_root_output. */

#ifndef MERKLIZE_LANES
#error "build with -DMERKLIZE_LANES=<chunks per work-item: 1, 2, 4, 8 or 16>"
#endif

#define B3_BLOCK_LEN 64u
#define B3_CHUNK_LEN 1024u
#define B3_BLOCKS_PER_CHUNK 16u

/* Block b of a chunk holding len bytes, as message words, zero past the end. */
B3_INLINE void blake3_load_block(__global const uchar *chunk, uint len, uint b, uint m[16]) {
  const uint at = b * B3_BLOCK_LEN;
  if (at + B3_BLOCK_LEN <= len) {
    vstore16(vload16(0, (__global const uint *)(chunk + at)), 0, m);
    return;
  }
  for (uint i = 0; i < 16; ++i)
    m[i] = 0;
  for (uint k = at; k < len; ++k)
    m[(k - at) / 4] |= (uint)chunk[k] << (8 * ((k - at) % 4));
}

/* Compresses every block of a chunk of len bytes (0 <= len <= 1024) but its last, which it leaves
 * in m with its length and flags: what finishing the chunk, as a chaining value or as the root,
 * needs. Returns the chaining value entering the last block. */
B3_INLINE uint8 blake3_chunk_until_last_block(__global const uchar *chunk, uint len, ulong counter,
                                              uint8 key, uint flags, uint m[16], uint *last_len,
                                              uint *last_flags) {
  const uint blocks = len == 0 ? 1 : (len + B3_BLOCK_LEN - 1) / B3_BLOCK_LEN;
  uint8 cv = key;
  for (uint b = 0; b + 1 < blocks; ++b) {
    blake3_load_block(chunk, len, b, m);
    cv = blake3_compress_cv(cv, m, counter, B3_BLOCK_LEN, flags | (b == 0 ? B3_CHUNK_START : 0u));
  }
  blake3_load_block(chunk, len, blocks - 1, m);
  *last_len = len - B3_BLOCK_LEN * (blocks - 1);
  *last_flags = flags | B3_CHUNK_END | (blocks == 1 ? B3_CHUNK_START : 0u);
  return cv;
}

/* The chaining value of a full chunk, its blocks in chunk[0..15]: the fast path. */
B3_INLINE uint8 blake3_full_chunk_cv(__global const uint16 *chunk, ulong counter, uint8 key,
                                     uint flags) {
  uint8 cv = key;
  uint16 next = chunk[0];
  /* Rolled: one compression is some 700 instructions, and 16 of them would overflow a GPU's
   * instruction cache. Each block's load is issued before the block ahead of it is compressed,
   * so its latency hides behind a compression (0.660 -> 0.654 ms for 1 GiB on an H200). */
#pragma unroll 1
  for (uint b = 0; b < B3_BLOCKS_PER_CHUNK; ++b) {
    uint m[16];
    vstore16(next, 0, m);
    if (b + 1 < B3_BLOCKS_PER_CHUNK) next = chunk[b + 1];
    const uint block_flags =
        flags | (b == 0 ? B3_CHUNK_START : 0u) | (b == B3_BLOCKS_PER_CHUNK - 1 ? B3_CHUNK_END : 0u);
    cv = blake3_compress_cv(cv, m, counter, B3_BLOCK_LEN, block_flags);
  }
  return cv;
}

/* The chaining value of chunk c of an input of `bytes` bytes, full or not. */
B3_INLINE uint8 blake3_chunk_cv(__global const uint16 *in, ulong bytes, ulong c, ulong counter,
                                uint8 key, uint flags) {
  if ((c + 1) * B3_CHUNK_LEN <= bytes)
    return blake3_full_chunk_cv(in + B3_BLOCKS_PER_CHUNK * c, counter, key, flags);
  uint m[16], len, last_flags;
  const uint8 cv = blake3_chunk_until_last_block(
      (__global const uchar *)(in + B3_BLOCKS_PER_CHUNK * c), (uint)(bytes - c * B3_CHUNK_LEN),
      counter, key, flags, m, &len, &last_flags);
  return blake3_compress_cv(cv, m, counter, len, last_flags);
}

#if MERKLIZE_LANES > 1

#define B3_CAT_(a, b) a##b
#define B3_CAT(a, b) B3_CAT_(a, b)
typedef B3_CAT(uint, MERKLIZE_LANES) b3_lanes;
#define B3_VLOAD B3_CAT(vload, MERKLIZE_LANES)
#define B3_VSTORE B3_CAT(vstore, MERKLIZE_LANES)
B3_DEFINE_ROUNDS(b3_lanes, blake3_rounds_lanes)

/* The chaining values of the full chunks first .. first + MERKLIZE_LANES - 1, chunk first + l in
 * lane l of every word: the same seven rounds as blake3_rounds, on vectors. Words move between
 * chunks and lanes through `words`, word w of lane l at words[w * MERKLIZE_LANES + l]. */
B3_INLINE void blake3_full_chunks_in_lanes(__global const uint16 *in, ulong first, ulong counter,
                                           uint8 key, uint flags, __global uint8 *cvs) {
  uint words[16 * MERKLIZE_LANES];
#pragma unroll
  for (uint l = 0; l < MERKLIZE_LANES; ++l) {
    words[l] = (uint)(counter + l);
    words[MERKLIZE_LANES + l] = (uint)((counter + l) >> 32);
  }
  const b3_lanes counter_low = B3_VLOAD(0, words), counter_high = B3_VLOAD(1, words);
  b3_lanes cv[8] = {(b3_lanes)(key.s0), (b3_lanes)(key.s1), (b3_lanes)(key.s2), (b3_lanes)(key.s3),
                    (b3_lanes)(key.s4), (b3_lanes)(key.s5), (b3_lanes)(key.s6), (b3_lanes)(key.s7)};
#pragma unroll 1 /* as in blake3_full_chunk_cv */
  for (uint b = 0; b < B3_BLOCKS_PER_CHUNK; ++b) {
#pragma unroll
    for (uint l = 0; l < MERKLIZE_LANES; ++l) {
      uint block[16];
      vstore16(in[(first + l) * B3_BLOCKS_PER_CHUNK + b], 0, block);
#pragma unroll
      for (uint w = 0; w < 16; ++w)
        words[w * MERKLIZE_LANES + l] = block[w];
    }
    b3_lanes m[16];
#pragma unroll
    for (uint w = 0; w < 16; ++w)
      m[w] = B3_VLOAD(w, words);
    const uint block_flags =
        flags | (b == 0 ? B3_CHUNK_START : 0u) | (b == B3_BLOCKS_PER_CHUNK - 1 ? B3_CHUNK_END : 0u);
    b3_lanes v[16] = {cv[0],
                      cv[1],
                      cv[2],
                      cv[3],
                      cv[4],
                      cv[5],
                      cv[6],
                      cv[7],
                      (b3_lanes)(B3_IV0),
                      (b3_lanes)(B3_IV1),
                      (b3_lanes)(B3_IV2),
                      (b3_lanes)(B3_IV3),
                      counter_low,
                      counter_high,
                      (b3_lanes)(B3_BLOCK_LEN),
                      (b3_lanes)(block_flags)};
    blake3_rounds_lanes(v, m);
#pragma unroll
    for (uint i = 0; i < 8; ++i)
      cv[i] = v[i] ^ v[i + 8];
  }
#pragma unroll
  for (uint i = 0; i < 8; ++i)
    B3_VSTORE(cv[i], i, words);
#pragma unroll
  for (uint l = 0; l < MERKLIZE_LANES; ++l)
    cvs[first + l] = (uint8)(words[l], words[MERKLIZE_LANES + l], words[2 * MERKLIZE_LANES + l],
                             words[3 * MERKLIZE_LANES + l], words[4 * MERKLIZE_LANES + l],
                             words[5 * MERKLIZE_LANES + l], words[6 * MERKLIZE_LANES + l],
                             words[7 * MERKLIZE_LANES + l]);
}

#endif

/* cvs[c] = chaining value of chunk c of the `bytes` bytes of `in`, counted from first_chunk.
 * Work-item i hashes chunks i * MERKLIZE_LANES onwards: MERKLIZE_LANES full chunks in vector
 * lanes, or, where the input ends among them, what is left one chunk at a time. */
__kernel void blake3_chunk_cvs(__global const uint16 *in, ulong bytes, ulong first_chunk, uint8 key,
                               uint flags, __global uint8 *cvs) {
  const ulong chunks = (bytes + B3_CHUNK_LEN - 1) / B3_CHUNK_LEN;
  const ulong first = get_global_id(0) * MERKLIZE_LANES;
  if (first >= chunks) return; /* the global size is rounded up to the work-group size */
#if MERKLIZE_LANES > 1
  if ((first + MERKLIZE_LANES) * B3_CHUNK_LEN <= bytes) {
    blake3_full_chunks_in_lanes(in, first, first_chunk + first, key, flags, cvs);
    return;
  }
#endif
  for (ulong c = first; c < first + MERKLIZE_LANES && c < chunks; ++c)
    cvs[c] = blake3_chunk_cv(in, bytes, c, first_chunk + c, key, flags);
}

/* Reduces each run of 2^levels chaining values of in[0 .. count) to the root of its subtree, into
 * out[group]: BLAKE3's tree is left-balanced, so aligned runs of 2^levels nodes are its subtrees,
 * and a lone last node of a level moves up unchanged. Runs work-groups of 2^(levels - 1) items;
 * `nodes` holds one node per work-item. */
__kernel void blake3_parents(__global const uint8 *in, ulong count, uint levels, uint8 key,
                             uint flags, __global uint8 *out, __local uint8 *nodes) {
  const uint t = get_local_id(0);
  const ulong first = get_group_id(0) << levels;
  uint width = (uint)min(count - first, (ulong)1 << levels); /* nodes of the run at this level */
  const ulong left = first + 2 * t;
  if (2 * t + 1 < width)
    nodes[t] = blake3_compress_pair(key, in[left], in[left + 1], flags | B3_PARENT);
  else if (2 * t < width)
    nodes[t] = in[left];
  width = (width + 1) / 2;
  for (uint level = 1; level < levels; ++level) {
    barrier(CLK_LOCAL_MEM_FENCE);
    uint8 node;
    if (2 * t + 1 < width)
      node = blake3_compress_pair(key, nodes[2 * t], nodes[2 * t + 1], flags | B3_PARENT);
    else if (2 * t < width)
      node = nodes[2 * t];
    barrier(CLK_LOCAL_MEM_FENCE); /* every read of this level is done before any write */
    if (2 * t < width) nodes[t] = node;
    width = (width + 1) / 2;
  }
  if (t == 0) out[get_group_id(0)] = nodes[0];
}

/* The root node of a one-chunk input of `bytes` bytes (0 to 1024): its last block unfinished,
 * written as blake3_root_output reads it: block words 0-15, chaining value 16-23, block length 24,
 * flags 25. One work-item. */
__kernel void blake3_single_chunk_root(__global const uchar *in, uint bytes, uint8 key, uint flags,
                                       __global uint *root) {
  uint m[16], len, last_flags;
  const uint8 cv = blake3_chunk_until_last_block(in, bytes, 0, key, flags, m, &len, &last_flags);
  for (uint i = 0; i < 16; ++i)
    root[i] = m[i];
  vstore8(cv, 2, root);
  root[24] = len;
  root[25] = last_flags;
}

/* Output bytes [64 * first_block, 64 * first_block + out_bytes) of the root node, one 64-byte
 * block per work-item: the root compressed with ROOT and the block's index as its counter, all 16
 * words kept. With is_parent the root is a parent node: node[0..15] holds its two children and
 * key and flags are the mode's; otherwise node holds a root written by blake3_single_chunk_root. */
__kernel void blake3_root_output(__global const uint *node, int is_parent, uint8 key, uint flags,
                                 ulong first_block, ulong out_bytes, __global uchar *out) {
  const ulong i = get_global_id(0);
  if (i * B3_BLOCK_LEN >= out_bytes) return;
  uint m[16];
  vstore16(vload16(0, node), 0, m);
  const uint8 cv = is_parent ? key : vload8(2, node);
  const uint len = is_parent ? B3_BLOCK_LEN : node[24];
  const uint root_flags = (is_parent ? flags | B3_PARENT : node[25]) | B3_ROOT;
  uint v[16];
  blake3_compress_state(v, cv, m, first_block + i, len, root_flags);
  const uint16 words =
      (uint16)(v[0] ^ v[8], v[1] ^ v[9], v[2] ^ v[10], v[3] ^ v[11], v[4] ^ v[12], v[5] ^ v[13],
               v[6] ^ v[14], v[7] ^ v[15], v[8] ^ cv.s0, v[9] ^ cv.s1, v[10] ^ cv.s2, v[11] ^ cv.s3,
               v[12] ^ cv.s4, v[13] ^ cv.s5, v[14] ^ cv.s6, v[15] ^ cv.s7);
  __global uchar *block = out + i * B3_BLOCK_LEN;
  if ((i + 1) * B3_BLOCK_LEN <= out_bytes) {
    vstore16(words, 0, (__global uint *)block);
    return;
  }
  uint bytes[16];
  vstore16(words, 0, bytes);
  for (uint k = 0; k < out_bytes - i * B3_BLOCK_LEN; ++k)
    block[k] = (uchar)(bytes[k / 4] >> (8 * (k % 4)));
}
)merklize_cl"
