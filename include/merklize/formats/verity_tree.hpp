// SPDX-License-Identifier: Apache-2.0 OR MIT
// The tree of hash blocks that dm-verity and fs-verity share, on the host (no OpenCL).
//
// The leaves (the digests of the data blocks) are packed B / 32 to a hash block of B bytes, the
// last block of a level zero-padded; each hash block is hashed, by the same rule as the data
// blocks (SHA-256 of the salt, then the block), into the level above; levels are built until one
// holds a single block, whose hash is the root. A single leaf is the root itself, with no hash
// block at all. The stored tree (dm-verity's hash device, fs-verity's Merkle tree file) holds
// the levels top first: the one-block level, then each level below it, the leaves' level last.
#pragma once

#include "../core/block_leaves.hpp"

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

// The tree over `leaves` (at least one), each hash block of `hash_rule.block_bytes` bytes hashed
// by `hash_rule`.
inline verity_tree verity_tree_of(const std::vector<digest> &leaves, const leaf_rule &hash_rule) {
  const std::uint64_t block = hash_rule.block_bytes;
  const auto blocks = verity_level_blocks(leaves.size(), block / node_bytes);
  const auto offsets = verity_level_offsets(blocks);
  verity_tree tree;
  tree.levels.assign(blocks.empty() ? 0 : (offsets[0] + blocks[0]) * block, 0);
  std::vector<digest> below = leaves;
  for (std::size_t level = 0; level < blocks.size(); ++level) {
    std::uint8_t *at = tree.levels.data() + offsets[level] * block;
    for (std::size_t i = 0; i < below.size(); ++i)
      std::memcpy(at + i * node_bytes, below[i].data(), node_bytes);
    below = block_leaves(hash_rule, at, blocks[level] * block);
  }
  tree.root = below.front();
  return tree;
}

} // namespace merklize
