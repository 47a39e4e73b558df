// SPDX-License-Identifier: Apache-2.0 OR MIT
// Getting a built program: the single place that chooses its form, and the process-wide
// caches of contexts and built programs.
//
// Programs are cached in memory keyed by context, device, source and build options, so each is
// built once per process (Boost.Compute's program_cache does the same). The cache holds a
// reference to the context, so a cached handle can never be reused by another context.
#pragma once

#include "../io/compile_lock.hpp"
#include "aot_artifacts.hpp"
#include "compile_notice.hpp"
#include "disk_cache.hpp"
#include "program_build.hpp"
#include "program_spec.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

// The disk cache's entries of one program for one device, where the cache is used.
class program_entries {
public:
  program_entries(const cl::Device &device, const program_spec &spec)
      : dir_(usable_cache_folder()), spec_(spec) {
    if (dir_) identity_ = identity_of(device);
  }

  // The entry of a program built from `source` (the embedded kernels, or what identifies the
  // ahead-of-time kernels it was built from: aot_kernels::identity).
  std::optional<std::filesystem::path> entry(const std::string &source) const {
    if (!dir_) return std::nullopt;
    return cache_entry_path(*dir_, spec_, key(source));
  }

  // The entry's program where it passes every check (and its self-test); else nothing, and the
  // program compiled next is to be stored unless store_ says otherwise.
  std::optional<built_program> load(const cl::Context &context, const cl::Device &device,
                                    const std::string &source, const std::string &from) {
    const auto path = entry(from);
    if (!path) return std::nullopt;
    cache_lookup found = load_cached(context, device, spec_, source, *path, key(from));
    store_ = found.store;
    return found.program;
  }

  // Whether the entry of `from` is a file now (a look, before a load checks it).
  bool stored(const std::string &from) const {
    const auto path = entry(from);
    struct stat status {};
    return path && ::lstat(path->c_str(), &status) == 0 && S_ISREG(status.st_mode);
  }

  // The folder of the entries, empty where the disk cache is off or refused.
  std::string folder() const { return dir_ ? dir_->string() : std::string(); }

  // The lock under which this process compiles the program of `source` (compile_lock.hpp),
  // after waiting for another process holding it; nothing where the cache is off or its folder
  // cannot be made (the store then says why).
  std::unique_ptr<compile_lock> compile_lock_of(const std::string &source,
                                                const std::function<void()> &on_wait) const {
    const auto path = entry(source);
    if (!path) return nullptr;
    try {
      make_cache_folder(path->parent_path());
    } catch (const error &) {
      return nullptr;
    }
    return std::make_unique<compile_lock>(*path, compile_lock_patience, on_wait);
  }

  void store(const std::string &from, const built_program &built, const cl::Device &device) {
    if (const auto path = entry(from); path && store_)
      store_cached(*path, key(from), built.program, device);
  }

private:
  std::string key(const std::string &from) const {
    return cache_key(from, spec_.options, identity_);
  }

  std::optional<std::filesystem::path> dir_;
  const program_spec &spec_;
  device_identity identity_;
  bool store_ = true;
};

// Compiles the embedded source; a program that fails its self-test is an error: there is
// nothing left to fall back to.
inline built_program compiled_program(const cl::Context &context, const cl::Device &device,
                                      const program_spec &spec, const std::string &source) {
  built_program built{build_program(context, device, source, spec.options), program_form::jit};
  if (const auto wrong = self_test_failure(context, device, built.program, spec))
    throw error("program " +
                (spec.name.empty() ? std::string("of ") + spec.files.front() : spec.name) +
                " compiled for " + name_in_message(device) + " fails its self-test: " + *wrong +
                " (the driver's compiler gets it wrong)");
  return built;
}

// Builds the spec's program for the device from the best form at hand: a disk cache entry, an
// ahead-of-time kernel the device loads, else the embedded source; whatever it loads from a
// binary or compiles passes its known-answer self-test first (self_test.hpp). Stores the result
// in the disk cache when that is on: a program compiled from the source under the source's key,
// one built from ahead-of-time kernels under a key of those kernels (never the source's). Where
// another process is building the same program into the same cache, waits for it and loads
// its entry (compile_lock.hpp). Bypasses the in-memory cache (get_program uses it).
inline built_program load_program(const cl::Context &context, const cl::Device &device,
                                  const program_spec &spec) {
  const std::string source = kernel_program_source(spec.files);
  program_entries entries(device, spec);
  std::optional<aot_kernels> aot;
  std::optional<program_entries> aot_entries;
  bool aot_looked_for = false;
  // Both entries; the ahead-of-time kernels are looked for only where the source's is missing.
  const auto cached = [&]() -> std::optional<built_program> {
    if (auto found = entries.load(context, device, source, source)) return found;
    if (!std::exchange(aot_looked_for, true) && (aot = find_aot(device, spec, source)))
      aot_entries.emplace(device, spec);
    return aot ? aot_entries->load(context, device, source, aot->identity()) : std::nullopt;
  };
  if (auto found = cached()) return *found;
  const auto stored = [&] {
    return entries.stored(source) || (aot && aot_entries->stored(aot->identity()));
  };
  const bool passed_over = stored(); // an entry there was left alone: it is not looked at again
  const auto lock =
      entries.compile_lock_of(source, [&] { announce_wait(device, entries.folder()); });
  // Another process may have stored it since the look above: this one waited for that one, or
  // that one finished in between.
  if (lock && !passed_over && (lock->waited() || stored()))
    if (auto found = cached()) return *found;
  if (aot) {
    announce_compile(device, aot_entries->folder()); // the driver compiles the SPIR-V or bitcode
    if (auto built = build_aot(context, device, *aot, spec)) {
      aot_entries->store(aot->identity(), *built, device);
      return *built;
    }
  }
  announce_compile(device, entries.folder());
  const built_program built = compiled_program(context, device, spec, source);
  entries.store(source, built, device);
  return built;
}

class program_cache {
public:
  static program_cache &instance() {
    static program_cache cache;
    return cache;
  }

  // The lock is held only to find or claim the program's slot, never while it loads: programs
  // of different keys load in parallel (a merkleizer's programs on their threads, each a driver
  // compile or a cached binary's JIT of hundreds of milliseconds on NVIDIA), and a second caller
  // of the same key waits for the first's load rather than repeating it. A load that fails
  // leaves no slot, so the next caller tries again and fails with its own message.
  built_program get(const cl::Context &context, const cl::Device &device,
                    const program_spec &spec) {
    const key k{context(), device(), kernel_program_source(spec.files), spec.options};
    std::promise<built_program> claimed;
    std::shared_future<built_program> pending;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto found = programs_.find(k);
      if (found != programs_.end())
        pending = found->second;
      else
        programs_.emplace(k, claimed.get_future().share());
    }
    if (pending.valid()) return pending.get(); // loaded, or being loaded by another caller
    return load(k, context, device, spec, claimed);
  }

  // How many programs this process has built, from any form: a cache hit leaves it unchanged.
  std::size_t builds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return builds_;
  }

  // The time those builds took, in milliseconds, summed over programs (what a program's start-up
  // owes to them; loads in parallel overlap, so the wall time may be less).
  double build_ms() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return build_ms_;
  }

private:
  using key = std::tuple<cl_context, cl_device_id, std::string, std::string>;

  // Loads the program of the slot this caller claimed, and fulfils it for those who wait.
  built_program load(const key &k, const cl::Context &context, const cl::Device &device,
                     const program_spec &spec, std::promise<built_program> &claimed) {
    const auto start = std::chrono::steady_clock::now();
    try {
      built_program built = in_step(
          [&] {
            return "building program " + (spec.name.empty() ? spec.files.back() : spec.name) +
                   " for " + name_in_message(device);
          },
          [&] { return load_program(context, device, spec); });
      std::lock_guard<std::mutex> lock(mutex_);
      ++builds_;
      build_ms_ +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      claimed.set_value(built);
      return built;
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      programs_.erase(k);
      claimed.set_exception(std::current_exception());
      throw;
    }
  }

  mutable std::mutex mutex_;
  std::map<key, std::shared_future<built_program>> programs_;
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
