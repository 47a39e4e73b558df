// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which node hashes have a matrix commitment (Plonky3's MerkleTreeMmcs, mmcs.hpp) and with which
// Poseidon2 instance: width 16 for BabyBear and KoalaBear, width 8 for Goldilocks, as Plonky3's
// tests configure them. The command line (merklize commit, open, verify-opening) and the C ABI
// (merklize_mmcs_*) pick the instance here, so that they take and refuse the same hashes. No
// OpenCL.
#pragma once

#include "hashes.hpp"
#include "poseidon2.hpp"

#include <string>

namespace merklize {
namespace mmcs {

// The MMCS instance of `hash`, or nullptr where it has none (mmcs_refusal says why).
inline const poseidon2::instance *instance_of(hash_kind hash) {
  switch (hash) {
  case hash_kind::poseidon2_babybear:
    return &poseidon2::babybear_16;
  case hash_kind::poseidon2_koalabear:
    return &poseidon2::koalabear_16;
  case hash_kind::poseidon2_goldilocks:
    return &poseidon2::goldilocks_8;
  default:
    return nullptr;
  }
}

// Why `hash` has no matrix commitment: "poseidon2-bn254 has no matrix commitment here yet".
inline std::string mmcs_refusal(hash_kind hash) {
  return to_string(hash) + std::string(hash == hash_kind::poseidon2_bn254
                                           ? " has no matrix commitment here yet"
                                           : " is not a hash over field elements");
}

// The names of the hashes that have one, for refusals.
inline const char *mmcs_hash_names() {
  return "poseidon2-babybear, poseidon2-koalabear or poseidon2-goldilocks";
}

} // namespace mmcs
} // namespace merklize
