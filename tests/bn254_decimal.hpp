// SPDX-License-Identifier: Apache-2.0 OR MIT
// The BN254 Poseidon2 tests' reading of the copied data: HorizenLabs' numbers, which
// tests/vectors/commitments/poseidon2/bn254_w3.json holds as decimal strings, as limbs. No OpenCL.
#pragma once

#include <merklize/core/poseidon2_bn254.hpp>

#include <stdexcept>
#include <string>

namespace test {

// A decimal string below 2^256 as 4 little-endian u64 limbs; anything else throws.
inline merklize::poseidon2::bn254::limbs bn254_from_decimal(const std::string &text) {
  merklize::poseidon2::bn254::limbs v{};
  for (const char c : text) {
    if (c < '0' || c > '9') throw std::invalid_argument("not a decimal number: " + text);
    unsigned __int128 carry = static_cast<unsigned>(c - '0');
    for (std::uint64_t &limb : v) {
      carry += static_cast<unsigned __int128>(limb) * 10;
      limb = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
    if (carry) throw std::invalid_argument("a number of 2^256 or more: " + text);
  }
  return v;
}

} // namespace test
