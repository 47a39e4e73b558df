// SPDX-License-Identifier: Apache-2.0 OR MIT
// Oracles and generators for the proof tests, without OpenCL (the sanitized host-only tests use
// them): the hashes and shapes to cover, the siblings of a leaf and the nodes of a multiproof
// computed straight from the tree convention, and the form of a path.
#pragma once

#include "host_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/proofs/proof.hpp>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace test {

// Every node hash of merklize: a new one added here is covered by every proof test.
inline std::vector<merklize::hash_kind> all_hash_kinds() {
  return {merklize::hash_kind::blake3,    merklize::hash_kind::blake3_parent,
          merklize::hash_kind::sha256,    merklize::hash_kind::rfc6962,
          merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256};
}

// The node hashes that have shape zero (and so fixed depths): all but rfc6962.
inline std::vector<merklize::hash_kind> padded_hash_kinds() {
  return {merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent,
          merklize::hash_kind::sha256, merklize::hash_kind::keccak256,
          merklize::hash_kind::sha3_256};
}

// Every hash with every shape it has.
inline std::vector<merklize::tree_options> all_tree_options() {
  std::vector<merklize::tree_options> all;
  for (const auto hash : all_hash_kinds())
    for (const auto pad : {merklize::shape::promote, merklize::shape::zero})
      if (hash != merklize::hash_kind::rfc6962 || pad == merklize::shape::promote)
        all.push_back({hash, pad});
  return all;
}

inline std::string describe(const merklize::tree_options &o) {
  return std::string(merklize::to_string(o.hash)) + " " + merklize::to_string(o.shape) +
         (o.depth ? " depth " + std::to_string(*o.depth) : "");
}

// Shape zero with a fixed root depth `extra` levels above the natural one for n leaves.
inline merklize::tree_options fixed_depth(merklize::hash_kind hash, std::uint64_t n,
                                          unsigned extra) {
  return {hash, merklize::shape::zero, merklize::tree_layout(n).depth() + extra};
}

inline merklize::tree random_tree(std::uint64_t n, const merklize::tree_options &options) {
  const auto leaves = random_bytes(n * merklize::node_bytes);
  return merklize::reference_tree(leaves.data(), leaves.size(), options);
}

// Every option pinned, as a verifier that knows its tree pins them.
inline merklize::proof_expectations pinned(const merklize::tree &t) {
  return {t.options().hash, t.options().shape, t.leaf_count(), t.root_depth(), 2};
}

// The size of level k of a tree over `layout` whose root is higher: 1 above the top.
inline std::uint64_t level_size(const merklize::tree_layout &layout, unsigned k) {
  return k <= layout.depth() ? layout.level_size(k) : 1;
}

// The siblings of leaf i, straight from the convention: at level k below the root, node
// (i >> k) ^ 1 where the level has it, else the zero-subtree root of height k (shape zero) or
// nothing (promote).
inline std::vector<merklize::digest> expected_siblings(const merklize::tree &t, std::uint64_t i) {
  const auto zeros = merklize::zero_subtree_roots(t.options().hash, t.root_depth());
  std::vector<merklize::digest> siblings;
  for (unsigned k = 0; k < t.root_depth(); ++k) {
    const std::uint64_t sibling = (i >> k) ^ 1;
    if (sibling < level_size(t.layout(), k))
      siblings.push_back(t.node(k, sibling));
    else if (t.options().shape == merklize::shape::zero)
      siblings.push_back(zeros[k]);
  }
  return siblings;
}

// An independent verifier, written straight from the convention for small trees: level by
// level, the sibling at (index >> k) ^ 1 where the level has it, else a zero-subtree root that
// must be exactly that (shape zero) or nothing (promote). The library's verifier must agree.
inline bool naive_verify(const merklize::inclusion_proof &p, const merklize::digest &leaf,
                         const merklize::digest &root) {
  if (p.leaf_count == 0 || p.index >= p.leaf_count) return false;
  const merklize::tree_layout layout(p.leaf_count);
  unsigned depth = 0;
  try {
    depth = merklize::root_depth(p.options, layout);
  } catch (const merklize::error &) {
    return false;
  }
  const auto zeros = merklize::zero_subtree_roots(p.options.hash, depth);
  merklize::digest node = leaf;
  std::size_t used = 0;
  for (unsigned k = 0; k < depth; ++k) {
    const std::uint64_t position = p.index >> k;
    const bool real = (position ^ 1) < level_size(layout, k);
    if (!real && p.options.shape == merklize::shape::promote) continue;
    if (used == p.siblings.size()) return false;
    const merklize::digest sibling = p.siblings[used++];
    if (!real && sibling != zeros[k]) return false;
    const bool is_root = k + 1 == depth;
    node = position % 2 ? merklize::node_hash(p.options.hash, sibling, node, is_root)
                        : merklize::node_hash(p.options.hash, node, sibling, is_root);
  }
  return used == p.siblings.size() && node == root;
}

// The nodes a multiproof of `indices` must hold, by brute force: at each level, the existing
// siblings of the proven leaves and their ancestors that are not such ancestors themselves,
// sorted by level, then index.
inline std::vector<std::pair<unsigned, std::uint64_t>>
expected_multiproof_positions(std::uint64_t n, const std::set<std::uint64_t> &indices) {
  const merklize::tree_layout layout(n);
  std::set<std::uint64_t> known = indices;
  std::vector<std::pair<unsigned, std::uint64_t>> positions;
  for (unsigned k = 0; k < layout.depth(); ++k) {
    std::set<std::uint64_t> parents;
    for (const std::uint64_t node : known) {
      const std::uint64_t sibling = node ^ 1;
      if (sibling < layout.level_size(k) && !known.count(sibling))
        positions.emplace_back(k, sibling);
      parents.insert(node / 2);
    }
    known = parents;
  }
  std::sort(positions.begin(), positions.end());
  return positions;
}

inline std::vector<merklize::digest> leaves_at(const merklize::tree &t,
                                               const std::vector<std::uint64_t> &indices) {
  std::vector<merklize::digest> leaves;
  for (const std::uint64_t i : indices)
    leaves.push_back(t.node(0, i));
  return leaves;
}

// A random set of about `fraction` of the n leaf indices, at least one.
inline std::vector<std::uint64_t> random_indices(std::uint64_t n, double fraction) {
  std::bernoulli_distribution pick(fraction);
  std::vector<std::uint64_t> indices;
  for (std::uint64_t i = 0; i < n; ++i)
    if (pick(rng())) indices.push_back(i);
  if (indices.empty()) indices.push_back(rng()() % n);
  return indices;
}

} // namespace test
