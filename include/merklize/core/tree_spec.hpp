// SPDX-License-Identifier: Apache-2.0 OR MIT
// A tree as a specification: where its leaves come from and how they are hashed, how a node is
// made of its children (a node hash of hashes.hpp over `arity` children, or another system's pair
// hash), what a level does with a lone last node (the shape), a fixed depth, the length SSZ mixes
// into a list's root. Every named tree kind is one of these (formats/presets.hpp, a row each);
// check_tree_spec says what does not go together. The existing option types are its parts:
// tree_options (hash, shape, depth), kary_options, leaf_rule, entry_framing. No OpenCL.
#pragma once

#include "block_leaves.hpp"
#include "entries.hpp"
#include "error_type.hpp"
#include "kary.hpp"
#include "pair_hash.hpp"
#include "tree.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace merklize {

// Where a tree's leaves come from.
enum class leaf_source {
  digests,       // 32-byte leaves as given (binary, k-ary and SSZ trees, Bitcoin's txids)
  blocks,        // data blocks, each hashed by the spec's leaf_rule (--leaf-size, dm-verity, ...)
  entries,       // a log's entries, framed (entry_framing), each RFC 6962's leaf hash
  blake3_chunks, // BLAKE3's 1024-byte chunks, each its chaining value (Bao, formats/bao.hpp)
  abi_values,    // ABI-encoded values, each Keccak-256 twice (OpenZeppelin, oz_standard.hpp)
  fr32_chunks,   // data Fr32-padded (127 bytes to 128), each 32 bytes a leaf (Filecoin tree_d)
};

inline const char *to_string(leaf_source s) {
  static const char *const names[] = {"digests",       "blocks",     "entries",
                                      "blake3-chunks", "abi-values", "fr32-chunks"};
  return names[static_cast<unsigned>(s)];
}

struct tree_spec {
  leaf_source leaves = leaf_source::digests;
  std::optional<leaf_rule> leaf;        // leaves blocks: how a data block becomes a leaf
  std::optional<entry_framing> framing; // leaves entries: how the entries lie in the input
  bool sort_leaves = false; // the leaves in ascending byte order, not the input's (OpenZeppelin)
  hash_kind node = hash_kind::blake3; // node = node(children), unless `pair` is set
  std::optional<pair_hash> pair;      // another system's pair hash instead of `node`
  unsigned arity = 2;                 // children a node (k-ary trees, hash blocks)
  merklize::shape shape = shape::promote;
  std::optional<unsigned> depth;            // shape zero: the root is that of 2^depth leaves
  std::optional<leaf_rule> hash_block_rule; // shape hash_blocks: how a hash block is hashed
  bool mix_in_length = false;               // SSZ's list: the root is SHA-256(root || leaf count)
};

// The binary tree of `options` (node hash, shape promote or zero, fixed depth) as a specification
// of 32-byte leaves as given.
inline tree_spec spec_of(const tree_options &options) {
  tree_spec spec;
  spec.node = options.hash;
  spec.shape = options.shape;
  spec.depth = options.depth;
  return spec;
}

// The binary tree of node hash and shape promote or zero as the engine takes it.
inline tree_options tree_options_of(const tree_spec &spec) {
  return {spec.node, spec.shape == shape::zero ? shape::zero : shape::promote, spec.depth};
}

// The k-ary tree's options (arity > 2, shapes promote and zero).
inline kary_options kary_options_of(const tree_spec &spec) {
  return {spec.node, spec.arity, spec.shape == shape::zero ? shape::zero : shape::promote};
}

namespace detail {

[[noreturn]] inline void bad_spec(const std::string &why) {
  throw error("tree specification: " + why);
}

inline void check_spec_leaves(const tree_spec &spec) {
  if ((spec.leaves == leaf_source::blocks) != spec.leaf.has_value())
    bad_spec(std::string("a leaf rule is for leaves from data blocks only, and they need one ") +
             "(leaves " + to_string(spec.leaves) + ")");
  if (spec.leaf) check_leaf_rule(*spec.leaf);
  if (spec.leaf && row_of(spec.node).no_blocks)
    bad_spec(std::string(to_string(spec.node)) + ": " + row_of(spec.node).no_blocks);
  if ((spec.leaves == leaf_source::entries) != spec.framing.has_value())
    bad_spec(std::string("an entry framing is for leaves from a log's entries only, and they ") +
             "need one (leaves " + to_string(spec.leaves) + ")");
  if (spec.leaves == leaf_source::blake3_chunks &&
      (spec.node != hash_kind::blake3_parent || spec.shape != shape::promote))
    bad_spec("BLAKE3's chunks make BLAKE3's tree: node hash blake3-parent, shape promote");
}

inline void check_spec_pairs(const tree_spec &spec) {
  const bool pair_shape = spec.shape == shape::duplicate_odd || spec.shape == shape::power_of_two ||
                          spec.shape == shape::heap;
  if (spec.pair.has_value() != pair_shape)
    bad_spec(std::string("shape ") + to_string(spec.shape) +
             (pair_shape ? " is a pair hash's shape: it needs one"
                         : " takes a node hash, not a pair hash"));
  if (spec.pair && spec.arity != 2)
    bad_spec(std::string("pair hash ") + to_string(*spec.pair) + " hashes pairs: arity 2");
}

inline void check_spec_blocks(const tree_spec &spec) {
  if ((spec.shape == shape::hash_blocks) != spec.hash_block_rule.has_value())
    bad_spec("a hash block rule is for shape hash-blocks only, and that shape needs one");
  if (!spec.hash_block_rule) return;
  check_leaf_rule(*spec.hash_block_rule);
  if (spec.hash_block_rule->block_bytes != std::uint64_t(spec.arity) * node_bytes)
    bad_spec("a hash block of " + std::to_string(spec.hash_block_rule->block_bytes) +
             " bytes holds " + std::to_string(spec.hash_block_rule->block_bytes / node_bytes) +
             " digests, not arity " + std::to_string(spec.arity));
}

} // namespace detail

// A specification whose parts do not go together is refused, naming them; the parts are checked
// by their own checks (check_leaf_rule, check_tree_options, check_kary).
inline void check_tree_spec(const tree_spec &spec) {
  detail::check_spec_leaves(spec);
  detail::check_spec_pairs(spec);
  detail::check_spec_blocks(spec);
  if (spec.depth && spec.shape != shape::zero)
    detail::bad_spec("a fixed depth (" + std::to_string(*spec.depth) +
                     ") needs shape zero: no other shape pads with zero leaves");
  if (spec.shape == shape::promote || spec.shape == shape::zero) {
    check_tree_options(tree_options_of(spec));
    if (spec.arity != 2) check_kary(kary_options_of(spec));
    if (spec.arity != 2 && spec.depth) detail::bad_spec("a k-ary tree takes no fixed depth");
  }
  if (spec.mix_in_length && (spec.node != hash_kind::sha256 || spec.shape != shape::zero ||
                             !spec.depth || spec.arity != 2))
    detail::bad_spec("a length mixed in is SSZ's list root: sha256, shape zero, a fixed depth");
}

} // namespace merklize
