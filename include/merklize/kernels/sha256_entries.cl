R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* SHA-256 of entries of any length, one work-item an entry, each hashed with a one-byte prefix:
 * out[i] = SHA-256(prefix || data[bounds[2i] .. bounds[2i + 1])). With prefix 0x00 these are RFC
 * 6962's leaf hashes. Built after sha256.cl, whose compression function it uses.
 *
 * Entries start at any byte, so the message is read a byte at a time and assembled into
 * big-endian words (byte order of the device does not matter); byte k of the message is the
 * prefix for k = 0, the entry's byte k - 1 up to its length, then the padding: 0x80, zeros, and
 * in the last 8 bytes of the last block the message's length in bits. */

inline uint entry_message_byte(__global const uchar *entry, ulong length, uint prefix, ulong k) {
  if (k == 0) return prefix;
  if (k <= length) return entry[k - 1];
  return k == length + 1 ? 0x80u : 0u;
}

__kernel void sha256_entries(__global const uchar *data, __global const ulong *bounds, ulong count,
                             uint prefix, __global uint8 *out) {
  const ulong i = get_global_id(0);
  if (i >= count) return; /* the global size is rounded up to the work-group size */
  const ulong first = bounds[2 * i], length = bounds[2 * i + 1] - first;
  __global const uchar *entry = data + first;
  const ulong message = length + 1;         /* bytes, the prefix included */
  const ulong blocks = (message + 72) / 64; /* room for 0x80 and the 8-byte bit length */
  uint8 state = sha256_iv();
  for (ulong b = 0; b < blocks; ++b) {
    uint w[16];
    for (int t = 0; t < 16; ++t) {
      const ulong k = 64 * b + 4 * t;
      w[t] = entry_message_byte(entry, length, prefix & 0xFFu, k) << 24 |
             entry_message_byte(entry, length, prefix & 0xFFu, k + 1) << 16 |
             entry_message_byte(entry, length, prefix & 0xFFu, k + 2) << 8 |
             entry_message_byte(entry, length, prefix & 0xFFu, k + 3);
    }
    if (b + 1 == blocks) {
      w[14] = (uint)(message >> 29); /* the bit length, 8 * message, big-endian */
      w[15] = (uint)(message << 3);
    }
    state = sha256_compress_message(state, w);
  }
  out[i] = (uint8)(sha256_memory_word(state.s0), sha256_memory_word(state.s1),
                   sha256_memory_word(state.s2), sha256_memory_word(state.s3),
                   sha256_memory_word(state.s4), sha256_memory_word(state.s5),
                   sha256_memory_word(state.s6), sha256_memory_word(state.s7));
}
)merklize_cl"
