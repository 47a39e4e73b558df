// SPDX-License-Identifier: Apache-2.0 OR MIT
// A resident tree's update batch applied by the host's cores (issue 31 on CPU devices): where
// the device is the CPU (PoCL), its buffers are host memory, and the kernels' one node a
// work-item hashes scattered nodes several times slower than the host engine's SIMD pair
// hashers (host_blake3_simd.hpp, sha256_pairs.hpp). So the levels are mapped (no copy on PoCL:
// the map hands the buffer's own memory), the leaves written in the batch's order (a repeated
// index takes its last value), the dirty nodes marked level by level in bitmaps (a bit a node;
// a level's bits are its children's ORed in pairs), and each level's dirty nodes hashed by the
// threads, their children gathered into runs of pairs for the pair hasher. A lone last node
// moves up (promote) or hashes with the zero subtree of its height (zero), as host_level does;
// the root above a fixed depth is raised by the caller, as after the kernels.
#pragma once

#include "../plan/engine_choice.hpp"
#include "../runtime/device.hpp"
#include "device_tree.hpp"
#include "host_tree.hpp"
#include "tree_updater.hpp"

#include <chrono>
#include <cstring>
#include <thread>
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
  // Leaf indices[k] becomes leaf k of `leaves` (checked indices) in `t`, every level recomputed
  // where it changed, with `options`' rules; the levels unmapped before this returns.
  void update(const cl::CommandQueue &queue, const device_tree &t, const tree_options &options,
              const std::uint64_t *indices, const void *leaves, std::uint64_t count,
              update_events &events) {
    const auto start = std::chrono::steady_clock::now();
    const unsigned top = t.top();
    if (zeros_.size() < top + 1u) zeros_ = zero_subtree_roots(options.hash, top);
    std::vector<std::uint8_t *> level(top + 1, nullptr); // null: not mapped (a map refused)
    try {
      for (unsigned l = 0; l <= top; ++l)
        level[l] = map(queue, t, l);
      events.map_ms = ms_since(start);
      events.on_host = true;
      write_leaves(level[0], t.level_sizes()[0], indices, leaves, count);
      const pair_hash_fn hash = pair_hasher(row_of(options.hash));
      for (unsigned l = 1; l <= top; ++l)
        hash_level(hash, options, level[l - 1], level[l], t.level_sizes()[l - 1], l);
    } catch (...) {
      unmap(queue, t, level);
      throw;
    }
    unmap(queue, t, level);
    events.host_ms = ms_since(start);
  }

private:
  static constexpr std::uint64_t run_pairs = 64;        // pairs gathered for one hasher call
  static constexpr std::uint64_t nodes_a_thread = 4096; // fewer dirty nodes: one thread
  static constexpr std::uint64_t prefetch_ahead = 16;   // leaves written before one fetched

  static std::uint8_t *map(const cl::CommandQueue &queue, const device_tree &t, unsigned l) {
    return static_cast<std::uint8_t *>(create("clEnqueueMapBuffer", [&](cl_int *err) {
      return queue.enqueueMapBuffer(t.level_buffer(l), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                    t.level_first(l) * node_bytes, t.level_sizes()[l] * node_bytes,
                                    nullptr, nullptr, err);
    }));
  }

  static void unmap(const cl::CommandQueue &queue, const device_tree &t,
                    const std::vector<std::uint8_t *> &level) {
    for (unsigned l = 0; l < level.size() && level[l]; ++l)
      call("clEnqueueUnmapMemObject",
           [&] { return queue.enqueueUnmapMemObject(t.level_buffer(l), level[l]); });
  }

  // Threads for `work` items: one a nodes_a_thread, at most the hardware's.
  static unsigned threads_for(std::uint64_t work) {
    return unsigned(std::min<std::uint64_t>(host_engine_threads(), work / nodes_a_thread + 1));
  }

  // work(k) for k = 0 .. threads - 1, each on a thread of its own (k = 0 on this one).
  template <class Work> static void on_threads(unsigned threads, const Work &work) {
    std::vector<std::thread> others;
    try {
      for (unsigned k = 1; k < threads; ++k)
        others.emplace_back(work, k);
    } catch (...) { // no thread to be had: those started finish, and the refusal goes up
      for (auto &thread : others)
        thread.join();
      throw;
    }
    work(0);
    for (auto &thread : others)
      thread.join();
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

  // Level `l` (nodes `out`) where the level below (`below`, `size` nodes, its dirty nodes in
  // bits_) changed: bits_ becomes this level's, its dirty nodes listed and hashed.
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
    std::uint64_t pairs = dirty_.size();
    const bool lone = size % 2 && !dirty_.empty() && dirty_.back() == size / 2;
    if (lone) --pairs; // its sibling is none (promote) or a zero subtree
    const unsigned threads = threads_for(pairs);
    on_threads(threads, [&](unsigned k) {
      hash_dirty(hash, below, out, pairs * k / threads, pairs * (k + 1) / threads);
    });
    if (!lone) return;
    std::uint8_t *node = out + (size / 2) * node_bytes;
    std::memcpy(node, below + (size - 1) * node_bytes, node_bytes);
    if (options.pad != shape::zero) return;
    std::uint8_t pair[2 * node_bytes];
    std::memcpy(pair, node, node_bytes);
    std::memcpy(pair + node_bytes, zeros_[l - 1].data(), node_bytes);
    hash(pair, node, 1);
  }

  // dirty_[from .. to) hashed from their children, in runs of run_pairs gathered pairs.
  void hash_dirty(pair_hash_fn hash, const std::uint8_t *below, std::uint8_t *out,
                  std::uint64_t from, std::uint64_t to) const {
    std::uint8_t pairs[run_pairs * 2 * node_bytes], parents[run_pairs * node_bytes];
    for (std::uint64_t at = from; at < to; at += run_pairs) {
      const std::uint64_t n = std::min(run_pairs, to - at);
      // The next run's children asked for now: scattered nodes come from memory, and their
      // loads overlap this run's hashing instead of stalling its gathering one by one.
      for (std::uint64_t k = at + n; k < std::min(to, at + n + run_pairs); ++k)
        __builtin_prefetch(below + dirty_[k] * 2 * node_bytes);
      for (std::uint64_t k = 0; k < n; ++k)
        std::memcpy(pairs + k * 2 * node_bytes, below + dirty_[at + k] * 2 * node_bytes,
                    2 * node_bytes);
      hash(pairs, parents, n);
      for (std::uint64_t k = 0; k < n; ++k)
        std::memcpy(out + dirty_[at + k] * node_bytes, parents + k * node_bytes, node_bytes);
    }
  }

  std::vector<digest> zeros_;
  std::vector<std::uint64_t> bits_, dirty_; // the current level's dirty bits, and its list
};

} // namespace detail
} // namespace merklize
