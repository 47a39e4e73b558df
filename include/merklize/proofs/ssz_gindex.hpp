// SPDX-License-Identifier: Apache-2.0 OR MIT
// SSZ proofs by generalized index, as the Ethereum consensus specs define them (ssz/merkle-proofs.md:
// get_branch_indices, get_path_indices, get_helper_indices, calculate_merkle_root,
// calculate_multi_merkle_root): a node of an SSZ object's hash tree is named by its generalized
// index g = 2^depth + index (1 the root; 2g and 2g + 1 its children), a single proof of g is
// the siblings along its path from g up, and a multiproof of several is the helper nodes in
// decreasing generalized index, the branch of one index being its multiproof.
//
// The object is given as a tree of roots (ssz_tree): chunks (a basic value's or a Bytes32's
// 32 bytes, a composite element's hash_tree_root when its inside is not to be proven), vectors
// and containers of such (SHA-256 of shape zero over ceil(log2 n) levels) and lists (the same
// over their limit, then the length mixed in: the data at g = 2, the length chunk at g = 3), nested
// to any depth. Each composite's chunk tree is merklize's host tree (core/tree.hpp). The
// verifiers take untrusted proofs: every count is checked before any hashing. No OpenCL.
#pragma once

#include "../core/reference.hpp"
#include "../core/ssz.hpp"
#include "proof_verify.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace merklize {
namespace ssz {

using gindex = std::uint64_t;

// floor(log2 g): the levels from the root down to g (get_generalized_index_length).
inline unsigned gindex_length(gindex g) {
  if (g == 0) throw error("generalized index 0 names no node (the root is 1)");
  unsigned length = 0;
  while (g >>= 1)
    ++length;
  return length;
}

// g's node inside the subtree rooted at `inner` of a tree whose root is `outer`'s node
// (concat_generalized_indices of two).
inline gindex concat_gindices(gindex outer, gindex inner) {
  const unsigned length = gindex_length(inner);
  if (gindex_length(outer) + length > 63)
    throw error("generalized indices " + std::to_string(outer) + " and " + std::to_string(inner) +
                " make a path of more than 63 levels");
  return outer << length | (inner - (gindex(1) << length));
}

// get_branch_indices: the siblings along g's path, from g's up to the root's children.
inline std::vector<gindex> branch_indices(gindex g) {
  std::vector<gindex> branch;
  for (gindex at = g; at > 1; at /= 2)
    branch.push_back(at ^ 1);
  return branch;
}

// get_helper_indices: the nodes a multiproof of `indices` holds, in decreasing order.
inline std::vector<gindex> helper_indices(const std::vector<gindex> &indices) {
  std::set<gindex> helpers, path;
  for (const gindex g : indices) {
    gindex_length(g); // 0 is refused
    for (gindex at = g; at > 1; at /= 2) {
      helpers.insert(at ^ 1);
      path.insert(at);
    }
  }
  std::vector<gindex> out;
  for (auto it = helpers.rbegin(); it != helpers.rend(); ++it)
    if (!path.count(*it)) out.push_back(*it);
  return out;
}

// An SSZ object's hash tree, as a tree of roots.
class ssz_tree {
public:
  static ssz_tree chunk(const digest &value) {
    ssz_tree t;
    t.value_ = value;
    return t;
  }
  // A Vector or a Container: its elements' (fields') roots padded to a power of two.
  static ssz_tree vector(std::vector<ssz_tree> elements) {
    if (elements.empty()) throw error("an SSZ vector or container has at least one element");
    const unsigned depth = detail::ceil_log2(elements.size());
    return composite(std::move(elements), depth, std::nullopt);
  }
  // A List of at most `limit` chunks (its elements' roots, or basic values packed 32 bytes a
  // chunk), `length` elements mixed in (default: one an element).
  static ssz_tree list(std::vector<ssz_tree> elements, std::uint64_t limit,
                       std::optional<std::uint64_t> length = std::nullopt) {
    if (elements.size() > limit)
      throw error("an SSZ list of " + std::to_string(elements.size()) +
                  " chunks is past its limit of " + std::to_string(limit));
    const std::uint64_t n = elements.size();
    return composite(std::move(elements), detail::ceil_log2(limit), length.value_or(n));
  }

  digest root() const { return node(1); }

  // The node at generalized index g of this object's tree.
  digest node(gindex g) const {
    const unsigned length = gindex_length(g);
    if (!composite_) {
      if (length) throw below_chunk(g);
      return value_;
    }
    if (!length_) return data_node(g, length);
    if (length == 0) return mix_in_length(data_node(1, 0), *length_);
    const gindex rest = (gindex(1) << (length - 1)) | (g & ((gindex(1) << (length - 1)) - 1));
    if (!(g >> (length - 1) & 1)) return data_node(rest, length - 1); // under 2: the data
    if (length > 1) throw below_chunk(g);                               // under 3: the length
    return length_chunk(*length_);
  }

private:
  static error below_chunk(gindex g) {
    return error("generalized index " + std::to_string(g) + " lies below a chunk of the tree");
  }

  static ssz_tree composite(std::vector<ssz_tree> elements, unsigned depth,
                            std::optional<std::uint64_t> length) {
    if (depth > 62) throw error("an SSZ tree of more than 2^62 chunks");
    ssz_tree t;
    t.composite_ = true;
    t.depth_ = depth;
    t.length_ = length;
    t.zeros_ = zero_subtree_roots(hash_kind::sha256, depth);
    std::vector<digest> roots;
    for (const ssz_tree &e : elements)
      roots.push_back(e.root());
    if (!roots.empty())
      t.tree_ = std::make_shared<tree>(reference_tree(roots.data(), roots.size() * node_bytes,
                                                      {hash_kind::sha256, shape::zero, depth}));
    t.children_ = std::move(elements);
    return t;
  }

  // Node g (of `length` levels) of the chunk tree, or below one of its chunks.
  digest data_node(gindex g, unsigned length) const {
    if (length > depth_) {
      const unsigned below = length - depth_;
      const std::uint64_t chunk = (g >> below) - (gindex(1) << depth_);
      if (chunk >= children_.size())
        throw error("generalized index " + std::to_string(g) + " lies below an empty chunk");
      return children_[chunk].node((gindex(1) << below) | (g & ((gindex(1) << below) - 1)));
    }
    const unsigned level = depth_ - length;
    const std::uint64_t index = g - (gindex(1) << length);
    if (!tree_) return zeros_[level];
    if (level > tree_->depth()) return index ? zeros_[level]
                                             : extend_root(hash_kind::sha256,
                                                           tree_->node(tree_->depth(), 0),
                                                           tree_->depth(), level);
    return index < tree_->layout().level_size(level) ? tree_->node(level, index) : zeros_[level];
  }

  bool composite_ = false; // a vector or a list, else a chunk
  digest value_{};
  unsigned depth_ = 0;
  std::optional<std::uint64_t> length_;
  std::vector<ssz_tree> children_;
  std::shared_ptr<const tree> tree_;
  std::vector<digest> zeros_;
};

// A multiproof by generalized index: the proven nodes (leaves) at `indices`, and the helper
// nodes at helper_indices(indices), in that order. Of one index, `helpers` is its branch.
struct gindex_proof {
  std::vector<gindex> indices;
  std::vector<digest> leaves, helpers;
};

// The proof of the nodes at `indices` (distinct, none below another's node) of `t`.
inline gindex_proof prove_gindices(const ssz_tree &t, std::vector<gindex> indices) {
  gindex_proof proof{std::move(indices), {}, {}};
  for (const gindex g : proof.indices)
    proof.leaves.push_back(t.node(g));
  for (const gindex g : helper_indices(proof.indices))
    proof.helpers.push_back(t.node(g));
  return proof;
}

namespace detail {

// An untrusted proof's indices: one or more, each a node (>= 1), distinct, none on another's path
// to the root (whose value the spec's calculate_multi_merkle_root would take unchecked).
inline verification check_gindices(const gindex_proof &p) {
  using merklize::detail::reject;
  if (p.indices.empty()) return reject("the proof proves no generalized index");
  if (p.leaves.size() != p.indices.size())
    return reject(std::to_string(p.leaves.size()) + " leaves for " +
                  std::to_string(p.indices.size()) + " generalized indices");
  std::set<gindex> seen;
  for (const gindex g : p.indices) {
    if (g == 0) return reject("generalized index 0 names no node (the root is 1)");
    if (!seen.insert(g).second) return reject("generalized index " + std::to_string(g) + " twice");
  }
  for (const gindex g : p.indices)
    for (gindex at = g / 2; at >= 1; at /= 2)
      if (seen.count(at))
        return reject("generalized index " + std::to_string(at) + " is on the path of " +
                      std::to_string(g) + ": prove the one or the other");
  return {true, {}};
}

} // namespace detail

// calculate_multi_merkle_root: the root `p` leads to, or the reason it leads to none.
inline std::optional<digest> gindex_proof_root(const gindex_proof &p, verification &why) {
  why = detail::check_gindices(p);
  if (!why) return std::nullopt;
  const std::vector<gindex> helpers = helper_indices(p.indices);
  why = merklize::detail::check_node_count("helper nodes", p.helpers.size(), helpers.size());
  if (!why) return std::nullopt;
  std::map<gindex, digest> objects;
  for (std::size_t i = 0; i < p.indices.size(); ++i)
    objects[p.indices[i]] = p.leaves[i];
  for (std::size_t i = 0; i < helpers.size(); ++i)
    objects[helpers[i]] = p.helpers[i];
  // From the deepest node up: each pair present makes its parent (the spec's key walk).
  for (auto it = objects.rbegin(); it != objects.rend() && it->first > 1; ++it) {
    const gindex k = it->first;
    if (objects.count(k ^ 1) && !objects.count(k / 2))
      objects[k / 2] = sha256::hash_pair(objects[k & ~gindex(1)], objects[k | 1]);
  }
  const auto root = objects.find(1);
  if (root == objects.end()) {
    why = merklize::detail::reject("the proof's nodes do not reach the root");
    return std::nullopt;
  }
  return root->second;
}

// verify_merkle_multiproof (and, of one index, verify_merkle_proof).
inline verification verify_gindices(const gindex_proof &p, const digest &root) {
  verification why;
  const auto computed = gindex_proof_root(p, why);
  if (!computed) return why;
  return merklize::detail::check_root(*computed, root);
}

} // namespace ssz
} // namespace merklize
