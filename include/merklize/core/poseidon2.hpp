// SPDX-License-Identifier: Apache-2.0 OR MIT
// Poseidon2 on the host: the reference permutations of Plonky3's default instances (BabyBear and
// KoalaBear width 16 and 24, Goldilocks width 8 and 12), and the 2-to-1 compressions of Plonky3's
// Merkle trees over them (truncated permutations). Written for clarity, not speed: elements are
// canonical integers below p in 64 bits, multiplied through 128 bits and reduced with `%`, so
// that it shares nothing with the kernels' Montgomery and Goldilocks reductions it checks
// (kernels/poseidon2_31.cl, kernels/poseidon2_goldilocks.cl). The constants are the copied data
// of tests/vectors/commitments/poseidon2/ (poseidon2_constants/*.hpp); the known answers there
// check these functions (tests/test_poseidon2_host.cpp). No OpenCL.
//
// The permutation, as Plonky3's poseidon2/src/lib.rs orders it (the JSON's permutation_order):
// x <- M_E x; 4 full rounds (add a constant to every element, x^d on every element, M_E); R_P
// partial rounds (x0 += c, x0 <- x0^d, x <- M_I x); 4 full rounds. M_E multiplies each 4-element
// block by Plonky3's M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] (not the paper's) and adds to
// element i the sum over blocks of element i mod 4, i.e. M_E = circ(2 M4, M4, ...); M_I = J +
// diag(V): y_i = sum(x) + V_i x_i.
#pragma once

#include "digest.hpp"
#include "poseidon2_constants/babybear.hpp"
#include "poseidon2_constants/goldilocks.hpp"
#include "poseidon2_constants/koalabear.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace merklize {
namespace poseidon2 {

// One instance: the field's prime, the width, the S-box's degree d and the constants (the external
// rounds' 4 x width each, row by row; R_P internal ones; the internal diagonal V).
struct instance {
  const char *name, *field_name; // "babybear-w16", "BabyBear"
  std::uint64_t prime;
  unsigned width, sbox_degree, rounds_p;
  const std::uint64_t *external_initial, *internal, *external_final, *internal_diag;
};

inline constexpr unsigned max_width = 24;
using state = std::array<std::uint64_t, max_width>; // the first `width` elements are used

#define MERKLIZE_POSEIDON2_INSTANCE(field, w, field_name)                                          \
  instance {                                                                                       \
#field "-w" #w, field_name, constants::field##_prime, w,                                       \
        constants::field##_w##w##_sbox_degree, constants::field##_w##w##_rounds_p,                 \
        constants::field##_w##w##_external_initial, constants::field##_w##w##_internal,            \
        constants::field##_w##w##_external_final, constants::field##_w##w##_internal_diag          \
  }
inline constexpr instance babybear_16 = MERKLIZE_POSEIDON2_INSTANCE(babybear, 16, "BabyBear");
inline constexpr instance babybear_24 = MERKLIZE_POSEIDON2_INSTANCE(babybear, 24, "BabyBear");
inline constexpr instance koalabear_16 = MERKLIZE_POSEIDON2_INSTANCE(koalabear, 16, "KoalaBear");
inline constexpr instance koalabear_24 = MERKLIZE_POSEIDON2_INSTANCE(koalabear, 24, "KoalaBear");
inline constexpr instance goldilocks_8 = MERKLIZE_POSEIDON2_INSTANCE(goldilocks, 8, "Goldilocks");
inline constexpr instance goldilocks_12 = MERKLIZE_POSEIDON2_INSTANCE(goldilocks, 12, "Goldilocks");
#undef MERKLIZE_POSEIDON2_INSTANCE

namespace detail {

inline std::uint64_t add(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) + b) % p);
}
inline std::uint64_t mul(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}
inline std::uint64_t power(std::uint64_t x, unsigned d, std::uint64_t p) {
  std::uint64_t y = 1;
  for (unsigned i = 0; i < d; ++i)
    y = mul(y, x, p);
  return y;
}

// M_E: each block of 4 by M4, then the sums of the blocks' elements of the same place added.
inline void external_layer(state &x, const instance &in) {
  const std::uint64_t p = in.prime;
  static constexpr std::uint64_t m4[4][4] = {
      {2, 3, 1, 1}, {1, 2, 3, 1}, {1, 1, 2, 3}, {3, 1, 1, 2}};
  for (unsigned b = 0; b < in.width; b += 4) {
    std::uint64_t y[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < 4; ++i)
      for (unsigned j = 0; j < 4; ++j)
        y[i] = add(y[i], mul(m4[i][j], x[b + j], p), p);
    for (unsigned i = 0; i < 4; ++i)
      x[b + i] = y[i];
  }
  std::uint64_t sums[4] = {0, 0, 0, 0};
  for (unsigned i = 0; i < in.width; ++i)
    sums[i % 4] = add(sums[i % 4], x[i], p);
  for (unsigned i = 0; i < in.width; ++i)
    x[i] = add(x[i], sums[i % 4], p);
}

// M_I = J + diag(V).
inline void internal_layer(state &x, const instance &in) {
  std::uint64_t sum = 0;
  for (unsigned i = 0; i < in.width; ++i)
    sum = add(sum, x[i], in.prime);
  for (unsigned i = 0; i < in.width; ++i)
    x[i] = add(sum, mul(in.internal_diag[i], x[i], in.prime), in.prime);
}

inline void full_rounds(state &x, const instance &in, const std::uint64_t *constants) {
  for (unsigned r = 0; r < 4; ++r) {
    for (unsigned i = 0; i < in.width; ++i)
      x[i] = power(add(x[i], constants[r * in.width + i], in.prime), in.sbox_degree, in.prime);
    external_layer(x, in);
  }
}

} // namespace detail

// The permutation of `x`'s first in.width elements, canonical (below in.prime) in and out.
inline void permute(state &x, const instance &in) {
  detail::external_layer(x, in);
  detail::full_rounds(x, in, in.external_initial);
  for (unsigned r = 0; r < in.rounds_p; ++r) {
    x[0] = detail::power(detail::add(x[0], in.internal[r], in.prime), in.sbox_degree, in.prime);
    detail::internal_layer(x, in);
  }
  detail::full_rounds(x, in, in.external_final);
}

// A compression's digest: width / 2 limbs of 64 / width bytes (4 for the 31-bit fields' width 16,
// 8 for Goldilocks' width 8), each an element's little-endian bytes.
inline unsigned limb_bytes(const instance &in) { return 64 / in.width; }

// Limb `i` of a digest (or of two, left || right, for i of width / 2 and more) as an integer.
inline std::uint64_t limb_value(const std::uint8_t *bytes, const instance &in, unsigned i) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < limb_bytes(in); ++b)
    v |= static_cast<std::uint64_t>(bytes[i * limb_bytes(in) + b]) << (8 * b);
  return v;
}
inline std::uint64_t limb_value(const digest &d, const instance &in, unsigned i) {
  return limb_value(d.data(), in, i);
}

// The digest of a state: its first width / 2 elements' limbs (the compressions' and the sponge's
// output, 32 bytes at the widths 16 and 8).
inline digest first_half(const state &x, const instance &in) {
  const unsigned limb = limb_bytes(in);
  digest out{};
  for (unsigned i = 0; i < in.width / 2; ++i)
    for (unsigned b = 0; b < limb; ++b)
      out[i * limb + b] = static_cast<std::uint8_t>(x[i] >> (8 * b));
  return out;
}

// Plonky3's TruncatedPermutation as its Merkle trees compress two digests: left || right fill the
// state (8 + 8 elements of 4 bytes for the 31-bit fields' width 16, 4 + 4 of 8 bytes for
// Goldilocks' width 8), permuted, the first half out. A limb that is not canonical (the engine's
// callers refuse those first: leaf_refusal in hashes.hpp) is taken mod p, as the kernels take it.
// Only for the widths 16 (31-bit fields) and 8 (Goldilocks), whose halves are 32 bytes.
inline digest compress(const digest &left, const digest &right, const instance &in) {
  const unsigned half = in.width / 2;
  state x{};
  for (unsigned i = 0; i < half; ++i) {
    x[i] = limb_value(left, in, i) % in.prime;
    x[half + i] = limb_value(right, in, i) % in.prime;
  }
  permute(x, in);
  return first_half(x, in);
}

// Plonky3's PaddingFreeSponge<Perm, WIDTH, RATE, OUT> as its Merkle trees hash a row of field
// elements into a leaf (symmetric/src/sponge.rs, hash_iter): overwrite mode, rate and output half
// the width (8 of 16 for the 31-bit fields, 4 of 8 for Goldilocks), no padding. The state starts
// at zero; each chunk of `rate` elements overwrites the state's first elements and the state is
// permuted; a last, shorter chunk overwrites as many as it has (the rest of the rate keeps what
// the last permutation left) and is permuted too; no elements: no permutation, a zero digest.
// Elements of p or more are taken mod p, as the kernels take them.
inline digest sponge(const std::uint64_t *elements, std::size_t count, const instance &in) {
  const unsigned rate = in.width / 2;
  state x{};
  for (std::size_t i = 0; i < count;) {
    for (unsigned j = 0; j < rate && i < count; ++j, ++i)
      x[j] = elements[i] % in.prime;
    permute(x, in);
  }
  return first_half(x, in);
}

// The first limb of `d` that is not a canonical element of the instance's field (its index), or -1.
inline int first_non_canonical(const digest &d, const instance &in) {
  for (unsigned i = 0; i < in.width / 2; ++i)
    if (limb_value(d, in, i) >= in.prime) return static_cast<int>(i);
  return -1;
}

} // namespace poseidon2
} // namespace merklize
