// SPDX-License-Identifier: Apache-2.0 OR MIT
// A k-ary tree that lives on the device and changes in place (issue 31): built once, as
// device_tree builds a k-ary tree (kary.hpp: every k-ary hash, shapes promote and zero, arities
// the powers of two from 2 to 128), over leaves that the tree owns, since it writes them. An
// update sorts its batch on the host (a repeated index takes its last value) and lists, a level
// at a time, the distinct groups above the changed nodes (plan/kary_update_plan.hpp); all the
// lists go up in one write. On the device each level's listed whole groups are gathered back to
// back (kary_listed.cl), hashed as blocks by the block-leaf kernels in one launch and scattered
// to their parents: three launches a level whatever the hash, the short last group apart by the
// build's own rule (group_level.hpp). Only the root is read back. An append writes its leaves
// after the last and recomputes each level's right edge the same way (a k-ary tree of either
// shape is a prefix of its appended tree), the buffers growing geometrically.
//
//   merklize::block_hasher h(device);
//   merklize::resident_kary_tree t(h, leaves, {merklize::hash_kind::sha256, 16});
//   merklize::digest root = t.update({7, 9000}, {new_leaf_7, new_leaf_9000}); // == t.root()
//   merklize::kary_proof p = t.prove(7);                                     // kary_prove's
//   t.append(more_leaves);
//
// A refused batch (an index outside the tree, fewer leaves than indices) or append (past 2^32
// leaves) changes nothing: it is checked before the tree is written. The block_hasher must
// outlive the tree.
#pragma once

#include "../plan/kary_update_plan.hpp"
#include "../runtime/queue_drain.hpp"
#include "device_tree.hpp"
#include "resident_memory.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace merklize {

class resident_kary_tree {
public:
  // The k-ary tree of `options` over `count` leaves (at least one) in host memory, copied to
  // the device.
  resident_kary_tree(block_hasher &h, const void *leaves, std::uint64_t count,
                     const kary_options &options)
      : h_(&h), rule_(checked_rule(options)),
        leaves_(detail::resident_owned_leaves(h, count, leaves, nullptr)),
        tree_(h, {leaves_, count, count * node_bytes, {}}, options), capacity_(count),
        zeros_(group_zero_roots(rule_, tree_.top())), root_(tree_.root()) {
    const detail::device_runtime runtime(h.context(), h.device());
    gather_ = runtime.kernel(detail::kary_listed_program(), "kary_gather", h.work_group_size());
    scatter_ = runtime.kernel(detail::kary_listed_program(), "kary_scatter", h.work_group_size());
  }

  resident_kary_tree(block_hasher &h, const std::vector<digest> &leaves,
                     const kary_options &options)
      : resident_kary_tree(h, leaves.data(), leaves.size(), options) {}

  resident_kary_tree(const resident_kary_tree &) = delete; // one owner writes the buffers
  resident_kary_tree &operator=(const resident_kary_tree &) = delete;
  resident_kary_tree(resident_kary_tree &&) = default;
  resident_kary_tree &operator=(resident_kary_tree &&) = default;

  // The last update's root.
  const digest &root() const { return root_; }
  std::uint64_t leaf_count() const { return tree_.leaf_count(); }
  const kary_options &options() const { return tree_.options(); }
  // The tree on the device, for its reads; its own root() is the built one's.
  const device_tree &on_device() const { return tree_; }
  // Every level, leaves first, read back; and leaf `index`'s proof, kary_prove's bit for bit.
  std::vector<std::vector<digest>> levels() const { return tree_.levels(); }
  kary_proof prove(std::uint64_t index) const { return tree_.prove(index); }

  // Leaf indices[i] becomes new_leaves[i]; returns the new root.
  digest update(const std::vector<std::uint64_t> &indices, const std::vector<digest> &new_leaves) {
    detail::check_leaf_each(indices.size(), new_leaves.size());
    return update(indices.data(), new_leaves.data(), indices.size());
  }

  // The same from `count` indices and count x 32 bytes of leaves in host memory.
  digest update(const std::uint64_t *indices, const void *new_leaves, std::uint64_t count) {
    const kary_update_plan plan = plan_kary_update(tree_.level_sizes(), arity(), indices, count);
    if (count == 0) return root_;
    const std::vector<digest> values = elected_values(plan.batch, new_leaves);
    const detail::drain_on_unwind drained(h_->queue()); // no write may outlive the host's data
    upload(values, plan);
    scatter(values_, 0, values.size(), {leaves_, 0, leaf_count()});
    return recompute(plan);
  }

  // `leaves` added after the last (a log: the tree before them is a prefix of the tree after);
  // returns the new root. Only the right edge of each level is recomputed; the device memory
  // grows geometrically (the old nodes copied once into the larger buffers).
  digest append(const std::vector<digest> &leaves) { return append(leaves.data(), leaves.size()); }

  // The same from `count` x 32 bytes of leaves in host memory.
  digest append(const void *leaves, std::uint64_t count) {
    if (count == 0) return root_;
    const std::uint64_t old_count = leaf_count(), total = old_count + count;
    if (total < old_count || total > max_leaves)
      throw error("append: " + std::to_string(count) + " leaves onto " + std::to_string(old_count) +
                  " would pass the " + std::to_string(max_leaves) +
                  " leaves a k-ary tree on the device holds");
    const detail::drain_on_unwind drained(h_->queue());
    if (total > capacity_) grow(std::max(total, 2 * capacity_));
    detail::call("clEnqueueWriteBuffer", [&] {
      return h_->queue().enqueueWriteBuffer(leaves_, CL_FALSE, old_count * node_bytes,
                                            count * node_bytes, leaves);
    });
    tree_.adopt_layout(leaves_, nodes_, total, capacity_);
    zeros_ = group_zero_roots(rule_, tree_.top());
    const kary_update_plan plan = plan_kary_append(old_count, tree_.level_sizes(), arity());
    upload({}, plan);
    return recompute(plan);
  }

private:
  unsigned arity() const { return rule_.arity(); }

  static group_rule checked_rule(const kary_options &options) {
    check_kary(options);
    return group_rule_of(options);
  }

  // Each distinct leaf's last value, in the batch's ascending order of leaves.
  static std::vector<digest> elected_values(const update_batch &batch, const void *new_leaves) {
    std::vector<digest> values(batch.leaves.size());
    const auto *from = static_cast<const unsigned char *>(new_leaves);
    for (std::size_t i = 0; i < values.size(); ++i)
      std::memcpy(values[i].data(), from + batch.sources[i] * node_bytes, node_bytes);
    return values;
  }

  // The values and every level's list, in one write each, into buffers grown as needed.
  void upload(const std::vector<digest> &values, const kary_update_plan &plan) {
    const std::vector<std::uint64_t> &list = plan.list;
    std::uint64_t widest = 0; // the most whole groups a level recomputes
    for (const kary_level_update &step : plan.levels)
      widest = std::max(widest, step.groups);
    const cl::Context &context = h_->context();
    detail::grow_buffer(context, values_, values_capacity_, values.size() * node_bytes);
    detail::grow_buffer(context, list_, list_capacity_, list.size() * sizeof(cl_ulong));
    detail::grow_buffer(context, blocks_, blocks_capacity_, widest * arity() * node_bytes);
    detail::grow_buffer(context, hashed_, hashed_capacity_, widest * node_bytes);
    const cl::CommandQueue &queue = h_->queue();
    if (!values.empty()) // an append writes its leaves whole
      detail::call("clEnqueueWriteBuffer", [&] {
        return queue.enqueueWriteBuffer(values_, CL_FALSE, 0, values.size() * node_bytes,
                                        values.data());
      });
    if (!list.empty()) // an append of a leaf to a level's short group lists no whole group
      detail::call("clEnqueueWriteBuffer", [&] {
        return queue.enqueueWriteBuffer(list_, CL_FALSE, 0, list.size() * sizeof(cl_ulong),
                                        list.data());
      });
  }

  // The most leaves: what an update's sort takes (sort_batch's 32-bit indices).
  static constexpr std::uint64_t max_leaves = detail::max_sorted_leaves;

  // Every level's planned parents, a level at a time, then the root read back.
  const digest &recompute(const kary_update_plan &plan) {
    for (unsigned level = 0; level < tree_.top(); ++level)
      recompute(level, plan.levels[level]);
    const unsigned top = tree_.top();
    detail::call("clEnqueueReadBuffer", [&] {
      return h_->queue().enqueueReadBuffer(tree_.level_buffer(top), CL_TRUE,
                                           tree_.level_first(top) * node_bytes, node_bytes,
                                           root_.data());
    });
    return root_;
  }

  // The leaves and levels moved into buffers laid out for `capacity` leaves (level l from where
  // levels 1..l-1 of a tree of `capacity` leaves would end), on the device.
  void grow(std::uint64_t capacity) {
    const unsigned k = arity();
    const std::vector<std::uint64_t> room = kary_part_sizes(capacity, k, kary_height(capacity, k));
    std::uint64_t above = 0;
    for (std::size_t level = 1; level < room.size(); ++level)
      above += room[level];
    cl::Buffer leaves = h_->device_buffer(capacity * node_bytes, "the tree's leaves");
    cl::Buffer nodes =
        h_->device_buffer(std::max<std::uint64_t>(above, 1) * node_bytes, "the tree's levels");
    const cl::CommandQueue &queue = h_->queue();
    std::uint64_t at = 0; // where level `level` starts in the new nodes
    for (unsigned level = 0; level <= tree_.top(); ++level) {
      const cl::Buffer &to = level == 0 ? leaves : nodes;
      const std::uint64_t first = tree_.level_first(level), size = tree_.level_sizes()[level];
      detail::call("clEnqueueCopyBuffer", [&] {
        return queue.enqueueCopyBuffer(tree_.level_buffer(level), to, first * node_bytes,
                                       (level == 0 ? 0 : at) * node_bytes, size * node_bytes);
      });
      if (level > 0) at += room[level];
    }
    leaves_ = leaves;
    nodes_ = nodes;
    capacity_ = capacity;
    tree_.adopt_layout(leaves_, nodes_, leaf_count(), capacity_);
  }

  // Level `level + 1`'s dirty parents from level `level`'s nodes.
  void recompute(unsigned level, const kary_level_update &step) {
    const std::uint64_t size = tree_.level_sizes()[level], whole = size / arity();
    const detail::node_span from{tree_.level_buffer(level), tree_.level_first(level), size};
    const detail::node_span to{tree_.level_buffer(level + 1), tree_.level_first(level + 1),
                               tree_.level_sizes()[level + 1]};
    if (step.groups > 0) {
      detail::set_args(gather_, from.buffer, cl_ulong(from.first), list_, cl_ulong(step.first),
                       cl_ulong(step.groups), cl_uint(arity()), blocks_);
      launch(gather_, step.groups * arity());
      h_->enqueue_leaves(rule_.block, blocks_, 0, step.groups * arity() * node_bytes, hashed_, 0);
      scatter(hashed_, step.first, step.groups, to);
    }
    if (step.short_group) {
      if (!pad_() && !rule_.block.zero_pad)
        pad_ = h_->device_buffer(rule_.block.block_bytes, "a group of children");
      detail::enqueue_group_level(
          *h_, rule_, {from.buffer, from.first + whole * arity(), size - whole * arity()},
          {to.buffer, to.first + whole, 1}, pad_, zeros_[level]);
    }
  }

  // Node g of `from` to node list[first + g] of `to`, for g < count.
  void scatter(const cl::Buffer &from, std::uint64_t first, std::uint64_t count,
               const detail::node_span &to) {
    detail::set_args(scatter_, from, list_, cl_ulong(first), cl_ulong(count), to.buffer,
                     cl_ulong(to.first));
    launch(scatter_, count);
  }

  void launch(const cl::Kernel &kernel, std::uint64_t items) {
    detail::launch(h_->queue(), kernel, items, h_->work_group_size(), {});
  }

  block_hasher *h_;
  group_rule rule_;           // what the block-leaf kernels hash each group by
  cl::Buffer leaves_;         // owned: updates and appends write them, room for capacity_
  device_tree tree_;          // its levels, changed in place
  cl::Buffer nodes_;          // the levels once grown (before, the tree's own)
  std::uint64_t capacity_;    // the leaves the buffers have room for
  std::vector<digest> zeros_; // zeros[l]: what shape zero pads level l's short group with
  digest root_{};
  cl::Kernel gather_, scatter_;
  // A call's scratch, grown as needed: the elected values, the lists, the gathered groups and
  // their hashes; and a short group padded with zero-subtree roots.
  cl::Buffer values_, list_, blocks_, hashed_, pad_;
  std::uint64_t values_capacity_ = 0, list_capacity_ = 0, blocks_capacity_ = 0,
                hashed_capacity_ = 0;
};

} // namespace merklize
