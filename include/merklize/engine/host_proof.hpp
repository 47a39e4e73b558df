// SPDX-License-Identifier: Apache-2.0 OR MIT
// The inclusion proof of one leaf of an input, on the host engine (host_tree.hpp): the input's
// blocks are hashed to their tops as for its root, and the one block that holds the leaf is kept
// and built level by level; the proof follows as a device's streamed proof does
// (pipeline/streamed_tree.hpp: that block's levels below its top, the tops' levels above). So a
// machine without a GPU proves a leaf at the host engine's rate, with no kernel to compile, and
// holds one block and the tops whatever the input's size. Leaves in memory (the leaves of data
// blocks, --leaf-size) are proven the same way, their blocks copied to the threads in turn.
#pragma once

#include "../core/reference.hpp"
#include "../pipeline/streamed_tree.hpp"
#include "host_tree.hpp"

#include <functional>
#include <utility>

namespace merklize {
namespace detail {

// The top of a short last block at its own depth, where the device's streamed chunks stop
// (host_block_tops carries it up to the block level: streamed_tree lifts it itself).
inline digest host_own_top(const std::uint8_t *leaves, std::uint64_t bytes,
                           const tree_options &options) {
  const std::uint64_t count = bytes / node_bytes;
  std::vector<std::uint8_t> nodes(leaves, leaves + bytes);
  nodes.resize(bytes + node_bytes); // room for a lone node's zero sibling
  const unsigned depth = ceil_log2(count);
  host_levels(pair_hasher(row_of(options.hash)), options, nodes.data(), count,
              zero_subtree_roots(options.hash, depth), 0, depth);
  digest top;
  std::memcpy(top.data(), nodes.data(), node_bytes);
  return top;
}

} // namespace detail

namespace detail {

// The tree that proves leaf `index` of the leaves `source` gives (`name`'s): their blocks' tops,
// hashed on `threads` threads, and the one block that holds the leaf, kept; `read` runs once they
// are all read (an input's check that it did not change meanwhile).
inline streamed_tree host_proving_tree(const block_source &source, const std::string &name,
                                       const tree_options &options, std::uint64_t index,
                                       unsigned threads, const std::function<void()> &read) {
  const std::uint64_t block = index >> host_block_log2;
  std::mutex lock; // guards what is kept
  std::vector<std::uint8_t> kept;
  std::optional<digest> short_top; // a short last block's, at its own depth
  const block_tops blocks =
      host_block_tops(source, options, threads, name,
                      [&](std::uint64_t at, const std::uint8_t *leaves, std::uint64_t bytes) {
                        const bool short_last = at > 0 && bytes < (node_bytes << host_block_log2);
                        std::optional<digest> top;
                        if (short_last) top = host_own_top(leaves, bytes, options);
                        const std::lock_guard<std::mutex> hold(lock);
                        if (at == block) kept.assign(leaves, leaves + bytes);
                        if (top) short_top = top;
                      });
  if (read) read();
  streamed_tree streamed;
  streamed.options = options;
  streamed.chunk_log2 = host_block_log2;
  streamed.leaf_count = host_leaf_count(name, blocks.bytes);
  check_leaf_index(index, streamed.leaf_count);
  streamed.tops = blocks.tops;
  if (short_top) streamed.tops.back() = *short_top;
  streamed.kept = reference_tree(kept.data(), kept.size(), options);
  streamed.kept_first = block << host_block_log2;
  return streamed;
}

} // namespace detail

// The proof of leaf `index` of the leaves `in` holds (read as host_root reads them), equal to
// merkleizer::prove's and to prove() of the whole tree. `options.hash` must be one of
// host_engine_hash_names(); an index past the leaves is refused, before any read for a file.
inline inclusion_proof host_prove(input &in, const tree_options &options, std::uint64_t index,
                                  unsigned threads = 0) {
  detail::host_empty_root(options, 1); // the options' check, before any read
  if (in.size()) detail::check_leaf_index(index, detail::host_leaf_count(in.name(), *in.size()));
  std::mutex order; // guards progress and a stream's reads in turn
  std::atomic<std::uint64_t> next{0};
  const detail::block_source source =
      detail::host_input_blocks(in, threads ? threads : host_engine_threads(), order, next);
  return detail::host_proving_tree(source, in.name(), options, index,
                                   threads ? threads : host_engine_threads(),
                                   [&in] { in.check_unchanged(); })
      .prove(index);
}

// The same of `leaf_bytes` bytes of leaves in memory (the leaves of data blocks, say), with the
// tree's root, which the blocks' tops give at once (a log's proof prints it or checks it).
inline std::pair<inclusion_proof, digest>
host_prove_with_root(const void *leaves, std::uint64_t leaf_bytes, const tree_options &options,
                     std::uint64_t index, unsigned threads = 0) {
  detail::host_empty_root(options, 1);
  std::atomic<std::uint64_t> next{0};
  const detail::streamed_tree tree =
      detail::host_proving_tree(detail::host_memory_blocks(leaves, leaf_bytes, next), "leaf data",
                                options, index, threads ? threads : host_engine_threads(), nullptr);
  return {tree.prove(index), tree.root()};
}

inline inclusion_proof host_prove(const void *leaves, std::uint64_t leaf_bytes,
                                  const tree_options &options, std::uint64_t index,
                                  unsigned threads = 0) {
  return host_prove_with_root(leaves, leaf_bytes, options, index, threads).first;
}

} // namespace merklize
