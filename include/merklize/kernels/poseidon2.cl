R"merklize_cl(// SPDX-License-Identifier: Apache-2.0 OR MIT
/* Poseidon2 as Plonky3 computes it, over the arithmetic of the field family's file that comes
 * before this one in a program (poseidon2_31.cl: BabyBear, KoalaBear; poseidon2_goldilocks.cl),
 * in plain OpenCL C 1.2. That file defines the element type P2_ELEM, the width P2_W, the names
 * P2_NAME(x), p2_add, p2_mul, p2_sbox, the constants (p2_external_initial, p2_internal,
 * p2_external_final, p2_internal_diag, P2_ROUNDS_P), how a limb enters and leaves the state
 * (p2_in, p2_out, p2_limb_in, p2_limb_out) and P2_NODE_WIDTH, the width of the compression. This
 * file defines the permutation (as include/merklize/core/poseidon2.hpp orders its layers), the
 * node function of merkle.cl and its kin, P2_NAME(node), and kernels, named as written (the
 * program cache reads kernel names from the source): poseidon2_permute (states permuted in
 * memory: the known answers' test and the bench), poseidon2_rows (Plonky3's padding-free sponge
 * over a matrix's rows: its Merkle trees' leaves), and the MMCS's: poseidon2_absorb and
 * poseidon2_squeeze (a sponge over the rows of several matrices), poseidon2_mmcs_layer. */

/* M_E: each block of 4 by Plonky3's M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] (additions
 * only), then the sums over blocks of each place added to every block. */
P2_INLINE void p2_external_layer(P2_ELEM *x) {
#pragma unroll
  for (int b = 0; b < P2_W; b += 4) {
    const P2_ELEM a0 = x[b], a1 = x[b + 1], a2 = x[b + 2], a3 = x[b + 3];
    const P2_ELEM s01 = p2_add(a0, a1), s23 = p2_add(a2, a3), all = p2_add(s01, s23);
    /* row i: all + a_i + 2 a_{i+1} (indices mod 4): 2a0+3a1+a2+a3 = all + a0 + 2a1, ... */
    x[b] = p2_add(p2_add(all, a0), p2_add(a1, a1));
    x[b + 1] = p2_add(p2_add(all, a1), p2_add(a2, a2));
    x[b + 2] = p2_add(p2_add(all, a2), p2_add(a3, a3));
    x[b + 3] = p2_add(p2_add(all, a3), p2_add(a0, a0));
  }
  P2_ELEM sums[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    sums[i] = x[i];
#pragma unroll
    for (int b = 4; b < P2_W; b += 4) sums[i] = p2_add(sums[i], x[b + i]);
  }
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_add(x[i], sums[i % 4]);
}

/* M_I = J + diag(V): y_i = sum(x) + V_i x_i. */
P2_INLINE void p2_internal_layer(P2_ELEM *x) {
  P2_ELEM sum = x[0];
#pragma unroll
  for (int i = 1; i < P2_W; ++i) sum = p2_add(sum, x[i]);
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_add(sum, p2_mul(p2_internal_diag[i], x[i]));
}

P2_INLINE void p2_full_rounds(P2_ELEM *x, __constant const P2_ELEM *constants) {
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int i = 0; i < P2_W; ++i) x[i] = p2_sbox(p2_add(x[i], constants[r * P2_W + i]));
    p2_external_layer(x);
  }
}

/* The permutation of x (in the family's form) in place. */
P2_CALLED void p2_permute(P2_ELEM *x) {
  p2_external_layer(x);
  p2_full_rounds(x, p2_external_initial);
  for (int r = 0; r < P2_ROUNDS_P; ++r) {
    x[0] = p2_sbox(p2_add(x[0], p2_internal[r]));
    p2_internal_layer(x);
  }
  p2_full_rounds(x, p2_external_final);
}

#if P2_W == P2_NODE_WIDTH
/* The node function of merkle.cl (uint8 f(uint8 left, uint8 right, int is_root)): Plonky3's
 * TruncatedPermutation. left's and right's limbs (canonical little-endian elements as they lie in
 * memory; a limb of p or more is taken mod p, as the host reference takes it) fill the state, the
 * first half of the permuted state comes out. No root flag. */
P2_INLINE uint8 P2_NAME(node)(uint8 left, uint8 right, int is_root) {
  uint words[16];
  vstore8(left, 0, words);
  vstore8(right, 1, words);
  P2_ELEM x[P2_W];
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_limb_in(words, i);
  p2_permute(x);
#pragma unroll
  for (int i = 0; i < P2_W / 2; ++i) p2_limb_out(words, i, x[i]);
  return vload8(0, words);
}

/* Plonky3's PaddingFreeSponge, rate and output half the width (the host reference's
 * poseidon2::sponge): out[out_first + r] <- the leaf of row r of a row-major matrix of `width`
 * elements a row (a limb of p or more is taken mod p), for r below rows. Overwrite mode: each
 * chunk of the rate overwrites the state's first elements, a last short chunk as many as it has. */
__kernel void poseidon2_rows(__global const P2_ELEM *matrix, ulong rows, ulong width,
                             __global uint8 *out, ulong out_first) {
  const ulong r = get_global_id(0);
  if (r >= rows) return;
  __global const P2_ELEM *row = matrix + r * width;
  P2_ELEM x[P2_W];
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = 0; /* zero in every form */
  for (ulong at = 0; at < width; at += P2_W / 2) {
#pragma unroll
    for (int j = 0; j < P2_W / 2; ++j)
      if (at + j < width) x[j] = p2_in(row[at + j]);
    p2_permute(x);
  }
  uint words[16];
#pragma unroll
  for (int i = 0; i < P2_W / 2; ++i) p2_limb_out(words, i, x[i]);
  out[out_first + r] = vload8(0, words);
}

/* Plonky3's MMCS (include/merklize/engine/mmcs.hpp) hashes row r of several matrices as one
 * sponge over the rows concatenated. Here a launch absorbs `rows` rows of one matrix (a piece of
 * it: its rows first, first + 1, ..) and the sponges' states wait in memory between launches
 * (states[(first + r) * P2_W ..], in the family's form; zero, the first state, is zero in every
 * form), with `pending` elements of the current chunk of the rate already in place: the same for
 * every row, since a matrix's rows have one width. A chunk that fills is permuted at once;
 * poseidon2_squeeze permutes a last short chunk (pending > 0) and writes the digests. An element
 * of p or more sets *refused (every writer writes 1): the host then finds and names it, so the
 * elements are checked where they are read, at no cost to a commitment that passes. */
__kernel void poseidon2_absorb(__global const P2_ELEM *matrix, ulong rows, ulong width,
                               __global P2_ELEM *states, ulong first, uint pending,
                               __global uint *refused) {
  const ulong r = get_global_id(0);
  if (r >= rows) return;
  __global const P2_ELEM *row = matrix + r * width;
  __global P2_ELEM *state = states + (first + r) * P2_W;
  P2_ELEM x[P2_W];
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = state[i];
  bool above = false;
  for (ulong at = 0; at < width;) {
    const ulong take = min((ulong)(P2_W / 2 - pending), width - at);
#pragma unroll
    for (int j = 0; j < P2_W / 2; ++j) /* fixed places, so x stays in registers */
      if ((uint)j >= pending && (ulong)j < pending + take) {
        const P2_ELEM limb = row[at + j - pending];
        above |= limb >= P2_PRIME;
        x[j] = p2_in(limb);
      }
    at += take;
    pending += (uint)take;
    if (pending == P2_W / 2) {
      p2_permute(x);
      pending = 0;
    }
  }
#pragma unroll
  for (int i = 0; i < P2_W; ++i) state[i] = x[i];
  if (above) *refused = 1u;
}

__kernel void poseidon2_squeeze(__global const P2_ELEM *states, ulong rows, uint pending,
                                __global uint8 *out) {
  const ulong r = get_global_id(0);
  if (r >= rows) return;
  P2_ELEM x[P2_W];
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = states[r * P2_W + i];
  if (pending) p2_permute(x);
  uint words[16];
#pragma unroll
  for (int i = 0; i < P2_W / 2; ++i) p2_limb_out(words, i, x[i]);
  out[r] = vload8(0, words);
}

/* A digest layer of Plonky3's MMCS: up[i] <- node(below[2i], below[2i + 1]) for i below count,
 * then, where matrices enter this layer (inject), up[i] <- node(up[i], injected[i]), injected[i]
 * the sponge of their rows i (poseidon2_squeeze's). */
__kernel void poseidon2_mmcs_layer(__global const uint8 *below, ulong count,
                                   __global const uint8 *injected, uint inject,
                                   __global uint8 *up) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  uint8 node = P2_NAME(node)(below[2 * i], below[2 * i + 1], 0);
  if (inject) node = P2_NAME(node)(node, injected[i], 0);
  up[i] = node;
}
#endif

/* states[s * W .. s * W + W) <- the permutation of it, applied `rounds` times, limbs in and out
 * as they lie in memory (canonical; a limb of p or more is taken mod p), for s below count: the
 * known answers' test (tests/test_poseidon2_device.cpp) and bench/poseidon2_bench.cpp (rounds > 1:
 * the permutation-only rate, memory traffic amortised away). */
__kernel void poseidon2_permute(__global P2_ELEM *states, ulong count, uint rounds) {
  const ulong s = get_global_id(0);
  if (s >= count) return;
  P2_ELEM x[P2_W];
#pragma unroll
  for (int i = 0; i < P2_W; ++i) x[i] = p2_in(states[s * P2_W + i]);
  for (uint r = 0; r < rounds; ++r) p2_permute(x);
#pragma unroll
  for (int i = 0; i < P2_W; ++i) states[s * P2_W + i] = p2_out(x[i]);
}
)merklize_cl"
