// SPDX-License-Identifier: Apache-2.0 OR MIT
// Every level of a tree on the host engine: what merkleizer::build returns, for the hashes the
// host engine runs (host_tree.hpp), with no OpenCL. Each level is hashed from the one below by
// the CPU's fastest pair hasher, its pairs cut into one run a thread, so a CPU-only machine gets
// a tree it can prove many leaves of, or publish as tiles, at the host engine's rate and with no
// kernel to compile. host_root and host_prove, which keep one block and the tops, serve a root
// or one proof in less memory.
#pragma once

#include "host_blocks.hpp" // detail::host_parallel_for
#include "host_tree.hpp"

namespace merklize {
namespace detail {

// Pairs below this many a thread are hashed on fewer threads: a thread's start costs about as much.
constexpr std::uint64_t host_pairs_a_thread = 4096;

} // namespace detail

// The tree over `leaf_bytes` bytes of leaves at `leaves`, every level kept, on `threads` host
// threads (0: host_engine_threads()): equal to merkleizer::build's and reference_tree's.
// `options.hash` must be one of host_engine_hash_names(); no leaves, or a partial one, is refused.
inline tree host_build(const void *leaves, std::uint64_t leaf_bytes, const tree_options &options,
                       unsigned threads = 0) {
  detail::host_empty_root(options, 1); // the options' check
  tree t(leaf_count_of(leaf_bytes), options);
  t.root_depth(); // a fixed depth that cannot hold the leaves, before any work
  std::memcpy(t.level_data(0), leaves, leaf_bytes);
  const detail::pair_hash_fn hash_pairs = detail::pair_hasher(row_of(options.hash));
  const auto zeros = zero_subtree_roots(options.hash, t.depth());
  for (unsigned level = 1; level <= t.depth(); ++level) {
    const std::uint64_t count = t.layout().level_size(level - 1), pairs = count / 2;
    const std::uint8_t *below = t.level_data(level - 1);
    std::uint8_t *above = t.level_data(level);
    const unsigned runs = static_cast<unsigned>(
        std::min<std::uint64_t>(threads ? threads : host_engine_threads(),
                                std::max<std::uint64_t>(1, pairs / detail::host_pairs_a_thread)));
    detail::host_parallel_for(pairs, runs, [&](std::uint64_t begin, std::uint64_t end) {
      hash_pairs(below + 2 * node_bytes * begin, above + node_bytes * begin, end - begin);
    });
    if (count % 2 == 0) continue;
    std::uint8_t *lone = above + node_bytes * pairs;
    if (options.shape != shape::zero) {
      std::memcpy(lone, below + node_bytes * (count - 1), node_bytes); // promote
      continue;
    }
    std::uint8_t pair[2 * node_bytes];
    std::memcpy(pair, below + node_bytes * (count - 1), node_bytes);
    std::memcpy(pair + node_bytes, zeros[level - 1].data(), node_bytes);
    hash_pairs(pair, lone, 1);
  }
  return t;
}

} // namespace merklize
