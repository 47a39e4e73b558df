// SPDX-License-Identifier: Apache-2.0 OR MIT
// fs-verity's file digest (SHA-256), as `fsverity digest` prints it, and its Merkle tree, as
// `fsverity digest --out-merkle-tree` writes it. Host reference, no OpenCL.
//
// The file is cut into blocks of B bytes, the last one zero-padded; every block, data or hash,
// is hashed as SHA-256(salt || block) with the salt zero-padded to a multiple of 64 bytes (a
// whole SHA-256 block); the hash blocks follow formats/verity_tree.hpp. The root of an empty
// file is 32 zero bytes. The file digest is SHA-256 of the 256-byte fs-verity descriptor, which
// holds the block size, the salt, the file's size and the root.
#pragma once

#include "verity_tree.hpp"

#include <array>
#include <string>

namespace merklize {

struct fs_verity_options {
  std::uint64_t block_bytes = 4096; // a power of two of at least 64, as fsverity takes
  std::vector<std::uint8_t> salt;   // up to 32 bytes; empty: none
};

inline void check_fs_verity(const fs_verity_options &options) {
  const std::uint64_t b = options.block_bytes;
  if (b < 64 || b > (std::uint64_t(1) << 30) || (b & (b - 1)) != 0)
    throw error("the block size is " + std::to_string(b) +
                " bytes: fs-verity takes a power of two from 64 to 2^30");
  if (options.salt.size() > 32)
    throw error("the salt is " + std::to_string(options.salt.size()) +
                " bytes: fs-verity takes at most 32");
}

// The rule of every block, data or hash: the salt padded to a whole SHA-256 block, the block
// zero-padded.
inline leaf_rule fs_verity_rule(const fs_verity_options &options) {
  std::vector<std::uint8_t> prefix = options.salt;
  prefix.resize(block_count(prefix.size(), sha256::block_len) * sha256::block_len, 0);
  return {leaf_hash::sha256, options.block_bytes, prefix, true, std::nullopt};
}

inline std::vector<std::uint64_t> fs_verity_level_blocks(const fs_verity_options &options,
                                                         std::uint64_t file_bytes) {
  return verity_level_blocks(block_count(file_bytes, options.block_bytes),
                             options.block_bytes / node_bytes);
}

using fs_verity_descriptor = std::array<std::uint8_t, 256>;

// struct fsverity_descriptor (linux/fsverity.h): version 1, hash algorithm 1 (SHA-256), log2 of
// the block size, salt size, 4 reserved bytes, the file size (little-endian), the root in 64
// bytes, the salt in 32, 144 reserved bytes.
inline fs_verity_descriptor fs_verity_descriptor_of(const digest &root, std::uint64_t file_bytes,
                                                    const fs_verity_options &options) {
  fs_verity_descriptor d{};
  d[0] = 1;
  d[1] = 1;
  while ((std::uint64_t(1) << d[2]) < options.block_bytes)
    ++d[2];
  d[3] = static_cast<std::uint8_t>(options.salt.size());
  for (int i = 0; i < 8; ++i)
    d[8 + i] = static_cast<std::uint8_t>(file_bytes >> (8 * i));
  std::memcpy(d.data() + 16, root.data(), node_bytes);
  if (!options.salt.empty()) std::memcpy(d.data() + 80, options.salt.data(), options.salt.size());
  return d;
}

struct fs_verity_result {
  verity_tree tree;   // the root and the Merkle tree as stored
  digest file_digest; // SHA-256 of the descriptor
};

inline digest fs_verity_file_digest(const digest &root, std::uint64_t file_bytes,
                                    const fs_verity_options &options) {
  const auto descriptor = fs_verity_descriptor_of(root, file_bytes, options);
  return sha256::hash(descriptor.data(), descriptor.size());
}

// `fsverity digest`'s line without the file name: "sha256:" and the digest in hex.
inline std::string fs_verity_digest_text(const digest &file_digest) {
  return "sha256:" + to_hex(file_digest);
}

// The digest and Merkle tree of a file of `size` bytes (any size, 0 included).
inline fs_verity_result fs_verity_tree(const void *data, std::uint64_t size,
                                       const fs_verity_options &options) {
  check_fs_verity(options);
  fs_verity_result result;
  if (size > 0)
    result.tree =
        verity_tree_of(block_leaves(fs_verity_rule(options), data, size), fs_verity_rule(options));
  result.file_digest = fs_verity_file_digest(result.tree.root, size, options);
  return result;
}

} // namespace merklize
