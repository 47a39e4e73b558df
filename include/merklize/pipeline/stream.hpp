// SPDX-License-Identifier: Apache-2.0 OR MIT
// The streaming pipeline of host builds: runs a stream plan (stream_plan.hpp) for a part of a
// tree, its leaves from a source (leaf_sources.hpp) and its nodes to a sink (node_sinks.hpp).
// While chunk c is hashed on the kernel queue, chunk c + 1 uploads and chunk c - 1's nodes
// download, each on a queue of its own; a chunk's slot is reused once its kernels have read its
// leaves and its nodes have been read back.
#pragma once

#include "level_runner.hpp"
#include "stream_memory.hpp"

#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

// Enqueues chunk c's levels: 1..lower into its slot, then lower+1..base into the upper buffer
// at the chunk's place, after `wait`. Returns the event after which its lower levels are in the
// slot (its upload where there are none).
inline cl::Event enqueue_chunk_levels(stream_context &s, level_runner &levels,
                                      const tree_part &part, unsigned root_level,
                                      const stream_memory::slot &slot, const chunk &ch,
                                      const std::vector<cl::Event> &wait) {
  const stream_plan &p = s.plan;
  const tree_layout &layout = part.layout;
  const cl::CommandQueue &queue = s.queues.kernels;
  const level_target upper{s.memory.upper(), 0, layout.level_size(p.lower + 1),
                           ch.first >> (p.lower + 1), p.base - p.lower};
  if (p.lower == 0) {
    levels.enqueue(queue, {slot.leaves, 0, ch.count, 0}, upper, root_level, wait, s.log.kernels);
    return wait.front();
  }
  levels.enqueue(queue, {slot.leaves, 0, ch.count, 0},
                 {slot.nodes, 0, ceil_shift(p.slot_leaves, 1), 0, p.lower}, root_level, wait,
                 s.log.kernels);
  const cl::Event lower_done = s.log.kernels.back();
  levels.enqueue(queue,
                 {slot.nodes, p.slot_level_first(p.lower), ceil_shift(ch.count, p.lower), p.lower},
                 upper, root_level, {lower_done}, s.log.kernels);
  return lower_done;
}

// Streams `part` through the device by the plan in `s`; returns the part's nodes of its top
// level. The node of `root_level` (the whole tree's root) gets blake3-parent's ROOT flag.
template <class Source, class Sink>
std::vector<digest> run_stream(stream_context &s, level_runner &levels, const tree_part &part,
                               unsigned root_level, Source &source, Sink &sink) {
  const stream_plan &p = s.plan;
  s.memory.reserve(p);
  // Per slot, the last kernel of its last chunk (its leaves are read) and the last read of its
  // nodes: the slot is free once both are done.
  std::vector<cl::Event> hashed(p.slots), read(p.slots);
  for (std::uint64_t c = 0; c < p.chunks(); ++c) {
    const std::size_t i = c % p.slots;
    const stream_memory::slot &slot = s.memory.slot_for(c, p);
    const chunk ch = p.at(c);
    const bool reused = c >= p.slots;
    const cl::Event uploaded = source.upload(
        c, ch, slot.leaves, reused ? std::vector<cl::Event>{hashed[i]} : std::vector<cl::Event>{});
    std::vector<cl::Event> wait{uploaded};
    if (reused) wait.push_back(read[i]);
    const cl::Event lower_done = enqueue_chunk_levels(s, levels, part, root_level, slot, ch, wait);
    call("clFlush", [&] { return s.queues.kernels.flush(); });
    hashed[i] = s.log.kernels.back();
    read[i] = sink.chunk_levels(c, ch, slot.nodes, lower_done);
  }
  // The levels above the chunks, in the upper buffer (tree layout from level lower + 1).
  const tree_layout &layout = part.layout;
  const auto upper_first = [&](unsigned k) {
    return layout.level_offset(k) - layout.level_offset(p.lower + 1);
  };
  if (part.levels > p.base)
    levels.enqueue(s.queues.kernels,
                   {s.memory.upper(), upper_first(p.base), layout.level_size(p.base), p.base},
                   {s.memory.upper(), upper_first(p.base + 1), layout.level_size(p.base + 1), 0,
                    part.levels - p.base},
                   root_level, {s.log.kernels.back()}, s.log.kernels);
  call("clFlush", [&] { return s.queues.kernels.flush(); });
  return sink.upper_levels(s.memory.upper(), s.log.kernels.back());
}

} // namespace detail
} // namespace merklize
