R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* SHA-256 leaves hashed from data blocks (include/merklize/core/block_leaves.hpp), in plain OpenCL
 * C 1.2, built after sha256.cl. One work-item hashes one block of L bytes: block i is bytes
 * [i L, min((i + 1) L, bytes)) of `in` from in_offset on, the last one shorter, and with zero_pad
 * its message is zero-padded to L bytes. Digest i goes to out[out_first + i], so the pieces of a
 * streamed input land at their places in one buffer of leaves. BLAKE3's leaves are
 * blake3_block_leaves.cl's, a program of their own: PoCL compiles every kernel a program holds.
 *
 * The message is prefix || block || zeros. The host compresses the prefix's whole 64-byte blocks
 * into `midstate` (fs-verity's salt is padded to exactly that) and passes the rest, under 64
 * bytes, as `tail`; head_bytes is the length of what the midstate holds. */

/* Byte p of a SHA-256 message stream after the midstate: the tail, the block's `len` bytes,
 * zeros to `total`, then FIPS 180-4's padding up to `end` with the bit length `bits` last. */
inline uint sha256_stream_byte(ulong p, __constant const uchar *tail, uint tail_len,
                               __global const uchar *data, ulong len, ulong total, ulong end,
                               ulong bits) {
  if (p < tail_len) return tail[p];
  if (p < tail_len + len) return data[p - tail_len];
  if (p < total) return 0;
  if (p == total) return 0x80;
  if (p + 8 >= end) return (uint)(bits >> (8 * (end - 1 - p))) & 0xff;
  return 0;
}

__kernel void sha256_block_leaves(__global const uchar *in, ulong in_offset, ulong bytes,
                                  ulong block_bytes, uint8 midstate, __constant const uchar *tail,
                                  uint tail_len, ulong head_bytes, int zero_pad,
                                  __global uint8 *out, ulong out_first) {
  const ulong i = get_global_id(0);
  if (i * block_bytes >= bytes) return; /* the global size is rounded up to the work-group size */
  const ulong len = min(block_bytes, bytes - i * block_bytes);
  const ulong total = tail_len + (zero_pad ? block_bytes : len);
  const ulong end = (total + 9 + 63) / 64 * 64;
  const ulong bits = (head_bytes + total) * 8;
  __global const uchar *data = in + in_offset + i * block_bytes;
  /* Whole words of the block load as words where they are 4-byte aligned: message byte `at` is
   * data byte at - tail_len, so the block's start less the tail's length must be (unsigned
   * arithmetic keeps the remainder mod 4). NVIDIA faults on a misaligned word; x86 does not. */
  const int aligned = ((in_offset + i * block_bytes - tail_len) & 3) == 0;
  uint8 state = midstate;
  for (ulong at = 0; at < end; at += 64) {
    uint w[16];
    if (aligned && at >= tail_len && at + 64 <= tail_len + len) {
      __global const uint *words = (__global const uint *)(data + (at - tail_len));
      for (int k = 0; k < 16; ++k)
        w[k] = sha256_word(words[k]);
    } else {
      for (int k = 0; k < 16; ++k) {
        uint word = 0;
        for (int b = 0; b < 4; ++b)
          word = word << 8 |
                 sha256_stream_byte(at + 4 * k + b, tail, tail_len, data, len, total, end, bits);
        w[k] = word;
      }
    }
    state = sha256_compress_message(state, w);
  }
  out[out_first + i] = (uint8)(sha256_memory_word(state.s0), sha256_memory_word(state.s1),
                               sha256_memory_word(state.s2), sha256_memory_word(state.s3),
                               sha256_memory_word(state.s4), sha256_memory_word(state.s5),
                               sha256_memory_word(state.s6), sha256_memory_word(state.s7));
}
)merklize_cl"
