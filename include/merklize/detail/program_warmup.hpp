// SPDX-License-Identifier: Apache-2.0 OR MIT
// Loading a merkleizer's level programs on a thread of its own, started by its constructor, so
// that the load (from the driver's or merklize's disk cache: 16 to 80 ms on an H200, 12 to 53 ms
// on PoCL 3.1; cold, a compile) overlaps what comes before the first launch: the caller's work
// after the constructor, the first build's allocations, the first chunk's copy and upload, a
// stream's first read. The program every build of two leaves or more launches (merkle_subtree,
// or the lanes kernel) goes first and is always loaded; the others a chunk's levels may launch
// only where merklize's disk cache holds them, so that no compile runs for a kernel a small tree
// never launches. The process-wide cache (program_cache.hpp) holds its lock while it loads, so a
// launch that needs the program meanwhile waits for it; a load that fails here is left alone and
// fails again, with its message, where the build asks for the program.
#pragma once

#include "launch_plan.hpp"
#include "level_runner.hpp"
#include "program_cache.hpp"
#include "runtime.hpp"

#include <filesystem>
#include <system_error>
#include <thread>
#include <vector>

namespace merklize {
namespace detail {

// The programs of the launches that build a subtree of 2^levels leaves, as a chunk of a host
// build or a stream is built (a smaller tree launches a subset of them), each once, the level
// program (which every tree launches, at least at its top) first.
inline std::vector<program_spec> chunk_programs(const level_runner &runner, unsigned levels) {
  std::vector<program_spec> specs{runner.level_program()};
  const auto add = [&](program_spec spec) {
    for (const auto &s : specs)
      if (s.files == spec.files && s.options == spec.options) return;
    specs.push_back(std::move(spec));
  };
  for (const planned_launch &l :
       plan_launches(runner.settings(), std::uint64_t(1) << levels, levels)) {
    if (l.kernel == kernel_kind::level)
      add(runner.merkle_level_program(l.wide_index));
    else if (l.kernel == kernel_kind::levels)
      add(runner.merkle_levels_program(l.wide_index));
    else
      add(runner.level_program());
  }
  return specs;
}

// Whether the disk cache holds the spec's program for the runtime's device (with its tuning
// row's options, as device_runtime::program builds it).
inline bool in_disk_cache(const device_runtime &runtime, const program_spec &spec) {
  const program_spec tuned = tuned_spec(spec, runtime.tuning_row());
  const auto entry =
      program_entries(runtime.device(), tuned).entry(kernel_program_source(tuned.files));
  std::error_code ignored;
  return entry && std::filesystem::exists(*entry, ignored);
}

class program_warmup {
public:
  // Starts loading the first of `specs`, and those of the others the disk cache holds.
  program_warmup(const device_runtime &runtime, const std::vector<program_spec> &specs) {
    std::vector<program_spec> cached;
    try {
      for (const auto &spec : specs)
        if (cached.empty() || in_disk_cache(runtime, spec)) cached.push_back(spec);
      if (!cached.empty())
        thread_ = std::thread([runtime, cached] {
          for (const auto &spec : cached) {
            try {
              (void)runtime.program(spec);
            } catch (...) { // the build that needs it reports it
            }
          }
        });
    } catch (...) { // no thread, no cache: the programs load where they are first needed
    }
  }
  program_warmup(const program_warmup &) = delete;
  program_warmup &operator=(const program_warmup &) = delete;
  ~program_warmup() { wait(); }

  // Until the loads are done.
  void wait() {
    if (thread_.joinable()) thread_.join();
  }

private:
  std::thread thread_;
};

} // namespace detail
} // namespace merklize
