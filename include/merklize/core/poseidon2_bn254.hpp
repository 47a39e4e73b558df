// SPDX-License-Identifier: Apache-2.0 OR MIT
// Poseidon2 over BN254's scalar field Fr on the host: HorizenLabs' reference instance of width 3
// (d = 5, R_F = 8, R_P = 56; HorizenLabs/poseidon2's poseidon2_instance_bn256.rs), the 2-to-1
// compression of the "poseidon2-bn254" trees and the check of their leaves. The reference the
// kernel (kernels/poseidon2_bn254.cl) is checked against, and checked itself against the known
// answer copied into tests/vectors/commitments/poseidon2/bn254_w3.json and an independent Python
// model in big integers (tests/poseidon2_model.py). No OpenCL.
//
// Arithmetic: an element is 4 little-endian 64-bit limbs in Montgomery form (x 2^256 mod p),
// multiplied by CIOS Montgomery multiplication through 128-bit products. The Montgomery
// parameters are derived here from the prime, not copied: -1/p mod 2^64 by Newton's iteration,
// 2^512 mod p by doubling 1 modulo p 512 times.
//
// The permutation, as HorizenLabs' poseidon2.rs orders it (the JSON's permutation_order):
// x <- M_E x; 4 full rounds (add a constant to every element, x^5 on every element, M_E); 56
// partial rounds (x0 += c, x0 <- x0^5, x <- M_I x); 4 full rounds; M_E = circ(2, 1, 1),
// M_I = J + diag(V) with V the copied internal diagonal (1, 1, 2).
//
// The tree: a digest is one element, its canonical value's 32 bytes
// little-endian; a node is element 0 of the permutation of [left, right, 0] (Plonky3's
// TruncatedPermutation<_, 2, 1, 3>). A leaf of p or more is refused by the callers
// (leaf_refusal in hashes.hpp); taken mod p where it reaches the compression, as the kernel
// takes it.
#pragma once

#include "digest.hpp"
#include "poseidon2_constants/bn254.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace merklize {
namespace poseidon2 {
namespace bn254 {

using limbs = constants::bn254_limbs; // 4 little-endian u64 limbs of a 256-bit value
inline constexpr const limbs &prime = constants::bn254_prime;

namespace detail {

using u128 = unsigned __int128;

// -1/p mod 2^64: Newton's iteration doubles the correct low bits of an inverse each step
// (p is odd, so p is its own inverse mod 8: 3 bits, then 6, 12, 24, 48, 96).
constexpr std::uint64_t minus_inverse() {
  std::uint64_t inv = prime[0];
  for (int i = 0; i < 5; ++i)
    inv *= 2 - prime[0] * inv;
  return ~inv + 1;
}
inline constexpr std::uint64_t mu = minus_inverse();
static_assert(prime[0] * minus_inverse() == ~std::uint64_t(0), "p mu = -1 mod 2^64");

// x - p where x >= p, else x: x mod p for x below 2p.
inline limbs reduce_once(const limbs &x) {
  limbs t{};
  std::uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const u128 d = u128(x[i]) - prime[i] - borrow;
    t[i] = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
  }
  return borrow ? x : t;
}

} // namespace detail

// a + b mod p for a, b below p (the sum is below 2^255: no carry out of 4 limbs).
inline limbs add(const limbs &a, const limbs &b) {
  limbs s{};
  std::uint64_t carry = 0;
  for (int i = 0; i < 4; ++i) {
    const detail::u128 t = detail::u128(a[i]) + b[i] + carry;
    s[i] = static_cast<std::uint64_t>(t);
    carry = static_cast<std::uint64_t>(t >> 64);
  }
  return detail::reduce_once(s);
}

// a b / 2^256 mod p (CIOS): below p for any 256-bit a and b below p (a b < 2^256 p, so the sum
// before the last subtraction is below 2p).
inline limbs mont_mul(const limbs &a, const limbs &b) {
  std::uint64_t t[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 4; ++i) {
    detail::u128 c = 0;
    for (int j = 0; j < 4; ++j) {
      c += detail::u128(a[j]) * b[i] + t[j];
      t[j] = static_cast<std::uint64_t>(c);
      c >>= 64;
    }
    c += t[4];
    t[4] = static_cast<std::uint64_t>(c);
    t[5] = static_cast<std::uint64_t>(c >> 64);
    const std::uint64_t m = t[0] * detail::mu; // t + m p is divisible by 2^64
    c = (detail::u128(m) * prime[0] + t[0]) >> 64;
    for (int j = 1; j < 4; ++j) {
      c += detail::u128(m) * prime[j] + t[j];
      t[j - 1] = static_cast<std::uint64_t>(c);
      c >>= 64;
    }
    c += t[4];
    t[3] = static_cast<std::uint64_t>(c);
    t[4] = t[5] + static_cast<std::uint64_t>(c >> 64);
  }
  return detail::reduce_once({t[0], t[1], t[2], t[3]});
}

namespace detail {

// 2^512 mod p: 1 doubled 512 times modulo p.
inline limbs r_squared() {
  limbs r{1, 0, 0, 0};
  for (int i = 0; i < 512; ++i)
    r = add(r, r);
  return r;
}

} // namespace detail

// Any 256-bit value (taken mod p) into Montgomery form, and an element back to its canonical
// value.
inline limbs to_montgomery(const limbs &v) {
  static const limbs r2 = detail::r_squared();
  return mont_mul(v, r2);
}
inline limbs from_montgomery(const limbs &x) { return mont_mul(x, {1, 0, 0, 0}); }

// Whether v is below p (canonical).
inline bool canonical(const limbs &v) {
  for (int i = 3; i >= 0; --i)
    if (v[i] != prime[i]) return v[i] < prime[i];
  return false;
}

using state = std::array<limbs, 3>;

// A digest's value (32 bytes little-endian) and a value's digest.
inline limbs value_of(const digest &d) {
  limbs v{};
  for (int i = 0; i < 32; ++i)
    v[i / 8] |= std::uint64_t(d[i]) << (8 * (i % 8));
  return v;
}
inline digest digest_of(const limbs &v) {
  digest d{};
  for (int i = 0; i < 32; ++i)
    d[i] = static_cast<std::uint8_t>(v[i / 8] >> (8 * (i % 8)));
  return d;
}

// "0x30644e72...": a value's big-endian hex, as HorizenLabs writes elements.
inline std::string hex(const limbs &v) {
  std::string out = "0x";
  for (int i = 31; i >= 0; --i) {
    const std::uint8_t byte = static_cast<std::uint8_t>(v[i / 8] >> (8 * (i % 8)));
    out += merklize::to_hex(&byte, 1);
  }
  return out;
}

// Why a digest is not a leaf of the trees ("element 0x... is not a canonical BN254 Fr element
// (below p = 0x30644e...)"), or "" where it is one.
inline std::string non_canonical(const digest &leaf) {
  const limbs v = value_of(leaf);
  if (canonical(v)) return "";
  return "element " + hex(v) + " is not a canonical BN254 Fr element (below p = " + hex(prime) +
         ")";
}

namespace detail {

inline void external_layer(state &x) {
  const limbs sum = add(add(x[0], x[1]), x[2]);
  for (limbs &e : x)
    e = add(e, sum);
}

// y_i = sum(x) + V_i x_i, V the copied diagonal in Montgomery form.
inline void internal_layer(state &x, const limbs (&diag)[3]) {
  const limbs sum = add(add(x[0], x[1]), x[2]);
  for (int i = 0; i < 3; ++i)
    x[i] = add(sum, mont_mul(diag[i], x[i]));
}

inline limbs sbox(const limbs &x) {
  const limbs x2 = mont_mul(x, x), x4 = mont_mul(x2, x2);
  return mont_mul(x4, x);
}

inline void full_rounds(state &x, const limbs *constants) {
  for (int r = 0; r < 4; ++r) {
    for (int i = 0; i < 3; ++i)
      x[i] = sbox(add(x[i], to_montgomery(constants[3 * r + i])));
    external_layer(x);
  }
}

} // namespace detail

// The permutation of x, canonical values in and out (a value of p or more is taken mod p).
inline void permute(state &x) {
  limbs diag[3];
  for (int i = 0; i < 3; ++i)
    diag[i] = to_montgomery(constants::bn254_w3_internal_diag[i]);
  for (limbs &e : x)
    e = to_montgomery(e);
  detail::external_layer(x);
  detail::full_rounds(x, constants::bn254_w3_external_initial);
  for (unsigned r = 0; r < constants::bn254_w3_rounds_p; ++r) {
    x[0] = detail::sbox(add(x[0], to_montgomery(constants::bn254_w3_internal[r])));
    detail::internal_layer(x, diag);
  }
  detail::full_rounds(x, constants::bn254_w3_external_final);
  for (limbs &e : x)
    e = from_montgomery(e);
}

// The tree's node: element 0 of the permutation of [left, right, 0].
inline digest compress(const digest &left, const digest &right) {
  state x{value_of(left), value_of(right), limbs{}};
  permute(x);
  return digest_of(x[0]);
}

} // namespace bn254
} // namespace poseidon2
} // namespace merklize
