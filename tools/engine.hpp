// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which engine `merklize root` runs: the device --device names (or $MERKLIZE_DEVICE), the host
// engine for --device host, else (--device auto, the default) the one expected to finish first
// (engine_choice.hpp), weighing the default device's tuning row, a start time measured by an
// earlier run on this machine (kept beside the program cache), and the host engine.
#pragma once

#include <merklize/plan/engine_choice.hpp>
#include <merklize/runtime/opencl.hpp>

#include <optional>
#include <string>

namespace cli {

struct engine_pick {
  bool host = false;
  cl::Device device;               // unless host
  std::string why;                 // for --verbose: the estimates, or "asked for"
  std::string measured;            // the file of the device's measured start ("" when no cache)
  merklize::recorded_device rates; // the device's rates (its start: what record_start measured)
};

// The engine for a tree with `options` over an input of `bytes` (nothing: a pipe).
engine_pick pick_engine(const std::optional<std::string> &spec,
                        const merklize::tree_options &options, std::optional<std::uint64_t> bytes);

// Records what a device's start cost this run (discovery, context, programs) for later choices.
void record_start(const engine_pick &pick, double start_ms);

} // namespace cli
