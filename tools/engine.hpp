// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which engine a command runs (merklize root, b3sum): the device --device names (or
// $MERKLIZE_DEVICE), the host engine for --device host, else (--device auto, the default) the one
// expected to finish first (engine_choice.hpp), weighing the host engine against the devices
// earlier runs on this machine kept beside the program cache (their measured starts), or without
// such records the tuning table's; a device is opened only when it is the one that runs.
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
  std::string device_name;         // unless host
};

// The engine for `task` over an input of `bytes` (nothing: a pipe); --device host where the host
// engine cannot do it is refused with `host_refusal`.
engine_pick pick_engine(const std::optional<std::string> &spec, const merklize::engine_task &task,
                        std::optional<std::uint64_t> bytes, const std::string &host_refusal);

// The engine for a tree with `options`.
engine_pick pick_engine(const std::optional<std::string> &spec,
                        const merklize::tree_options &options, std::optional<std::uint64_t> bytes);

// The engine for a log's entries hashed into their RFC 6962 leaves (leaf-hash, root --log), at the
// rates of SHA-256 over data blocks; `tree`: the options of the tree built over them, if any.
engine_pick pick_log_engine(const std::optional<std::string> &spec,
                            std::optional<std::uint64_t> entry_bytes,
                            const std::optional<merklize::tree_options> &tree = std::nullopt);

// Records what a device's start cost this run (discovery, context, programs) for later choices.
void record_start(const engine_pick &pick, double start_ms);

} // namespace cli
