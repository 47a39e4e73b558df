// SPDX-License-Identifier: Apache-2.0 OR MIT
// The tree of hash blocks that dm-verity and fs-verity share, on the host (no OpenCL).
//
// The leaves (the digests of the data blocks) are packed B / 32 to a hash block of B bytes, the
// last block of a level zero-padded; each hash block is hashed, by the same rule as the data
// blocks (SHA-256 of the salt, then the block), into the level above; levels are built until one
// holds a single block, whose hash is the root. A single leaf is the root itself, with no hash
// block at all. The stored tree (dm-verity's hash device, fs-verity's Merkle tree file) holds
// the levels top first: the one-block level, then each level below it, the leaves' level last.
//
// That is a k-ary tree (core/kary.hpp) of arity B / 32 whose group rule is the hash blocks' rule,
// a short group padded with zero bytes (verity_group_rule): its levels below the root, each padded
// to whole blocks, top first, are the stored tree (verity_layout). The device builds the same
// tree (device_tree.hpp) and lays it out by copies (block_tree.hpp).
#pragma once

#include "../core/kary.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace merklize {

// The hash blocks of each level over `leaf_count` leaves, `per_block` digests a block: level 0
// holds the leaves' digests, the last level one block. None when leaf_count <= 1.
inline std::vector<std::uint64_t> verity_level_blocks(std::uint64_t leaf_count,
                                                      std::uint64_t per_block) {
  std::vector<std::uint64_t> blocks;
  for (std::uint64_t count = leaf_count; count > 1;) {
    count = block_count(count, per_block);
    blocks.push_back(count);
  }
  return blocks;
}

// Where each level starts in the stored tree, in blocks: the top level at 0, level 0 last.
inline std::vector<std::uint64_t> verity_level_offsets(const std::vector<std::uint64_t> &blocks) {
  std::vector<std::uint64_t> offsets(blocks.size());
  std::uint64_t at = 0;
  for (std::size_t level = blocks.size(); level-- > 0;) {
    offsets[level] = at;
    at += blocks[level];
  }
  return offsets;
}

// A tree of hash blocks: its root and its levels as stored (top first).
struct verity_tree {
  digest root{};
  std::vector<std::uint8_t> levels;
};

// The group rule of the tree's nodes: a hash block, its children then zero bytes, hashed by
// `hash_rule`.
inline group_rule verity_group_rule(const leaf_rule &hash_rule) {
  group_rule rule{hash_rule, shape::promote};
  rule.block.zero_pad = true;
  return rule;
}

// The bytes of the stored tree over `leaf_count` leaves, hash blocks of `block` bytes.
inline std::uint64_t verity_stored_bytes(std::uint64_t leaf_count, std::uint64_t block) {
  const auto blocks = verity_level_blocks(leaf_count, block / node_bytes);
  return blocks.empty() ? 0 : (verity_level_offsets(blocks).front() + blocks.front()) * block;
}

// The stored tree of `levels` (group_levels_above's of verity_group_rule, leaves first): each
// level below the root at its place, zero-padded to whole blocks of `block` bytes.
inline std::vector<std::uint8_t> verity_layout(const std::vector<std::vector<digest>> &levels,
                                               std::uint64_t block) {
  const auto blocks = verity_level_blocks(levels.front().size(), block / node_bytes);
  const auto offsets = verity_level_offsets(blocks);
  std::vector<std::uint8_t> stored(
      static_cast<std::size_t>(verity_stored_bytes(levels.front().size(), block)), 0);
  for (std::size_t level = 0; level < blocks.size(); ++level)
    std::memcpy(stored.data() + offsets[level] * block, levels[level].data(),
                levels[level].size() * node_bytes);
  return stored;
}

// The tree over `leaves` (at least one), each hash block of `hash_rule.block_bytes` bytes hashed
// by `hash_rule`.
inline verity_tree verity_tree_of(const std::vector<digest> &leaves, const leaf_rule &hash_rule) {
  const auto levels = group_levels_above(leaves, verity_group_rule(hash_rule), 0);
  return {levels.back().front(), verity_layout(levels, hash_rule.block_bytes)};
}

} // namespace merklize
