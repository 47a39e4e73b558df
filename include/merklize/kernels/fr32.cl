R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Filecoin's Fr32 padding (formats/filecoin.hpp): each work-item expands one 127-byte block of
 * data into four 32-byte chunks, chunk q holding bits 254 q .. 254 q + 253 of the block (bit b of
 * the block is bit b % 8 of byte b / 8) and two zero bits on top. The chunks are tree_d's leaves.
 * Chunk q starts at bit 254 q, in byte 254 q / 8 at a shift of 254 q % 8 (0, 6, 4, 2): each of
 * its bytes is two neighbouring input bytes shifted, past the block's end zero. */

__kernel void fr32_leaves(__global const uchar *data, ulong blocks, __global uint8 *leaves) {
  const ulong b = get_global_id(0);
  if (b >= blocks) return;
  __global const uchar *in = data + 127 * b;
  for (uint q = 0; q < 4; ++q) {
    const uint first_byte = (254 * q) / 8, shift = (254 * q) % 8;
    uchar chunk[32];
    for (uint j = 0; j < 32; ++j) {
      const uint at = first_byte + j;
      uint value = (uint)in[at] >> shift;
      if (shift != 0 && at + 1 < 127) value |= (uint)in[at + 1] << (8 - shift);
      chunk[j] = (uchar)(j == 31 ? value & 0x3Fu : value);
    }
    leaves[4 * b + q] = (uint8)(as_uint4(vload16(0, chunk)), as_uint4(vload16(1, chunk)));
  }
}
)merklize_cl"
