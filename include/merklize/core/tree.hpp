// SPDX-License-Identifier: Apache-2.0 OR MIT
// The tree convention, its memory layout, and the host-side tree object.
//
// Level 0 holds the N leaves; level k+1 holds ceil(size_k / 2) nodes, node i being
// NODE(level_k[2i], level_k[2i+1]); the last level holds the root alone. A level of odd size ends
// with a lone node, which shape::promote moves up unchanged and shape::zero hashes with the root
// of an all-zero subtree of its height (as if the leaves were padded with 32-byte zero leaves to
// the next power of two). Both shapes therefore store the same number of nodes per level.
// Shape zero can also pad virtually up to 2^D leaves for a fixed depth D (SSZ's limit): the
// stored levels are the same, and root() hashes the top stored node up with zero-subtree roots.
//
// Memory layout: every level, leaves first and root last, back to back, 32 bytes a node.
#pragma once

#include "node_rule.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

// The number of leaves in `bytes` bytes of leaf data; throws on zero leaves or a partial leaf.
inline std::uint64_t leaf_count_of(std::uint64_t bytes) {
  if (bytes == 0) throw error("no leaves: a tree needs at least one 32-byte leaf (N = 0)");
  if (bytes % node_bytes != 0)
    throw error("leaf data is " + std::to_string(bytes) +
                " bytes, not a multiple of 32 (a leaf is 32 bytes)");
  return bytes / node_bytes;
}

// Level sizes and offsets (in nodes) of the tree over N leaves.
class tree_layout {
public:
  explicit tree_layout(std::uint64_t leaf_count) {
    if (leaf_count == 0) throw error("no leaves: a tree needs at least one leaf (N = 0)");
    offsets_.push_back(0);
    for (std::uint64_t size = leaf_count;; size = (size + 1) / 2) {
      offsets_.push_back(offsets_.back() + size);
      if (size == 1) break;
    }
  }

  std::uint64_t leaf_count() const { return level_size(0); }
  // Levels above the leaves: ceil(log2 N); 0 when the single leaf is the root.
  unsigned depth() const { return static_cast<unsigned>(offsets_.size() - 2); }
  std::uint64_t level_size(unsigned level) const {
    return offsets_.at(level + 1) - offsets_.at(level);
  }
  std::uint64_t level_offset(unsigned level) const { return offsets_.at(level); }
  std::uint64_t node_count() const { return offsets_.back(); }
  std::uint64_t internal_node_count() const { return node_count() - leaf_count(); }

private:
  std::vector<std::uint64_t> offsets_;
};

// Which levels a build keeps: all of them (leaves included), those from a level up, or the root.
struct output_levels {
  unsigned first = 0; // clamped to the tree's depth, so root_only() keeps just the root

  static output_levels all_nodes() { return {0}; }
  static output_levels from_level(unsigned level) { return {level}; }
  static output_levels root_only() { return {~0u}; }
};

// The depth of the root of a tree over `layout`'s leaves: options.depth when set, else the
// natural depth. Throws when the hash and shape do not go together (check_tree_options), or
// options.depth is set with shape promote, or cannot hold the leaves.
inline unsigned root_depth(const tree_options &options, const tree_layout &layout) {
  check_tree_options(options);
  if (!options.depth) return layout.depth();
  const std::string asked = "a fixed depth (" + std::to_string(*options.depth) + ")";
  if (options.shape != shape::zero)
    throw error(asked + " needs shape zero: shape promote never pads with zero leaves");
  if (*options.depth < layout.depth())
    throw error(asked + " cannot hold " + std::to_string(layout.leaf_count()) +
                " leaves: it must be at least ceil(log2 N) = " + std::to_string(layout.depth()));
  if (*options.depth > 64) throw error(asked + " is more than 64 (2^64 leaves)");
  return *options.depth;
}

// A built tree in host memory: levels first_level()..depth() of the layout above. The leaves
// (level 0) and the nodes above them are held apart, so leaves can stay where the caller put them
// (a host_buffer) and the nodes are exactly what a device writes: levels from max(1, first_level())
// back to back (nodes_data()).
class tree {
public:
  // Storage owned by the tree, uninitialized, for the levels a builder will fill.
  tree(std::uint64_t leaf_count, tree_options options, output_levels keep = {})
      : tree(tree_layout(leaf_count), options, keep, nullptr, nullptr) {
    if (first_ == 0) leaves_ = allocate(leaves_size());
    nodes_ = allocate(nodes_size());
  }

  // Storage given by the builder (for instance page-locked memory, or the caller's leaves); a
  // null pointer is storage not there yet.
  tree(const tree_layout &layout, tree_options options, output_levels keep,
       std::shared_ptr<std::uint8_t> leaves, std::shared_ptr<std::uint8_t> nodes)
      : layout_(layout), options_(options), first_(std::min(keep.first, layout.depth())),
        leaves_(first_ == 0 ? std::move(leaves) : nullptr), nodes_(std::move(nodes)) {}

  const tree_layout &layout() const { return layout_; }
  const tree_options &options() const { return options_; }
  std::uint64_t leaf_count() const { return layout_.leaf_count(); }
  unsigned depth() const { return layout_.depth(); }
  unsigned first_level() const { return first_; }

  // depth() is the top stored level; root_depth() that of the root, above it when
  // options().depth asks for more, in which case root() is the top stored node extended.
  unsigned root_depth() const { return merklize::root_depth(options_, layout_); }
  digest root() const {
    return extend_root(options_.hash, node(depth(), 0), depth(), root_depth());
  }

  digest node(unsigned level, std::uint64_t index) const {
    const std::uint8_t *data = level_data(level); // checks the level first
    if (index >= layout_.level_size(level))
      throw error("node " + std::to_string(index) + " out of range: level " +
                  std::to_string(level) + " has " + std::to_string(layout_.level_size(level)) +
                  " nodes");
    digest d;
    const std::uint8_t *p = data + index * node_bytes;
    std::copy(p, p + node_bytes, d.begin());
    return d;
  }

  std::vector<digest> level(unsigned level) const {
    std::vector<digest> nodes;
    for (std::uint64_t i = 0; i < layout_.level_size(level); ++i)
      nodes.push_back(node(level, i));
    return nodes;
  }

  const std::uint8_t *level_data(unsigned level) const {
    check_stored(level);
    if (level == 0) return leaves_.get();
    return nodes_.get() +
           (layout_.level_offset(level) - layout_.level_offset(first_node_level())) * node_bytes;
  }
  std::uint8_t *level_data(unsigned level) {
    return const_cast<std::uint8_t *>(static_cast<const tree &>(*this).level_data(level));
  }

  // Levels max(1, first_level())..depth() back to back: the nodes a device computes.
  const std::uint8_t *nodes_data() const { return nodes_.get(); }
  std::uint8_t *nodes_data() { return nodes_.get(); }
  std::uint64_t nodes_size() const {
    return (layout_.node_count() - layout_.level_offset(first_node_level())) * node_bytes;
  }
  std::uint64_t leaves_size() const { return layout_.leaf_count() * node_bytes; }
  unsigned first_node_level() const { return std::max(1u, std::min(first_, depth() + 1)); }

  // The storage of nodes_data(), shared.
  const std::shared_ptr<std::uint8_t> &nodes_storage() const { return nodes_; }

  // Same shape, options, kept levels and nodes.
  friend bool operator==(const tree &a, const tree &b) {
    if (a.leaf_count() != b.leaf_count() || a.first_ != b.first_ ||
        a.options_.hash != b.options_.hash || a.options_.shape != b.options_.shape ||
        a.options_.depth != b.options_.depth)
      return false;
    for (unsigned k = a.first_; k <= a.depth(); ++k)
      if (!std::equal(a.level_data(k), a.level_data(k) + a.layout_.level_size(k) * node_bytes,
                      b.level_data(k)))
        return false;
    return true;
  }
  friend bool operator!=(const tree &a, const tree &b) { return !(a == b); }

private:
  static std::shared_ptr<std::uint8_t> allocate(std::uint64_t size) {
    if (size == 0) return nullptr;
    return std::shared_ptr<std::uint8_t>(new std::uint8_t[size],
                                         std::default_delete<std::uint8_t[]>());
  }

  void check_stored(unsigned level) const {
    if (level > depth())
      throw error("level " + std::to_string(level) + " out of range: the tree has levels 0.." +
                  std::to_string(depth()));
    if (level < first_)
      throw error("level " + std::to_string(level) + " was not kept: this tree holds levels " +
                  std::to_string(first_) + ".." + std::to_string(depth()));
    if ((level == 0 ? leaves_ : nodes_) == nullptr)
      throw error("level " + std::to_string(level) + " has no storage: the tree is not built");
  }

  tree_layout layout_;
  tree_options options_;
  unsigned first_;
  std::shared_ptr<std::uint8_t> leaves_, nodes_;
};

namespace detail {

inline unsigned ceil_log2(std::uint64_t n) {
  unsigned k = 0;
  while ((std::uint64_t(1) << k) < n)
    ++k;
  return k;
}

// ceil(n / 2^k): the nodes of level k above n leaves.
inline std::uint64_t ceil_shift(std::uint64_t n, unsigned k) { return (n + (1ull << k) - 1) >> k; }

// The node rule: level `level` of a tree with `options` from the level below it (`below`). A
// pair hashes; a lone last node moves up (promote) or hashes with `zeros[level - 1]`, the
// all-zero subtree of its height (zero); the node of `root_level` gets blake3-parent's ROOT flag.
inline std::vector<digest> level_above(const tree_options &options, unsigned level,
                                       unsigned root_level, const std::vector<digest> &below,
                                       const std::vector<digest> &zeros) {
  std::vector<digest> nodes((below.size() + 1) / 2);
  const bool is_root = level == root_level;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (2 * i + 1 < below.size())
      nodes[i] = node_hash(options.hash, below[2 * i], below[2 * i + 1], is_root);
    else if (options.shape == shape::zero)
      nodes[i] = node_hash(options.hash, below[2 * i], zeros[level - 1], is_root);
    else
      nodes[i] = below[2 * i];
  }
  return nodes;
}

// Writes `nodes` as level `level` of t when t keeps that level.
inline void store_level(tree &t, unsigned level, const std::vector<digest> &nodes) {
  if (level < t.first_level()) return;
  std::uint8_t *out = t.level_data(level);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    std::copy(nodes[i].begin(), nodes[i].end(), out + i * node_bytes);
}

} // namespace detail

// Levels level+1 .. depth of `t` from its complete level `level` (`nodes`, level_size(level) of
// them), by the node rule of t's hash and shape on the host, with no OpenCL: for the few nodes
// above the parts of a tree built on several devices or hosts. Every level t keeps from `level`
// up is written into t, level `level` itself included (its nodes may come from elsewhere, as
// other MPI ranks' part roots do). Returns t's root, extended to a fixed depth when
// options().depth asks.
inline digest finish_tree(tree &t, unsigned level, const std::vector<digest> &nodes) {
  if (level > t.depth())
    throw error("finish_tree: level " + std::to_string(level) + " is above the tree's top level " +
                std::to_string(t.depth()));
  if (nodes.size() != t.layout().level_size(level))
    throw error("finish_tree: level " + std::to_string(level) + " has " +
                std::to_string(t.layout().level_size(level)) + " nodes, " +
                std::to_string(nodes.size()) + " were given");
  const unsigned root_level = t.root_depth();
  const auto zeros = zero_subtree_roots(t.options().hash, t.depth());
  detail::store_level(t, level, nodes);
  std::vector<digest> current = nodes;
  for (unsigned k = level + 1; k <= t.depth(); ++k) {
    current = detail::level_above(t.options(), k, root_level, current, zeros);
    detail::store_level(t, k, current);
  }
  return extend_root(t.options().hash, current.front(), t.depth(), root_level);
}

} // namespace merklize
