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

#include <cstdint>
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

// A built tree held in host memory, in the layout above.
class tree {
public:
  tree(std::uint64_t leaf_count, tree_options options)
      : layout_(leaf_count), options_(options), bytes_(layout_.node_count() * node_bytes) {}

  const tree_layout &layout() const { return layout_; }
  const tree_options &options() const { return options_; }
  std::uint64_t leaf_count() const { return layout_.leaf_count(); }
  unsigned depth() const { return layout_.depth(); }

  digest root() const { return node(depth(), 0); }

  digest node(unsigned level, std::uint64_t index) const {
    if (level > depth())
      throw error("level " + std::to_string(level) + " out of range: the tree has levels 0.." +
                  std::to_string(depth()));
    if (index >= layout_.level_size(level))
      throw error("node " + std::to_string(index) + " out of range: level " +
                  std::to_string(level) + " has " + std::to_string(layout_.level_size(level)) +
                  " nodes");
    digest d;
    const std::uint8_t *p = level_data(level) + index * node_bytes;
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
    return bytes_.data() + layout_.level_offset(level) * node_bytes;
  }

  // Every node in the documented layout; builders write through the non-const overload.
  const std::vector<std::uint8_t> &bytes() const { return bytes_; }
  std::vector<std::uint8_t> &bytes() { return bytes_; }

private:
  tree_layout layout_;
  tree_options options_;
  std::vector<std::uint8_t> bytes_;
};

} // namespace merklize
