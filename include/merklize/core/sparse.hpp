// SPDX-License-Identifier: Apache-2.0 OR MIT
// Sparse Merkle trees: a tree of 2^depth leaves addressed by key, almost all of them
// empty, computed on the host. The rule, which the device's sparse tree and every proof follow:
//
//   - a key is a depth-bit number, written as 32 bytes big-endian (its top 256 - depth bits zero);
//     the path from the root reads the key's bits from bit depth-1 down to bit 0, 0 = left;
//   - a leaf holds a 32-byte value as given; the empty leaf is 32 zero bytes, so a key set to zero
//     is a key deleted, and the tree does not depend on the order keys came in;
//   - node = node_hash(left, right) of the tree's hash (the ROOT flag on the root for blake3);
//   - an empty subtree of height h has the root z[h]: z[0] = 32 zero bytes, z[h] = node(z[h-1],
//     z[h-1]) (zero_subtree_roots), so the empty tree's root is z[depth] (flagged as a root).
//
// A proof of a key lists the `depth` siblings of its path, bottom up, with the key's value: a
// value of zero proves the key absent (non-membership), any other proves it present. This is the
// plain sparse Merkle tree of Ethereum's deposit-style accumulators and of SP1's and Jellyfish's
// batched updates, without their leaf-hashing or path-compression variants.
//
// This file is the host reference: simple, O(keys x depth) hashes a root, the oracle the device's
// tree and the bindings are held to.
#pragma once

#include "node_rule.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace merklize {

struct sparse_options {
  hash_kind hash = hash_kind::blake3; // the library's default, as tree_options'
  unsigned depth = 256;               // 1 .. 256
};

inline void check_sparse_options(const sparse_options &options) {
  if (options.depth < 1 || options.depth > 256)
    throw error("sparse tree depth " + std::to_string(options.depth) +
                " is out of range: a sparse tree's keys have 1 to 256 bits");
}

// Bit `bit` (0 = least significant) of a 32-byte big-endian key.
inline bool key_bit(const digest &key, unsigned bit) {
  return (key[node_bytes - 1 - bit / 8] >> (bit % 8)) & 1u;
}

// Refuses a key with bits at or above `depth`, naming it.
inline void check_sparse_key(const sparse_options &options, const digest &key) {
  for (unsigned bit = options.depth; bit < 8 * node_bytes; ++bit)
    if (key_bit(key, bit))
      throw error("sparse key " + to_hex(key) + " has bit " + std::to_string(bit) +
                  " set: a tree of depth " + std::to_string(options.depth) +
                  " takes keys below 2^" + std::to_string(options.depth));
}

// `node`, the root of a subtree of height `from` on `key`'s path, hashed up to height `to` with
// the empty subtrees zeros[h] beside it (on the side the key's bit h says); the hash that makes
// the tree's root (height depth) takes the ROOT flag.
inline digest sparse_raise(const sparse_options &options, const std::vector<digest> &zeros,
                           digest node, const digest &key, unsigned from, unsigned to) {
  for (unsigned height = from; height < to; ++height) {
    const bool is_root = height + 1 == options.depth;
    node = key_bit(key, height) ? node_hash(options.hash, zeros[height], node, is_root)
                                : node_hash(options.hash, node, zeros[height], is_root);
  }
  return node;
}

// The root of the tree of no keys: z[depth], as the root (blake3's ROOT flag).
inline digest sparse_empty_root(const sparse_options &options, const std::vector<digest> &zeros) {
  return node_hash(options.hash, zeros[options.depth - 1], zeros[options.depth - 1], true);
}

// A key's value and the siblings of its path, bottom up (siblings[h]: the sibling of the path's
// node at height h).
struct sparse_proof {
  digest key{};
  digest value{}; // zero: the key is absent
  std::vector<digest> siblings;

  bool proves_absence() const { return value == digest{}; }
};

// The root a proof leads to, or an error naming what is wrong with it: a value or a sibling that
// is not a canonical element of a hash over field elements too (it would hash as its value mod
// p: another proof of the same key).
inline digest sparse_proof_root(const sparse_options &options, const sparse_proof &proof) {
  check_sparse_options(options);
  check_sparse_key(options, proof.key);
  if (proof.siblings.size() != options.depth)
    throw error("a sparse proof of depth " + std::to_string(options.depth) + " has " +
                std::to_string(options.depth) + " siblings, this one " +
                std::to_string(proof.siblings.size()));
  if (row_of(options.hash).non_canonical) {
    std::string why = digest_refusal(options.hash, proof.value, "the value");
    for (std::size_t h = 0; why.empty() && h < proof.siblings.size(); ++h)
      why = digest_refusal(options.hash, proof.siblings[h], "sibling " + std::to_string(h));
    if (!why.empty()) throw error("invalid proof: " + why);
  }
  digest node = proof.value;
  for (unsigned height = 0; height < options.depth; ++height) {
    const bool is_root = height + 1 == options.depth;
    node = key_bit(proof.key, height)
               ? node_hash(options.hash, proof.siblings[height], node, is_root)
               : node_hash(options.hash, node, proof.siblings[height], is_root);
  }
  return node;
}

// Whether `proof` shows its key holding its value (or absent, for a zero value) under `root`.
inline bool sparse_verify(const sparse_options &options, const digest &root,
                          const sparse_proof &proof) {
  return sparse_proof_root(options, proof) == root;
}

class sparse_reference {
public:
  explicit sparse_reference(sparse_options options)
      : options_((check_sparse_options(options), options)),
        zeros_(zero_subtree_roots(options.hash, options.depth)), root_(subtree_root({}, 0, 0)) {}

  // Key keys[k] takes values[k] (zero deletes it); a repeated key takes its last value. A batch
  // with a key out of range, or fewer values than keys, is refused whole. Returns the new root.
  digest update(const std::vector<digest> &keys, const std::vector<digest> &values) {
    if (keys.size() != values.size())
      throw error("sparse update: " + std::to_string(keys.size()) + " keys but " +
                  std::to_string(values.size()) + " values; give a value for each key");
    for (const digest &key : keys)
      check_sparse_key(options_, key);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (values[k] == digest{})
        leaves_.erase(keys[k]);
      else
        leaves_[keys[k]] = values[k];
    }
    const std::vector<std::pair<digest, digest>> sorted(leaves_.begin(), leaves_.end());
    root_ = subtree_root(sorted, 0, sorted.size());
    return root_;
  }

  const digest &root() const { return root_; }
  std::size_t size() const { return leaves_.size(); } // keys holding a value
  const sparse_options &options() const { return options_; }

  digest value(const digest &key) const {
    check_sparse_key(options_, key);
    const auto found = leaves_.find(key);
    return found == leaves_.end() ? digest{} : found->second;
  }

  sparse_proof prove(const digest &key) const {
    sparse_proof proof{key, value(key), std::vector<digest>(options_.depth)};
    const std::vector<std::pair<digest, digest>> sorted(leaves_.begin(), leaves_.end());
    std::size_t lo = 0, hi = sorted.size();
    for (unsigned height = options_.depth; height > 0; --height) {
      const std::size_t mid = split(sorted, lo, hi, height - 1);
      const bool right = key_bit(key, height - 1);
      proof.siblings[height - 1] =
          right ? below(sorted, lo, mid, height - 1) : below(sorted, mid, hi, height - 1);
      (right ? lo : hi) = mid;
    }
    return proof;
  }

private:
  using sorted_leaves = std::vector<std::pair<digest, digest>>;

  // The first of sorted[lo, hi) (keys agreeing above `bit`) whose bit `bit` is set.
  static std::size_t split(const sorted_leaves &sorted, std::size_t lo, std::size_t hi,
                           unsigned bit) {
    return static_cast<std::size_t>(
        std::partition_point(sorted.begin() + static_cast<std::ptrdiff_t>(lo),
                             sorted.begin() + static_cast<std::ptrdiff_t>(hi),
                             [&](const auto &leaf) { return !key_bit(leaf.first, bit); }) -
        sorted.begin());
  }

  // The root of the subtree of height `height` holding sorted[lo, hi).
  digest below(const sorted_leaves &sorted, std::size_t lo, std::size_t hi, unsigned height) const {
    if (lo == hi) return zeros_[height];
    if (height == 0) return sorted[lo].second;
    const std::size_t mid = split(sorted, lo, hi, height - 1);
    return node_hash(options_.hash, below(sorted, lo, mid, height - 1),
                     below(sorted, mid, hi, height - 1), height == options_.depth);
  }

  digest subtree_root(const sorted_leaves &sorted, std::size_t lo, std::size_t hi) const {
    if (lo == hi) return sparse_empty_root(options_, zeros_);
    return below(sorted, lo, hi, options_.depth);
  }

  sparse_options options_;
  std::vector<digest> zeros_; // zero_subtree_roots: z[0 .. depth], unflagged
  std::map<digest, digest> leaves_;
  digest root_;
};

} // namespace merklize
