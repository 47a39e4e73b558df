// SPDX-License-Identifier: Apache-2.0 OR MIT
// The several-device layer: one tree spread over the devices of a host. Every builder of several
// devices (multi_merkleizer, multi_block_merkleizer, multi_kary_merkleizer) is a device_spread
// of its own per-device builder and a plan of parts.hpp's one planner:
//
//   detail::device_spread<merkleizer> spread(devices, cfg.weights, "who", cfg);
//   const shard_plan plan = plan_shards(n, spread.weights(), ...);   // pure planning (plan/)
//   spread.run(plan, last_times, start,
//              [&](std::size_t i, merkleizer &m) { return part_built{top_nodes, times}; },
//              [&](const std::vector<digest> &level) { /* the levels above the shards */ });
//
// A tree kind supplies only the two callables: build the part of device i and give its nodes of
// the shard level, and finish the levels above them on the host. The layer owns what they all
// share: the devices and their contexts (one per platform, so page-locked memory is page-locked
// for every device of it), the weights (configured and checked, else even and then measured),
// the threads (one per busy device, the last on the caller's; an error on any rethrown on the
// caller's after all have ended), the shard level gathered at plan.bounds[i], and the times.
#pragma once

#include "../core/quote.hpp"
#include "../plan/build_config.hpp"
#include "../runtime/device.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/program_cache.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
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

// What one device did in the last build of a builder of several devices.
struct device_times {
  std::uint64_t leaves = 0; // leaves it built; 0 when it had no shard
  build_times times;        // its part's profiled times and wall time
};

struct multi_times {
  std::vector<device_times> devices; // in the order of multi_merkleizer::devices()
  unsigned shard_log2 = 0;           // shards of 2^shard_log2 leaves (the depth: one device)
  std::uint64_t shards = 0;
  double finish_ms = 0; // finish_tree: the levels above the shards, on the host
  double wall_ms = 0;   // the whole call, by the host's clock (the first: calibration too)
};

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

// A device's weight from one of its builds: leaves per millisecond (a build too quick for the
// clock counts as a microsecond, so no weight is infinite).
inline double leaves_per_ms(std::uint64_t leaves, double wall_ms) {
  return leaves / std::max(wall_ms, 1e-3);
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
// last one on the caller's thread and the others on threads of their own; once all have ended,
// rethrows the first exception thrown.
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

// One device's part, built: its nodes of the shard level in order, and its times.
struct part_built {
  std::vector<digest> top_nodes;
  build_times times;
};

// The devices of a builder of several devices, a Builder (the tree kind's one-device builder) on
// each, and their weights. Not thread-safe; run() runs its own threads.
template <class Builder> class device_spread {
public:
  // One Builder(context, device, args...) a device, the context shared by the devices of its
  // platform. `who` starts the messages that refuse no devices or bad `configured` weights
  // (none: even until measured).
  template <class... Args>
  device_spread(std::vector<cl::Device> devices, const std::vector<double> &configured,
                const std::string &who, const Args &...args)
      : devices_(std::move(devices)), configured_(!configured.empty()) {
    if (devices_.empty()) throw error(who + ": no devices given");
    check_weights(configured, devices_.size(), who);
    weights_ = configured_ ? configured : std::vector<double>(devices_.size(), 1.0);
    for (const auto &device : devices_)
      builders_.push_back(
          std::make_unique<Builder>(platform_context(devices_, device), device, args...));
  }

  const std::vector<cl::Device> &devices() const { return devices_; }
  std::size_t size() const { return builders_.size(); }
  Builder &operator[](std::size_t i) { return *builders_[i]; }
  const Builder &operator[](std::size_t i) const { return *builders_[i]; }

  const std::vector<double> &weights() const { return weights_; }
  // Configured, or measured once (a builder that calibrates before its first spread build asks).
  bool weights_known() const { return configured_ || measured_; }
  // Weights a builder measured itself (multi_merkleizer's calibration), one a device.
  void set_measured_weights(std::vector<double> weights) {
    weights_ = std::move(weights);
    measured_ = true;
  }

  // The largest of grain(builder) over the builders: the coarsest grain a plan must respect.
  template <class Grain> auto largest(Grain grain) const {
    auto most = grain(*builders_.front());
    for (const auto &b : builders_)
      most = std::max(most, grain(*b));
    return most;
  }

  // The build of `plan`: part(i, builder i) on each device with shards, on threads of their own,
  // returning that part's nodes of the shard level; then finish(the shard level) on the caller's
  // thread, whose result run returns. Fills `last` (multi_times or kary_multi_times): each
  // device's leaves and times, finish_ms, and wall_ms since `start`; after a spread build the
  // devices that built get their leaves per millisecond as weights, unless configured.
  template <class Plan, class Times, class Part, class Finish>
  auto run(const Plan &plan, Times &last, std::chrono::steady_clock::time_point start, Part &&part,
           Finish &&finish) {
    last.devices.assign(devices_.size(), device_times{});
    std::vector<digest> level(plan.shards());
    on_each_builder(plan, [&](std::size_t i) {
      part_built built = part(i, *builders_[i]);
      std::copy(built.top_nodes.begin(), built.top_nodes.end(), level.begin() + plan.bounds[i]);
      last.devices[i] = {plan.leaf_count_of(i), built.times};
    });
    const auto finish_start = std::chrono::steady_clock::now();
    const auto finished = [&] {
      last.finish_ms = ms_since(finish_start);
      if (plan.is_spread() && !configured_) measure(last.devices);
      last.wall_ms = ms_since(start);
    };
    if constexpr (std::is_void_v<decltype(finish(level))>) {
      finish(level);
      finished();
    } else {
      auto result = finish(level);
      finished();
      return result;
    }
  }

private:
  // Each device's leaves per millisecond in the last build, where it had any leaves; the others
  // keep their weights.
  void measure(const std::vector<device_times> &last) {
    for (std::size_t i = 0; i < weights_.size(); ++i)
      if (last[i].leaves > 0) weights_[i] = leaves_per_ms(last[i].leaves, last[i].times.wall_ms);
    measured_ = true;
  }

  std::vector<cl::Device> devices_;
  std::vector<std::unique_ptr<Builder>> builders_;
  std::vector<double> weights_;
  bool configured_;       // config's weights: kept, never measured
  bool measured_ = false; // measured by a calibration or a spread build
};

} // namespace detail
} // namespace merklize
