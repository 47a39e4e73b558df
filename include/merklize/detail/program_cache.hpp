// SPDX-License-Identifier: Apache-2.0 OR MIT
// Getting a built program: the single place that chooses its form, and the process-wide
// caches of contexts and built programs.
//
// Programs are cached in memory keyed by context, device, source and build options, so each is
// built once per process (Boost.Compute's program_cache does the same). The cache holds a
// reference to the context, so a cached handle can never be reused by another context.
#pragma once

#include "aot_artifacts.hpp"
#include "disk_cache.hpp"
#include "program_build.hpp"
#include "program_spec.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace merklize {
namespace detail {

// Builds the spec's program for the device from the best form at hand: a disk cache entry, an
// ahead-of-time kernel the device loads, else the embedded source. Stores the result in the
// disk cache when that is on (and the entry's path held no entry that had to be left alone).
// Bypasses the in-memory cache (get_program uses it).
inline built_program load_program(const cl::Context &context, const cl::Device &device,
                                  const program_spec &spec) {
  const std::string source = kernel_program_source(spec.files);
  const auto dir = usable_cache_folder();
  std::string key;
  std::filesystem::path entry;
  bool store = false;
  if (dir) {
    key = cache_key(source, spec.options, identity_of(device));
    entry = cache_entry_path(*dir, spec, key);
    auto cached = load_cached(context, device, spec, source, entry, key);
    if (cached.program) return *cached.program;
    store = cached.store;
  }
  auto built = load_aot(context, device, spec, source);
  if (!built)
    built = built_program{build_program(context, device, source, spec.options), program_form::jit};
  if (store) store_cached(entry, key, built->program, device);
  return *built;
}

class program_cache {
public:
  static program_cache &instance() {
    static program_cache cache;
    return cache;
  }

  built_program get(const cl::Context &context, const cl::Device &device,
                    const program_spec &spec) {
    const key k{context(), device(), kernel_program_source(spec.files), spec.options};
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = programs_.find(k);
    if (found != programs_.end()) return found->second;
    const auto start = std::chrono::steady_clock::now();
    built_program built = load_program(context, device, spec);
    ++builds_;
    build_ms_ +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    programs_.emplace(k, built);
    return built;
  }

  // How many programs this process has built, from any form: a cache hit leaves it unchanged.
  std::size_t builds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return builds_;
  }

  // The wall time those builds took, in milliseconds (what a program's start-up owes to them).
  double build_ms() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return build_ms_;
  }

private:
  using key = std::tuple<cl_context, cl_device_id, std::string, std::string>;
  mutable std::mutex mutex_;
  std::map<key, built_program> programs_;
  std::size_t builds_ = 0;
  double build_ms_ = 0;
};

// The spec's program for the device, built once per context (see load_program for its form).
inline built_program get_program(const cl::Context &context, const cl::Device &device,
                                 const program_spec &spec) {
  return program_cache::instance().get(context, device, spec);
}

// One context per set of devices for the whole process, so merkleizers on the same devices share
// programs and buffers can move between them (multi_merkleizer gives the devices of a platform
// one context, so page-locked memory of it is page-locked for all of them). A device named
// twice counts once.
inline cl::Context shared_context(std::vector<cl::Device> devices) {
  std::sort(devices.begin(), devices.end(),
            [](const cl::Device &a, const cl::Device &b) { return a() < b(); });
  devices.erase(std::unique(devices.begin(), devices.end(),
                            [](const cl::Device &a, const cl::Device &b) { return a() == b(); }),
                devices.end());
  std::vector<cl_device_id> key;
  for (const auto &d : devices)
    key.push_back(d());
  static std::mutex mutex;
  static std::map<std::vector<cl_device_id>, cl::Context> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = contexts.find(key);
  if (found != contexts.end()) return found->second;
  cl::Context context = in_step(
      [&] {
        std::string names;
        for (const auto &d : devices)
          names += (names.empty() ? "" : ", ") + name_in_message(d);
        return "creating the context on " + names;
      },
      [&] {
        return create("clCreateContext", [&](cl_int *err) {
          return cl::Context(devices, nullptr, nullptr, nullptr, err);
        });
      });
  contexts.emplace(key, context);
  return context;
}

inline cl::Context shared_context(const cl::Device &device) {
  return shared_context(std::vector<cl::Device>{device});
}

} // namespace detail
} // namespace merklize
