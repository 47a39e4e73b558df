// SPDX-License-Identifier: Apache-2.0 OR MIT
// The node rules: which hash makes a node of its two children (hash_kind), what becomes of the
// lone last node of a level (shape), and the all-zero subtrees that shape zero and fixed depths
// hash with. Host code, no OpenCL: the devices' kernels implement the same rules
// (kernels/*.cl), and tests hold the two against each other.
#pragma once

#include "blake3.hpp"
#include "digest.hpp"
#include "keccak.hpp"
#include "quote.hpp"
#include "sha256.hpp"

#include <optional>
#include <string>
#include <vector>

namespace merklize {

enum class hash_kind {
  blake3,        // node = BLAKE3(left || right), the standard hash of the 64 bytes
  blake3_parent, // node = BLAKE3 parent compression; ROOT on the root only
  sha256,        // node = SHA-256(left || right), as SSZ
  rfc6962,       // node = SHA-256(0x01 || left || right), RFC 6962 / 9162's interior node;
                 // shape promote only (the RFC's tree), leaves are the RFC's leaf hashes
  keccak256,     // node = Keccak-256(left || right), Ethereum's keccak256 (padding byte 0x01)
  sha3_256,      // node = SHA3-256(left || right), FIPS 202 (padding byte 0x06)
};

enum class shape {
  promote, // a lone last node of a level moves up unchanged (BLAKE3, RFC 6962)
  zero,    // leaves padded with zero leaves up to the next power of two (SSZ)
};

inline const char *to_string(hash_kind h) {
  switch (h) {
  case hash_kind::blake3:
    return "blake3";
  case hash_kind::blake3_parent:
    return "blake3-parent";
  case hash_kind::sha256:
    return "sha256";
  case hash_kind::rfc6962:
    return "rfc6962";
  case hash_kind::keccak256:
    return "keccak256";
  case hash_kind::sha3_256:
    return "sha3-256";
  }
  return "unknown";
}

inline const char *to_string(shape s) { return s == shape::promote ? "promote" : "zero"; }

inline hash_kind parse_hash_kind(const std::string &name) {
  if (name == "blake3") return hash_kind::blake3;
  if (name == "blake3-parent") return hash_kind::blake3_parent;
  if (name == "sha256") return hash_kind::sha256;
  if (name == "rfc6962") return hash_kind::rfc6962;
  if (name == "keccak256") return hash_kind::keccak256;
  if (name == "sha3-256") return hash_kind::sha3_256;
  throw error("unknown hash " + detail::quoted(name) +
              " (known: blake3, blake3-parent, sha256, rfc6962, keccak256, sha3-256)");
}

inline shape parse_shape(const std::string &name) {
  if (name == "promote") return shape::promote;
  if (name == "zero") return shape::zero;
  throw error("unknown shape " + detail::quoted(name) + " (known: promote, zero)");
}

struct tree_options {
  // A constructor rather than an aggregate, so {hash, pad} leaves depth unset without warnings.
  tree_options(hash_kind hash_ = hash_kind::blake3, shape pad_ = shape::promote,
               std::optional<unsigned> depth_ = std::nullopt)
      : hash(hash_), pad(pad_), depth(depth_) {}

  hash_kind hash;
  shape pad;
  // Shape zero only: the root is that of 2^depth leaves, the N given and zero leaves after
  // them (SSZ's limit). Unset: the natural depth ceil(log2 N). See root_depth().
  std::optional<unsigned> depth;
};

// Whether the node hash is SHA-256 of the two children (sha256, rfc6962): such hashes share the
// SHA-256 kernels' tuning (tuning::sha256_kernel).
inline bool is_sha256_node(hash_kind hash) {
  return hash == hash_kind::sha256 || hash == hash_kind::rfc6962;
}

// Whether the node hash is a Keccak sponge (keccak256, sha3-256), and its padding byte.
inline bool is_keccak_node(hash_kind hash) {
  return hash == hash_kind::keccak256 || hash == hash_kind::sha3_256;
}
inline std::uint8_t keccak_pad_of(hash_kind hash) {
  return hash == hash_kind::sha3_256 ? keccak::sha3_pad : keccak::keccak_pad;
}

// Whether the launch planner tunes the node hash with the rows' sha256_* fields (tuning.hpp):
// every node hash but BLAKE3's, whose node is one light compression, has one heavy compression
// or permutation a node, as SHA-256 has (Keccak's permutation is about twice SHA-256's ALU work).
inline bool takes_sha256_tuning(hash_kind hash) {
  return hash != hash_kind::blake3 && hash != hash_kind::blake3_parent;
}

// Refuses a hash and shape that do not go together: rfc6962 is the RFC's tree, shape promote
// (RFC 6962 2.1 splits at the largest power of two, which is what promote computes), never
// padded with zero leaves.
inline void check_tree_options(const tree_options &options) {
  if (options.hash == hash_kind::rfc6962 && options.pad != shape::promote)
    throw error("hash rfc6962 has shape promote only: RFC 6962's tree moves a lone node up and "
                "never pads with zero leaves");
}

// RFC 6962 2.1's prefixes: a leaf hash is SHA-256(0x00 || entry), a node SHA-256(0x01 || l || r).
constexpr std::uint8_t rfc6962_leaf_prefix = 0x00, rfc6962_node_prefix = 0x01;

// SHA-256(prefix || left || right): a 65-byte message.
inline digest sha256_prefixed_pair(std::uint8_t prefix, const digest &left, const digest &right) {
  return sha256::hasher()
      .update(&prefix, 1)
      .update(left.data(), left.size())
      .update(right.data(), right.size())
      .finalize();
}

// The node hash on the host, for checks, padding nodes and proofs.
inline digest node_hash(hash_kind hash, const digest &left, const digest &right, bool is_root) {
  using namespace blake3;
  if (hash == hash_kind::sha256) return sha256::hash_pair(left, right);
  if (hash == hash_kind::rfc6962) return sha256_prefixed_pair(rfc6962_node_prefix, left, right);
  if (is_keccak_node(hash)) return keccak::hash_pair(keccak_pad_of(hash), left, right);
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
  if (options.pad != shape::zero || !options.depth) return std::nullopt;
  const unsigned depth = *options.depth;
  if (depth > 64) throw error("a fixed depth of " + std::to_string(depth) + " is more than 64");
  if (depth == 0) return digest{};
  const auto zeros = zero_subtree_roots(options.hash, depth - 1);
  return node_hash(options.hash, zeros.back(), zeros.back(), true); // blake3-parent's ROOT flag
}

} // namespace merklize
