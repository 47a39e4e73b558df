// SPDX-License-Identifier: Apache-2.0 OR MIT
// resident_tree's appends (resident_tree.hpp declares them; included at its end): leaves added
// after the last, a log whose old tree stays a prefix of the new one, only the new leaves' paths
// recomputed, a range of each level (tree_updater.hpp's enqueue_range, merkle_range_level); the
// room the device memory has for them, doubled when an append passes it or set by reserve(), the
// levels laid out for it (device_tree::adopt_layout); and the consistency proofs between the old
// tree and the new, their nodes read from the device.
#pragma once

#include "../proofs/consistency.hpp"
#include "resident_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

inline digest resident_tree::append(const void *leaves, std::uint64_t count) {
  health_.check("append");
  detail::check_resident_append(leaf_count(), count, cfg_.tree);
  begin_call();
  if (count == 0) return root_;
  return append_with(count, [&](std::uint64_t at) {
    upload_.leaves(queue_, leaves_, at, leaves, count * node_bytes, events_);
  });
}

inline digest resident_tree::append(const cl::Buffer &leaves, std::uint64_t count,
                                    const std::vector<cl::Event> &wait) {
  runtime_.check_buffer(leaves, "the leaves", count * node_bytes, "tree", "append");
  health_.check("append");
  detail::check_resident_append(leaf_count(), count, cfg_.tree);
  begin_call();
  if (count == 0) return root_;
  return append_with(count, [&](std::uint64_t at) {
    await(wait);
    cl::Event copied;
    detail::call("clEnqueueCopyBuffer", [&] {
      return queue_.enqueueCopyBuffer(leaves, leaves_, 0, at, count * node_bytes, nullptr, &copied);
    });
    events_.transfers.push_back(copied);
  });
}

inline consistency_proof resident_tree::prove_consistency(std::uint64_t old_size) const {
  health_.check("prove_consistency");
  if (auto reason = why_no_consistency_proofs(cfg_.tree)) throw error(*reason);
  consistency_proof proof{cfg_.tree, old_size, leaf_count(), {}};
  proof.nodes = tree_.read_nodes(consistency_positions(old_size, leaf_count()));
  return proof;
}

inline void resident_tree::reserve(std::uint64_t room) {
  if (room > detail::resident_leaf_limit(cfg_.tree))
    throw error("reserve: room for " + std::to_string(room) + " leaves, more than the tree " +
                "may hold (" + std::to_string(detail::resident_leaf_limit(cfg_.tree)) + ")");
  if (room <= capacity_) return;
  changing("reserve", [&] {
    const detail::drain_on_unwind drained(queue_);
    move_to(room);
  });
}

inline void resident_tree::grow(std::uint64_t needed) {
  move_to(std::min(std::max(needed, capacity_ * 2), detail::resident_leaf_limit(cfg_.tree)));
}

inline void resident_tree::move_to(std::uint64_t room) {
  cl::Buffer leaves, nodes;
  std::uint64_t leaves_bytes = 0, nodes_bytes = 0;
  const std::uint64_t above = detail::resident_nodes_above(room);
  runtime_.grow(leaves, leaves_bytes, room * node_bytes);
  if (above > 0) runtime_.grow(nodes, nodes_bytes, above * node_bytes);
  tree_.move_into(leaves, nodes, room);
  leaves_ = leaves;
  nodes_ = nodes;
  capacity_ = room;
  updater_.forget_layout();
}

inline std::string resident_tree::appending(std::uint64_t count, std::uint64_t old_count) const {
  return "appending " + std::to_string(count) + " leaves to the tree of " +
         std::to_string(old_count) + " leaves on " + detail::name_in_message(runtime_.device());
}

template <class Put> digest resident_tree::append_with(std::uint64_t count, const Put &put) {
  const std::uint64_t old_count = leaf_count(), total = old_count + count;
  const detail::drain_on_unwind drained(queue_); // no write may outlive the caller's leaves
  return changing("append", [&] {
    return detail::in_step([&] { return appending(count, old_count); },
                           [&] {
                             const bool in_place = total <= capacity_;
                             if (!in_place) grow(total); // the old buffers kept as they were
                             put(old_count * node_bytes);
                             return recompute_appended(old_count, total, in_place);
                           });
  });
}

inline digest resident_tree::recompute_appended(std::uint64_t old_count, std::uint64_t total,
                                                bool in_place) {
  prepare();
  tree_.adopt_layout(leaves_, nodes_, total, capacity_);
  if (in_place) health_.writing();
  const unsigned old_top = kary_height(old_count, 2);
  const unsigned root_level = root_depth(cfg_.tree, tree_layout(total));
  for (unsigned level = 1; level <= tree_.top(); ++level) {
    // The old root, flagged as one by some hashes (blake3-parent), is one no longer.
    const std::uint64_t first = level == old_top && tree_.top() > old_top ? 0 : old_count >> level;
    updater_.enqueue_range(queue_, tree_, level, root_level, cfg_.tree.shape == shape::zero, first,
                           ((total - 1) >> level) - first + 1, events_);
  }
  return root_ = read_root();
}

} // namespace merklize
