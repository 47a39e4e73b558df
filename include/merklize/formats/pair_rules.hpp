// SPDX-License-Identifier: Apache-2.0 OR MIT
// The tree rules of the commitments other systems publish, each in two small pieces that a tree
// engine takes as a hash and a shape: the pair hash (with the order of the pair) and what a level
// of odd length does with its last node. Host reference, no OpenCL; the device runs the same rules
// with kernels/pair_nodes.cl (the node functions, same names) and kernels/pair_levels.cl (the
// shapes), driven by pair_tree.hpp.
//
//   Bitcoin (formats/bitcoin.hpp)   pair_hash::sha256d          SHA-256(SHA-256(left || right))
//                                   shape duplicate-odd         a lone last node is paired with
//                                                               itself, on every level
//   Filecoin tree_d (filecoin.hpp)  pair_hash::sha256_trunc254  SHA-256(left || right) with the
//                                                               top two bits of byte 31 cleared
//                                   shape power of two          the leaves are zero-padded to a
//                                                               power of two: no lone node
//   OpenZeppelin (oz_standard.hpp)  pair_hash::keccak256_sorted Keccak-256(min || max), the two
//                                                               children compared as bytes
//                                   shape heap                  the complete tree of n leaves in
//                                                               an array of 2n - 1 nodes, node i
//                                                               over nodes 2i + 1 and 2i + 2
#pragma once

#include "../core/digest.hpp"
#include "../core/keccak.hpp"
#include "../core/pair_hash.hpp"
#include "../core/sha256.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace merklize {

// SHA-256(SHA-256(data)): Bitcoin's hash of transactions, block headers and tree nodes.
inline digest sha256d(const void *data, std::size_t size) {
  const digest once = sha256::hash(data, size);
  return sha256::hash(once.data(), once.size());
}

// Filecoin's truncation: the digest read as a little-endian integer fits 254 bits, so that it is
// an element of the field the proofs work in (go-fil-commp-hashhash: d[31] &= 0x3F).
inline digest truncated_to_254_bits(digest d) {
  d[node_bytes - 1] &= 0x3F;
  return d;
}

// The pair hash of two children, in the order given (the sorted hash orders them itself).
inline digest pair_node(pair_hash hash, const digest &left, const digest &right) {
  switch (hash) {
  case pair_hash::sha256d: {
    const digest once = sha256::hash_pair(left, right);
    return sha256::hash(once.data(), once.size());
  }
  case pair_hash::sha256_trunc254:
    return truncated_to_254_bits(sha256::hash_pair(left, right));
  case pair_hash::keccak256_sorted: {
    const bool swap =
        std::lexicographical_compare(right.begin(), right.end(), left.begin(), left.end());
    std::uint8_t pair[2 * node_bytes];
    std::copy(left.begin(), left.end(), pair + (swap ? node_bytes : 0));
    std::copy(right.begin(), right.end(), pair + (swap ? 0 : node_bytes));
    return keccak::keccak256(pair, sizeof pair);
  }
  }
  throw error("unknown pair hash");
}

// Shape duplicate-odd: the level above `level`, a lone last node paired with itself.
inline std::vector<digest> duplicate_odd_level(pair_hash hash, const std::vector<digest> &level) {
  std::vector<digest> above((level.size() + 1) / 2);
  for (std::size_t i = 0; i < above.size(); ++i) {
    const digest &left = level[2 * i];
    above[i] = pair_node(hash, left, 2 * i + 1 < level.size() ? level[2 * i + 1] : left);
  }
  return above;
}

// Every level of the duplicate-odd tree over `leaves` (at least one), the leaves first and the
// root, alone, last.
inline std::vector<std::vector<digest>> duplicate_odd_levels(pair_hash hash,
                                                             std::vector<digest> leaves) {
  if (leaves.empty()) throw error("a tree of shape duplicate-odd needs at least one leaf");
  std::vector<std::vector<digest>> levels{std::move(leaves)};
  while (levels.back().size() > 1)
    levels.push_back(duplicate_odd_level(hash, levels.back()));
  return levels;
}

// zero_roots(hash, h)[k]: the root of 2^k zero leaves, k = 0 .. h (shape power of two pads with
// these rather than hashing zero leaves).
inline std::vector<digest> zero_roots(pair_hash hash, unsigned height) {
  std::vector<digest> roots{digest{}};
  for (unsigned k = 1; k <= height; ++k)
    roots.push_back(pair_node(hash, roots.back(), roots.back()));
  return roots;
}

// Shape power of two: the root of `nodes`, all of height `height`, padded with zero subtrees of
// that height to the next power of two (a tree of one node is that node).
inline digest power_of_two_root(pair_hash hash, std::vector<digest> nodes, unsigned height) {
  if (nodes.empty()) throw error("a tree of shape power-of-two needs at least one node");
  const auto zeros = zero_roots(hash, height + 64);
  for (unsigned h = height; nodes.size() > 1; ++h) {
    if (nodes.size() % 2) nodes.push_back(zeros[h]);
    std::vector<digest> above(nodes.size() / 2);
    for (std::size_t i = 0; i < above.size(); ++i)
      above[i] = pair_node(hash, nodes[2 * i], nodes[2 * i + 1]);
    nodes.swap(above);
  }
  return nodes.front();
}

// Shape heap: the complete tree over `leaves` (at least one) as OpenZeppelin lays it out: 2n - 1
// nodes, leaf k at index 2n - 2 - k (the leaves at the end, in reverse), node i the pair hash of
// nodes 2i + 1 and 2i + 2 for i = n - 2 down to 0, the root at index 0.
inline std::vector<digest> heap_tree(pair_hash hash, const std::vector<digest> &leaves) {
  if (leaves.empty()) throw error("a tree of shape heap needs at least one leaf");
  const std::size_t n = leaves.size();
  std::vector<digest> tree(2 * n - 1);
  for (std::size_t k = 0; k < n; ++k)
    tree[2 * n - 2 - k] = leaves[k];
  for (std::size_t i = n - 1; i-- > 0;)
    tree[i] = pair_node(hash, tree[2 * i + 1], tree[2 * i + 2]);
  return tree;
}

} // namespace merklize
