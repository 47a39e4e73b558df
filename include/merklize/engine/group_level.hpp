// SPDX-License-Identifier: Apache-2.0 OR MIT
// A level of a tree of groups of children hashed by the block-leaf kernels (block_hasher.hpp):
// each group of k children one block of k * 32 bytes, a launch for the level, the short last
// group apart (promoted, hashed alone, or padded with zero-subtree roots in a small scratch
// buffer, as the shape says). device_tree builds its k-ary and group rule levels by it; the
// sizes of a part's levels are the same arithmetic for every tree kept on the device.
#pragma once

#include "../core/kary.hpp"
#include "block_hasher.hpp"

#include <cstdint>
#include <vector>

namespace merklize {

namespace detail {

// A level's nodes in a buffer: `count` of them from node `first`.
struct node_span {
  const cl::Buffer &buffer;
  std::uint64_t first, count;
};

// The level above `from`, into `to` (from node to.first), by the block-leaf kernels: each group
// of k children hashed as one block by `g`, on the block_hasher's queue. `zero` pads a short last
// group of shape zero; a rule that pads with zero bytes hashes the whole level in one launch.
inline void enqueue_group_level(block_hasher &h, const group_rule &g, const node_span &from,
                                const node_span &to, const cl::Buffer &scratch,
                                const digest &zero) {
  const leaf_rule &rule = g.block;
  const unsigned k = g.arity();
  if (rule.zero_pad) {
    h.enqueue_leaves(rule, from.buffer, from.first * node_bytes, from.count * node_bytes, to.buffer,
                     to.first);
    return;
  }
  const std::uint64_t full = from.count / k, left = from.count % k;
  if (full > 0)
    h.enqueue_leaves(rule, from.buffer, from.first * node_bytes, full * k * node_bytes, to.buffer,
                     to.first);
  if (left == 0) return;
  const std::uint64_t last = (from.first + full * k) * node_bytes;
  const cl::CommandQueue &queue = h.queue();
  if (g.shape == shape::promote && left == 1) {
    call("clEnqueueCopyBuffer", [&] {
      return queue.enqueueCopyBuffer(from.buffer, to.buffer, last, (to.first + full) * node_bytes,
                                     node_bytes);
    });
  } else if (g.shape == shape::promote) {
    h.enqueue_leaves(rule, from.buffer, last, left * node_bytes, to.buffer, to.first + full);
  } else {
    const std::vector<digest> padding(k - left, zero);
    call("clEnqueueCopyBuffer",
         [&] { return queue.enqueueCopyBuffer(from.buffer, scratch, last, 0, left * node_bytes); });
    call("clEnqueueWriteBuffer", [&] { // blocking: `padding` goes at the end of this call
      return queue.enqueueWriteBuffer(scratch, CL_TRUE, left * node_bytes,
                                      padding.size() * node_bytes, padding.data());
    });
    h.enqueue_leaves(rule, scratch, 0, k * node_bytes, to.buffer, to.first + full);
  }
}

// The same of a k-ary tree's nodes (kary_options's rule).
inline void enqueue_kary_level(block_hasher &h, const kary_options &o, const node_span &from,
                               const node_span &to, const cl::Buffer &scratch, const digest &zero) {
  enqueue_group_level(h, group_rule_of(o), from, to, scratch, zero);
}

} // namespace detail

// The sizes of levels 0..top of a part of a k-ary tree over `count` leaves: ceil(count / k^l).
// Above a short part's own top its lone node moves up level by level (device_tree).
inline std::vector<std::uint64_t> kary_part_sizes(std::uint64_t count, unsigned arity,
                                                  unsigned top) {
  if (count == 0) throw error("no leaves: a k-ary tree or part needs at least one leaf");
  std::vector<std::uint64_t> sizes = {count};
  for (unsigned level = 0; level < top; ++level)
    sizes.push_back((sizes.back() + arity - 1) / arity);
  return sizes;
}

} // namespace merklize
