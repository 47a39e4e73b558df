// SPDX-License-Identifier: Apache-2.0 OR MIT
// Leaves hashed from data blocks: the data is cut into blocks of L bytes and leaf i is the hash of
// block i, as storage systems build their trees (dm-verity, fs-verity) and as proof systems
// commit to the rows of a matrix. This is the rule and its host reference, no OpenCL; the device
// computes the same leaves in kernels/sha256_block_leaves.cl, blake3_block_leaves.cl and keccak.cl
// (block_tree.hpp).
//
//   SHA-256: leaf = SHA-256(prefix || block), the block the L bytes at i * L, the last one
//            shorter, or zero-padded to L bytes (zero_pad) as dm-verity and fs-verity hash it;
//            the prefix is a salt (empty: none).
//   BLAKE3:  leaf = BLAKE3(block), or its keyed hash under a 32-byte key; same blocks.
//   Keccak-256, SHA3-256: leaf = Keccak-256(block) or SHA3-256(block); same blocks, no prefix.
#pragma once

#include "blake3.hpp"
#include "digest.hpp"
#include "keccak.hpp"
#include "node_rule.hpp"
#include "quote.hpp"
#include "sha256.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

// The most prefix bytes a leaf rule takes: dm-verity's largest salt. Longer prefixes have no
// format behind them, and the device keeps the prefix in a small constant buffer.
constexpr std::size_t max_leaf_prefix_bytes = 256;

// How data blocks become leaves.
struct leaf_rule {
  leaf_hash hash = leaf_hash::sha256;
  std::uint64_t block_bytes = 4096; // L, at least 1
  std::vector<std::uint8_t> prefix; // SHA-256's family only: hashed before each block (a salt)
  bool zero_pad = false;            // the last block is zero-padded to L bytes
  std::optional<std::array<std::uint8_t, blake3::key_len>> key; // BLAKE3's family only: keyed
};

// A leaf rule a caller may have got wrong is refused, naming the field.
inline void check_leaf_rule(const leaf_rule &rule) {
  if (rule.block_bytes == 0) throw error("the leaf size is 0: a data block has at least 1 byte");
  if (rule.block_bytes > (std::uint64_t(1) << 32))
    throw error("the leaf size is " + std::to_string(rule.block_bytes) +
                " bytes, more than the 4 GiB a data block may have");
  if (rule.prefix.size() > max_leaf_prefix_bytes)
    throw error("the leaf prefix (salt) is " + std::to_string(rule.prefix.size()) +
                " bytes, more than " + std::to_string(max_leaf_prefix_bytes));
  const leaf_family family = row_of(rule.hash).family;
  if (family == leaf_family::blake3 && !rule.prefix.empty())
    throw error("a BLAKE3 leaf takes no prefix (salt): use a key for keyed hashing instead");
  if (family == leaf_family::sha256 && rule.key)
    throw error("a SHA-256 leaf takes no key: use a prefix (salt) instead");
  if (family == leaf_family::keccak_sponge && (!rule.prefix.empty() || rule.key))
    throw error(std::string("a ") + to_string(rule.hash) +
                " leaf takes no prefix (salt) and no key: it is the hash of the block alone");
}

// The tag that separates a tree's leaves from its nodes (separated_leaves): SHA-256 of the ASCII
// text "merklize separated leaf v1".
inline constexpr std::array<std::uint8_t, 32> leaf_domain_tag = {
    0xef, 0x39, 0x1d, 0x41, 0x8e, 0x43, 0xfa, 0x5a, 0x53, 0x94, 0xd1, 0xd3, 0xa1, 0xde, 0x60, 0xbc,
    0x83, 0xeb, 0xb6, 0x21, 0x2f, 0x93, 0xc0, 0x67, 0x4d, 0x11, 0x63, 0x53, 0x70, 0xd3, 0xd8, 0x8d};

// `rule` with its leaves separated from the nodes of any tree over them (docs/FORMATS.md, "Leaves
// and nodes of data trees"): a SHA-256 leaf is SHA-256(leaf_domain_tag || block), a BLAKE3 leaf
// the keyed hash of the block under leaf_domain_tag. A node's input begins with its first child's
// digest, which would have to be the tag (a preimage), or is hashed unkeyed: no node is a leaf.
// Without it a tree over blocks of 32 x arity bytes equals the tree over its leaf hashes. Keccak
// leaves take neither a prefix nor a key, and a rule with a salt or key of its own is refused.
inline leaf_rule separated_leaves(leaf_rule rule) {
  if (!rule.prefix.empty() || rule.key)
    throw error(
        "separated leaves take the leaf domain's own prefix or key: no salt or key besides");
  const leaf_family family = row_of(rule.hash).family;
  if (family == leaf_family::sha256)
    rule.prefix.assign(leaf_domain_tag.begin(), leaf_domain_tag.end());
  else if (family == leaf_family::blake3)
    rule.key = leaf_domain_tag;
  else
    throw error(std::string("a ") + to_string(rule.hash) +
                " leaf takes no prefix and no key, so it cannot be separated from the nodes: "
                "use the sha256 or blake3 leaf hash");
  return rule;
}

// The blocks of `bytes` bytes of data: ceil(bytes / L), the last one maybe shorter.
inline std::uint64_t block_count(std::uint64_t bytes, std::uint64_t block_bytes) {
  return bytes / block_bytes + (bytes % block_bytes != 0);
}

// The leaf of one block of `size` bytes (at most L), padded as the rule says.
inline digest hash_block(const leaf_rule &rule, const std::uint8_t *block, std::uint64_t size) {
  static const std::uint8_t zeros[4096] = {};
  const auto pad = [&](auto &hasher) {
    for (std::uint64_t left = rule.zero_pad ? rule.block_bytes - size : 0; left > 0;) {
      const std::uint64_t take = std::min<std::uint64_t>(left, sizeof zeros);
      hasher.update(zeros, static_cast<std::size_t>(take));
      left -= take;
    }
  };
  const leaf_hash_row &row = row_of(rule.hash);
  if (row.family == leaf_family::sha256) {
    sha256::hasher h;
    h.update(rule.prefix.data(), rule.prefix.size()).update(block, static_cast<std::size_t>(size));
    pad(h);
    return h.finalize();
  }
  if (row.family == leaf_family::keccak_sponge) {
    keccak::hasher h(row.keccak_pad);
    h.update(block, static_cast<std::size_t>(size));
    pad(h);
    return h.finalize();
  }
  blake3::hasher h = rule.key ? blake3::hasher::keyed(rule.key->data()) : blake3::hasher();
  h.update(block, static_cast<std::size_t>(size));
  pad(h);
  return h.finalize();
}

// The leaves of `size` bytes of data (at least one byte) on the host: the reference of the
// device's leaf kernels.
inline std::vector<digest> block_leaves(const leaf_rule &rule, const void *data,
                                        std::uint64_t size) {
  check_leaf_rule(rule);
  if (size == 0) throw error("no data: a tree of data blocks needs at least one byte");
  const auto bytes = static_cast<const std::uint8_t *>(data);
  std::vector<digest> leaves(static_cast<std::size_t>(block_count(size, rule.block_bytes)));
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const std::uint64_t at = i * rule.block_bytes;
    leaves[i] = hash_block(rule, bytes + at, std::min(rule.block_bytes, size - at));
  }
  return leaves;
}

} // namespace merklize
