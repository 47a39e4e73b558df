// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees (kary.hpp) built on the device from leaves there (block_hasher.hpp): each level's
// groups of k children are hashed as blocks of k * 32 bytes by the block-leaf kernels, one launch
// a level, the short last group apart (promoted, hashed alone, or padded with zero-subtree roots
// in a small scratch buffer, as the shape says).
//
//   merklize::device_leaves leaves = h.leaves_as_given(in);          // or h.leaves_of(in, rule)
//   merklize::kary_tree t = merklize::kary_tree_on_device(h, leaves, {hash_kind::sha256, 16});
#pragma once

#include "block_hasher.hpp"
#include "kary.hpp"

#include <vector>

namespace merklize {

struct kary_tree {
  digest root{};
  std::vector<std::vector<digest>> levels; // leaves first, with keep_levels; else empty
};

namespace detail {

// Level `level` + 1 from level `level` of the levels laid back to back in `nodes` (offsets in
// nodes), on the block_hasher's queue.
inline void enqueue_kary_level(block_hasher &h, const kary_options &o, const cl::Buffer &nodes,
                               const std::vector<std::uint64_t> &offsets,
                               const std::vector<std::uint64_t> &sizes, std::size_t level,
                               const cl::Buffer &scratch, const std::vector<digest> &zeros) {
  const leaf_rule rule{o.hash == hash_kind::sha256 ? leaf_hash::sha256 : leaf_hash::blake3,
                       std::uint64_t(o.arity) * node_bytes,
                       {},
                       false,
                       std::nullopt};
  const std::uint64_t full = sizes[level] / o.arity, left = sizes[level] % o.arity;
  const std::uint64_t from = offsets[level], to = offsets[level + 1];
  if (full > 0)
    h.enqueue_leaves(rule, nodes, from * node_bytes, full * o.arity * node_bytes, nodes, to);
  if (left == 0) return;
  const std::uint64_t last = (from + full * o.arity) * node_bytes;
  const cl::CommandQueue &queue = h.queue();
  if (o.pad == shape::promote && left == 1) {
    call("clEnqueueCopyBuffer", [&] {
      return queue.enqueueCopyBuffer(nodes, nodes, last, (to + full) * node_bytes, node_bytes);
    });
  } else if (o.pad == shape::promote) {
    h.enqueue_leaves(rule, nodes, last, left * node_bytes, nodes, to + full);
  } else {
    const std::vector<digest> padding(o.arity - left, zeros[level]);
    call("clEnqueueCopyBuffer",
         [&] { return queue.enqueueCopyBuffer(nodes, scratch, last, 0, left * node_bytes); });
    call("clEnqueueWriteBuffer", [&] { // blocking: `padding` goes at the end of this call
      return queue.enqueueWriteBuffer(scratch, CL_TRUE, left * node_bytes,
                                      padding.size() * node_bytes, padding.data());
    });
    h.enqueue_leaves(rule, scratch, 0, o.arity * node_bytes, nodes, to + full);
  }
}

} // namespace detail

// The k-ary tree over `leaves` (on the device): its root, and with keep_levels every level.
inline kary_tree kary_tree_on_device(block_hasher &h, const device_leaves &leaves,
                                     const kary_options &options, bool keep_levels = false) {
  check_kary(options);
  const auto sizes = kary_level_sizes(leaves.count, options.arity);
  std::vector<std::uint64_t> offsets = {0};
  for (const std::uint64_t size : sizes)
    offsets.push_back(offsets.back() + size);
  const cl::Buffer nodes = h.device_buffer(offsets.back() * node_bytes, "the k-ary tree");
  const cl::Buffer scratch = h.device_buffer(options.arity * node_bytes, "a group of children");
  const auto zeros = kary_zero_roots(options, static_cast<unsigned>(sizes.size()));
  const cl::CommandQueue &queue = h.queue();
  detail::call("clEnqueueCopyBuffer", [&] {
    return queue.enqueueCopyBuffer(leaves.buffer, nodes, 0, 0, leaves.count * node_bytes);
  });
  for (std::size_t level = 0; level + 1 < sizes.size(); ++level)
    detail::enqueue_kary_level(h, options, nodes, offsets, sizes, level, scratch, zeros);
  kary_tree tree;
  std::vector<digest> all(static_cast<std::size_t>(keep_levels ? offsets.back() : 1));
  const std::uint64_t first = keep_levels ? 0 : offsets.back() - 1;
  detail::call("clEnqueueReadBuffer", [&] {
    return queue.enqueueReadBuffer(nodes, CL_TRUE, first * node_bytes, all.size() * node_bytes,
                                   all.data());
  });
  tree.root = all.back();
  if (keep_levels)
    for (std::size_t level = 0; level < sizes.size(); ++level)
      tree.levels.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(offsets[level]),
                               all.begin() + static_cast<std::ptrdiff_t>(offsets[level + 1]));
  return tree;
}

} // namespace merklize
