// SPDX-License-Identifier: Apache-2.0 OR MIT
// Consistency proofs (RFC 9162 2.1.4): that the tree of a log's first m leaves is a prefix of
// the tree of its first n, for trees of shape promote, the RFC's shape. What a proof holds, the
// prover from a host tree, and the verifier of untrusted proofs. No OpenCL: proof_device.hpp
// gathers the same proof from a tree on a device, consistency_encoding.hpp stores it.
//
//   const merklize::consistency_proof proof = merklize::prove_consistency(tree, old_size);
//   if (!merklize::verify_consistency(old_size, tree.leaf_count(), old_root, tree.root(), proof))
//
// Every node of such a proof is the root of a subtree MTH(D[a:b]) of the new tree, which in
// merklize's layout is the node of level ceil(log2(b - a)) at index a >> that level: the ranges
// the RFC's recursion takes are whole aligned subtrees, or run to the tree's end, where shape
// promote's levels hold exactly MTH of what is left (tree.hpp). So the proof is a list of node
// positions, the same for every hash, and its nodes are read from any copy of the tree.
//
// The hash is any node hash whose node depends on its children alone (rfc6962 is the RFC's own).
// A hash whose row has root_flag (blake3-parent) marks the root, so an old root is not the node
// of the new tree over the same leaves, and no such proof exists for it.
#pragma once

#include "proof_verify.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

// That the tree of the first old_size leaves is a prefix of the tree of new_size leaves, both
// built with `options` (shape promote). `nodes` is RFC 9162 2.1.4.1's PROOF(m, D[n]): empty
// where old_size is 0 or equals new_size.
struct consistency_proof {
  tree_options options;
  std::uint64_t old_size = 0, new_size = 0;
  std::vector<digest> nodes;
};

inline bool operator==(const consistency_proof &a, const consistency_proof &b) {
  return a.options.hash == b.options.hash && a.options.shape == b.options.shape &&
         a.options.depth == b.options.depth && a.old_size == b.old_size &&
         a.new_size == b.new_size && a.nodes == b.nodes;
}

namespace detail {

// The largest power of two below n (n >= 2): where RFC 6962 splits a tree of n leaves.
inline std::uint64_t split_point(std::uint64_t n) {
  std::uint64_t k = 1;
  while (k < n - k)
    k <<= 1;
  return k;
}

// The node of the promote tree over leaves [first, end), end being a multiple of its size's
// power of two or the tree's end: level ceil(log2(end - first)), index first >> level.
inline node_position subtree_node(std::uint64_t first, std::uint64_t end) {
  const unsigned level = ceil_log2(end - first);
  return {level, first >> level};
}

inline void check_consistency_sizes(std::uint64_t old_size, std::uint64_t new_size) {
  if (old_size > new_size)
    throw error("old size " + std::to_string(old_size) + " is more than the tree's " +
                std::to_string(new_size) + " leaves");
}

} // namespace detail

// The node hashes with consistency proofs, "blake3, sha256, rfc6962, keccak256 or sha3-256".
inline std::string consistency_hash_names() {
  return hash_list([](const node_hash_row &row) { return !row.root_flag; });
}

// Why trees of `options` have no consistency proofs, or nothing where they have.
inline std::optional<std::string> why_no_consistency_proofs(const tree_options &options) {
  if (options.shape != shape::promote || options.depth)
    return std::string("consistency proofs are for shape promote (RFC 9162's tree), not shape ") +
           to_string(options.shape) + (options.depth ? " with a fixed depth" : "");
  if (row_of(options.hash).root_flag)
    return std::string(to_string(options.hash)) +
           " has no consistency proofs: its root flag makes an old root differ from the new "
           "tree's node over the same leaves";
  return std::nullopt;
}

// A run of a log's leaves, D[first:end] in RFC 9162's words.
struct leaf_range {
  std::uint64_t first = 0, end = 0;
};

// The subtrees whose roots make the consistency proof between old_size and new_size leaves, in
// proof order: RFC 9162 2.1.4.1's SUBPROOF(m, D[n], true), unrolled. Going down, each step
// records a sibling subtree, so the proof lists them bottom up: the base subtree (unless it is
// the old tree itself, which the verifier knows), then the siblings from the deepest to the top.
// Each is a whole aligned subtree or runs to the tree's end.
inline std::vector<leaf_range> consistency_ranges(std::uint64_t old_size, std::uint64_t new_size) {
  detail::check_consistency_sizes(old_size, new_size);
  if (old_size == 0 || old_size == new_size) return {};
  std::vector<leaf_range> siblings; // top down
  std::uint64_t first = 0, m = old_size, width = new_size;
  bool whole_old_tree = true; // the range still starts at leaf 0 with the old tree's leaves
  while (m != width) {
    const std::uint64_t k = detail::split_point(width);
    if (m <= k) { // the old leaves are all on the left: the right subtree is a sibling
      siblings.push_back({first + k, first + width});
      width = k;
    } else { // the left subtree is whole in both trees
      siblings.push_back({first, first + k});
      first += k, m -= k, width -= k;
      whole_old_tree = false;
    }
  }
  std::vector<leaf_range> ranges;
  if (!whole_old_tree) ranges.push_back({first, first + width});
  ranges.insert(ranges.end(), siblings.rbegin(), siblings.rend());
  return ranges;
}

// Where the nodes of the consistency proof between old_size and new_size leaves lie in the tree
// of new_size leaves, in proof order: the nodes of consistency_ranges.
inline std::vector<node_position> consistency_positions(std::uint64_t old_size,
                                                        std::uint64_t new_size) {
  std::vector<node_position> positions;
  for (const leaf_range &r : consistency_ranges(old_size, new_size))
    positions.push_back(detail::subtree_node(r.first, r.end));
  return positions;
}

// The proof that the tree of the first old_size leaves of host tree `t` is a prefix of `t`. The
// tree must keep every level its proof reads (all of them, to be sure: output_levels::all_nodes).
inline consistency_proof prove_consistency(const tree &t, std::uint64_t old_size) {
  if (auto reason = why_no_consistency_proofs(t.options())) throw error(*reason);
  consistency_proof proof{t.options(), old_size, t.leaf_count(), {}};
  for (const node_position &p : consistency_positions(old_size, t.leaf_count()))
    proof.nodes.push_back(t.node(p.level, p.index));
  return proof;
}

namespace detail {

// RFC 9162 2.1.4.2, for 0 < m < n and a proof of the length the sizes call for, with the node
// hash of `hash`: the old and the new root the proof leads to, or nothing where the sizes run out
// before the proof does (which a proof of the right length never does).
struct consistency_roots {
  digest old_root, new_root;
};

inline std::optional<consistency_roots> consistency_roots_of(hash_kind hash, std::uint64_t m,
                                                             std::uint64_t n,
                                                             const std::vector<digest> &path,
                                                             const digest &old_root) {
  std::vector<digest> nodes;
  if ((m & (m - 1)) == 0) nodes.push_back(old_root); // the old tree is a whole subtree
  nodes.insert(nodes.end(), path.begin(), path.end());
  std::uint64_t fn = m - 1, sn = n - 1;
  while (fn & 1)
    fn >>= 1, sn >>= 1;
  digest fr = nodes.front(), sr = nodes.front();
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const digest &c = nodes[i];
    if (sn == 0) return std::nullopt;
    if ((fn & 1) || fn == sn) {
      fr = node_hash(hash, c, fr, false);
      sr = node_hash(hash, c, sr, false);
      if (!(fn & 1))
        while (fn != 0 && !(fn & 1))
          fn >>= 1, sn >>= 1;
    } else {
      sr = node_hash(hash, sr, c, false);
    }
    fn >>= 1, sn >>= 1;
  }
  if (sn != 0) return std::nullopt;
  return consistency_roots{fr, sr};
}

} // namespace detail

// Whether `proof` shows that the tree of old_size leaves whose root is old_root is a prefix of
// the tree of new_size leaves whose root is new_root. The proof is untrusted: its claims are
// checked against the sizes and `expect` (its pins), its length against the one the sizes
// call for, before any hashing; then RFC 9162 2.1.4.2 recomputes both roots. An old size of 0 is
// consistent with any tree where the tree has an empty root (rfc6962: old_root must be SHA-256
// of the empty string); old_size == new_size needs an empty proof and equal roots.
inline verification verify_consistency(std::uint64_t old_size, std::uint64_t new_size,
                                       const digest &old_root, const digest &new_root,
                                       const consistency_proof &proof,
                                       const proof_expectations &expect = {}) {
  using detail::reject;
  if (auto pins = detail::check_pins({proof.options.hash, proof.options.shape, proof.new_size,
                                      detail::depth_of(proof.new_size), 2},
                                     expect);
      !pins)
    return pins;
  if (auto reason = why_no_consistency_proofs(proof.options)) return reject(*reason);
  if (proof.old_size != old_size || proof.new_size != new_size)
    return reject("the proof is between " + std::to_string(proof.old_size) + " and " +
                  std::to_string(proof.new_size) + " leaves, not " + std::to_string(old_size) +
                  " and " + std::to_string(new_size));
  if (old_size > new_size)
    return reject("the old size " + std::to_string(old_size) + " is more than the new size " +
                  std::to_string(new_size));
  const std::size_t needed = consistency_positions(old_size, new_size).size();
  if (auto count = detail::check_node_count("nodes", proof.nodes.size(), needed); !count)
    return count;
  if (old_size == 0) {
    const auto empty = empty_tree_root(proof.options);
    if (!empty)
      return reject(std::string("a tree of 0 leaves has no root with hash ") +
                    to_string(proof.options.hash));
    if (old_root != *empty)
      return reject("the old root " + to_hex(old_root) + " is not the empty tree's, " +
                    to_hex(*empty));
    return new_size == 0 ? detail::check_root(new_root, *empty) : verification{true, {}};
  }
  if (old_size == new_size) {
    if (old_root != new_root) return reject("the trees have the same size but different roots");
    return {true, {}};
  }
  const auto roots =
      detail::consistency_roots_of(proof.options.hash, old_size, new_size, proof.nodes, old_root);
  if (!roots) return reject("the proof does not fit the sizes"); // unreachable past the count
  if (roots->old_root != old_root)
    return reject("the proof leads to old root " + to_hex(roots->old_root) + ", not " +
                  to_hex(old_root));
  if (roots->new_root != new_root)
    return reject("the proof leads to new root " + to_hex(roots->new_root) + ", not " +
                  to_hex(new_root));
  return {true, {}};
}

} // namespace merklize
