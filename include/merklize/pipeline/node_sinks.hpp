// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where a streaming build's nodes go. A sink is told when a chunk's lower levels are in its slot
// (chunk_levels) and when every level is computed (upper_levels), enqueues the reads of what it
// keeps on the download queue, and at the end hands back the part's nodes of its top level.
#pragma once

#include "stream_memory.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

// The levels a host tree keeps (tree::first_level() up), at their places in it: read straight
// into the tree's memory where it is page-locked, else through page-locked staging and copied
// into place by several host threads (`staged`).
class tree_sink {
public:
  tree_sink(stream_context &s, const tree_part &part, tree &t, bool staged)
      : s_(s), part_(part), t_(t), keep_(t.first_node_level()), staged_(staged),
        stage_down_(staged && keep_ <= s.plan.lower), reads_(s.plan.slots) {}

  // Chunk c's levels 1..lower are in `slot_nodes` once `lower_done`: enqueues the reads of those
  // the tree keeps, and returns the event after which the slot's nodes may be overwritten.
  cl::Event chunk_levels(std::uint64_t c, const chunk &ch, const cl::Buffer &slot_nodes,
                         const cl::Event &lower_done) {
    const stream_plan &p = s_.plan;
    if (keep_ > p.lower) return lower_done;
    cl::Event &read = reads_[c % p.slots];
    if (stage_down_) { // one read of the kept levels, copied into place by the host later
      const std::uint64_t from = p.slot_level_first(keep_);
      const std::uint64_t to = p.slot_level_first(p.lower) + ceil_shift(ch.count, p.lower);
      read = enqueue_read(slot_nodes, from, to - from, staged_chunk(c), lower_done);
      if (c + 1 >= p.slots) drain(c + 1 - p.slots);
    } else {
      for (unsigned k = keep_; k <= p.lower; ++k)
        read = enqueue_read(slot_nodes, p.slot_level_first(k), ceil_shift(ch.count, k),
                            place(k, ch.first >> k), lower_done);
    }
    call("clFlush", [&] { return s_.queues.downloads.flush(); });
    return read;
  }

  // Once every level is computed (`all_done`), reads the kept levels of `upper`, waits for all
  // reads and copies, and returns the part's nodes of level part.levels.
  std::vector<digest> upper_levels(const cl::Buffer &upper, const cl::Event &all_done) {
    const stream_plan &p = s_.plan;
    const std::uint64_t chunks = p.chunks();
    if (stage_down_)
      for (std::uint64_t c = chunks < p.slots ? 0 : chunks + 1 - p.slots; c < chunks; ++c)
        drain(c);
    const unsigned top = part_.levels, from = std::max(keep_, p.lower + 1);
    // Kept upper levels bound for pageable memory come through one staging buffer.
    const bool stage_upper = staged_ && from <= top;
    std::uint8_t *const staged =
        stage_upper ? s_.memory.down().at(p.slots, upper_bytes(from, top)) : nullptr;
    const auto staged_at = [&](unsigned k) {
      return staged + (upper_first(k) - upper_first(from)) * node_bytes;
    };
    const auto runs = kept_runs(from, top);
    for (const auto &[first, last] : runs)
      enqueue_read(upper, upper_first(first), upper_bytes(first, last) / node_bytes,
                   stage_upper ? staged_at(first) : place(first, 0), all_done);
    std::vector<digest> top_nodes(part_.layout.level_size(top));
    if (from > top)
      enqueue_read(upper, upper_first(top), top_nodes.size(), top_nodes.data(), all_done);
    call("clFinish", [&] { return s_.queues.downloads.finish(); });
    if (stage_upper)
      for (const auto &[first, last] : runs)
        parallel_copy(place(first, 0), staged_at(first), upper_bytes(first, last));
    if (from <= top) std::memcpy(top_nodes.data(), place(top, 0), top_nodes.size() * node_bytes);
    return top_nodes;
  }

private:
  // Node i of the part's level k at its place in the tree.
  std::uint8_t *place(unsigned k, std::uint64_t i) const {
    const tree_layout &whole = t_.layout();
    return t_.nodes_data() +
           (whole.level_offset(k) - whole.level_offset(keep_) + (part_.first_leaf >> k) + i) *
               node_bytes;
  }

  // Node offset of the part's level k (above lower) in the upper buffer.
  std::uint64_t upper_first(unsigned k) const {
    return part_.layout.level_offset(k) - part_.layout.level_offset(s_.plan.lower + 1);
  }
  std::uint64_t upper_bytes(unsigned first, unsigned last) const {
    return (part_.layout.level_offset(last + 1) - part_.layout.level_offset(first)) * node_bytes;
  }

  // The kept levels of upper as runs of levels [first, last]: a part of every leaf is laid out
  // in the tree as in the upper buffer, so one read (the end-to-end time of large trees depends
  // on it), else a read per level into its place.
  std::vector<std::pair<unsigned, unsigned>> kept_runs(unsigned from, unsigned top) const {
    std::vector<std::pair<unsigned, unsigned>> runs;
    if (part_.layout.leaf_count() == t_.leaf_count() && from <= top)
      runs.emplace_back(from, top);
    else
      for (unsigned k = from; k <= top; ++k)
        runs.emplace_back(k, k);
    return runs;
  }

  std::uint8_t *staged_chunk(std::uint64_t c) {
    return s_.memory.down().at(c % s_.plan.slots, s_.plan.slot_nodes * node_bytes);
  }

  // Copies chunk c's staged levels into place once their read is done.
  void drain(std::uint64_t c) {
    const stream_plan &p = s_.plan;
    const chunk ch = p.at(c);
    call("clWaitForEvents", [&] { return reads_[c % p.slots].wait(); });
    const std::uint8_t *staged = staged_chunk(c);
    for (unsigned k = keep_; k <= p.lower; ++k)
      parallel_copy(place(k, ch.first >> k),
                    staged + (p.slot_level_first(k) - p.slot_level_first(keep_)) * node_bytes,
                    ceil_shift(ch.count, k) * node_bytes);
  }

  cl::Event enqueue_read(const cl::Buffer &from, std::uint64_t first, std::uint64_t count, void *to,
                         const cl::Event &after) {
    const std::vector<cl::Event> wait{after};
    cl::Event read;
    call("clEnqueueReadBuffer", [&] {
      return s_.queues.downloads.enqueueReadBuffer(from, CL_FALSE, first * node_bytes,
                                                   count * node_bytes, to, &wait, &read);
    });
    s_.log.downloads.push_back(read);
    return read;
  }

  stream_context &s_;
  const tree_part &part_;
  tree &t_;
  const unsigned keep_;
  const bool staged_, stage_down_;
  std::vector<cl::Event> reads_; // each slot's last read
};

} // namespace detail
} // namespace merklize
