// SPDX-License-Identifier: Apache-2.0 OR MIT
// The node rules: which hash makes a node of its two children (hash_kind, hashes.hpp), what becomes
// of the lone last node of a level (shape), and the all-zero subtrees that shape zero and fixed
// depths hash with. Host code, no OpenCL: the devices' kernels implement the same rules
// (kernels/*.cl), and tests hold the two against each other.
#pragma once

#include "digest.hpp"
#include "hashes.hpp"
#include "quote.hpp"

#include <optional>
#include <string>
#include <vector>

namespace merklize {

// What a level does with a lone last node, named as the code that builds each does. The binary
// and k-ary trees of tree_options and kary_options take promote and zero; the others are the
// shapes of other systems' trees (tree_spec.hpp, formats/).
enum class shape {
  promote,       // moves up unchanged (BLAKE3, RFC 6962)
  zero,          // hashed with a zero subtree's root: leaves padded with zero leaves up to the
                 // next power of two (SSZ)
  duplicate_odd, // paired with itself (pair_rules.hpp; Bitcoin)
  power_of_two,  // the leaves zero-padded to a power of two (pair_rules.hpp; Filecoin)
  heap,          // OpenZeppelin's complete tree in an array of 2n - 1 nodes (pair_rules.hpp);
                 // with the sorted pair hash keccak256_sorted, its "sorted pairs"
  hash_blocks,   // arity digests packed into a zero-padded hash block, the block hashed by
                 // the spec's hash_block_rule (verity_tree.hpp; dm-verity, fs-verity)
};

inline const char *to_string(shape s) {
  static const char *const names[] = {"promote",      "zero", "duplicate-odd",
                                      "power-of-two", "heap", "hash-blocks"};
  return names[static_cast<unsigned>(s)];
}

inline shape parse_shape(const std::string &name) {
  if (name == "promote") return shape::promote;
  if (name == "zero") return shape::zero;
  throw error("unknown shape " + detail::quoted(name) + " (known: promote, zero)");
}

struct tree_options {
  // A constructor rather than an aggregate, so {hash, pad} leaves depth unset without warnings.
  tree_options(hash_kind hash_ = hash_kind::blake3, merklize::shape shape_ = shape::promote,
               std::optional<unsigned> depth_ = std::nullopt)
      : hash(hash_), shape(shape_), depth(depth_) {}

  hash_kind hash;
  merklize::shape shape; // promote or zero
  // Shape zero only: the root is that of 2^depth leaves, the N given and zero leaves after
  // them (SSZ's limit). Unset: the natural depth ceil(log2 N). See root_depth().
  std::optional<unsigned> depth;
};

// Refuses a hash and shape that do not go together: rfc6962 is the RFC's tree, shape promote
// (RFC 6962 2.1 splits at the largest power of two, which is what promote computes), never
// padded with zero leaves.
inline void check_tree_options(const tree_options &options) {
  if (options.hash == hash_kind::rfc6962 && options.shape != shape::promote)
    throw error("hash rfc6962 has shape promote only: RFC 6962's tree moves a lone node up and "
                "never pads with zero leaves");
}

// The node hash on the host, for checks, padding nodes and proofs: the table's host reference.
inline digest node_hash(hash_kind hash, const digest &left, const digest &right, bool is_root) {
  return row_of(hash).node(left, right, is_root);
}

// zero_subtree_roots(h, d)[k]: the root of a subtree of height k whose leaves are all zero.
inline std::vector<digest> zero_subtree_roots(hash_kind hash, unsigned height) {
  std::vector<digest> roots(1, digest{});
  for (unsigned k = 1; k <= height; ++k)
    roots.push_back(node_hash(hash, roots.back(), roots.back(), false));
  return roots;
}

// The root of a zero-padded tree of depth `to` whose level `from` holds only `top` and zero
// subtrees: `top` hashed with zero-subtree roots of heights from .. to - 1, so no padding is
// ever hashed. The last of these hashes is the root (for blake3-parent's ROOT flag).
inline digest extend_root(hash_kind hash, digest top, unsigned from, unsigned to) {
  if (from >= to) return top;
  const auto zeros = zero_subtree_roots(hash, to);
  for (unsigned height = from; height < to; ++height)
    top = node_hash(hash, top, zeros[height], height + 1 == to);
  return top;
}

// The root of a tree of no leaves (N = 0), where the tree's rules give one: for rfc6962 SHA-256
// of the empty string (RFC 6962 2.1, MTH({})), for shape zero with a fixed depth D the root of
// 2^D zero leaves (an empty SSZ list's tree). Nothing for any other tree, which needs a leaf.
inline std::optional<digest> empty_tree_root(const tree_options &options) {
  check_tree_options(options);
  if (options.hash == hash_kind::rfc6962) return sha256::hash(nullptr, 0);
  if (options.shape != shape::zero || !options.depth) return std::nullopt;
  const unsigned depth = *options.depth;
  if (depth > 64) throw error("a fixed depth of " + std::to_string(depth) + " is more than 64");
  if (depth == 0) return digest{};
  const auto zeros = zero_subtree_roots(options.hash, depth - 1);
  return node_hash(options.hash, zeros.back(), zeros.back(), true); // blake3-parent's ROOT flag
}

} // namespace merklize
