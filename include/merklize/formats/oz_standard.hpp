// SPDX-License-Identifier: Apache-2.0 OR MIT
// OpenZeppelin's StandardMerkleTree (@openzeppelin/merkle-tree, format "standard-v1"), the tree
// of Ethereum airdrops and allowlists that OpenZeppelin's MerkleProof.sol verifies: its leaves,
// its array layout, its proofs and multiproofs and their verification. Host reference, no OpenCL;
// the device builds the same array with oz_standard_array (pair_tree.hpp). The values and the
// JSON dump are formats/oz_values.hpp.
//
// Rules, from the library's documentation and src/core.ts, src/standard.ts (OpenZeppelin/
// merkle-tree @ 98ff55dc7b6004a6e57ca0cb256cc0d08ecb6096):
//  - a value is a row of values of the types `leafEncoding`; its leaf is
//    keccak256(keccak256(abi.encode(row))), hashed twice so that no leaf is also a node's hash;
//  - the leaves are sorted by hash (as bytes) unless sortLeaves is false, the sort stable;
//  - the tree is an array of 2n - 1 nodes: leaf k (in that order) at index 2n - 2 - k, node i the
//    hash of nodes 2i + 1 and 2i + 2 in ascending byte order (formats/pair_rules.hpp, shape heap),
//    the root at 0;
//  - a proof holds the sibling of each node from the leaf up; a multiproof of several leaves holds
//    the nodes it needs and one flag per hash: true where the hash's second input is a node the
//    proof computed, false where it is the proof's next node.
#pragma once

#include "pair_rules.hpp"

#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace merklize {
namespace oz {

// keccak256(keccak256(encoded)): the leaf of an ABI-encoded value (abi.hpp).
inline digest standard_leaf(const std::vector<std::uint8_t> &encoded) {
  const digest once = keccak::keccak256(encoded.data(), encoded.size());
  return keccak::keccak256(once.data(), once.size());
}

// The leaves in the tree's order and the array index of each value's leaf.
struct leaf_order {
  std::vector<digest> leaves;            // leaf k lies at index 2n - 2 - k
  std::vector<std::uint64_t> tree_index; // of value v
};

// Values' leaf hashes (in the values' order) placed as StandardMerkleTree.of places them.
inline leaf_order order_leaves(const std::vector<digest> &hashes, bool sort_leaves) {
  if (hashes.empty()) throw error("a StandardMerkleTree needs at least one value");
  std::vector<std::size_t> order(hashes.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  if (sort_leaves)
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return hashes[a] < hashes[b]; });
  leaf_order placed{std::vector<digest>(hashes.size()), std::vector<std::uint64_t>(hashes.size())};
  const std::uint64_t last = 2 * std::uint64_t(hashes.size()) - 2;
  for (std::size_t k = 0; k < order.size(); ++k) {
    placed.leaves[k] = hashes[order[k]];
    placed.tree_index[order[k]] = last - k;
  }
  return placed;
}

inline std::vector<digest> make_tree(const std::vector<digest> &leaves) {
  return heap_tree(pair_hash::keccak256_sorted, leaves);
}

inline bool is_leaf_index(std::uint64_t size, std::uint64_t i) {
  return i < size && 2 * i + 1 >= size;
}

inline void check_leaf_index(std::uint64_t size, std::uint64_t i) {
  if (!is_leaf_index(size, i))
    throw error("tree index " + std::to_string(i) + " is not a leaf of a tree of " +
                std::to_string(size) + " nodes");
}

// The sibling of each node from the leaf at array index `i` up to the root (getProof).
inline std::vector<digest> get_proof(const std::vector<digest> &tree, std::uint64_t i) {
  check_leaf_index(tree.size(), i);
  std::vector<digest> proof;
  for (; i > 0; i = (i - 1) / 2)
    proof.push_back(tree[i % 2 ? i + 1 : i - 1]);
  return proof;
}

// The root a proof leads to from `leaf` (processProof).
inline digest process_proof(digest leaf, const std::vector<digest> &proof) {
  for (const digest &node : proof)
    leaf = pair_node(pair_hash::keccak256_sorted, leaf, node);
  return leaf;
}

struct multiproof {
  std::vector<std::uint64_t> tree_indices; // the proven leaves, largest array index first
  std::vector<digest> proof;
  std::vector<bool> flags; // proofFlags
};

// The multiproof of the leaves at array indices `indices` (getMultiProof): their leaves in
// descending index order, the nodes a verifier cannot compute, and the flags. No index may repeat.
inline multiproof get_multiproof(const std::vector<digest> &tree,
                                 std::vector<std::uint64_t> indices) {
  for (const std::uint64_t i : indices)
    check_leaf_index(tree.size(), i);
  std::sort(indices.begin(), indices.end(), std::greater<>());
  for (std::size_t k = 1; k < indices.size(); ++k)
    if (indices[k] == indices[k - 1])
      throw error("tree index " + std::to_string(indices[k]) +
                  " is asked twice: a multiproof "
                  "proves each leaf once");
  multiproof m{indices, {}, {}};
  // A queue of the indices whose nodes are known, largest first; each step pairs the first with
  // its sibling, taken from the queue where known, else from the proof.
  std::vector<std::uint64_t> queue = indices;
  for (std::size_t head = 0; head < queue.size() && queue[head] > 0; ++head) {
    const std::uint64_t j = queue[head], sibling = j % 2 ? j + 1 : j - 1;
    const bool known = head + 1 < queue.size() && queue[head + 1] == sibling;
    m.flags.push_back(known);
    if (known)
      ++head;
    else
      m.proof.push_back(tree[sibling]);
    queue.push_back((j - 1) / 2);
  }
  if (indices.empty()) m.proof.push_back(tree.front());
  return m;
}

// The root of a multiproof over `leaves` (the proven leaves' hashes, in the proof's order;
// processMultiProof), refused where proof and flags do not fit together.
inline digest process_multiproof(const std::vector<digest> &leaves,
                                 const std::vector<digest> &proof, const std::vector<bool> &flags) {
  const auto from_proof = static_cast<std::size_t>(std::count(flags.begin(), flags.end(), false));
  if (proof.size() < from_proof)
    throw error("invalid multiproof: " + std::to_string(from_proof) + " flags take a proof node, " +
                "the proof holds " + std::to_string(proof.size()));
  if (leaves.size() + proof.size() != flags.size() + 1)
    throw error("invalid multiproof: " + std::to_string(leaves.size()) + " leaves and " +
                std::to_string(proof.size()) + " proof nodes need " +
                std::to_string(leaves.size() + proof.size() - 1) + " flags, not " +
                std::to_string(flags.size()));
  std::vector<digest> queue = leaves;
  std::size_t head = 0, next_proof = 0;
  for (const bool flag : flags) {
    if (head >= queue.size() || (flag && head + 1 >= queue.size()))
      throw error("invalid multiproof: its flags ask for a node it does not have");
    const digest a = queue[head++];
    const digest b = flag ? queue[head++] : proof[next_proof++];
    queue.push_back(pair_node(pair_hash::keccak256_sorted, a, b));
  }
  if (queue.size() - head + proof.size() - next_proof != 1)
    throw error("invalid multiproof: it leaves more than one root");
  return head < queue.size() ? queue.back() : proof[next_proof];
}

// Why `tree` is not a StandardMerkleTree's array (isValidMerkleTree), or nothing where it is.
inline std::optional<std::string> tree_defect(const std::vector<digest> &tree) {
  if (tree.empty()) return "the tree holds no node";
  for (std::uint64_t i = 0; 2 * i + 1 < tree.size(); ++i) {
    if (2 * i + 2 >= tree.size())
      return "node " + std::to_string(i) + " has a left child and no right one";
    if (tree[i] != pair_node(pair_hash::keccak256_sorted, tree[2 * i + 1], tree[2 * i + 2]))
      return "node " + std::to_string(i) + " is not the hash of its children";
  }
  return std::nullopt;
}

} // namespace oz
} // namespace merklize
