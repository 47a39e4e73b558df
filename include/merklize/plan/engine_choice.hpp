// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which engine builds a tree when the caller lets merklize choose (the CLI's --device auto): the
// one that finishes first, by an estimate of what each pays before its first leaf (driver,
// context, programs) and the rate it then goes at. Pure planning, no OpenCL: the numbers come
// from the tuning rows (tuning.hpp) and, where one was recorded, a start time measured on this
// machine; tests/test_engine_choice.cpp checks the choice without a device.
#pragma once

#include "../core/node_rule.hpp"
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
  e.gbytes_per_s = row.nodes_of(row_of(hash).tuning).tree_gbps;
  if (row.rates_per_compute_unit) e.gbytes_per_s *= facts.compute_units;
  return e;
}

// The host engine on `threads` threads, with or without the CPU's SHA extensions: SHA-256 trees,
// and blake3 trees by the portable compression.
inline engine_estimate host_estimate(hash_kind hash, unsigned threads, bool sha_extensions) {
  const host_engine_tuning &row = host_engine_row();
  engine_estimate e;
  e.is_host = true;
  const node_hash_row &node = row_of(hash);
  e.can_run = node.host_pairs != nullptr;
  const bool sha_ni = sha_extensions && node.host_pairs_sha_ni;
  const bool light = node.tuning == tuning_class::light;
  e.name = std::string("host (") +
           (sha_ni  ? "SHA extensions"
            : light ? "portable"
                    : "portable SHA-256") +
           ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + ")";
  e.start_ms = row.start_ms;
  e.gbytes_per_s = threads * (light    ? row.blake3_gbps_per_thread
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

// Whether the host engine finishes `bytes` before any device could even start: then no device
// is looked for, which saves the driver's discovery (tens of milliseconds, the whole of a small
// run).
inline bool host_finishes_first(const engine_estimate &host, std::optional<std::uint64_t> bytes,
                                double fastest_device_start_ms) {
  return host.can_run && bytes && host.finish_ms(*bytes) <= fastest_device_start_ms;
}

} // namespace merklize
