// SPDX-License-Identifier: Apache-2.0 OR MIT
// The device memory of a tree kept on the device (resident_tree.hpp): its own copy of the
// leaves, leaves it adopts instead (checked to hold the room asked for), the levels above a room
// of leaves, and the most leaves a tree may hold, refusing an append past it.
#pragma once

#include "../plan/update_batch.hpp" // max_sorted_leaves
#include "../runtime/buffers.hpp"
#include "block_hasher.hpp"
#include "device_tree.hpp"
#include "group_level.hpp" // kary_part_sizes

#include <cstdint>
#include <string>

namespace merklize {
namespace detail {

// The most leaves a tree of `tree` may hold: 2^depth for a fixed depth below 32, else 2^32.
inline std::uint64_t resident_leaf_limit(const tree_options &tree) {
  return tree.depth && *tree.depth < 32 ? std::uint64_t(1) << *tree.depth : max_sorted_leaves;
}

// Refuses an append of `count` leaves onto `n` past what the tree can hold, before anything
// changes.
inline void check_resident_append(std::uint64_t n, std::uint64_t count, const tree_options &tree) {
  const std::uint64_t limit = resident_leaf_limit(tree);
  if (count > limit - n)
    throw error("append: " + std::to_string(count) + " leaves onto the tree of " +
                std::to_string(n) + " would pass its " + std::to_string(limit) + " leaves (" +
                (tree.depth && *tree.depth < 32
                     ? "a fixed depth of " + std::to_string(*tree.depth)
                     : std::string("2^32, the most a tree changed in place holds")) +
                ")");
}

// Nodes above the leaves of a tree of arity `arity` laid out for `room` leaves.
inline std::uint64_t resident_nodes_above(std::uint64_t room, unsigned arity = 2) {
  std::uint64_t above = 0;
  const auto sizes = kary_part_sizes(room, arity, kary_height(room, arity));
  for (std::size_t level = 1; level < sizes.size(); ++level)
    above += sizes[level];
  return above;
}

// The buffer of the levels above the leaves of a built tree (none for one leaf).
inline cl::Buffer resident_levels_of(const device_tree &t) {
  return t.top() > 0 ? t.level_buffer(1) : cl::Buffer();
}

// The tree's own copy of `count` leaves, from host memory (`host`) or a buffer of h's context.
inline cl::Buffer resident_owned_leaves(block_hasher &h, std::uint64_t count, const void *host,
                                        const cl::Buffer *device) {
  if (count == 0) throw error("no leaves: a tree needs at least one leaf (N = 0)");
  const std::uint64_t bytes = count * node_bytes;
  if (device) check_buffer(h.context(), *device, "the leaves", bytes, "tree", "tree's leaves");
  cl::Buffer owned = h.device_buffer(bytes, "the tree's leaves");
  call(host ? "clEnqueueWriteBuffer" : "clEnqueueCopyBuffer", [&] {
    return host ? h.queue().enqueueWriteBuffer(owned, CL_TRUE, 0, bytes, host)
                : h.queue().enqueueCopyBuffer(*device, owned, 0, 0, bytes);
  }); // the build after it on the same in-order queue reads the copy
  return owned;
}

// Adopted leaves' buffer (`count` leaves, room for `capacity`), refused unless it holds the room
// and the room fits the tree.
inline cl::Buffer resident_checked_room(block_hasher &h, const cl::Buffer &buffer,
                                        std::uint64_t count, std::uint64_t capacity,
                                        const tree_options &tree) {
  if (count == 0) throw error("no leaves: a tree needs at least one leaf (N = 0)");
  if (capacity < count)
    throw error("adopted leaves: room for " + std::to_string(capacity) +
                " leaves, fewer than their " + std::to_string(count));
  const std::uint64_t limit = resident_leaf_limit(tree);
  if (capacity > limit)
    throw error("adopted leaves: room for " + std::to_string(capacity) +
                " leaves, more than the tree may hold (" + std::to_string(limit) + ")");
  check_buffer(h.context(), buffer, "the leaves", capacity * node_bytes, "tree",
               "room for the leaves");
  return buffer;
}

} // namespace detail
} // namespace merklize
