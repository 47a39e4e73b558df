// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine over data blocks, no OpenCL: leaves hashed from an input's blocks on every core
// (SHA-256 ones two at a time on the SHA extensions: core/sha256_many.hpp), and the trees the
// device builds over them (block_tree.hpp): a binary tree (--leaf-size), dm-verity's and
// fs-verity's trees of hash blocks. Each equals its host reference (block_leaves.hpp,
// formats/*.hpp) bit for bit.
//
//   merklize::input in("disk.img");
//   merklize::verity_tree dm = merklize::host_dm_verity_tree(in, options);  // veritysetup's
//
// How: the input is read in pieces of 1 MiB as host_tree.hpp reads leaves (at offsets by the
// threads, or a stream read ahead), a block size that divides 1 MiB keeps every block in one
// piece, and each thread hashes its pieces' blocks into their leaves. A tree of hash blocks is
// then built a level at a time, each level's hash blocks spread over the threads.
#pragma once

#include "../core/block_leaves.hpp"
#include "../core/sha256_many.hpp"
#include "../formats/dm_verity.hpp"
#include "../formats/fs_verity.hpp"
#include "host_tree.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace merklize {

// The input's pieces (host_tree.hpp's blocks of leaves) hold whole data blocks.
constexpr std::uint64_t host_piece_bytes = node_bytes << detail::host_block_log2;

// Whether the host engine hashes blocks of this rule: a size that divides its 1 MiB pieces.
inline bool host_engine_hashes_blocks(const leaf_rule &rule) {
  return rule.block_bytes > 0 && rule.block_bytes <= host_piece_bytes &&
         host_piece_bytes % rule.block_bytes == 0;
}

// The leaves of an input's data blocks, in order, and the bytes they were hashed from.
struct host_leaves {
  std::vector<std::uint8_t> digests; // count * node_bytes
  std::uint64_t count = 0, input_bytes = 0;
};

namespace detail {

// Runs work(begin, end) over [0, count) cut into one range a thread.
template <class Work> void host_parallel_for(std::uint64_t count, unsigned threads, Work work) {
  const std::uint64_t parts = std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, count));
  std::vector<std::thread> others;
  std::exception_ptr failure;
  std::mutex lock;
  const auto part = [&](std::uint64_t p) {
    try {
      work(count * p / parts, count * (p + 1) / parts);
    } catch (...) {
      const std::lock_guard<std::mutex> hold(lock);
      if (!failure) failure = std::current_exception();
    }
  };
  for (std::uint64_t p = 1; p < parts; ++p)
    others.emplace_back(part, p);
  part(0);
  for (auto &t : others)
    t.join();
  if (failure) std::rethrow_exception(failure);
}

// The leaves of `bytes` bytes of blocks at `data` (the last maybe short) into `out`: SHA-256 ones
// on sha256_many, the others by their host reference, a block at a time.
inline void host_hash_blocks(const leaf_rule &rule, const sha256_prefix &prefix,
                             const std::uint8_t *data, std::uint64_t bytes, std::uint8_t *out) {
  if (row_of(rule.hash).family == leaf_family::sha256)
    return sha256_block_leaves(prefix, data, bytes, rule.block_bytes, rule.zero_pad, out);
  for (std::uint64_t at = 0; at < bytes; at += rule.block_bytes, out += node_bytes) {
    const digest d = hash_block(rule, data + at, std::min(rule.block_bytes, bytes - at));
    std::memcpy(out, d.data(), node_bytes);
  }
}

} // namespace detail

// The leaves of the data blocks `in` holds (none for an empty input), on `threads` threads
// (0: host_engine_threads()); a rule the host engine does not take is refused.
inline host_leaves host_block_leaves(input &in, const leaf_rule &rule, unsigned threads = 0) {
  check_leaf_rule(rule);
  if (!host_engine_hashes_blocks(rule))
    throw error("the host engine hashes blocks whose size divides 1 MiB, not " +
                std::to_string(rule.block_bytes) + "-byte ones");
  const unsigned n = threads ? threads : host_engine_threads();
  const detail::sha256_prefix prefix =
      detail::sha256_prefix_of(rule.prefix.data(), rule.prefix.size());
  const std::uint64_t per_piece = host_piece_bytes / rule.block_bytes;
  std::mutex order, lock; // order: the input's reads in turn; lock: `out`
  std::atomic<std::uint64_t> next{0};
  const detail::block_source source = detail::host_input_blocks(in, n, order, next);
  host_leaves out;
  if (in.size()) out.digests.reserve(block_count(*in.size(), rule.block_bytes) * node_bytes);
  detail::host_each_block(
      source, n, [&](const detail::block_read &piece, const std::uint8_t *data) {
        const std::uint64_t leaves = block_count(piece.bytes, rule.block_bytes);
        std::vector<std::uint8_t> digests(leaves * node_bytes);
        detail::host_hash_blocks(rule, prefix, data, piece.bytes, digests.data());
        const std::lock_guard<std::mutex> hold(lock);
        const std::uint64_t at = piece.index * per_piece * node_bytes;
        if (out.digests.size() < at + digests.size()) out.digests.resize(at + digests.size());
        std::memcpy(out.digests.data() + at, digests.data(), digests.size());
        out.input_bytes += piece.bytes;
      });
  in.check_unchanged();
  out.count = out.digests.size() / node_bytes;
  return out;
}

// The root of the binary tree of `options` over the leaves of an input's data blocks (at least
// one byte), all on the host.
inline digest host_block_tree_root(input &in, const leaf_rule &rule, const tree_options &options,
                                   unsigned threads = 0) {
  detail::host_empty_root(options, 1); // the tree's options, before any read
  const host_leaves leaves = host_block_leaves(in, rule, threads);
  if (leaves.count == 0) throw error(in.name() + " is empty: a tree needs at least one data block");
  return host_root(leaves.digests.data(), leaves.digests.size(), options, threads);
}

// The tree of hash blocks (formats/verity_tree.hpp) over `leaves` (at least one), each hash block
// of `hash_rule` hashed on the host's threads; with keep_levels its levels as stored.
inline verity_tree host_verity_tree(const host_leaves &leaves, const leaf_rule &hash_rule,
                                    bool keep_levels, unsigned threads = 0) {
  const unsigned n = threads ? threads : host_engine_threads();
  const detail::sha256_prefix prefix =
      detail::sha256_prefix_of(hash_rule.prefix.data(), hash_rule.prefix.size());
  const std::uint64_t block = hash_rule.block_bytes, per_block = block / node_bytes;
  std::vector<std::vector<std::uint8_t>> levels; // above the leaves, each level's digests
  const std::vector<std::uint8_t> *below = &leaves.digests;
  for (std::uint64_t count = leaves.count; count > 1;) {
    const std::uint64_t blocks = block_count(count, per_block);
    std::vector<std::uint8_t> level(blocks * node_bytes);
    detail::host_parallel_for(blocks, n, [&](std::uint64_t begin, std::uint64_t end) {
      const std::uint64_t from = begin * block, to = std::min(end * block, count * node_bytes);
      detail::host_hash_blocks(hash_rule, prefix, below->data() + from, to - from,
                               level.data() + begin * node_bytes);
    });
    levels.push_back(std::move(level));
    below = &levels.back();
    count = blocks;
  }
  verity_tree tree;
  std::memcpy(tree.root.data(), below->data(), node_bytes);
  if (!keep_levels || levels.empty()) return tree;
  const auto blocks = verity_level_blocks(leaves.count, per_block);
  const auto offsets = verity_level_offsets(blocks);
  tree.levels.assign(static_cast<std::size_t>(verity_stored_bytes(leaves.count, block)), 0);
  for (std::size_t level = 0; level < blocks.size(); ++level) {
    const std::vector<std::uint8_t> &nodes = level == 0 ? leaves.digests : levels[level - 1];
    std::memcpy(tree.levels.data() + offsets[level] * block, nodes.data(), nodes.size());
  }
  return tree;
}

// Whether the host engine builds dm-verity's tree of these options, fs-verity's, a block tree's.
inline bool host_engine_supports(const dm_verity_options &options) {
  return host_engine_hashes_blocks(dm_verity_data_rule(options));
}
inline bool host_engine_supports(const fs_verity_options &options) {
  return host_engine_hashes_blocks(fs_verity_rule(options));
}

// veritysetup format --no-superblock's root hash and (with keep_levels) hash device of an input,
// on the host.
inline verity_tree host_dm_verity_tree(input &in, const dm_verity_options &options,
                                       bool keep_levels = true, unsigned threads = 0) {
  check_dm_verity(options);
  if (in.size()) check_dm_verity(options, *in.size(), in.name());
  const host_leaves leaves = host_block_leaves(in, dm_verity_data_rule(options), threads);
  check_dm_verity(options, leaves.input_bytes, in.name()); // a pipe's size is known only now
  return host_verity_tree(leaves, dm_verity_hash_rule(options), keep_levels, threads);
}

// fsverity digest's file digest and (with keep_levels) Merkle tree of an input of any size, on
// the host.
inline fs_verity_result host_fs_verity_tree(input &in, const fs_verity_options &options,
                                            bool keep_levels = true, unsigned threads = 0) {
  check_fs_verity(options);
  const host_leaves leaves = host_block_leaves(in, fs_verity_rule(options), threads);
  fs_verity_result result;
  if (leaves.count > 0)
    result.tree = host_verity_tree(leaves, fs_verity_rule(options), keep_levels, threads);
  result.file_digest = fs_verity_file_digest(result.tree.root, leaves.input_bytes, options);
  return result;
}

} // namespace merklize
