// SPDX-License-Identifier: Apache-2.0 OR MIT
// multi_merkleizer: one tree built on several OpenCL devices of a host at once.
//
//   merklize::multi_merkleizer mm;            // MERKLIZE_DEVICES, else every GPU of a platform
//   merklize::tree t = mm.build(leaves);      // the very tree merkleizer builds, bit for bit
//
// The leaves are cut into shards of 2^S leaves (config::shard_log2; by default about 8 per
// device, and no smaller than a device's chunk). Each device gets a contiguous run of shards in
// proportion to its weight and builds it with merkleizer::build_part on a host thread of its
// own (the last one on the caller's), with its own queues and page-locked staging; the host then
// computes the few levels above S (finish_tree). The devices, weights, threads and times are the
// several-device layer's (spread.hpp), which multi_block_merkleizer and multi_kary_merkleizer
// share. With one device, or a tree of fewer than two shards, the build is a plain single-device
// build on the heaviest device.
//
// The shards are planned by plan_shards (parts.hpp), the one planner merklize-mpi uses too, and
// give the very tree merkleizer builds by the aligned-part rule proved there: a device's run of
// shards starts at a multiple of 2^S and holds a multiple of 2^S leaves or ends the tree, so its
// level S is the tree's. tests/test_multi.cpp checks this bit for bit.
//
// Weights: config::weights when given (one per device, positive), else measured: before the
// first build on several devices, each device in turn builds 2^config::calibration_log2 leaves
// (2^20 by default; no more than that first tree rounded up to a power of two) from page-locked
// memory twice, and its leaves per millisecond the second time (the first compiles the kernels
// and allocates) is its weight; after every build on several devices, each device that built
// shards gets its leaves per millisecond of that build.
//
// Devices of one platform share one OpenCL context, so allocate_host and allocate_tree memory is
// page-locked for every one of them (for devices of other platforms it goes through staging).
// A device may be named twice: two merkleizers, with their own queues, on it.
//
// A multi_merkleizer is not thread-safe; it runs its own threads. An error on any device is
// rethrown on the caller's thread (the first one), after every device's thread has ended.
#pragma once

#include "../plan/parts.hpp"
#include "merkleizer.hpp"
#include "spread.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

class multi_merkleizer {
public:
  explicit multi_merkleizer(config cfg = {}) : multi_merkleizer(default_devices(), cfg) {}

  multi_merkleizer(std::vector<cl::Device> devices, config cfg = {})
      : config_(checked_calibration(std::move(cfg))),
        spread_(std::move(devices), config_.weights, "multi_merkleizer", config_) {}

  const std::vector<cl::Device> &devices() const { return spread_.devices(); }
  // The context of the first device's platform, whose memory allocate_host returns.
  const cl::Context &context() const { return spread_[0].context(); }
  const config &configuration() const { return config_; }
  // The devices' relative speeds: config::weights, else measured (all 1 before the first build
  // on several devices).
  const std::vector<double> &weights() const { return spread_.weights(); }
  const multi_times &last_times() const { return last_; }

  // Host leaves in (N x 32 bytes), the levels config::output asks for out.
  tree build(const void *leaves, std::uint64_t leaf_bytes) {
    const tree_layout layout(leaf_count_of(leaf_bytes));
    root_depth(config_.tree, layout); // refuses a bad fixed depth before anything is allocated
    tree t(layout.leaf_count(), config_.tree, config_.output);
    build_into(static_cast<const std::uint8_t *>(leaves), t);
    return t;
  }

  tree build(const std::vector<std::uint8_t> &leaves) {
    return build(leaves.data(), leaves.size());
  }

  // Page-locked leaves (allocate_host): kept by the tree as its level 0, nodes into fresh
  // page-locked memory.
  tree build(const host_buffer &leaves) {
    tree t = allocate_tree(leaf_count_of(leaves.size()));
    build(leaves, t);
    return t;
  }

  // The same into a tree from allocate_tree(N), whose memory is reused.
  void build(const host_buffer &leaves, tree &out) {
    out = detail::reused_tree(leaves, out, config_);
    build_into(leaves.data(), out);
  }

  // Page-locked memory of the first device's context, page-locked for every device of its
  // platform.
  host_buffer allocate_host(std::size_t bytes) const { return spread_[0].allocate_host(bytes); }
  tree allocate_tree(std::uint64_t leaf_count) const {
    return spread_[0].allocate_tree(leaf_count);
  }

private:
  static constexpr unsigned default_calibration_log2 = 20;

  // Refused before any device is set up (so before the devices and weights are checked).
  static config checked_calibration(config cfg) {
    if (cfg.calibration_log2 == 1 || cfg.calibration_log2 > 40)
      throw error("multi_merkleizer: calibration_log2 is " + std::to_string(cfg.calibration_log2) +
                  ": 0 (2^20 leaves) or 2 .. 40");
    return cfg;
  }

  // The shards of a tree of `leaf_count` leaves by the current weights: none smaller than the
  // largest device chunk unless config::shard_log2 asks.
  shard_plan plan_for(std::uint64_t leaf_count) const {
    const unsigned chunk = spread_.largest([](const merkleizer &m) { return m.chunk_log2(); });
    return plan_shards(leaf_count, spread_.weights(), config_.shard_log2, chunk);
  }

  // The whole build: shards to devices, their parts in place in `out`, the top on the host.
  void build_into(const std::uint8_t *leaves, tree &out) {
    const auto start = std::chrono::steady_clock::now();
    shard_plan plan = plan_for(out.leaf_count());
    if (plan.is_spread() && !spread_.weights_known()) {
      calibrate(out.depth());
      plan = plan_for(out.leaf_count());
    }
    const unsigned s = plan.shard_log2;
    last_ = multi_times{{}, s, plan.shards()};
    spread_.run(
        plan, last_, start,
        [&](std::size_t i, merkleizer &m) {
          const std::uint64_t first = plan.first_leaf(i), count = plan.leaf_count_of(i);
          auto nodes = m.build_part(leaves + first * node_bytes, first, count, s, out);
          return detail::part_built{std::move(nodes), m.last_times()};
        },
        [&](const std::vector<digest> &level) { finish_tree(out, s, level); });
  }

  // Each device in turn builds the same page-locked leaves twice, 2^calibration_log2 of them but
  // no more than a tree of `depth` levels holds; the second time's leaves per millisecond is
  // its weight.
  void calibrate(unsigned depth) {
    const unsigned log2 = std::min(depth, config_.calibration_log2 ? config_.calibration_log2
                                                                   : default_calibration_log2);
    const std::uint64_t n = std::uint64_t(1) << log2;
    const host_buffer leaves = allocate_host(n * node_bytes);
    std::fill(leaves.data(), leaves.data() + leaves.size(), std::uint8_t(0));
    tree out(tree_layout(n), config_.tree, config_.output, leaves.share(),
             allocate_tree(n).nodes_storage());
    std::vector<double> weights(spread_.size());
    for (std::size_t i = 0; i < spread_.size(); ++i) {
      for (int round = 0; round < 2; ++round) // a part below the root streams as shards do
        spread_[i].build_part(leaves.data(), 0, n, log2 - 1, out);
      weights[i] = detail::leaves_per_ms(n, spread_[i].last_times().wall_ms);
    }
    spread_.set_measured_weights(std::move(weights));
  }

  config config_; // before spread_, which its merkleizers are made with
  detail::device_spread<merkleizer> spread_;
  multi_times last_;
};

} // namespace merklize
