// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which engine builds a tree when the caller lets merklize choose (the CLI's --device auto): the
// one that finishes first, by an estimate of what each pays before its first leaf (driver,
// context, programs) and the rate it then goes at. Pure planning, no OpenCL: the numbers come
// from the tuning rows (tuning.hpp) and, where one was recorded, a start time measured on this
// machine; tests/test_engine_choice.cpp checks the choice without a device.
#pragma once

#include "../core/hashes.hpp"
#include "build_config.hpp"
#include "tuning.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

struct engine_estimate {
  std::string name;        // "host (SHA extensions, 2 threads)", or the device's name
  bool is_host = false;    // the host engine (host_tree.hpp), else an OpenCL device
  bool can_run = true;     // whether it builds this tree at all
  double start_ms = 0;     // before the first leaf: driver, context, programs
  double gbytes_per_s = 0; // leaf bytes once started

  // Milliseconds to the root of `bytes` bytes of leaves.
  double finish_ms(std::uint64_t bytes) const {
    return start_ms + (gbytes_per_s > 0 ? double(bytes) / (gbytes_per_s * 1e6) : 1e300);
  }
};

struct engine_choice {
  std::size_t chosen = 0;     // index into the estimates
  std::vector<double> finish; // each estimate's milliseconds (or -1 where it cannot run)
  std::uint64_t bytes = 0;    // the size estimated for
  std::string why;            // "host (...) 12.0 ms < GPU 350.0 ms" for --verbose
};

// The size a pipe is taken to be, whose length nobody knows: large enough that the engine with
// the higher rate wins unless its start is seconds.
constexpr std::uint64_t unknown_input_bytes = std::uint64_t(1) << 30;

// What an OpenCL device with `facts` and tuning `row` is expected to do with trees of `hash`:
// the row's rates (per compute unit where the row says so), and `measured_start_ms` in place of
// the row's start where the machine recorded one.
inline engine_estimate device_estimate(const device_facts &facts, const tuning &row, hash_kind hash,
                                       std::optional<double> measured_start_ms = std::nullopt) {
  engine_estimate e;
  e.name = facts.name;
  e.start_ms = measured_start_ms ? *measured_start_ms : row.start_ms;
  const node_tuning &nodes = row.nodes_of(row_of(hash).tuning);
  e.gbytes_per_s = nodes.tree_gbps;
  if (row.rates_per_compute_unit) e.gbytes_per_s *= facts.compute_units;
  if (nodes.rate_lanes) // the rate is that many lanes': scaled by the lanes this tree gets
    e.gbytes_per_s *= (row_of(hash).lanes_node ? resolved_lanes(nodes.lanes, facts) : 1) /
                      double(nodes.rate_lanes);
  return e;
}

// The host engine on `threads` threads, with or without the CPU's SHA extensions: SHA-256 trees,
// and blake3 trees in `blake3_lanes` vector lanes (16: AVX-512, 8: AVX2, 1: the portable code;
// host_blake3_simd.hpp).
inline engine_estimate host_estimate(hash_kind hash, unsigned threads, bool sha_extensions,
                                     unsigned blake3_lanes = 1) {
  const host_engine_tuning &row = host_engine_row();
  engine_estimate e;
  e.is_host = true;
  const node_hash_row &node = row_of(hash);
  e.can_run = node.host_pairs != nullptr;
  const bool sha_ni = sha_extensions && node.host_pairs_sha_ni;
  const bool light = node.tuning == tuning_class::light; // BLAKE3's, in vector lanes
  const char *light_code = blake3_lanes >= 16 ? "AVX-512" : blake3_lanes >= 8 ? "AVX2" : "portable";
  e.name = std::string("host (") +
           (sha_ni  ? "SHA extensions"
            : light ? light_code
                    : "portable SHA-256") +
           ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + ")";
  e.start_ms = row.start_ms;
  const double light_rate = blake3_lanes >= 16  ? row.blake3_avx512_gbps_per_thread
                            : blake3_lanes >= 8 ? row.blake3_avx2_gbps_per_thread
                                                : row.blake3_gbps_per_thread;
  e.gbytes_per_s = threads * (light    ? light_rate
                              : sha_ni ? row.sha_ni_gbps_per_thread
                                       : row.portable_gbps_per_thread);
  return e;
}

// The estimate that finishes `bytes` (a pipe: unknown_input_bytes) first among those that can
// run; the first of equals. Throws when none can.
inline engine_choice choose_engine(const std::vector<engine_estimate> &estimates,
                                   std::optional<std::uint64_t> bytes) {
  engine_choice c;
  c.bytes = bytes ? *bytes : unknown_input_bytes;
  bool found = false;
  for (std::size_t i = 0; i < estimates.size(); ++i) {
    c.finish.push_back(estimates[i].can_run ? estimates[i].finish_ms(c.bytes) : -1);
    if (estimates[i].can_run && (!found || c.finish[i] < c.finish[c.chosen])) {
      c.chosen = i;
      found = true;
    }
  }
  if (!found) throw error("no engine builds this tree");
  for (std::size_t i = 0; i < estimates.size(); ++i) {
    char line[160];
    if (c.finish[i] < 0)
      std::snprintf(line, sizeof line, "%s cannot", estimates[i].name.c_str());
    else
      std::snprintf(line, sizeof line, "%s %.1f ms (start %.1f ms, %.2f GB/s)",
                    estimates[i].name.c_str(), c.finish[i], estimates[i].start_ms,
                    estimates[i].gbytes_per_s);
    c.why += (i ? "; " : "") + std::string(line);
  }
  return c;
}

// The soonest any OpenCL device could start: the least start of the tuning rows and of the
// starts measured on this machine.
inline double fastest_device_start_ms(const std::vector<double> &measured_starts) {
  double fastest = 1e300;
  for (const tuning &row : tuning_table())
    fastest = std::min(fastest, row.start_ms);
  for (const double ms : measured_starts)
    fastest = std::min(fastest, ms);
  return fastest;
}

// Whether the host engine finishes `bytes` (a pipe: unknown_input_bytes, as choose_engine takes
// it) before any device could even start: then no device is looked for, which saves the driver's
// discovery (tens of milliseconds, the whole of a small run).
inline bool host_finishes_first(const engine_estimate &host, std::optional<std::uint64_t> bytes,
                                double fastest_device_start_ms) {
  return host.can_run &&
         host.finish_ms(bytes.value_or(unknown_input_bytes)) <= fastest_device_start_ms;
}

// A device an earlier run on this machine started, as it kept it beside the program cache: its
// whole start (discovery included) and its rates.
struct recorded_device {
  double start_ms = 0;
  double blake3_gbps = 0; // leaf bytes a second, blake3 trees: the light tuning class's rate
  double sha256_gbps = 0; // the same, sha256 trees: the standard class's (hashes.hpp)
};

// Whether the host engine finishes `bytes` before every device this machine recorded would, its
// discovery included: then no device is looked for either. Only meaningful while the records
// are the machine's devices (the caller checks that no OpenCL driver came since); a pipe is taken
// as unknown_input_bytes; no records, or a tree the host cannot build: false.
inline bool host_beats_recorded(const engine_estimate &host, std::optional<std::uint64_t> bytes,
                                hash_kind hash, const std::vector<recorded_device> &recorded) {
  if (!host.can_run || recorded.empty()) return false;
  const std::uint64_t size = bytes.value_or(unknown_input_bytes);
  for (const recorded_device &r : recorded) {
    engine_estimate device;
    device.start_ms = r.start_ms;
    device.gbytes_per_s =
        row_of(hash).tuning == tuning_class::light ? r.blake3_gbps : r.sha256_gbps;
    if (device.finish_ms(size) < host.finish_ms(size)) return false;
  }
  return true;
}

// Whether a resident tree's batches from host memory go to the host's cores (host_updater.hpp)
// rather than the kernels: as `choice` says, and automatically where the device is a CPU (its
// buffers are host memory, and PoCL's kernels hash scattered nodes several times slower than
// the host's SIMD pair hashers: docs/BENCHMARKS.md) and the node hash has pair hashers. Forcing
// the host for a hash without them is refused.
inline bool resident_updates_on_host(resident_update choice, const device_facts &device,
                                     const tree_options &options) {
  const bool pairs = row_of(options.hash).host_pairs != nullptr;
  if (choice == resident_update::host && !pairs)
    throw error(std::string("resident_updates = host: the host engine has no pair hasher for ") +
                to_string(options.hash) + " nodes");
  if (choice == resident_update::automatic) return device.is_cpu() && pairs;
  return choice == resident_update::host;
}

} // namespace merklize
