// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which engine does the work when the caller lets merklize choose (the CLI's --device auto): the
// one that finishes first, by an estimate of what each pays before its first byte (driver,
// context, programs, and their compile where the disk cache holds none) and the rate it then
// goes at. Before any device is looked for: the host
// engine is chosen when it finishes before every device this machine recorded (their starts
// measured, their rates their tuning rows'), or, with no such records, before the fastest device
// of the tuning table could; else a device is opened, and it is the one that runs. So no driver
// is loaded only to estimate. Pure planning, no OpenCL: tests/test_engine_choice.cpp checks the
// choice without a device.
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

// What an engine is asked to do: a tree over 32-byte leaves (its node hash decides the rates),
// leaves hashed from data blocks (dm-verity, fs-verity, --leaf-size: the leaf hash decides; the
// tree above them hashes a 128th as much or less), or BLAKE3 of a whole input (b3sum, Bao).
enum class engine_work { leaf_tree, block_leaves, blake3_input };

struct engine_task {
  engine_work work = engine_work::leaf_tree;
  hash_kind node = hash_kind::blake3; // a leaf tree's node hash
  leaf_hash leaf = leaf_hash::sha256; // block leaves' hash
  bool host_can_run = true; // the rest of the request is in the host engine (a block size, ...)
  // Whether the disk cache holds a device program for it: where it does not, a device first
  // pays its compile (tuning::compile_ms), which the host engine never does.
  bool programs_cached = true;
};

inline engine_task tree_task(hash_kind node) { return {engine_work::leaf_tree, node}; }
inline engine_task blocks_task(leaf_hash leaf, bool host_can_run) {
  return {engine_work::block_leaves, hash_kind::sha256, leaf, host_can_run};
}
inline engine_task blake3_input_task() { return {engine_work::blake3_input}; }

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

// The same for any task: a tree's, or the row's rate of block leaves or of BLAKE3 of inputs.
inline engine_estimate device_estimate(const device_facts &facts, const tuning &row,
                                       const engine_task &task,
                                       std::optional<double> measured_start_ms = std::nullopt) {
  engine_estimate e = device_estimate(facts, row, task.node, measured_start_ms);
  if (!task.programs_cached) e.start_ms += row.compile_ms;
  if (task.work == engine_work::leaf_tree) return e;
  e.gbytes_per_s = task.work == engine_work::block_leaves ? row.block_gbps : row.blake3_input_gbps;
  if (row.rates_per_compute_unit) e.gbytes_per_s *= facts.compute_units;
  return e;
}

// The host engine on `threads` threads, with or without the CPU's SHA extensions: SHA-256 trees,
// and blake3 trees in `blake3_lanes` vector lanes (16: AVX-512, 8: AVX2, 1: the portable code;
// host_blake3_simd.hpp), keccak256 and sha3-256 trees on the same ISA (keccak_lanes.hpp).
inline engine_estimate host_estimate(hash_kind hash, unsigned threads, bool sha_extensions,
                                     unsigned blake3_lanes = 1) {
  const host_engine_tuning &row = host_engine_row();
  engine_estimate e;
  e.is_host = true;
  const node_hash_row &node = row_of(hash);
  e.can_run = node.host_pairs != nullptr;
  const bool sha_ni = sha_extensions && node.host_pairs_sha_ni;
  const bool light = node.tuning == tuning_class::light; // BLAKE3's, in vector lanes
  const bool keccak = node.leaf == leaf_hash::keccak256 || node.leaf == leaf_hash::sha3_256;
  // Keccak runs on the same ISA as BLAKE3's lanes (keccak_lanes.hpp): 8 of its 64-bit lanes
  // where BLAKE3 has 16 of 32 bits.
  const char *lanes = blake3_lanes >= 16 ? "AVX-512" : blake3_lanes >= 8 ? "AVX2" : "portable";
  e.name = std::string("host (") +
           (sha_ni   ? "SHA extensions"
            : light  ? lanes
            : keccak ? lanes + std::string(" Keccak")
                     : "portable SHA-256") +
           ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + ")";
  e.start_ms = row.start_ms;
  const double light_rate = blake3_lanes >= 16  ? row.blake3_avx512_gbps_per_thread
                            : blake3_lanes >= 8 ? row.blake3_avx2_gbps_per_thread
                                                : row.blake3_gbps_per_thread;
  const double keccak_rate = blake3_lanes >= 16  ? row.keccak_avx512_gbps_per_thread
                             : blake3_lanes >= 8 ? row.keccak_avx2_gbps_per_thread
                                                 : row.keccak_gbps_per_thread;
  e.gbytes_per_s = threads * (light    ? light_rate
                              : sha_ni ? row.sha_ni_gbps_per_thread
                              : keccak ? keccak_rate
                                       : row.portable_gbps_per_thread);
  return e;
}

// The host engine on `threads` threads for any task: a tree's as above; block leaves at the rate
// of their hash's code (SHA-256 on the SHA extensions, else portable); BLAKE3 of inputs in
// `blake3_lanes` lanes.
inline engine_estimate host_estimate(const engine_task &task, unsigned threads, bool sha_extensions,
                                     unsigned blake3_lanes = 1) {
  if (task.work == engine_work::leaf_tree) {
    engine_estimate e = host_estimate(task.node, threads, sha_extensions, blake3_lanes);
    e.can_run = e.can_run && task.host_can_run;
    return e;
  }
  const host_engine_tuning &row = host_engine_row();
  engine_estimate e;
  e.is_host = true;
  e.can_run = task.host_can_run;
  e.start_ms = row.start_ms;
  const char *lanes = blake3_lanes >= 16 ? "AVX-512" : blake3_lanes >= 8 ? "AVX2" : "portable";
  double rate = 0;
  std::string code;
  if (task.work == engine_work::blake3_input) {
    rate = blake3_lanes >= 16  ? row.blake3_input_avx512_gbps_per_thread
           : blake3_lanes >= 8 ? row.blake3_input_avx2_gbps_per_thread
                               : row.blake3_input_gbps_per_thread;
    code = std::string("BLAKE3 ") + lanes;
  } else if (row_of(task.leaf).family == leaf_family::sha256) {
    rate = sha_extensions ? row.sha256_blocks_sha_ni_gbps_per_thread
                          : row.sha256_blocks_portable_gbps_per_thread;
    code = sha_extensions ? "SHA extensions" : "portable SHA-256";
  } else {
    rate = row.other_blocks_gbps_per_thread;
    code = std::string("portable ") + to_string(task.leaf);
  }
  e.gbytes_per_s = threads * rate;
  e.name = "host (" + code + ", " + std::to_string(threads) + " thread" +
           (threads == 1 ? "" : "s") + ")";
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

// A device an earlier run on this machine started, as it kept it beside the program cache: its
// whole start (discovery included) and its tuning row's rates.
struct recorded_device {
  double start_ms = 0;
  double blake3_gbps = 0;       // leaf bytes a second, blake3 trees: the light tuning class's rate
  double sha256_gbps = 0;       // the same, sha256 trees: the standard class's (hashes.hpp)
  double block_gbps = 0;        // data bytes a second of block leaves (tuning::block_gbps)
  double blake3_input_gbps = 0; // of BLAKE3 of inputs (tuning::blake3_input_gbps)
  double compile_ms = 0;        // a program's first compile (tuning::compile_ms)

  double rate_of(const engine_task &task) const {
    if (task.work == engine_work::block_leaves) return block_gbps;
    if (task.work == engine_work::blake3_input) return blake3_input_gbps;
    return row_of(task.node).tuning == tuning_class::light ? blake3_gbps : sha256_gbps;
  }
};

// Whether the host engine finishes `bytes` (a pipe: unknown_input_bytes) before every one of
// `devices` would, each from its start at its rate; none: true, a task the host cannot: false.
inline bool host_beats(const engine_estimate &host, std::optional<std::uint64_t> bytes,
                       const std::vector<engine_estimate> &devices) {
  if (!host.can_run) return false;
  const std::uint64_t size = bytes.value_or(unknown_input_bytes);
  for (const engine_estimate &device : devices)
    if (device.finish_ms(size) < host.finish_ms(size)) return false;
  return true;
}

// Whether the host engine finishes before every device this machine recorded would, discovery
// included. Only meaningful while the records are the machine's devices (the caller checks that
// no OpenCL driver came since); no records: false.
inline bool host_beats_recorded(const engine_estimate &host, std::optional<std::uint64_t> bytes,
                                const engine_task &task,
                                const std::vector<recorded_device> &recorded) {
  std::vector<engine_estimate> devices;
  for (const recorded_device &r : recorded) {
    engine_estimate device;
    device.start_ms = r.start_ms + (task.programs_cached ? 0 : r.compile_ms);
    device.gbytes_per_s = r.rate_of(task);
    devices.push_back(device);
  }
  return !recorded.empty() && host_beats(host, bytes, devices);
}

// A tree's form of the same.
inline bool host_beats_recorded(const engine_estimate &host, std::optional<std::uint64_t> bytes,
                                hash_kind hash, const std::vector<recorded_device> &recorded) {
  return host_beats_recorded(host, bytes, tree_task(hash), recorded);
}

// Whether the OpenCL drivers installed may bring a device that is not a CPU: `libraries` are the
// ICD files' library names (the vendor directory's; empty: not known), and any but the CPU-only
// drivers' (PoCL's, Intel's CPU runtime's) may.
inline bool drivers_may_bring_gpu(const std::vector<std::string> &libraries) {
  if (libraries.empty()) return true;
  for (const std::string &library : libraries)
    if (library.find("pocl") == std::string::npos && library.find("intelocl") == std::string::npos)
      return true;
  return false;
}

// Whether the host engine finishes before the device of every tuning row would, with the row's
// start and rates (a row's rates per compute unit taken at `compute_units`, the host's cores;
// the rows of devices other than CPUs only where `gpu_possible`, drivers_may_bring_gpu): what
// --device auto goes by on a machine that has no records yet, so that it opens no driver to find
// out which device it has.
inline bool host_beats_table(const engine_estimate &host, std::optional<std::uint64_t> bytes,
                             const engine_task &task, unsigned compute_units,
                             bool gpu_possible = true) {
  std::vector<engine_estimate> devices;
  for (const tuning &row : tuning_table()) {
    if (!gpu_possible && row.type != device_type::cpu) continue;
    device_facts facts;
    facts.compute_units = compute_units;
    facts.preferred_int_vector_width = 16; // the most lanes a row's rate scales to
    devices.push_back(device_estimate(facts, row, task));
  }
  return host_beats(host, bytes, devices);
}

// Whether a resident tree's batches from host memory go to the host's cores (host_updater.hpp)
// rather than the kernels: as `choice` says, and automatically where the device is a CPU (its
// buffers are host memory, and PoCL's kernels hash scattered nodes several times slower than
// the host's SIMD pair hashers: docs/BENCHMARKS.md) and the node hash has SIMD pair hashers (the
// SHA extensions' or BLAKE3's lanes; Keccak's portable pairs are not measured against the
// kernels). Forcing the host for a hash without pair hashers is refused.
inline bool resident_updates_on_host(resident_update choice, const device_facts &device,
                                     const tree_options &options) {
  const node_hash_row &row = row_of(options.hash);
  const bool pairs = row.host_pairs != nullptr;
  const bool simd_pairs = pairs && (row.host_pairs_sha_ni || row.tuning == tuning_class::light);
  if (choice == resident_update::host && !pairs)
    throw error(std::string("resident_updates = host: the host engine has no pair hasher for ") +
                to_string(options.hash) + " nodes");
  if (choice == resident_update::automatic) return device.is_cpu() && simd_pairs;
  return choice == resident_update::host;
}

} // namespace merklize
