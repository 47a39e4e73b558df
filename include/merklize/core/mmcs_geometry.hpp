// SPDX-License-Identifier: Apache-2.0 OR MIT
// The shape of Plonky3's MerkleTreeMmcs (binary, arity 2) over matrices of different heights,
// shared by the host reference (mmcs.hpp) and the device engine (engine/mmcs.hpp): which heights
// it takes, how long each digest layer is, where each matrix is injected, how long a path is.
// Read from Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217, merkle-tree/src/mmcs/geometry.rs
// (validate_commit_reachable_heights) and merkle-tree/src/merkle_tree.rs (padded_len); the rules
// are in docs/LIBRARY.md ("Matrix commitments"). No OpenCL.
#pragma once

#include "error_type.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace merklize {
namespace mmcs {

// ceil(log2 n), 0 for n <= 1.
inline unsigned ceil_log2(std::size_t n) {
  unsigned k = 0;
  while (k < 64 && (std::size_t{1} << k) < n)
    ++k;
  return k;
}

// The ladder anchored at the tallest height m: rung k is ceil(m / 2^k), the number of nodes of
// digest layer k before padding, and the only height a matrix injected at layer k may have.
inline std::size_t rung(std::size_t tallest, unsigned k) {
  return k >= 64 ? 1 : ((tallest - 1) >> k) + 1;
}

// A layer of n > 1 nodes is padded to even with a zero digest, so that every node has a sibling;
// a layer of one node (the root) is not.
inline std::size_t padded_length(std::size_t nodes) {
  return nodes > 1 ? nodes + nodes % 2 : nodes;
}

// The tallest height of `heights`, after refusing heights Plonky3 refuses: none at all, all zero,
// or one that is not the rung of its power-of-two bucket (e.g. 7 beside 8, 3 beside 7, 0 beside
// anything), which would leave leaf indices mapping to no row. Throws merklize::error naming the
// matrix (its place in `heights`).
inline std::size_t tallest_height(const std::vector<std::size_t> &heights) {
  const std::size_t tallest =
      heights.empty() ? 0 : *std::max_element(heights.begin(), heights.end());
  if (tallest == 0)
    throw error(heights.empty() ? "no matrices to commit to"
                                : "every matrix has height 0: nothing to commit to");
  const unsigned depth = ceil_log2(tallest);
  for (std::size_t m = 0; m < heights.size(); ++m) {
    const unsigned k = depth - ceil_log2(heights[m]);
    if (heights[m] != rung(tallest, k))
      throw error("matrix " + std::to_string(m) + " has height " + std::to_string(heights[m]) +
                  ", which Plonky3's MMCS refuses beside the tallest height " +
                  std::to_string(tallest) + ": a matrix of " + std::to_string(heights[m]) +
                  " rows is injected " + std::to_string(k) + " layers up, where it must have " +
                  "ceil(" + std::to_string(tallest) + " / 2^" + std::to_string(k) +
                  ") = " + std::to_string(rung(tallest, k)) + " rows");
  }
  return tallest;
}

// Layers above the leaves' layer: ceil(log2 tallest); the root's layer is number depth.
inline unsigned depth(std::size_t tallest) { return ceil_log2(tallest); }

// The layer the cap is read from: cap_height layers below the root, no lower than the leaves'.
inline unsigned cap_layer(std::size_t tallest, unsigned cap_height) {
  return depth(tallest) - std::min(cap_height, depth(tallest));
}

// The layer a matrix of `height` rows enters (0: hashed into the leaves' layer).
inline unsigned layer_of(std::size_t tallest, std::size_t height) {
  return depth(tallest) - ceil_log2(height);
}

// The most digests a cap holds: 2^(layers above the cap's), at most the cap layer's length.
inline std::size_t cap_length(std::size_t tallest, unsigned cap_height) {
  const unsigned at = cap_layer(tallest, cap_height);
  return std::min(std::size_t{1} << (depth(tallest) - at), padded_length(rung(tallest, at)));
}

// The matrices (their places in `heights`, checked) that enter above the cap's layer. The cap is
// read below their layer, so it does not depend on them, and an opening's rows of them are never
// hashed: the commitment does not bind them, as in Plonky3, whose verify_batch replays the
// injections of the path's layers only (docs/LIBRARY.md, "What the cap binds"). A matrix of h
// rows enters above the cap iff ceil(log2 h) < min(cap_height, depth): a cap_height of at most
// ceil(log2) of the smallest height binds every matrix.
inline std::vector<std::size_t> unbound_matrices(const std::vector<std::size_t> &heights,
                                                 unsigned cap_height) {
  const std::size_t tallest = tallest_height(heights);
  std::vector<std::size_t> out;
  for (std::size_t m = 0; m < heights.size(); ++m)
    if (heights[m] > 0 && layer_of(tallest, heights[m]) > cap_layer(tallest, cap_height))
      out.push_back(m);
  return out;
}

} // namespace mmcs
} // namespace merklize
