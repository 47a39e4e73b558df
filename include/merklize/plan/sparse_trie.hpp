// SPDX-License-Identifier: Apache-2.0 OR MIT
// The shape of a sparse Merkle tree (core/sparse.hpp) kept on the host, and the plan of each batch
// of updates for the device: pure, no OpenCL, tested without a device.
//
// A sparse tree of m keys has m * depth nodes off the empty subtrees, too many to keep; but only
// its branches (nodes with keys on both sides) and leaves carry information: every other node on
// a key's path is its child hashed with an empty subtree z[h] on the side the key's bit says.
// So the trie keeps the leaves (key, value) and the m - 1 branches (height, prefix, two
// children), each in a slot that the device mirrors (leaves' keys and values, branches'
// prefixes and digests). A batch changes the trie on the host (each key's last value: inserted,
// changed, or deleted where zero) and marks the branches whose subtree changed; the plan lists
// the slots to write and the dirty branches by height, lowest first, a launch a height: a
// branch's children are lower, so each launch reads only what earlier ones wrote.
#pragma once

#include "../core/sparse.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace merklize {

// A node of the trie: a leaf slot, or a branch slot with the top bit set; `none` for no node.
using sparse_ref = std::uint32_t;
constexpr sparse_ref sparse_branch_bit = 0x80000000u, sparse_none = 0xffffffffu;

// A dirty branch as the device reads it (8 x uint32): its slot, its children (sparse_ref) and
// their heights, its own height.
struct sparse_entry {
  std::uint32_t branch, child[2], child_height[2], height, unused[2];
};

struct sparse_plan {
  std::vector<std::uint32_t> leaf_slots; // leaves written: key and value
  std::vector<digest> leaf_keys, leaf_values;
  std::vector<std::uint32_t> branch_slots; // branches made by the batch: their prefixes
  std::vector<digest> branch_prefixes;
  std::vector<sparse_entry> entries;                           // dirty branches, lowest first
  std::vector<std::pair<std::uint32_t, std::uint32_t>> groups; // (first entry, count) a height
};

// Where a key's path leaves the trie: the branches passed (height and the other child), then a
// leaf holding the key (found), or the node `end` whose prefix differs from the key's first at
// bit `differs` (the key is absent; `end` is the sibling at that height), or an empty tree.
struct sparse_path {
  std::vector<std::pair<unsigned, sparse_ref>> passed;
  sparse_ref end = sparse_none;
  bool found = false;
  int differs = -1;
};

// The highest bit at which two keys differ, or -1 where they are equal.
inline int highest_difference(const digest &a, const digest &b) {
  for (unsigned byte = 0; byte < node_bytes; ++byte)
    if (a[byte] != b[byte]) {
      const unsigned x = a[byte] ^ b[byte];
      return static_cast<int>((node_bytes - 1 - byte) * 8 + 31 - __builtin_clz(x));
    }
  return -1;
}

// Clears a 32-byte big-endian key's `bits` lowest bits (a branch's prefix keeps the bits above
// its height): whole bytes, then the part of one.
inline void clear_low_bits(digest &key, unsigned bits) {
  for (unsigned byte = 0; byte < bits / 8; ++byte)
    key[node_bytes - 1 - byte] = 0;
  if (bits % 8) key[node_bytes - 1 - bits / 8] &= static_cast<std::uint8_t>(0xffu << (bits % 8));
}

class sparse_trie {
public:
  explicit sparse_trie(unsigned depth)
      : depth_((check_sparse_options({hash_kind::blake3, depth}), depth)) {}

  // Applies a batch (keys[k] takes values[k], the last of a repeated key wins, zero deletes) and
  // returns what the device must do. Checks every key first: a refused batch changes nothing.
  sparse_plan apply(const digest *keys, const digest *values, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k)
      check_sparse_key({hash_kind::blake3, depth_}, keys[k]);
    batch_.begin();
    for (const std::size_t k : last_of_each_key(keys, count)) {
      if (values[k] == digest{})
        erase(keys[k]);
      else
        insert(keys[k], values[k]);
    }
    return plan();
  }

  unsigned depth() const { return depth_; }
  sparse_ref root() const { return root_; }
  std::size_t size() const { return size_; }
  // Slots the device mirrors: every slot ever used (freed ones are reused first).
  std::uint32_t leaf_slots() const { return static_cast<std::uint32_t>(leaves_.size()); }
  std::uint32_t branch_slots() const { return static_cast<std::uint32_t>(branches_.size()); }

  static bool is_branch(sparse_ref r) { return r != sparse_none && (r & sparse_branch_bit); }
  unsigned height_of(sparse_ref r) const { return is_branch(r) ? branch(r).height : 0; }
  // A leaf's key, or a branch's prefix (its keys' bits from its height up, zeros below).
  const digest &key_of(sparse_ref r) const {
    return is_branch(r) ? branch(r).prefix : leaves_[r].key;
  }
  const digest &value_of(sparse_ref leaf) const { return leaves_[leaf].value; }

  sparse_path path(const digest &key) const {
    sparse_path p;
    for (sparse_ref r = root_; r != sparse_none;) {
      const int differs = highest_difference(key, key_of(r));
      if (!is_branch(r) && differs < 0) return p.end = r, p.found = true, p;
      if (differs >= static_cast<int>(height_of(r))) return p.end = r, p.differs = differs, p;
      const unsigned height = branch(r).height;
      const bool right = key_bit(key, height - 1);
      p.passed.emplace_back(height, branch(r).child[!right]);
      r = branch(r).child[right];
    }
    return p;
  }

private:
  struct branch_node {
    sparse_ref child[2];
    sparse_ref parent;
    unsigned height;
    digest prefix;
  };
  struct leaf_node {
    digest key, value;
    sparse_ref parent;
  };
  // A set of slots for one batch: each slot marked with the batch's generation, so a batch
  // starts empty without clearing, and a list of the slots marked (an unmarked slot may stay
  // listed; sorted() drops it). Flat arrays where a std::set cost a node allocation and a walk of
  // a tree per insertion.
  class slot_set {
  public:
    // Marks `slot`; false where it was marked already.
    bool insert(std::uint32_t slot, std::uint32_t generation) {
      if (slot >= marks_.size()) marks_.resize(std::max<std::size_t>(slot + 1, 2 * marks_.size()));
      if (marks_[slot] == generation) return false;
      marks_[slot] = generation;
      listed_.push_back(slot);
      return true;
    }
    void erase(std::uint32_t slot) {
      if (slot < marks_.size()) marks_[slot] = 0;
    }
    void clear(bool forget_marks) {
      listed_.clear();
      if (forget_marks) std::fill(marks_.begin(), marks_.end(), 0);
    }
    // The slots marked with `generation`, ascending, once each.
    std::vector<std::uint32_t> sorted(std::uint32_t generation) const {
      std::vector<std::uint32_t> out;
      for (const std::uint32_t slot : listed_)
        if (marks_[slot] == generation) out.push_back(slot);
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      return out;
    }

  private:
    std::vector<std::uint32_t> marks_, listed_;
  };

  // The batch's bookkeeping: live slots written, branches made, branches to recompute.
  struct batch_marks {
    slot_set leaves, made, dirty;
    std::uint32_t generation = 0; // 0 marks no slot

    void begin() {
      const bool wrapped = ++generation == 0;
      if (wrapped) generation = 1; // after 2^32 - 1 batches: old marks could pass for new ones
      leaves.clear(wrapped);
      made.clear(wrapped);
      dirty.clear(wrapped);
    }
    bool mark_leaf(std::uint32_t slot) { return leaves.insert(slot, generation); }
    bool mark_made(std::uint32_t slot) { return made.insert(slot, generation); }
    bool mark_dirty(std::uint32_t slot) { return dirty.insert(slot, generation); }
  };

  const branch_node &branch(sparse_ref r) const { return branches_[r & ~sparse_branch_bit]; }
  branch_node &branch(sparse_ref r) { return branches_[r & ~sparse_branch_bit]; }
  sparse_ref &parent_of(sparse_ref r) {
    return is_branch(r) ? branch(r).parent : leaves_[r].parent;
  }

  // The position of each key's last occurrence, in key order. Sorts (first 8 bytes, position)
  // pairs, the full keys compared only where those bytes tie: sorting positions through the keys
  // read a random 32 bytes per comparison.
  static std::vector<std::size_t> last_of_each_key(const digest *keys, std::size_t count) {
    struct keyed {
      std::uint64_t top; // the key's first 8 bytes, big-endian: ordered as the key
      std::size_t at;
    };
    std::vector<keyed> order(count);
    for (std::size_t k = 0; k < count; ++k) {
      std::uint64_t top = 0;
      for (unsigned byte = 0; byte < 8; ++byte)
        top = top << 8 | keys[k][byte];
      order[k] = {top, k};
    }
    std::sort(order.begin(), order.end(), [&](const keyed &a, const keyed &b) {
      if (a.top != b.top) return a.top < b.top;
      const int c = std::memcmp(keys[a.at].data() + 8, keys[b.at].data() + 8, node_bytes - 8);
      return c != 0 ? c < 0 : a.at < b.at;
    });
    std::vector<std::size_t> last;
    for (std::size_t i = 0; i < order.size(); ++i)
      if (i + 1 == order.size() || keys[order[i + 1].at] != keys[order[i].at])
        last.push_back(order[i].at);
    return last;
  }

  // Where `child` hangs: its parent's child slot, or the root.
  sparse_ref &slot_of(sparse_ref child) {
    const sparse_ref parent = parent_of(child);
    if (parent == sparse_none) return root_;
    branch_node &b = branch(parent);
    return b.child[b.child[1] == child];
  }

  void mark_up(sparse_ref r) {
    for (; r != sparse_none && batch_.mark_dirty(r & ~sparse_branch_bit); r = branch(r).parent) {
    }
  }

  sparse_ref new_leaf(const digest &key, const digest &value, sparse_ref parent) {
    const sparse_ref r = take(free_leaves_, leaves_);
    leaves_[r] = {key, value, parent};
    batch_.mark_leaf(r);
    ++size_;
    return r;
  }

  template <typename node>
  static sparse_ref take(std::vector<sparse_ref> &free, std::vector<node> &v) {
    if (free.empty()) {
      if (v.size() >= sparse_branch_bit - 1)
        throw error("a sparse tree holds fewer than 2^31 keys");
      v.emplace_back();
      return static_cast<sparse_ref>(v.size() - 1);
    }
    const sparse_ref r = free.back();
    free.pop_back();
    return r;
  }

  void insert(const digest &key, const digest &value) {
    if (root_ == sparse_none) return void(root_ = new_leaf(key, value, sparse_none));
    sparse_ref r = root_;
    for (;;) {
      const int differs = highest_difference(key, key_of(r));
      if (!is_branch(r) && differs < 0) { // the key is there: a new value
        leaves_[r].value = value;
        batch_.mark_leaf(r);
        return mark_up(leaves_[r].parent);
      }
      if (differs >= static_cast<int>(height_of(r))) return split_above(r, key, value, differs);
      r = branch(r).child[key_bit(key, branch(r).height - 1)];
    }
  }

  // A branch at height differs + 1 in r's place, with r and a new leaf below it.
  void split_above(sparse_ref r, const digest &key, const digest &value, int differs) {
    const sparse_ref b = take(free_branches_, branches_) | sparse_branch_bit;
    const sparse_ref parent = parent_of(r);
    slot_of(r) = b;
    const bool right = key_bit(key, static_cast<unsigned>(differs));
    branch_node &n = branch(b);
    n.height = static_cast<unsigned>(differs) + 1;
    n.prefix = key;
    clear_low_bits(n.prefix, n.height);
    n.parent = parent;
    n.child[!right] = r;
    parent_of(r) = b;
    n.child[right] = new_leaf(key, value, b);
    batch_.mark_made(b & ~sparse_branch_bit);
    mark_up(b);
  }

  void erase(const digest &key) {
    const sparse_path p = path(key);
    if (!p.found) return; // absent already
    const sparse_ref leaf = p.end, parent = leaves_[leaf].parent;
    free_leaf(leaf);
    if (parent == sparse_none) return void(root_ = sparse_none);
    branch_node &b = branch(parent);
    const sparse_ref sibling = b.child[b.child[0] == leaf], grandparent = b.parent;
    slot_of(parent) = sibling; // the sibling takes its parent's place
    parent_of(sibling) = grandparent;
    const std::uint32_t slot = parent & ~sparse_branch_bit;
    batch_.made.erase(slot);
    batch_.dirty.erase(slot);
    free_branches_.push_back(parent);
    mark_up(grandparent);
  }

  void free_leaf(sparse_ref leaf) {
    batch_.leaves.erase(leaf);
    free_leaves_.push_back(leaf);
    --size_;
  }

  sparse_plan plan() const {
    sparse_plan p;
    for (const std::uint32_t slot : batch_.leaves.sorted(batch_.generation)) {
      p.leaf_slots.push_back(slot);
      p.leaf_keys.push_back(leaves_[slot].key);
      p.leaf_values.push_back(leaves_[slot].value);
    }
    for (const std::uint32_t slot : batch_.made.sorted(batch_.generation)) {
      p.branch_slots.push_back(slot);
      p.branch_prefixes.push_back(branches_[slot].prefix);
    }
    for (const std::uint32_t slot : batch_.dirty.sorted(batch_.generation)) {
      const branch_node &b = branches_[slot];
      p.entries.push_back({slot,
                           {b.child[0], b.child[1]},
                           {height_of(b.child[0]), height_of(b.child[1])},
                           b.height,
                           {0, 0}});
    }
    std::stable_sort(
        p.entries.begin(), p.entries.end(),
        [](const sparse_entry &a, const sparse_entry &b) { return a.height < b.height; });
    for (std::uint32_t i = 0; i < p.entries.size(); ++i)
      if (i == 0 || p.entries[i].height != p.entries[i - 1].height)
        p.groups.emplace_back(i, 0);
      else
        ++p.groups.back().second;
    for (auto &group : p.groups)
      ++group.second;
    return p;
  }

  unsigned depth_;
  std::vector<branch_node> branches_;
  std::vector<leaf_node> leaves_;
  std::vector<sparse_ref> free_branches_, free_leaves_;
  sparse_ref root_ = sparse_none;
  std::size_t size_ = 0;
  batch_marks batch_;
};

} // namespace merklize
