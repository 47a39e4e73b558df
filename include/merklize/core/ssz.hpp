// SPDX-License-Identifier: Apache-2.0 OR MIT
// SSZ lists (the Ethereum consensus specs' List[T, N]): a list's root is its chunks' tree root
// with the list's length mixed in, mix_in_length(root, length) = SHA-256(root || length as a
// 32-byte little-endian integer). The chunks' tree is merklize's sha256 tree of shape zero with
// the limit's depth (tree_options{hash_kind::sha256, shape::zero, D}); an empty list's chunk
// tree is the zero-subtree root Z_D (empty_tree_root). Proofs of list elements carry the length
// chunk as their last sibling (mix_in_length on an inclusion_proof, proof_model.hpp). No OpenCL.
#pragma once

#include "digest.hpp"
#include "sha256.hpp"

#include <cstdint>

namespace merklize {

// The 32-byte chunk of an SSZ length: the length as a uint256, little-endian.
inline digest length_chunk(std::uint64_t length) {
  digest chunk{};
  for (int i = 0; i < 8; ++i)
    chunk[i] = static_cast<std::uint8_t>(length >> (8 * i));
  return chunk;
}

// SSZ's mix_in_length: the root of a list of `length` elements whose chunks' tree root is `root`.
inline digest mix_in_length(const digest &root, std::uint64_t length) {
  return sha256::hash_pair(root, length_chunk(length));
}

} // namespace merklize
