// SPDX-License-Identifier: Apache-2.0 OR MIT
// dm-verity's hash tree (format version 1, SHA-256), as `veritysetup format --no-superblock`
// writes it: the root hash it prints and the hash device's bytes. Host reference, no OpenCL.
//
// Every data block of B_data bytes is hashed as SHA-256(salt || block); the digests are packed
// into hash blocks of B_hash bytes (formats/verity_tree.hpp), each hashed the same way, up to one
// block, whose hash is the root. The hash device holds the levels top first. One data block is
// its own root, with an empty hash device. veritysetup hashes whole data blocks only (it ignores
// a partial last block without a word): here such a size is refused.
#pragma once

#include "verity_tree.hpp"

#include <string>

namespace merklize {

struct dm_verity_options {
  std::uint64_t data_block_bytes = 4096; // a power of two, 512 to 512 KiB, as veritysetup takes
  std::uint64_t hash_block_bytes = 4096;
  std::vector<std::uint8_t> salt; // up to 256 bytes; empty: none (veritysetup --salt=-)
};

namespace detail {

inline void check_verity_block(const char *what, std::uint64_t bytes) {
  if (bytes < 512 || bytes > (std::uint64_t(512) << 10) || (bytes & (bytes - 1)) != 0)
    throw error(std::string("the ") + what + " is " + std::to_string(bytes) +
                " bytes: dm-verity takes a power of two from 512 to 524288");
}

} // namespace detail

// Refuses options veritysetup would refuse.
inline void check_dm_verity(const dm_verity_options &options) {
  detail::check_verity_block("data block size", options.data_block_bytes);
  detail::check_verity_block("hash block size", options.hash_block_bytes);
  if (options.salt.size() > 256)
    throw error("the salt is " + std::to_string(options.salt.size()) +
                " bytes: dm-verity takes at most 256");
}

// The same, and a data size that is not whole data blocks; `name` names the data.
inline void check_dm_verity(const dm_verity_options &options, std::uint64_t data_bytes,
                            const std::string &name) {
  check_dm_verity(options);
  if (data_bytes == 0) throw error(name + " is empty: dm-verity needs at least one data block");
  if (data_bytes % options.data_block_bytes != 0)
    throw error(name + " is " + std::to_string(data_bytes) + " bytes, not a whole number of " +
                std::to_string(options.data_block_bytes) +
                "-byte data blocks (veritysetup would ignore the last " +
                std::to_string(data_bytes % options.data_block_bytes) + " bytes)");
}

// The rules of the data blocks and of the hash blocks.
inline leaf_rule dm_verity_data_rule(const dm_verity_options &options) {
  return {leaf_hash::sha256, options.data_block_bytes, options.salt, false, std::nullopt};
}
inline leaf_rule dm_verity_hash_rule(const dm_verity_options &options) {
  return {leaf_hash::sha256, options.hash_block_bytes, options.salt, true, std::nullopt};
}

// The hash blocks of each level over the data blocks of `data_bytes` bytes.
inline std::vector<std::uint64_t> dm_verity_level_blocks(const dm_verity_options &options,
                                                         std::uint64_t data_bytes) {
  return verity_level_blocks(data_bytes / options.data_block_bytes,
                             options.hash_block_bytes / node_bytes);
}

// The root hash and the hash device of `size` bytes of data.
inline verity_tree dm_verity_tree(const void *data, std::uint64_t size,
                                  const dm_verity_options &options) {
  check_dm_verity(options, size, "the data");
  return verity_tree_of(block_leaves(dm_verity_data_rule(options), data, size),
                        dm_verity_hash_rule(options));
}

} // namespace merklize
