// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees: each node is the hash of up to k children (k a power of two from 2 to 128), as
// ICICLE's trees and storage formats with wide nodes have them. Host reference, proofs and their
// verification; no OpenCL (the device builds the same levels: device_tree.hpp).
//
//   node = H(child_0 || child_1 || ... || child_{k-1}), SHA-256, BLAKE3, Keccak-256 or SHA3-256
//          of the k * 32 bytes.
//
// Level l + 1 has ceil(size_l / k) nodes; the last group of a level may hold m < k children:
//   shape promote: m = 1 moves up unchanged; m > 1 is hashed over its m children alone;
//   shape zero:    the missing children are the roots of all-zero subtrees of their height
//                  (zero leaves up to a power of k), so every node hashes k children.
// For k = 2 both are exactly merklize's binary trees of hash_kind sha256, blake3, keccak256 and
// sha3-256.
//
// The levels are those of a group rule (group_rule below): the node rule of a group of children,
// the children's k * 32 bytes hashed as one data block by a leaf rule. kary_options is the rule of
// the plain node hashes; dm-verity's and fs-verity's hash blocks are a salted SHA-256 rule whose
// short groups are padded with zero bytes, at arity block / 32 (formats/verity_tree.hpp).
#pragma once

#include "blake3.hpp"
#include "block_leaves.hpp"
#include "digest.hpp"
#include "node_rule.hpp"
#include "path_plan.hpp"
#include "quote.hpp"
#include "sha256.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

struct kary_options {
  hash_kind hash = hash_kind::sha256; // kary_hash_names(); blake3: BLAKE3 of the children's bytes
  unsigned arity = 2;
  merklize::shape shape = shape::promote; // promote or zero
};

// The node hashes a k-ary tree takes, "sha256, blake3, keccak256 or sha3-256".
inline std::string kary_hash_names() {
  return hash_list([](const node_hash_row &row) { return !row.not_kary; });
}

inline void check_kary(const kary_options &options) {
  const unsigned k = options.arity;
  if (k < 2 || k > 128 || (k & (k - 1)) != 0)
    throw error("arity " + std::to_string(k) + ": a k-ary tree takes a power of two from 2 to 128");
  const node_hash_row &row = row_of(options.hash);
  if (row.not_kary)
    throw error(std::string(row.not_kary) + ": a k-ary tree takes " + kary_hash_names());
}

// The node over `count` children at `children` (1 < count <= k).
inline digest kary_node(const kary_options &options, const digest *children, std::size_t count) {
  return row_of(row_of(options.hash).leaf).hash(children, count * node_bytes);
}

// The node rule of a group of children: the group's children back to back hashed as one data
// block by `block` (its hash, a prefix or salt, a key; block_bytes = k * 32), the short last group
// of a level as `shape` says (as kary_options's), or, where block.zero_pad, padded with zero bytes
// to k * 32: then every group is hashed, a lone child too, as dm-verity's and fs-verity's hash
// blocks are (their arity is block / 32: 16384 for dm-verity's 512 KiB blocks, 2^25 for fs-verity's
// 1 GiB).
struct group_rule {
  leaf_rule block;
  merklize::shape shape = shape::promote; // the short last group, unless block.zero_pad

  unsigned arity() const { return static_cast<unsigned>(block.block_bytes / node_bytes); }
};

// The rule of a k-ary tree's nodes: H(children), nothing before them.
inline group_rule group_rule_of(const kary_options &options) {
  return {{leaf_hash_of(options.hash),
           std::uint64_t(options.arity) * node_bytes,
           {},
           false,
           std::nullopt},
          options.shape};
}

inline void check_group_rule(const group_rule &rule) {
  check_leaf_rule(rule.block);
  const std::uint64_t bytes = rule.block.block_bytes;
  if (bytes < 2 * node_bytes || bytes % node_bytes != 0 || (bytes & (bytes - 1)) != 0)
    throw error("a group of " + std::to_string(bytes) +
                " bytes: a group rule hashes a power of two of at least 2 children of 32 bytes");
}

// The node over `count` children at `children` (0 < count <= k; 1 only where the rule hashes a
// lone child, block.zero_pad).
inline digest group_node(const group_rule &rule, const digest *children, std::size_t count) {
  return hash_block(rule.block, children->data(), count * node_bytes);
}

// zeros[h]: the root of an all-zero subtree of height h (zeros[0] is the zero leaf). A rule that
// pads with zero bytes never pads with these: its zeros are left zero.
inline std::vector<digest> group_zero_roots(const group_rule &rule, unsigned height) {
  if (rule.block.zero_pad) return std::vector<digest>(height + 1, digest{});
  std::vector<digest> zeros(1, digest{});
  for (unsigned h = 1; h <= height; ++h) {
    const std::vector<digest> children(rule.arity(), zeros.back());
    zeros.push_back(group_node(rule, children.data(), children.size()));
  }
  return zeros;
}

// zeros[h] of a k-ary tree (kary_options's rule).
inline std::vector<digest> kary_zero_roots(const kary_options &options, unsigned height) {
  return group_zero_roots(group_rule_of(options), height);
}

// The sizes of the levels over `leaf_count` leaves, leaves first, the root's level (1) last.
inline std::vector<std::uint64_t> kary_level_sizes(std::uint64_t leaf_count, unsigned arity) {
  if (leaf_count == 0) throw error("no leaves: a tree needs at least one leaf (N = 0)");
  std::vector<std::uint64_t> sizes = {leaf_count};
  while (sizes.back() > 1)
    sizes.push_back(parent_count(sizes.back(), arity));
  return sizes;
}

// The children of the group of level `level` (`below`) that starts at `first`, as the rule fills
// it: the m present ones, then, for shape zero, zero-subtree roots up to k.
inline std::vector<digest> group_children(const group_rule &rule, const std::vector<digest> &below,
                                          std::uint64_t first, const digest &zero) {
  const std::uint64_t end = std::min<std::uint64_t>(first + rule.arity(), below.size());
  std::vector<digest> group(below.begin() + static_cast<std::ptrdiff_t>(first),
                            below.begin() + static_cast<std::ptrdiff_t>(end));
  if (rule.shape == shape::zero && !rule.block.zero_pad) group.resize(rule.arity(), zero);
  return group;
}

// The same of a k-ary tree.
inline std::vector<digest> kary_group(const kary_options &options, const std::vector<digest> &below,
                                      std::uint64_t first, const digest &zero) {
  return group_children(group_rule_of(options), below, first, zero);
}

// The levels of a tree of group rule `rule` from its level `first_level` (`nodes`) up: `nodes`
// first, the root alone last. shape zero's padding is the zero-subtree roots of each level's
// height in the whole tree.
inline std::vector<std::vector<digest>>
group_levels_above(const std::vector<digest> &nodes, const group_rule &rule, unsigned first_level) {
  check_group_rule(rule);
  const auto sizes = kary_level_sizes(nodes.size(), rule.arity());
  const auto zeros = group_zero_roots(rule, first_level + static_cast<unsigned>(sizes.size()));
  std::vector<std::vector<digest>> levels = {nodes};
  for (std::size_t level = 1; level < sizes.size(); ++level) {
    const std::vector<digest> &below = levels.back();
    std::vector<digest> parents(static_cast<std::size_t>(sizes[level]));
    for (std::size_t i = 0; i < parents.size(); ++i) {
      const auto group =
          group_children(rule, below, i * rule.arity(), zeros[first_level + level - 1]);
      parents[i] = group.size() == 1 && !rule.block.zero_pad
                       ? group.front()
                       : group_node(rule, group.data(), group.size());
    }
    levels.push_back(std::move(parents));
  }
  return levels;
}

// The levels of a k-ary tree from its level `first_level` (`nodes`) up. A tree's top above the
// parts that several devices build (kary_multi.hpp).
inline std::vector<std::vector<digest>> kary_levels_above(const std::vector<digest> &nodes,
                                                          const kary_options &options,
                                                          unsigned first_level) {
  check_kary(options);
  return group_levels_above(nodes, group_rule_of(options), first_level);
}

// Every level of the tree over `leaves`, leaves first, the root alone last.
inline std::vector<std::vector<digest>> kary_levels(const std::vector<digest> &leaves,
                                                    const kary_options &options) {
  return kary_levels_above(leaves, options, 0);
}

// The number of levels above the leaves of a tree of `leaf_count` leaves (0 for one leaf).
inline unsigned kary_height(std::uint64_t leaf_count, unsigned arity) {
  return static_cast<unsigned>(kary_level_sizes(leaf_count, arity).size() - 1);
}

inline digest kary_root(const std::vector<digest> &leaves, const kary_options &options) {
  return kary_levels(leaves, options).back().front();
}

// The proof of one leaf: per level from the leaves up, the other children of the leaf's path's
// group, in order (k - 1 of them; fewer in a short last group of shape promote, none where a
// lone node moves up).
struct kary_proof {
  kary_options options;
  std::uint64_t leaf_count = 0;
  std::uint64_t index = 0;
  std::vector<std::vector<digest>> siblings;
};

inline void check_kary_index(std::uint64_t index, std::uint64_t leaf_count) {
  if (index >= leaf_count)
    throw error("leaf index " + std::to_string(index) + " out of range: the tree has " +
                std::to_string(leaf_count) + " leaves");
}

// What a k-ary tree's shape puts in place of a short group's missing children (path_plan.hpp).
inline path_shape kary_path_shape(const kary_options &options) {
  return {options.arity, options.shape == shape::zero ? stand_in::zero_root : stand_in::nothing};
}

// The siblings of node `index` of level first_level on its path up `levels` (levels
// first_level, first_level + 1, ... of a tree, as kary_levels_above gives them), a level each.
inline std::vector<std::vector<digest>>
kary_path_siblings(const std::vector<std::vector<digest>> &levels, const kary_options &options,
                   std::uint64_t index, unsigned first_level) {
  const auto zeros = kary_zero_roots(options, first_level + static_cast<unsigned>(levels.size()));
  std::vector<std::vector<digest>> siblings;
  const auto path = plan_path(kary_path_shape(options), levels.front().size(), index,
                              static_cast<unsigned>(levels.size() - 1), first_level);
  for (const path_group &g : path) {
    const std::vector<digest> &level = levels[g.level - first_level];
    siblings.push_back(group_siblings(
        g, [&](std::uint64_t i) { return level[static_cast<std::size_t>(i)]; }, zeros[g.level]));
  }
  return siblings;
}

inline kary_proof kary_prove(const std::vector<std::vector<digest>> &levels,
                             const kary_options &options, std::uint64_t index) {
  check_kary(options);
  check_kary_index(index, levels.front().size());
  return {options, levels.front().size(), index, kary_path_siblings(levels, options, index, 0)};
}

// Whether `proof` shows `leaf` at its index under `root`. Untrusted proofs: the sibling counts
// must be exactly those of a tree of proof.leaf_count leaves, else false.
inline bool kary_verify(const kary_proof &proof, const digest &leaf, const digest &root) {
  const kary_options &o = proof.options;
  check_kary(o);
  if (proof.leaf_count == 0 || proof.index >= proof.leaf_count) return false;
  const auto path = plan_path(kary_path_shape(o), proof.leaf_count, proof.index,
                              kary_height(proof.leaf_count, o.arity));
  if (proof.siblings.size() != path.size()) return false;
  const auto zeros = kary_zero_roots(o, static_cast<unsigned>(path.size()));
  digest node = leaf;
  for (const path_group &g : path) {
    const auto &others = proof.siblings[g.level];
    if (others.size() != g.width - 1) return false;
    std::vector<digest> group = others;
    group.insert(group.begin() + static_cast<std::ptrdiff_t>(g.place()), node);
    for (std::uint64_t j = g.present; j < g.width; ++j) // shape zero's padding: zero subtrees
      if (group[j] != zeros[g.level]) return false;
    node = g.width == 1 ? node : kary_node(o, group.data(), group.size());
  }
  return node == root;
}

} // namespace merklize
