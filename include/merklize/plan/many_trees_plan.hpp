// SPDX-License-Identifier: Apache-2.0 OR MIT
// The plan of many small trees built at once (engine/many_trees.hpp): B trees of n leaves each,
// tree k over leaves [k n, (k + 1) n) of one buffer, every level of every tree computed by one
// launch over all the trees' nodes of that level, so that trees of 2^8 leaves keep a GPU as busy
// as one tree over all the leaves. A pure function of (B, n, the tree's rules, the launch
// settings), unit-tested without a device (tests/test_many_trees_plan.cpp).
//
// A level whose trees each have an even number of children below is the same as that level of
// one tree over all B n leaves (its pairs never straddle two trees), so those levels, the lowest
// ctz(n) of them, go to the level runner's launches (fused subtrees, merkle_level, lanes) over the
// whole buffer. Every other level, and a level holding the trees' roots (blake3-parent's ROOT flag
// marks each), is one launch of merkle_many_level (kernels/merkle_many.cl): a work-item a node,
// its tree node / nodes_per_tree; a tree's lone last child moves up or, with shape zero, is hashed
// with the zero-subtree root of its height. Levels above a tree's natural top (a fixed depth) hold
// one node a tree, hashed with the zero-subtree roots as extend_root does.
#pragma once

#include "../core/tree.hpp"
#include "launch_plan.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

// One level of every tree: its nodes in the level buffer (all trees' nodes of the level, tree
// after tree, from node `first` of the buffer that holds the levels above the leaves).
struct many_level {
  unsigned level;             // 1 .. root level
  std::uint64_t in_per_tree;  // each tree's nodes of the level below
  std::uint64_t out_per_tree; // each tree's nodes of this level: ceil(in_per_tree / 2)
  std::uint64_t nodes;        // trees * out_per_tree: merkle_many_level's work-items
  std::uint64_t first;        // where the level starts in the level buffer
  bool is_root;               // its nodes are the trees' roots (ROOT flag)
  bool by_runner;             // computed by the level runner's launches over the whole buffer
};

struct many_trees_plan {
  std::uint64_t trees = 0, tree_size = 0; // B and n
  unsigned top = 0;                       // each tree's natural depth: ceil(log2 n)
  unsigned root_level = 0;                // the roots' level: top, or a fixed depth above it
  unsigned runner_levels = 0;             // levels 1 .. runner_levels go to the level runner
  std::vector<many_level> levels;         // levels 1 .. root_level
  std::vector<detail::planned_launch> runner_launches; // the runner's launches of those levels
  std::uint64_t level_nodes = 0; // nodes of every level above the leaves, all trees

  // Where the roots lie in the level buffer (none above the leaves: n = 1 at its natural depth,
  // whose roots are the leaves).
  std::uint64_t roots_first() const { return levels.empty() ? 0 : levels.back().first; }
};

namespace detail {

// How many trees `bytes` of leaves hold, with a message naming what is wrong: no tree size, a
// length that is no whole number of trees (what is left over), no leaves.
// `function` names the call in the messages.
inline std::uint64_t many_tree_count(std::uint64_t bytes, std::uint64_t tree_size,
                                     const std::string &function = "roots_many") {
  if (tree_size == 0) throw error(function + ": tree_size is 0: a tree needs at least one leaf");
  if (bytes % node_bytes != 0)
    throw error(function + ": " + std::to_string(bytes) + " bytes of leaves is not a multiple of " +
                std::to_string(node_bytes) + " (" + std::to_string(bytes % node_bytes) +
                " bytes left over)");
  const std::uint64_t leaves = bytes / node_bytes;
  if (leaves == 0) throw error(function + ": no leaves (0 bytes): give at least one tree");
  if (leaves % tree_size != 0)
    throw error(function + ": " + std::to_string(leaves) + " leaves (" + std::to_string(bytes) +
                " bytes) are no whole number of trees of tree_size = " + std::to_string(tree_size) +
                " leaves: " + std::to_string(leaves / tree_size) + " trees and " +
                std::to_string(leaves % tree_size) + " leaves left over");
  return leaves / tree_size;
}

// Levels at the bottom of every tree whose level below has an even number of nodes in each
// tree: ctz(n), kept below the roots' level, which the runner's launches do not flag.
inline unsigned many_runner_levels(std::uint64_t tree_size, unsigned root_level) {
  unsigned even = 0;
  while (even < 63 && ((tree_size >> even) & 1) == 0)
    ++even;
  return root_level == 0 ? 0 : std::min(even, root_level - 1);
}

} // namespace detail

// The plan of `trees` trees of `tree_size` leaves each under `options` (a fixed depth raises the
// roots' level). Throws on no trees, no leaves a tree, or options the trees do not allow.
inline many_trees_plan plan_many_trees(const detail::launch_settings &settings, std::uint64_t trees,
                                       std::uint64_t tree_size, const tree_options &options) {
  if (trees == 0) throw error("roots_many: no trees (B = 0)");
  if (tree_size == 0) throw error("roots_many: tree_size is 0: a tree needs at least one leaf");
  if (trees > ~std::uint64_t(0) / node_bytes / tree_size)
    throw error("roots_many: " + std::to_string(trees) + " trees of " + std::to_string(tree_size) +
                " leaves are more bytes than 64 bits count");
  many_trees_plan p;
  p.trees = trees;
  p.tree_size = tree_size;
  p.top = tree_layout(tree_size).depth();
  p.root_level = root_depth(options, tree_layout(tree_size));
  p.runner_levels = detail::many_runner_levels(tree_size, p.root_level);
  std::uint64_t per_tree = tree_size;
  for (unsigned level = 1; level <= p.root_level; ++level) {
    const std::uint64_t out = (per_tree + 1) / 2;
    p.levels.push_back({level, per_tree, out, trees * out, p.level_nodes, level == p.root_level,
                        level <= p.runner_levels});
    p.level_nodes += trees * out;
    per_tree = out;
  }
  if (p.runner_levels > 0)
    p.runner_launches = detail::plan_launches(settings, trees * tree_size, p.runner_levels);
  return p;
}

} // namespace merklize
