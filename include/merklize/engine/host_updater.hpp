// SPDX-License-Identifier: Apache-2.0 OR MIT
// A resident tree's update batch applied by the host's cores, on CPU devices: where
// the device is the CPU (PoCL), its buffers are host memory, and the kernels' one node a
// work-item hashes scattered nodes several times slower than the host engine's SIMD pair
// hashers (host_blake3_simd.hpp, sha256_pairs.hpp). So the levels are mapped (no copy on PoCL:
// the map hands the buffer's own memory), the leaves written in the batch's order (a repeated
// index takes its last value), the dirty nodes marked level by level in bitmaps (a bit a node;
// a level's bits are its children's ORed in pairs), and the dirty nodes hashed by the threads,
// their children gathered into runs of pairs for the pair hasher. The levels near the leaves go
// up a block of leaves at a time, each block's subtree on one thread while its nodes are still in
// that core's cache (level by level over the whole tree, each level's scattered nodes would be
// read back from memory after the level below evicted them); the few levels above the blocks go
// level by level, every thread on a level. A lone last node
// moves up (promote) or hashes with the zero subtree of its height (zero), as host_level does;
// the root above a fixed depth is raised by the caller, as after the kernels.
#pragma once

#include "../plan/engine_choice.hpp"
#include "../plan/leaf_blocks.hpp"
#include "../plan/update_batch.hpp"
#include "../runtime/device.hpp"
#include "../runtime/worker_pool.hpp"
#include "device_tree.hpp"
#include "host_tree.hpp"
#include "tree_updater.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <vector>

namespace merklize {

namespace detail {

// Bits of `x` ORed in pairs, packed: bit i of the result is bit 2i | bit 2i + 1 of x.
inline std::uint32_t or_pairs(std::uint64_t x) {
  x = (x | (x >> 1)) & 0x5555555555555555ull;
  x = (x | (x >> 1)) & 0x3333333333333333ull;
  x = (x | (x >> 2)) & 0x0f0f0f0f0f0f0f0full;
  x = (x | (x >> 4)) & 0x00ff00ff00ff00ffull;
  x = (x | (x >> 8)) & 0x0000ffff0000ffffull;
  x = (x | (x >> 16)) & 0x00000000ffffffffull;
  return static_cast<std::uint32_t>(x);
}

class host_updater {
public:
  // Leaf indices[k] becomes leaf k of `leaves` in `t`, every level recomputed where it changed,
  // with `options`' rules; the levels unmapped before this returns. An index outside the tree is
  // refused first, as the kernels' path refuses it (a refusal changes nothing). Returns the top
  // level's node, read while mapped (a read after would wait for a command's round trip through
  // the device's queue: ~1 ms on PoCL).
  digest update(const cl::CommandQueue &queue, const device_tree &t, const tree_options &options,
                const std::uint64_t *indices, const void *leaves, std::uint64_t count,
                update_events &events) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::uint64_t> &sizes = t.level_sizes();
    const unsigned top = t.top(), inside = block_height(top);
    check_and_group(indices, count, sizes[0], inside);
    events.check_ms = ms_since(start);
    if (zeros_.size() < top + 1u) zeros_ = zero_subtree_roots(options.hash, top);
    std::vector<mapping> maps;
    digest top_node{};
    try {
      const auto mapped = std::chrono::steady_clock::now();
      const std::vector<std::uint8_t *> level = map_levels(queue, t, maps);
      events.map_ms = ms_since(mapped);
      events.on_host = true;
      const pair_hash_fn hash = pair_hasher(row_of(options.hash));
      if (inside > 0)
        hash_blocks(hash, options, {level, sizes, indices, leaves, count}, inside);
      else
        write_leaves(level[0], sizes[0], indices, leaves, count);
      for (unsigned l = inside + 1; l <= top; ++l)
        hash_level(hash, options, level[l - 1], level[l], sizes[l - 1], l);
      std::memcpy(top_node.data(), level[top], node_bytes);
    } catch (...) {
      unmap(queue, maps);
      throw;
    }
    unmap(queue, maps);
    events.host_ms = ms_since(start);
    return top_node;
  }

private:
  static constexpr std::uint64_t run_pairs = 64;        // pairs gathered for one hasher call
  static constexpr std::uint64_t nodes_a_thread = 4096; // fewer dirty nodes: one thread
  static constexpr std::uint64_t prefetch_ahead = 16;   // leaves written before one fetched
  // Blocks: about 2^block_count_log2 of them (several a thread, and few enough that the levels
  // above them are small), of at most 2^max_block_height leaves (a block's subtree in a core's
  // second-level cache), at least 64 (whole words of bits_); smaller trees go level by level.
  static constexpr unsigned block_count_log2 = 10, max_block_height = 16, min_block_height = 6;

  // The levels hashed inside blocks of leaves in a tree of `top` levels above its leaves: blocks
  // of 2^that leaves (0: none, every level goes level by level).
  static unsigned block_height(unsigned top) {
    if (top < block_count_log2 + min_block_height) return 0;
    return std::min(top - block_count_log2, max_block_height);
  }

  // What an update changes: the mapped levels, their sizes, and the batch.
  struct batch_view {
    const std::vector<std::uint8_t *> &level;
    const std::vector<std::uint64_t> &sizes;
    const std::uint64_t *indices;
    const void *leaves;
    std::uint64_t count;
  };

  // A buffer mapped once over the levels it holds (a map a level would cost a call each: 26
  // for a tree of 2^25 leaves).
  struct mapping {
    cl::Buffer buffer;
    std::uint64_t first = 0, end = 0; // the nodes mapped
    std::uint8_t *nodes = nullptr;    // null: not mapped (a map refused)
  };

  // Every level's nodes, mapped (`maps` the buffers' mappings, for unmap).
  static std::vector<std::uint8_t *> map_levels(const cl::CommandQueue &queue, const device_tree &t,
                                                std::vector<mapping> &maps) {
    const auto mapping_of = [&](unsigned l) {
      for (std::size_t m = 0; m < maps.size(); ++m)
        if (maps[m].buffer() == t.level_buffer(l)()) return m;
      maps.push_back({t.level_buffer(l), t.level_first(l), t.level_first(l)});
      return maps.size() - 1;
    };
    for (unsigned l = 0; l <= t.top(); ++l) {
      mapping &m = maps[mapping_of(l)];
      m.first = std::min(m.first, t.level_first(l));
      m.end = std::max(m.end, t.level_first(l) + t.level_sizes()[l]);
    }
    for (mapping &m : maps)
      m.nodes = static_cast<std::uint8_t *>(create("clEnqueueMapBuffer", [&](cl_int *err) {
        return queue.enqueueMapBuffer(m.buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                      m.first * node_bytes, (m.end - m.first) * node_bytes, nullptr,
                                      nullptr, err);
      }));
    std::vector<std::uint8_t *> level(t.top() + 1);
    for (unsigned l = 0; l <= t.top(); ++l) {
      const mapping &m = maps[mapping_of(l)];
      level[l] = m.nodes + (t.level_first(l) - m.first) * node_bytes;
    }
    return level;
  }

  static void unmap(const cl::CommandQueue &queue, const std::vector<mapping> &maps) {
    for (const mapping &m : maps)
      if (m.nodes)
        call("clEnqueueUnmapMemObject",
             [&] { return queue.enqueueUnmapMemObject(m.buffer, m.nodes); });
  }

  // Threads for `work` items: one a nodes_a_thread, at most the hardware's.
  static unsigned threads_for(std::uint64_t work) {
    return unsigned(std::min<std::uint64_t>(host_engine_threads(), work / nodes_a_thread + 1));
  }

  // work(k) for k = 0 .. threads - 1, on the process's kept workers and this thread (threads
  // started for each of an update's steps would cost ~2 ms of a 10 ms update on 16 cores).
  static void on_threads(unsigned threads, const std::function<void(unsigned)> &work) {
    worker_pool::cores().run(threads, work);
  }

  // The leaves written, their bits set in bits_ (zeroed first). Thread k owns the leaves of a
  // k-th of bits_'s words, and writes those of the batch in the batch's order: a repeated index
  // takes its last value, and no two threads write one word.
  void write_leaves(std::uint8_t *nodes, std::uint64_t size, const std::uint64_t *indices,
                    const void *leaves, std::uint64_t count) {
    bits_.assign((size + 63) / 64, 0);
    const auto *from = static_cast<const std::uint8_t *>(leaves);
    const std::uint64_t words = bits_.size();
    const unsigned threads = threads_for(count);
    on_threads(threads, [&](unsigned t) {
      const std::uint64_t low = words * t / threads * 64, high = words * (t + 1) / threads * 64;
      const auto mine = [&](std::uint64_t i) { return i >= low && i < high; };
      for (std::uint64_t k = 0; k < count; ++k) {
        const std::uint64_t ahead = k + prefetch_ahead < count ? indices[k + prefetch_ahead] : low;
        if (mine(ahead)) // a scattered leaf's line fetched while others are written
          __builtin_prefetch(nodes + ahead * node_bytes, 1);
        const std::uint64_t i = indices[k];
        if (!mine(i)) continue;
        std::memcpy(nodes + i * node_bytes, from + k * node_bytes, node_bytes);
        bits_[i / 64] |= std::uint64_t(1) << (i % 64);
      }
    });
  }

  // The batch's indices checked against a tree of `leaves` leaves: where blocks hash the lower
  // levels (`inside` > 0), by the grouping's counting pass (blocks_ the batch grouped by block),
  // which the check's own error names the first bad index for.
  void check_and_group(const std::uint64_t *indices, std::uint64_t count, std::uint64_t leaves,
                       unsigned inside) {
    if (inside == 0 || !group_by_block(blocks_, indices, count, leaves, inside, threads_for(count),
                                       [](unsigned n, const auto &work) { on_threads(n, work); }))
      check_indices(leaves, indices, count);
  }

  // The batch's leaves written (blocks_ the batch grouped) and levels 1..inside hashed, a block
  // of 2^inside leaves at a time, blocks shared out to the threads; bits_ becomes level inside's: a
  // bit a block with a dirty leaf.
  void hash_blocks(pair_hash_fn hash, const tree_options &options, const batch_view &batch,
                   unsigned inside) {
    const std::uint64_t blocks = batch.sizes[inside];
    const unsigned threads = threads_for(batch.count);
    bits_.resize((batch.sizes[0] + 63) / 64); // each block zeroes its words
    std::vector<std::uint8_t> changed(blocks, 0);
    // Each thread's lists of a level's dirty nodes and of their parents, allocated here: a
    // thread's allocation could only fail where nothing catches it.
    std::vector<std::vector<std::uint64_t>> lists(2 * threads);
    for (auto &list : lists)
      list.reserve(std::uint64_t(1) << inside);
    std::atomic<std::uint64_t> next{0};
    on_threads(threads, [&](unsigned k) {
      for (std::uint64_t b; (b = next.fetch_add(1)) < blocks;)
        changed[b] = hash_block(hash, options, batch, inside, b, lists[2 * k], lists[2 * k + 1]);
    });
    std::vector<std::uint64_t> bits((blocks + 63) / 64, 0);
    for (std::uint64_t b = 0; b < blocks; ++b)
      bits[b / 64] |= std::uint64_t(changed[b]) << (b % 64);
    bits_.swap(bits);
  }

  // Block b's leaves written, in the batch's order, and its dirty nodes of levels 1..inside
  // hashed a level at a time, the leaves' lines still in this core's cache; false where the
  // batch has none of its leaves.
  bool hash_block(pair_hash_fn hash, const tree_options &options, const batch_view &batch,
                  unsigned inside, std::uint64_t b, std::vector<std::uint64_t> &dirty,
                  std::vector<std::uint64_t> &parents) {
    const std::uint64_t first = (b << inside) / 64;
    const std::uint64_t end = std::min<std::uint64_t>(bits_.size(), ((b + 1) << inside) / 64);
    const std::uint64_t from = blocks_.starts[b], to = blocks_.starts[b + 1];
    if (from == to) return false;
    std::fill(bits_.begin() + first, bits_.begin() + end, 0);
    const auto *values = static_cast<const std::uint8_t *>(batch.leaves);
    for (std::uint64_t at = from; at < to; ++at) {
      if (at + prefetch_ahead < to) { // a later leaf's line and value asked for now
        const std::uint64_t ahead = blocks_.order[at + prefetch_ahead];
        __builtin_prefetch(batch.level[0] + batch.indices[ahead] * node_bytes, 1);
        __builtin_prefetch(values + ahead * node_bytes);
      }
      const std::uint64_t k = blocks_.order[at], i = batch.indices[k];
      std::memcpy(batch.level[0] + i * node_bytes, values + k * node_bytes, node_bytes);
      bits_[i / 64] |= std::uint64_t(1) << (i % 64);
    }
    dirty.clear();
    for (std::uint64_t w = first; w < end; ++w)
      for (std::uint64_t bits = bits_[w]; bits; bits &= bits - 1)
        dirty.push_back(w * 64 + static_cast<unsigned>(__builtin_ctzll(bits)));
    for (unsigned l = 1; l <= inside; ++l) {
      parents.clear();
      for (const std::uint64_t node : dirty)
        if (parents.empty() || parents.back() != node / 2) parents.push_back(node / 2);
      hash_parents(hash, options, batch.level[l - 1], batch.level[l], batch.sizes[l - 1], l,
                   parents.data(), parents.size());
      dirty.swap(parents);
    }
    return true;
  }

  // Level `l` (nodes `out`) where the level below (`below`, `size` nodes, its dirty nodes in
  // bits_) changed: bits_ becomes this level's, its dirty nodes listed and hashed by the threads.
  void hash_level(pair_hash_fn hash, const tree_options &options, const std::uint8_t *below,
                  std::uint8_t *out, std::uint64_t size, unsigned l) {
    std::vector<std::uint64_t> parents((bits_.size() + 1) / 2, 0);
    for (std::size_t w = 0; w < bits_.size(); ++w)
      parents[w / 2] |= std::uint64_t(or_pairs(bits_[w])) << (32 * (w % 2));
    bits_.swap(parents);
    dirty_.clear();
    for (std::size_t w = 0; w < bits_.size(); ++w)
      for (std::uint64_t b = bits_[w]; b; b &= b - 1)
        dirty_.push_back(w * 64 + static_cast<unsigned>(__builtin_ctzll(b)));
    const unsigned threads = threads_for(dirty_.size());
    const std::uint64_t n = dirty_.size();
    on_threads(threads, [&](unsigned k) {
      const std::uint64_t from = n * k / threads, to = n * (k + 1) / threads;
      hash_parents(hash, options, below, out, size, l, dirty_.data() + from, to - from);
    });
  }

  // Parents `list[0 .. n)` (ascending) of level `l` (nodes `out`) hashed from their children in
  // `below` (`size` nodes), in runs of run_pairs gathered pairs; a lone last node (its sibling
  // none: promote, or a zero subtree) as host_level makes it.
  void hash_parents(pair_hash_fn hash, const tree_options &options, const std::uint8_t *below,
                    std::uint8_t *out, std::uint64_t size, unsigned l, const std::uint64_t *list,
                    std::uint64_t n) const {
    const bool lone = size % 2 && n > 0 && list[n - 1] == size / 2;
    hash_pairs(hash, below, out, list, lone ? n - 1 : n);
    if (!lone) return;
    std::uint8_t *node = out + (size / 2) * node_bytes;
    std::memcpy(node, below + (size - 1) * node_bytes, node_bytes);
    if (options.shape != shape::zero) return;
    std::uint8_t pair[2 * node_bytes];
    std::memcpy(pair, node, node_bytes);
    std::memcpy(pair + node_bytes, zeros_[l - 1].data(), node_bytes);
    hash(pair, node, 1);
  }

  // Parents `list[0 .. n)`, each with both children, hashed in runs of run_pairs gathered pairs.
  static void hash_pairs(pair_hash_fn hash, const std::uint8_t *below, std::uint8_t *out,
                         const std::uint64_t *list, std::uint64_t n) {
    std::uint8_t pairs[run_pairs * 2 * node_bytes], parents[run_pairs * node_bytes];
    // The first run's parents too, while its children are gathered and hashed (in a block, the
    // children were written just before: only the parents' lines come from memory).
    for (std::uint64_t k = 0; k < std::min(n, run_pairs); ++k)
      __builtin_prefetch(out + list[k] * node_bytes, 1);
    for (std::uint64_t at = 0; at < n; at += run_pairs) {
      const std::uint64_t run = std::min(run_pairs, n - at);
      // The next run's children and parents asked for now: scattered nodes come from memory,
      // and their loads overlap this run's hashing instead of stalling its gathering one by one.
      for (std::uint64_t k = at + run; k < std::min(n, at + run + run_pairs); ++k) {
        __builtin_prefetch(below + list[k] * 2 * node_bytes);
        __builtin_prefetch(out + list[k] * node_bytes, 1);
      }
      for (std::uint64_t k = 0; k < run; ++k)
        std::memcpy(pairs + k * 2 * node_bytes, below + list[at + k] * 2 * node_bytes,
                    2 * node_bytes);
      hash(pairs, parents, run);
      for (std::uint64_t k = 0; k < run; ++k)
        std::memcpy(out + list[at + k] * node_bytes, parents + k * node_bytes, node_bytes);
    }
  }

  std::vector<digest> zeros_;
  std::vector<std::uint64_t> bits_, dirty_; // the current level's dirty bits, and its list
  leaf_blocks blocks_;                      // a batch's updates by block, reused
};

} // namespace detail
} // namespace merklize
