// SPDX-License-Identifier: Apache-2.0 OR MIT
// The pair hashes of the commitments other systems publish: the node rule of a tree that is not
// H(left || right) of a node hash of hashes.hpp. Only the names here, so that a tree
// specification (tree_spec.hpp) can name one; their host reference and shapes are
// formats/pair_rules.hpp's, their kernels kernels/pair_nodes.cl's. No OpenCL.
#pragma once

namespace merklize {

enum class pair_hash {
  sha256d,          // Bitcoin: SHA-256 twice
  sha256_trunc254,  // Filecoin: SHA-256, truncated to 254 bits (an element of BLS12-381's Fr)
  keccak256_sorted, // OpenZeppelin: Keccak-256 of the pair in ascending byte order
};

inline const char *to_string(pair_hash hash) {
  switch (hash) {
  case pair_hash::sha256d:
    return "sha256d";
  case pair_hash::sha256_trunc254:
    return "sha256-trunc254";
  case pair_hash::keccak256_sorted:
    return "keccak256-sorted";
  }
  return "unknown";
}

} // namespace merklize
