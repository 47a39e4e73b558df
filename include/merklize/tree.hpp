// The tree convention, its memory layout, and the host-side tree object.
//
// Level 0 holds the N leaves; level k+1 holds ceil(size_k / 2) nodes, node i being
// NODE(level_k[2i], level_k[2i+1]); the last level holds the root alone. A level of odd size ends
// with a lone node, which shape::promote moves up unchanged and shape::zero hashes with the root
// of an all-zero subtree of its height (as if the leaves were padded with 32-byte zero leaves to
// the next power of two). Both shapes therefore store the same number of nodes per level.
//
// Memory layout: every level, leaves first and root last, back to back, 32 bytes a node.
#pragma once

#include "blake3.hpp"
#include "digest.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace merklize {

enum class hash_kind {
  blake3,        // node = BLAKE3(left || right), the standard hash of the 64 bytes
  blake3_parent, // node = BLAKE3 parent compression; ROOT on the root only
};

enum class shape {
  promote, // a lone last node of a level moves up unchanged (BLAKE3, RFC 6962)
  zero,    // leaves padded with zero leaves up to the next power of two (SSZ)
};

inline const char *to_string(hash_kind h) {
  return h == hash_kind::blake3 ? "blake3" : "blake3-parent";
}

inline const char *to_string(shape s) { return s == shape::promote ? "promote" : "zero"; }

inline hash_kind parse_hash_kind(const std::string &name) {
  if (name == "blake3") return hash_kind::blake3;
  if (name == "blake3-parent") return hash_kind::blake3_parent;
  throw error("unknown hash \"" + name + "\" (known: blake3, blake3-parent)");
}

inline shape parse_shape(const std::string &name) {
  if (name == "promote") return shape::promote;
  if (name == "zero") return shape::zero;
  throw error("unknown shape \"" + name + "\" (known: promote, zero)");
}

struct tree_options {
  hash_kind hash = hash_kind::blake3;
  shape pad = shape::promote;
};

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

// The node hash on the host, for checks, padding nodes and proofs.
inline digest node_hash(hash_kind hash, const digest &left, const digest &right, bool is_root) {
  using namespace blake3;
  if (hash == hash_kind::blake3) return compress_pair(left, right, chunk_start | chunk_end | root);
  return compress_pair(left, right, parent | (is_root ? root : 0u));
}

// zero_subtree_roots(h, d)[k]: the root of a subtree of height k whose leaves are all zero.
inline std::vector<digest> zero_subtree_roots(hash_kind hash, unsigned height) {
  std::vector<digest> roots(1, digest{});
  for (unsigned k = 1; k <= height; ++k)
    roots.push_back(node_hash(hash, roots.back(), roots.back(), false));
  return roots;
}

// Which levels a build keeps: all of them (leaves included), those from a level up, or the root.
struct output_levels {
  unsigned first = 0; // clamped to the tree's depth, so root_only() keeps just the root

  static output_levels all_nodes() { return {0}; }
  static output_levels from_level(unsigned level) { return {level}; }
  static output_levels root_only() { return {~0u}; }
};

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

  digest root() const { return node(depth(), 0); }

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
        a.options_.hash != b.options_.hash || a.options_.pad != b.options_.pad)
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

} // namespace merklize
