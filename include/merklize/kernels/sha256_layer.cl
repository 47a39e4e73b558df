R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* The SHA-256 layer (engine/layer.hpp), in plain OpenCL C 1.2, built after sha256.cl: a file of
 * its own, so that the other programs over sha256.cl (its trees, data blocks' leaves, a log's
 * entries) hold no layer kernels, whose compile PoCL pays for every kernel a program holds. */

/* The hashtree contract: out[i] = SHA-256(in[64 i .. 64 i + 64)) for i < count, 32 bytes each.
 * Vector pointers let the compiler use wide loads: buffers start aligned, blocks are 64 bytes and
 * digests 32. The global size is rounded up to the work-group size. */
__kernel void sha256_layer(__global const uint16 *in, __global uint8 *out, ulong count) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  const uint16 block = in[i];
  out[i] = sha256_node(block.lo, block.hi, 0);
}

/* The same with a prefix byte: out[i] = SHA-256(prefix || in[64 i .. 64 i + 64)), prefix in the
 * low 8 bits (0x01: a layer of RFC 6962 nodes). */
__kernel void sha256_layer_prefixed(__global const uint16 *in, __global uint8 *out, ulong count,
                                    uint prefix) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  const uint16 block = in[i];
  out[i] = sha256_prefixed_node(prefix & 0xFFu, block.lo, block.hi);
}
)merklize_cl"
