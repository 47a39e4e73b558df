// SPDX-License-Identifier: Apache-2.0 OR MIT
// The stream planner: how a host build moves a part of a tree through the device in chunks,
// within the device's memory. A pure function of the part, the chunk size and the memory
// limits, unit-tested without a device (tests/test_stream_plan.cpp); the pipeline (stream.hpp)
// runs what it plans.
//
// Chunks of 2^s leaves aligned at multiples of 2^s are exact subtrees (the aligned-part rule,
// parts.hpp), so while chunk c is hashed, chunk c + 1 is uploaded and chunk c - 1's nodes are
// downloaded. Each chunk's levels 1..base are computed as it arrives: the lowest `lower` of them
// in its slot, read back from there, and the rest in one `upper` buffer in tree layout, where the
// levels above base are computed once every chunk is in and the kept ones come back in one read.
#pragma once

#include "parts.hpp"
#include "tuning.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

// The level kernels read the zero-subtree roots of heights 0..63 from one buffer of this many
// nodes (level_runner.hpp).
constexpr unsigned zero_root_nodes = 64;

// A run of a host build's leaves that crosses the device as one piece: leaves [first, first +
// count) of the part, a multiple of 2^base from its start, as many or the part's last leaves
// (so its levels 1..base are the part's).
struct chunk {
  std::uint64_t first, count;

  friend bool operator==(const chunk &a, const chunk &b) {
    return a.first == b.first && a.count == b.count;
  }
};

// How a host build streams: chunks of up to 2^s leaves, levels 1..base of each computed as it
// arrives, the lowest `lower` of them downloaded from its slot and the rest kept in `upper`
// (tree layout from level lower+1), where the levels above base are computed once every
// chunk is in. A long stream starts with chunks of 2^(s-2), 2^(s-2), 2^(s-1) leaves and ends
// with the mirror image: nothing overlaps the first chunk's upload and the last one's
// download, so they are kept short (base = s - 2 then, else s).
struct stream_plan {
  unsigned lower = 0, base = 0, slots = 0;
  // The chunks: `head`, then `middle` chunks of 2^s from leaf middle_first (the last one
  // possibly shorter), then `tail`; computed, not listed, as a huge tree has many.
  std::vector<chunk> head, tail;
  std::uint64_t leaves = 0, middle_first = 0, middle = 0;
  unsigned s = 0;
  std::uint64_t slot_leaves = 0, slot_nodes = 0, upper_nodes = 0;

  std::uint64_t chunks() const { return head.size() + middle + tail.size(); }
  chunk at(std::uint64_t c) const {
    if (c < head.size()) return head[c];
    c -= head.size();
    if (c >= middle) return tail[c - middle];
    const std::uint64_t first = middle_first + (c << s);
    return {first, std::min(std::uint64_t(1) << s, leaves - first)};
  }

  // Node offset of chunk-level k (1..lower) in a slot's node buffer.
  std::uint64_t slot_level_first(unsigned k) const {
    std::uint64_t first = 0;
    for (unsigned i = 1; i < k; ++i)
      first += ceil_shift(slot_leaves, i);
    return first;
  }

  std::uint64_t device_bytes() const {
    return (slots * (slot_leaves + slot_nodes) + upper_nodes + zero_root_nodes) * node_bytes;
  }
};

// What a stream may use of the device: at most `budget` bytes, no buffer over max_buffer.
struct device_memory {
  std::uint64_t budget, max_buffer, global;
  std::string device_name; // for the message when a tree does not fit
};

// The last chunk of a ramped stream, leaves [first, first + count), count <= 2^s: halves and
// quarters, each aligned to its size, ending in a quarter or less.
inline std::vector<chunk> tail_chunks(std::uint64_t first, std::uint64_t count, unsigned s) {
  std::vector<chunk> chunks;
  for (unsigned levels : {s - 1, s - 2}) {
    const std::uint64_t size = std::uint64_t(1) << levels;
    if (count > size) {
      chunks.push_back({first, size});
      first += size;
      count -= size;
    }
  }
  chunks.push_back({first, count});
  return chunks;
}

// The plan for chunks of 2^s leaves, `slots` of them on the device, `lower` levels of each
// read back from its slot (at most base - 1).
inline stream_plan plan_with(const tree_part &part, unsigned s, unsigned slots, unsigned lower) {
  const tree_layout &layout = part.layout;
  const std::uint64_t n = layout.leaf_count(), size = std::uint64_t(1) << s;
  const std::uint64_t full_chunks = (n + size - 1) / size;
  const bool ramp = full_chunks >= 4 && s >= 3;
  stream_plan p;
  p.s = s;
  p.leaves = n;
  p.base = ramp ? s - 2 : s;
  p.middle = ramp ? full_chunks - 2 : full_chunks;
  if (ramp) {
    p.head = {{0, size / 4}, {size / 4, size / 4}, {size / 2, size / 2}};
    p.middle_first = size;
    p.tail = tail_chunks((full_chunks - 1) * size, n - (full_chunks - 1) * size, s);
  }
  p.lower = std::min(lower, p.base == 0 ? 0 : p.base - 1);
  p.slots = static_cast<unsigned>(std::min<std::uint64_t>(slots, p.chunks()));
  p.slot_leaves = std::min(size, n);
  for (unsigned k = 1; k <= p.lower; ++k)
    p.slot_nodes += ceil_shift(p.slot_leaves, k);
  p.upper_nodes = layout.level_offset(part.levels + 1) - layout.level_offset(p.lower + 1);
  return p;
}

// Levels read back per chunk of 2^s leaves by default: those of 2^min_read_log2 nodes or more,
// at least one. Each read costs the bus about as much as moving 2^14 nodes (a chunk's read of a
// level takes about 10 us more than its bytes on an H200), so the levels above them, 1/2^lower
// of the tree, stay in `upper` and come back in one read at the end.
inline unsigned fewest_lower(unsigned s, unsigned min_read_log2) {
  return s > min_read_log2 ? s - min_read_log2 : 1;
}

// The plan for a part: chunks of 2^chunk_log2 leaves (smaller where the memory asks), `slots`
// on the device, the fewest levels read back per chunk that fit (more keep less in `upper`).
inline stream_plan plan_stream(const tree_part &part, unsigned chunk_log2, unsigned slots,
                               unsigned min_read_log2, const device_memory &memory) {
  for (unsigned s = std::min(chunk_log2, part.levels);; --s) {
    stream_plan plan;
    for (unsigned lower = fewest_lower(s, min_read_log2);; ++lower) {
      plan = plan_with(part, s, slots, lower);
      const bool fits =
          plan.device_bytes() <= memory.budget &&
          std::max({plan.slot_leaves, plan.slot_nodes, plan.upper_nodes}) * node_bytes <=
              memory.max_buffer;
      if (fits) return plan;
      if (lower + 1 >= std::max(plan.base, 1u)) break;
    }
    if (s <= 1)
      throw error("tree too large for " + memory.device_name + ": " +
                  std::to_string(part.layout.leaf_count() * node_bytes) + " bytes of leaves and " +
                  std::to_string(part.layout.internal_node_count() * node_bytes) +
                  " bytes of nodes need at least " + std::to_string(plan.device_bytes()) +
                  " bytes of device memory even when streamed, but " +
                  std::to_string(memory.budget) + " bytes are allowed (device memory " +
                  std::to_string(memory.global) + ", largest buffer " +
                  std::to_string(memory.max_buffer) + ")");
  }
}

// The memory a configuration lets a stream use of a device: config::max_device_bytes (no more
// than the device has), else 90% of the device's memory.
inline device_memory memory_for(const device_facts &device, std::uint64_t max_device_bytes) {
  const std::uint64_t budget = max_device_bytes
                                   ? std::min(max_device_bytes, device.global_memory_bytes)
                                   : device.global_memory_bytes / 10 * 9;
  return {budget, device.max_buffer_bytes, device.global_memory_bytes, device.name};
}

// Streamed k-ary trees (engine/kary_stream.hpp) take aligned chunks of k^j leaves, so each
// chunk's levels 1..j are the tree's (kary_part_sizes): j the most levels of a chunk no larger
// than 2^chunk_log2 leaves (the binary stream's chunk: at arity 2 the same chunks), at least 1,
// and no more than an input of a known `size` bytes needs (a small file, small buffers).
inline unsigned kary_chunk_levels(unsigned arity, unsigned chunk_log2,
                                  std::optional<std::uint64_t> size) {
  const unsigned bits = ceil_log2(arity); // arity: a power of two (check_kary)
  unsigned j = std::max(1u, chunk_log2 / bits);
  while (size && j > 1 && (std::uint64_t(1) << (bits * (j - 1))) * node_bytes >= *size)
    --j;
  return j;
}

} // namespace detail
} // namespace merklize
