// SPDX-License-Identifier: Apache-2.0 OR MIT
// The launches that change a binary tree on the device in place (resident_tree.hpp),
// with nothing sorted or read back on the way: a batch's raw indices and leaves go up, the last
// update of each leaf is elected on the device, and the dirty nodes of each level are listed on
// the device as they are claimed (merkle_indexed.cl). A launch per level: over the previous
// level's list (an upper bound of work-items, those past the list's length on the device
// return), or over the whole level where it holds no more than `whole_level_factor` x the batch
// (as cheap as listing it: a whole level reads its children in order). A batch of at least
// half the leaves / that factor recomputes every level whole: the tree rebuilt over its leaves,
// by merkleizer's level kernels (several levels a launch) where the levels lie back to back (no
// appends left room), else a launch of merkle_range_level a level.
//
// Device memory beside the tree: a uint a leaf (winner[], zero between calls) and a uint a node
// above the leaves (marks[], a call's generation each), allocated on the first update and again
// when appends move the levels; lists and counters sized by the largest batch.
#pragma once

#include "../pipeline/level_runner.hpp"
#include "../plan/claim_generation.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/profiling.hpp"
#include "device_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

// A level is recomputed whole where it has at most this many nodes per update of the batch
// (merkle_range_level reads its children in order; a listed node costs a claim and a gather).
// Measured on PoCL (dev/PERFORMANCE_LOG.md: F = 1 / ln(R / (R - 1)) for a cost ratio R of 4).
#ifndef MERKLIZE_WHOLE_LEVEL_FACTOR
#define MERKLIZE_WHOLE_LEVEL_FACTOR 4
#endif

namespace merklize {

// The commands of the last update, profiled: the uploads (leaves and indices) and reads, the
// launches; which path ran, and the host's part of the call by its clock.
struct update_events {
  std::vector<cl::Event> transfers, kernels;
  // Every level above the leaves recomputed whole (a large batch: the levels rebuilt); else
  // the levels 1 .. listed_levels listed on the device, those above whole.
  bool rebuilt = false;
  unsigned listed_levels = 0;
  // The host's milliseconds: checking the indices, staging and enqueueing the uploads,
  // enqueueing the launches, waiting for the root.
  double check_ms = 0, upload_ms = 0, enqueue_ms = 0, wait_ms = 0;
  // The batch applied by the host's cores (host_updater.hpp): the levels' maps, and the whole
  // of it (maps, leaves, hashing, unmaps), in milliseconds.
  bool on_host = false;
  double map_ms = 0, host_ms = 0;
};

namespace detail {

class tree_updater {
public:
  static constexpr std::uint64_t whole_level_factor = MERKLIZE_WHOLE_LEVEL_FACTOR;

  // The kernels of cfg's hash, run with work-groups of settings' (built once).
  void prepare(const device_runtime &runtime, const config &cfg, const launch_settings &settings) {
    if (runner_) return; // made last: a prepare that failed midway is made again whole
    const hash_kind hash = cfg.tree.hash;
    const auto spec = merkle_indexed_program(hash);
    const std::size_t local = local_ = settings.local_size;
    elect_ = runtime.kernel(spec, "update_elect", local);
    write_ = runtime.kernel(spec, "update_write", local);
    reset_ = runtime.kernel(spec, "update_reset", local);
    listed_ = runtime.kernel(spec, "merkle_listed_level", local);
    range_ = runtime.kernel(spec, "merkle_range_level", local);
    const auto zeros = zero_subtree_roots(hash, 32);
    zeros_bytes_ = zeros.size() * node_bytes;
    zeros_ = runtime.copy_of(zeros.data(), zeros_bytes_);
    runner_.emplace(runtime, cfg, settings);
  }

  // The levels moved (appends grew the tree): winner[] and marks[] made again for the new room.
  void forget_layout() {
    winner_ = marks_ = cl::Buffer();
    winner_bytes_ = marks_bytes_ = 0;
  }

  // Where a level of `size` nodes is recomputed whole for a batch of `count` updates.
  static bool whole(std::uint64_t size, std::uint64_t count) {
    return size <= count * whole_level_factor;
  }

  // Enqueues a batch of `count` updates, indices (cl_ulong) and leaves in device buffers, to the
  // tree `t` (laid out for `capacity` leaves, its root at level `root_level`) with `pad`.
  // Returns nothing: the caller reads the root, then bad_update().
  void enqueue(const device_runtime &runtime, const cl::CommandQueue &queue, const device_tree &t,
               std::uint64_t capacity, unsigned root_level, bool pad, const cl::Buffer &indices,
               const cl::Buffer &values, std::uint64_t count, update_events &events) {
    unsigned top = t.top();
    unsigned listed = 0; // levels 1..listed listed on the device, those above whole
    while (listed < top && !whole(t.level_sizes()[listed + 1], count))
      ++listed;
    events.rebuilt = listed == 0;
    events.listed_levels = listed;
    make_room(runtime, queue, capacity, top, count, events);
    const cl_uint gen = generation_.next();
    const cl_ulong n = t.leaf_count();
    auto launch = [&](cl::Kernel &kernel, std::uint64_t items) {
      events.kernels.push_back(detail::launch(queue, kernel, items, local_, {}));
    };
    set_args(elect_, indices, cl_ulong(count), n, winner_, state_);
    launch(elect_, count);
    set_args(write_, t.level_buffer(0), values, indices, cl_ulong(count), n, winner_, state_,
             marks_, cl_ulong(top > 0 ? t.level_first(1) : 0), gen, lists_[1], cl_int(listed > 0));
    launch(write_, count);
    set_args(reset_, indices, cl_ulong(count), n, winner_);
    launch(reset_, count);
    if (listed == 0 && back_to_back(t)) { // a rebuild by the level kernels
      runner_->enqueue(queue, {t.level_buffer(0), 0, n, 0},
                       {t.level_buffer(1), 0, t.level_sizes()[1], 0, top}, root_level, {},
                       events.kernels);
      top = 0; // no level left
    }
    for (unsigned level = 1; level <= top; ++level) {
      const std::uint64_t size = t.level_sizes()[level];
      if (level > listed) {
        enqueue_range(queue, t, level, root_level, pad, 0, size, events);
        continue;
      }
      const bool claim = level < listed;
      set_args(listed_, t.level_buffer(level - 1), cl_ulong(t.level_first(level - 1)),
               cl_ulong(t.level_sizes()[level - 1]), t.level_buffer(level),
               cl_ulong(t.level_first(level)), lists_[level % 2], state_, cl_uint(level), zeros_,
               cl_ulong(level - 1), cl_int(pad), cl_int(level == root_level), marks_,
               cl_ulong(claim ? t.level_first(level + 1) : 0), gen, lists_[(level + 1) % 2],
               cl_int(claim));
      launch(listed_, std::min(count, size));
    }
    call("clEnqueueReadBuffer", [&] {
      return queue.enqueueReadBuffer(state_, CL_FALSE, 0, sizeof(cl_uint), &bad_, nullptr, nullptr);
    }); // the caller's blocking read of the root waits for it (one in-order queue)
  }

  // Nodes first .. first + count - 1 of level `level`, recomputed from the level below.
  void enqueue_range(const cl::CommandQueue &queue, const device_tree &t, unsigned level,
                     unsigned root_level, bool pad, std::uint64_t first, std::uint64_t count,
                     update_events &events) {
    set_args(range_, t.level_buffer(level - 1), cl_ulong(t.level_first(level - 1)),
             cl_ulong(t.level_sizes()[level - 1]), t.level_buffer(level),
             cl_ulong(t.level_first(level)), cl_ulong(first), cl_ulong(count), zeros_,
             cl_ulong(level - 1), cl_int(pad), cl_int(level == root_level));
    events.kernels.push_back(detail::launch(queue, range_, count, local_, {}));
  }

  // After the call's root was read: 0, or the position + 1 of an update whose index was outside
  // the tree (then nothing was written).
  cl_uint bad_update() const { return bad_; }

  // The generation of the next call (tests: the wrap-around without 2^32 calls).
  void set_generation(std::uint32_t last) { generation_ = claim_generation(last); }

  std::uint64_t device_bytes() const {
    return winner_bytes_ + marks_bytes_ + lists_bytes_[0] + lists_bytes_[1] + state_bytes_ +
           zeros_bytes_;
  }

private:
  // Levels 1..top lie back to back from node 0 of their buffer, as the level runner writes them.
  static bool back_to_back(const device_tree &t) {
    if (t.top() == 0 || t.level_first(1) != 0) return false;
    for (unsigned level = 1; level < t.top(); ++level)
      if (t.level_first(level + 1) != t.level_first(level) + t.level_sizes()[level]) return false;
    return true;
  }

  // winner[] and marks[] for a tree laid out for `capacity` leaves (made zero once), lists for
  // `count` nodes, the state's counters zeroed; marks[] zeroed again before the generation wraps.
  void make_room(const device_runtime &runtime, const cl::CommandQueue &queue,
                 std::uint64_t capacity, unsigned top, std::uint64_t count, update_events &events) {
    std::uint64_t above = 0;
    const auto sizes = kary_part_sizes(capacity, 2, kary_height(capacity, 2));
    for (std::size_t level = 1; level < sizes.size(); ++level)
      above += sizes[level];
    if (!winner_()) {
      runtime.grow(winner_, winner_bytes_, capacity * sizeof(cl_uint));
      fill(queue, winner_, winner_bytes_, events);
      generation_ = claim_generation();
    }
    if (!marks_() && above > 0) {
      runtime.grow(marks_, marks_bytes_, above * sizeof(cl_uint));
      generation_ = claim_generation();
    }
    if (generation_.clears_next() && marks_()) fill(queue, marks_, marks_bytes_, events);
    for (int k = 0; k < 2; ++k)
      runtime.grow(lists_[k], lists_bytes_[k], count * sizeof(cl_uint));
    runtime.grow(state_, state_bytes_, (top + 2) * sizeof(cl_uint));
    fill(queue, state_, (top + 2) * sizeof(cl_uint), events);
  }

  static void fill(const cl::CommandQueue &queue, const cl::Buffer &buffer, std::uint64_t bytes,
                   update_events &events) {
    cl::Event done;
    call("clEnqueueFillBuffer",
         [&] { return queue.enqueueFillBuffer(buffer, cl_uint(0), 0, bytes, nullptr, &done); });
    events.transfers.push_back(done);
  }

  cl::Kernel elect_, write_, reset_, listed_, range_;
  std::size_t local_ = 0;
  cl::Buffer zeros_, winner_, marks_, state_;
  cl::Buffer lists_[2]; // level l's list in lists_[l % 2]
  std::uint64_t zeros_bytes_ = 0, winner_bytes_ = 0, marks_bytes_ = 0, state_bytes_ = 0;
  std::uint64_t lists_bytes_[2] = {0, 0};
  std::optional<level_runner> runner_; // a rebuild's level kernels
  claim_generation generation_;
  cl_uint bad_ = 0; // read back with the root
};

} // namespace detail
} // namespace merklize
