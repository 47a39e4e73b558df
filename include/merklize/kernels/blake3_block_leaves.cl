R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* BLAKE3 leaves hashed from data blocks (include/merklize/core/block_leaves.hpp), in plain OpenCL
 * C 1.2, built after blake3.cl, as sha256_block_leaves.cl lays them out: one work-item hashes one
 * block of L bytes (the last one shorter; with zero_pad zero-padded to L bytes) into
 * out[out_first + i]. The block's hash is several chunks and their parents where L > 1024, keyed
 * with `key` and `flags`; or, with chunk_cvs, the chaining value of chunk first_chunk + i of a
 * larger input, as Bao's outboard needs (L = 1024, no ROOT flag). */

/* The 64 bytes at `at` of a message whose first `len` bytes are `data` and the rest zeros, as
 * BLAKE3 message words (little-endian, as the device is); `aligned`: data is 4-byte aligned. */
B3_INLINE void blake3_message_block(__global const uchar *data, ulong len, ulong at, int aligned,
                                    uint m[16]) {
  if (aligned && at + 64 <= len) {
    vstore16(vload16(0, (__global const uint *)(data + at)), 0, m);
    return;
  }
  for (int k = 0; k < 16; ++k)
    m[k] = 0;
  for (ulong p = at; p < len && p < at + 64; ++p)
    m[(p - at) / 4] |= (uint)data[p] << (8 * ((p - at) % 4));
}

/* Chunk c of a message of `total` bytes (the first `len` from data, then zeros): its chaining
 * value with `counter`, or with is_root the first 32 bytes of the root output. */
B3_INLINE uint8 blake3_message_chunk(__global const uchar *data, int aligned, ulong len,
                                     ulong total, ulong c, ulong counter, uint8 key, uint flags,
                                     int is_root) {
  const ulong start = c * 1024;
  const uint size = (uint)min((ulong)1024, total - start);
  const uint blocks = size == 0 ? 1 : (size + 63) / 64;
  uint8 cv = key;
  for (uint b = 0; b < blocks; ++b) {
    uint m[16];
    blake3_message_block(data, len, start + 64 * b, aligned, m);
    const int last = b + 1 == blocks;
    const uint block_flags = flags | (b == 0 ? B3_CHUNK_START : 0u) |
                             (last ? B3_CHUNK_END | (is_root ? B3_ROOT : 0u) : 0u);
    cv = blake3_compress_cv(cv, m, counter, last ? size - 64 * b : 64u, block_flags);
  }
  return cv;
}

/* BLAKE3 of a message of `total` bytes (the first `len` from data, then zeros): the chunks'
 * chaining values merged as BLAKE3's incremental hasher merges them, on a stack of one subtree
 * per bit of the chunk count (blocks of at most 4 GiB: 2^22 chunks). */
B3_INLINE uint8 blake3_message(__global const uchar *data, int aligned, ulong len, ulong total,
                               uint8 key, uint flags) {
  const ulong chunks = total == 0 ? 1 : (total + 1023) / 1024;
  if (chunks == 1) return blake3_message_chunk(data, aligned, len, total, 0, 0, key, flags, 1);
  uint8 stack[24];
  int depth = 0;
  for (ulong c = 0; c + 1 < chunks; ++c) {
    uint8 cv = blake3_message_chunk(data, aligned, len, total, c, c, key, flags, 0);
    for (ulong done = c + 1; (done & 1) == 0; done >>= 1)
      cv = blake3_compress_pair(key, stack[--depth], cv, flags | B3_PARENT);
    stack[depth++] = cv;
  }
  uint8 node =
      blake3_message_chunk(data, aligned, len, total, chunks - 1, chunks - 1, key, flags, 0);
  while (depth > 0) {
    --depth;
    node = blake3_compress_pair(key, stack[depth], node,
                                flags | B3_PARENT | (depth == 0 ? B3_ROOT : 0u));
  }
  return node;
}

__kernel void blake3_block_leaves(__global const uchar *in, ulong in_offset, ulong bytes,
                                  ulong block_bytes, uint8 key, uint flags, int zero_pad,
                                  int chunk_cvs, ulong first_chunk, __global uint8 *out,
                                  ulong out_first) {
  const ulong i = get_global_id(0);
  if (i * block_bytes >= bytes) return;
  const ulong len = min(block_bytes, bytes - i * block_bytes);
  __global const uchar *data = in + in_offset + i * block_bytes;
  const int aligned = ((in_offset + i * block_bytes) & 3) == 0;
  out[out_first + i] =
      chunk_cvs ? blake3_message_chunk(data, aligned, len, len, 0, first_chunk + i, key, flags, 0)
                : blake3_message(data, aligned, len, zero_pad ? block_bytes : len, key, flags);
}
)merklize_cl"
