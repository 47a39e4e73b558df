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
// computes the few levels above S (finish_tree). With one device, or a tree of fewer than two
// shards, the build is a plain single-device build on the heaviest device.
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

#include "../core/quote.hpp"
#include "../plan/parts.hpp"
#include "merkleizer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace merklize {

// The devices a comma-separated list of specs names (see device.hpp), in order. A device may be
// named more than once.
inline std::vector<cl::Device> select_devices(const std::string &specs) {
  std::vector<cl::Device> devices;
  for (std::size_t at = 0;;) {
    const std::size_t comma = std::min(specs.find(',', at), specs.size());
    std::string spec = detail::trimmed(specs.substr(at, comma - at));
    spec.erase(0, spec.find_first_not_of(" \t"));
    if (spec.empty())
      throw error("empty device spec in " + detail::quoted(specs) +
                  ": give specs separated by commas");
    devices.push_back(select_device(spec));
    if (comma == specs.size()) return devices;
    at = comma + 1;
  }
}

// MERKLIZE_DEVICES if set (an unknown spec is an error), else every GPU of the platform of
// default_device(), else default_device() alone.
inline std::vector<cl::Device> default_devices() {
  if (const char *specs = std::getenv("MERKLIZE_DEVICES"); specs && *specs) {
    try {
      return select_devices(specs);
    } catch (const error &e) {
      throw error(std::string("MERKLIZE_DEVICES: ") + e.what());
    }
  }
  const cl::Device chosen = default_device();
  const auto platform = detail::device_info<CL_DEVICE_PLATFORM, cl_platform_id>(chosen);
  std::vector<cl::Device> gpus;
  for (const auto &e : list_devices())
    if (e.platform() == platform && e.type == "gpu") gpus.push_back(e.device);
  if (gpus.empty()) gpus.push_back(chosen);
  return gpus;
}

namespace detail {

// Refuses weights that are not one positive number per device (none: measured). `who` starts
// the message.
inline void check_weights(const std::vector<double> &w, std::size_t devices,
                          const std::string &who) {
  if (w.empty()) return;
  if (w.size() != devices)
    throw error(who + ": " + std::to_string(w.size()) + " weights for " + std::to_string(devices) +
                " devices (give one per device, or none)");
  for (double x : w)
    if (!(x > 0) || !std::isfinite(x))
      throw error(who + ": weight " + std::to_string(x) +
                  " is not a positive number (a device's relative speed)");
}

// The shared context of the devices of `devices` that belong to `device`'s platform.
inline cl::Context platform_context(const std::vector<cl::Device> &devices,
                                    const cl::Device &device) {
  const auto platform_of = [](const cl::Device &d) {
    return device_info<CL_DEVICE_PLATFORM, cl_platform_id>(d);
  };
  std::vector<cl::Device> same;
  for (const auto &d : devices)
    if (platform_of(d) == platform_of(device)) same.push_back(d);
  return shared_context(same);
}

// Runs work(i) for each builder i of `plan` (a shard_plan or kary_shard_plan) with shards, the
// last one on the caller's thread and the
// others on threads of their own; once all have ended, rethrows the first exception thrown.
template <class Plan, class Work> void on_each_builder(const Plan &plan, Work &&work) {
  std::mutex mutex;
  std::exception_ptr first_error;
  const auto guarded = [&](std::size_t i) {
    try {
      work(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!first_error) first_error = std::current_exception();
    }
  };
  std::vector<std::size_t> busy;
  for (std::size_t i = 0; i < plan.builders(); ++i)
    if (plan.leaf_count_of(i) > 0) busy.push_back(i);
  std::vector<std::thread> threads;
  const auto join_all = [&] {
    for (auto &thread : threads)
      thread.join();
  };
  try {
    for (std::size_t j = 0; j + 1 < busy.size(); ++j)
      threads.emplace_back(guarded, busy[j]);
  } catch (...) { // a thread that could not start: the others still end first
    join_all();
    throw;
  }
  guarded(busy.back());
  join_all();
  if (first_error) std::rethrow_exception(first_error);
}

} // namespace detail

// What one device did in the last build of a multi_merkleizer.
struct device_times {
  std::uint64_t leaves = 0; // leaves it built; 0 when it had no shard
  build_times times;        // its build_part's profiled times and wall time
};

struct multi_times {
  std::vector<device_times> devices; // in the order of multi_merkleizer::devices()
  unsigned shard_log2 = 0;           // shards of 2^shard_log2 leaves (the depth: one device)
  std::uint64_t shards = 0;
  double finish_ms = 0; // finish_tree: the levels above the shards, on the host
  double wall_ms = 0;   // the whole call, by the host's clock (the first: calibration too)
};

namespace detail {

// The starting weights of `devices` devices: the configured ones (checked), else even.
inline std::vector<double> initial_weights(const std::vector<double> &configured,
                                           std::size_t devices, const std::string &who) {
  check_weights(configured, devices, who);
  return configured.empty() ? std::vector<double>(devices, 1.0) : configured;
}

// Each device's leaves per millisecond in the last build (`last`), where it had any leaves; the
// others keep their weights.
inline void measure_weights(std::vector<double> &weights, const std::vector<device_times> &last) {
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (last[i].leaves > 0) weights[i] = last[i].leaves / std::max(last[i].times.wall_ms, 1e-3);
}

} // namespace detail

class multi_merkleizer {
public:
  explicit multi_merkleizer(config cfg = {}) : multi_merkleizer(default_devices(), cfg) {}

  multi_merkleizer(std::vector<cl::Device> devices, config cfg = {})
      : devices_(std::move(devices)), config_(std::move(cfg)) {
    if (devices_.empty()) throw error("multi_merkleizer: no devices given");
    weights_ = detail::initial_weights(config_.weights, devices_.size(), "multi_merkleizer");
    check_calibration();
    weights_known_ = !config_.weights.empty();
    for (const auto &device : devices_)
      merkleizers_.push_back(std::make_unique<merkleizer>(
          detail::platform_context(devices_, device), device, config_));
  }

  const std::vector<cl::Device> &devices() const { return devices_; }
  // The context of the first device's platform, whose memory allocate_host returns.
  const cl::Context &context() const { return merkleizers_.front()->context(); }
  const config &configuration() const { return config_; }
  // The devices' relative speeds: config::weights, else measured (all 1 before the first build
  // on several devices).
  const std::vector<double> &weights() const { return weights_; }
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
  host_buffer allocate_host(std::size_t bytes) const {
    return merkleizers_.front()->allocate_host(bytes);
  }
  tree allocate_tree(std::uint64_t leaf_count) const {
    return merkleizers_.front()->allocate_tree(leaf_count);
  }

private:
  static constexpr unsigned default_calibration_log2 = 20;

  void check_calibration() const {
    if (config_.calibration_log2 == 1 || config_.calibration_log2 > 40)
      throw error("multi_merkleizer: calibration_log2 is " +
                  std::to_string(config_.calibration_log2) + ": 0 (2^20 leaves) or 2 .. 40");
  }

  // The shards of a tree of `leaf_count` leaves by the current weights: none smaller than the
  // largest device chunk unless config::shard_log2 asks.
  shard_plan plan_for(std::uint64_t leaf_count) const {
    unsigned chunk = 0;
    for (const auto &m : merkleizers_)
      chunk = std::max(chunk, m->chunk_log2());
    return plan_shards(leaf_count, weights_, config_.shard_log2, chunk);
  }

  // The whole build: shards to devices, their parts in place in `out`, the top on the host.
  void build_into(const std::uint8_t *leaves, tree &out) {
    const auto start = std::chrono::steady_clock::now();
    shard_plan plan = plan_for(out.leaf_count());
    if (plan.is_spread() && !weights_known_) {
      calibrate(out.depth());
      plan = plan_for(out.leaf_count());
    }
    const unsigned s = plan.shard_log2;
    last_ = multi_times{std::vector<device_times>(devices_.size()), s, plan.shards()};
    std::vector<digest> level(plan.shards());
    detail::on_each_builder(plan, [&](std::size_t i) {
      const std::uint64_t first = plan.first_leaf(i), count = plan.leaf_count_of(i);
      const auto nodes =
          merkleizers_[i]->build_part(leaves + first * node_bytes, first, count, s, out);
      std::copy(nodes.begin(), nodes.end(), level.begin() + plan.bounds[i]);
      last_.devices[i] = {count, merkleizers_[i]->last_times()};
    });
    const auto finish_start = std::chrono::steady_clock::now();
    finish_tree(out, s, level);
    last_.finish_ms = detail::ms_since(finish_start);
    if (plan.is_spread() && config_.weights.empty()) update_weights();
    last_.wall_ms = detail::ms_since(start);
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
    for (std::size_t i = 0; i < devices_.size(); ++i) {
      for (int round = 0; round < 2; ++round) // a part below the root streams as shards do
        merkleizers_[i]->build_part(leaves.data(), 0, n, log2 - 1, out);
      weights_[i] = n / std::max(merkleizers_[i]->last_times().wall_ms, 1e-3);
    }
    weights_known_ = true;
  }

  void update_weights() { detail::measure_weights(weights_, last_.devices); }

  std::vector<cl::Device> devices_;
  config config_;
  std::vector<std::unique_ptr<merkleizer>> merkleizers_;
  std::vector<double> weights_;
  bool weights_known_ = false; // config::weights, or measured
  multi_times last_;
};

} // namespace merklize
