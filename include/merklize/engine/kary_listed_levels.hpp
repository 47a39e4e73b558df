// SPDX-License-Identifier: Apache-2.0 OR MIT
// A planned k-ary update on the device (resident_kary_tree.hpp; the plan,
// plan/kary_update_plan.hpp): the batch's values and every level's list go up in one write each,
// and each listed level is three launches: kary_listed.cl's kary_gather (the listed whole groups'
// children back to back), the block-leaf kernels over them in one launch, kary_scatter (the
// digests to their parents), the short last group apart by the build's own rule
// (group_level.hpp). The levels above the listed ones are hashed whole, as a build hashes them,
// one launch a level and no list. Its scratch is grown as needed and kept from call to call.
#pragma once

#include "../plan/kary_update_plan.hpp"
#include "../runtime/buffers.hpp"
#include "../runtime/kernel_call.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/worker_pool.hpp"
#include "block_hasher.hpp"
#include "device_tree.hpp"
#include "group_level.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace merklize {
namespace detail {

class kary_listed_levels {
public:
  // The launches of a tree hashed by `rule` on h's device; the block_hasher must outlive them.
  kary_listed_levels(block_hasher &h, const group_rule &rule) : h_(&h), rule_(rule) {
    const device_runtime runtime(h.context(), h.device());
    gather_ = runtime.kernel(kary_listed_program(), "kary_gather", h.work_group_size());
    scatter_ = runtime.kernel(kary_listed_program(), "kary_scatter", h.work_group_size());
  }

  // kary_gather, for the multiproofs gathered by it (kary_multiproof_gather.hpp).
  cl::Kernel &gather() { return gather_; }

  // Each distinct leaf's last value, in the batch's ascending order of leaves, into elected_
  // (kept from call to call: fresh memory each call faulted in page by page took 2-3 ms of a 1%
  // batch of 2^24 leaves, three times the copy itself), in `slices` slices.
  const std::vector<digest> &elect_values(const update_batch &batch, const void *new_leaves,
                                          unsigned slices) {
    elected_.resize(batch.leaves.size());
    const auto *from = static_cast<const unsigned char *>(new_leaves);
    const std::uint64_t n = elected_.size();
    on_cores{}(slices, [&](unsigned s) {
      for (std::uint64_t i = n * s / slices; i < n * (s + 1) / slices; ++i)
        std::memcpy(elected_[i].data(), from + batch.sources[i] * node_bytes, node_bytes);
    });
    return elected_;
  }

  // The lists uploaded (the batch's sources from list[sources] on), then each distinct leaf's
  // last value gathered from `from` into values_ (kary_gather of groups of one child: node
  // sources[i] to node i); the first write's event.
  cl::Event gather_values(const kary_update_plan &plan, std::uint64_t sources,
                          const cl::Buffer &from) {
    const std::uint64_t n = plan.batch.leaves.size();
    grow_buffer(h_->context(), values_, values_capacity_, n * node_bytes);
    const cl::Event first = upload({}, plan);
    set_args(gather_, from, cl_ulong(0), list_, cl_ulong(sources), cl_ulong(n), cl_uint(1),
             values_);
    launch(gather_, n);
    return first;
  }

  // The values and every level's list, in one write each, into buffers grown as needed; the
  // first write's event (none where nothing is written).
  cl::Event upload(const std::vector<digest> &values, const kary_update_plan &plan) {
    const std::vector<std::uint64_t> &list = plan.list;
    std::uint64_t widest = 0; // the most whole groups a level recomputes
    for (const kary_level_update &step : plan.levels)
      widest = std::max(widest, step.groups);
    const cl::Context &context = h_->context();
    grow_buffer(context, values_, values_capacity_, values.size() * node_bytes);
    grow_buffer(context, list_, list_capacity_, list.size() * sizeof(cl_ulong));
    grow_buffer(context, blocks_, blocks_capacity_, widest * arity() * node_bytes);
    grow_buffer(context, hashed_, hashed_capacity_, widest * node_bytes);
    const cl::CommandQueue &queue = h_->queue();
    cl::Event values_written, list_written;
    if (!values.empty()) // an append writes its leaves whole
      call("clEnqueueWriteBuffer", [&] {
        return queue.enqueueWriteBuffer(values_, CL_FALSE, 0, values.size() * node_bytes,
                                        values.data(), nullptr, &values_written);
      });
    if (!list.empty()) // an append of a leaf to a level's short group lists no whole group
      call("clEnqueueWriteBuffer", [&] {
        return queue.enqueueWriteBuffer(list_, CL_FALSE, 0, list.size() * sizeof(cl_ulong),
                                        list.data(), nullptr, &list_written);
      });
    return values.empty() ? list_written : values_written;
  }

  // The batch's `count` values (uploaded or gathered) written to `leaves`: value i to leaf
  // list[i].
  void write_leaves(std::uint64_t count, const node_span &leaves) {
    scatter(values_, 0, count, leaves);
  }

  // The levels of `tree` the plan lists, from the leaves up; returns how many. zeros[l]: what
  // shape zero pads level l's short group with.
  unsigned recompute_listed(const device_tree &tree, const kary_update_plan &plan,
                            const std::vector<digest> &zeros) {
    unsigned level = 0;
    for (; level < tree.top() && !plan.levels[level].whole; ++level)
      recompute(tree, level, plan.levels[level], zeros);
    return level;
  }

  // The levels above the first `listed`, each hashed whole as the build hashes it.
  void recompute_whole(const device_tree &tree, unsigned listed, const std::vector<digest> &zeros) {
    for (unsigned level = listed; level < tree.top(); ++level)
      enqueue_group_level(*h_, rule_, span(tree, level), span(tree, level + 1), pad(),
                          zeros[level]);
  }

private:
  unsigned arity() const { return rule_.arity(); }

  // Level `level`'s nodes where they lie.
  static node_span span(const device_tree &tree, unsigned level) {
    return {tree.level_buffer(level), tree.level_first(level), tree.level_sizes()[level]};
  }

  // The scratch a short group of shape zero is padded in (unused where the rule pads with zero
  // bytes itself), made once.
  const cl::Buffer &pad() {
    if (!pad_() && !rule_.block.zero_pad)
      pad_ = h_->device_buffer(rule_.block.block_bytes, "a group of children");
    return pad_;
  }

  // Level `level + 1`'s dirty parents from level `level`'s nodes.
  void recompute(const device_tree &tree, unsigned level, const kary_level_update &step,
                 const std::vector<digest> &zeros) {
    const std::uint64_t size = tree.level_sizes()[level], whole = size / arity();
    const node_span from = span(tree, level), to = span(tree, level + 1);
    if (step.groups > 0) {
      set_args(gather_, from.buffer, cl_ulong(from.first), list_, cl_ulong(step.first),
               cl_ulong(step.groups), cl_uint(arity()), blocks_);
      launch(gather_, step.groups * arity());
      h_->enqueue_leaves(rule_.block, blocks_, 0, step.groups * arity() * node_bytes, hashed_, 0);
      scatter(hashed_, step.first, step.groups, to);
    }
    if (step.short_group)
      enqueue_group_level(*h_, rule_,
                          {from.buffer, from.first + whole * arity(), size - whole * arity()},
                          {to.buffer, to.first + whole, 1}, pad(), zeros[level]);
  }

  // Node g of `from` to node list[first + g] of `to`, for g < count.
  void scatter(const cl::Buffer &from, std::uint64_t first, std::uint64_t count,
               const node_span &to) {
    set_args(scatter_, from, list_, cl_ulong(first), cl_ulong(count), to.buffer,
             cl_ulong(to.first));
    launch(scatter_, count);
  }

  void launch(const cl::Kernel &kernel, std::uint64_t items) {
    detail::launch(h_->queue(), kernel, items, h_->work_group_size(), {});
  }

  block_hasher *h_;
  group_rule rule_; // what the block-leaf kernels hash each group by
  cl::Kernel gather_, scatter_;
  // A call's scratch, grown as needed: the elected values, the lists, the gathered groups and
  // their hashes; and a short group padded with zero-subtree roots.
  cl::Buffer values_, list_, blocks_, hashed_, pad_;
  std::vector<digest> elected_; // the host's copy of the elected values, for their write
  std::uint64_t values_capacity_ = 0, list_capacity_ = 0, blocks_capacity_ = 0,
                hashed_capacity_ = 0;
};

} // namespace detail
} // namespace merklize
