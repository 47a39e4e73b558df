// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "engine.hpp"

#include "cli.hpp"

#include <merklize/engine/host_tree.hpp>
#include <merklize/runtime/device.hpp>
#include <merklize/runtime/programs.hpp>
#include <merklize/runtime/runtime.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>

namespace cli {

namespace {

// The file of a device's measured start: beside the program cache, named after the device.
std::string start_file(const merklize::device_facts &facts) {
  const std::string dir = merklize::cache_dir();
  if (dir.empty()) return "";
  std::string name;
  for (const char c : facts.platform + "-" + facts.name)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return dir + "/engine-start-" + name.substr(0, 120) + ".ms";
}

// A kept record: "START_MS BLAKE3_GBPS SHA256_GBPS BLOCK_GBPS BLAKE3_INPUT_GBPS COMPILE_MS" (a
// record of fewer numbers, from an earlier version, has its start only, or no compile time).
struct kept_record {
  double start_ms = -1;
  std::optional<merklize::recorded_device> device; // with its rates, where the record has them
};

std::optional<kept_record> read_record(const std::string &file) {
  if (file.empty()) return std::nullopt;
  std::ifstream in(file);
  kept_record kept;
  if (!(in >> kept.start_ms) || kept.start_ms < 0 || kept.start_ms >= 1e6)
    return std::nullopt; // none yet, or not a number: the row's estimate
  merklize::recorded_device device{kept.start_ms, 0, 0, 0, 0, 0};
  if (in >> device.blake3_gbps >> device.sha256_gbps >> device.block_gbps >>
          device.blake3_input_gbps &&
      device.blake3_gbps > 0 && device.sha256_gbps > 0 && device.block_gbps > 0 &&
      device.blake3_input_gbps > 0)
    kept.device = device;
  if (kept.device && !(in >> kept.device->compile_ms && kept.device->compile_ms >= 0))
    kept.device->compile_ms = 0;
  return kept;
}

// When an OpenCL driver was last installed or removed: the ICD loader's vendor directory (or the
// file $OCL_ICD_VENDORS names) changes then.
std::optional<std::filesystem::file_time_type> drivers_changed() {
  const char *vendors = std::getenv("OCL_ICD_VENDORS");
  std::error_code ec;
  const auto when =
      std::filesystem::last_write_time(vendors && *vendors ? vendors : "/etc/OpenCL/vendors", ec);
  return ec ? std::nullopt : std::optional<std::filesystem::file_time_type>(when);
}

// The library names of the installed OpenCL drivers: each ICD file's first line, in the
// directory (or the one file) the ICD loader reads. Empty where none could be read.
std::vector<std::string> installed_drivers() {
  const char *vendors = std::getenv("OCL_ICD_VENDORS");
  const std::filesystem::path where = vendors && *vendors ? vendors : "/etc/OpenCL/vendors";
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (std::filesystem::is_directory(where, ec)) {
    for (const auto &entry : std::filesystem::directory_iterator(where, ec))
      if (entry.path().extension() == ".icd") files.push_back(entry.path());
  } else {
    files.push_back(where);
  }
  std::vector<std::string> libraries;
  for (const auto &file : files) {
    std::ifstream in(file);
    std::string line;
    if (std::getline(in, line) && !line.empty()) libraries.push_back(line);
  }
  return libraries;
}

// What earlier runs kept beside the program cache: every start measured on this machine, and the
// devices with their rates when every record has them and none is older than the last change of
// the OpenCL drivers (a new GPU's driver makes the records incomplete until it has run).
struct machine_records {
  std::vector<double> starts;
  std::optional<std::vector<merklize::recorded_device>> devices;
};

machine_records read_machine_records() {
  machine_records kept;
  const std::string dir = merklize::cache_dir();
  if (dir.empty()) return kept;
  const auto changed = drivers_changed();
  std::vector<merklize::recorded_device> devices;
  bool complete = changed.has_value();
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("engine-start-", 0) != 0) continue;
    const auto record = read_record(entry.path().string());
    if (!record) continue;
    kept.starts.push_back(record->start_ms);
    std::error_code time_ec;
    const auto written = std::filesystem::last_write_time(entry.path(), time_ec);
    complete = complete && record->device && !time_ec && written >= *changed;
    if (record->device) devices.push_back(*record->device);
  }
  if (complete && !devices.empty()) kept.devices = devices; // none: the table decides
  return kept;
}

// The names the disk cache gives the programs a task runs begin so (runtime/disk_cache.hpp:
// NAME-HASH.bin, NAME a program variant's): a tree's main programs, data blocks' leaves (of their
// leaf hash), BLAKE3 of inputs.
std::string program_prefix(const merklize::engine_task &task) {
  switch (task.work) {
  case merklize::engine_work::block_leaves:
    switch (merklize::row_of(task.leaf).family) {
    case merklize::leaf_family::sha256:
      return "sha256-block-leaves-";
    case merklize::leaf_family::blake3:
      return "blake3-block-leaves-";
    case merklize::leaf_family::keccak_sponge:
      return "keccak-";
    }
    break;
  case merklize::engine_work::blake3_input:
    return "blake3-hash-lanes";
  case merklize::engine_work::leaf_tree:
    break;
  }
  return std::string("merkle-") + merklize::to_string(task.node) + "-wg";
}

// Whether the disk cache holds a program `task` runs, compiled by an earlier run for any device
// (a close guess: the device's own variant may still be missing).
bool programs_cached(const merklize::engine_task &task) {
  const std::string dir = merklize::cache_dir(), prefix = program_prefix(task);
  std::error_code ec;
  if (dir.empty()) return false;
  for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && entry.path().extension() == ".bin") return true;
  }
  return false;
}

} // namespace

namespace {

// The default device, or the one --device names, with the rates its tuning row gives each task.
engine_pick open_device(const std::optional<std::string> &spec, bool named) {
  engine_pick pick;
  pick.device = named ? merklize::select_device(*spec) : merklize::default_device();
  const merklize::device_facts facts = merklize::read_device_facts(pick.device);
  pick.measured = start_file(facts);
  const merklize::tuning &row = merklize::tuning_for(facts);
  const auto rate = [&](const merklize::engine_task &task) {
    return merklize::device_estimate(facts, row, task).gbytes_per_s;
  };
  pick.rates = {0,
                rate(merklize::tree_task(merklize::hash_kind::blake3)),
                rate(merklize::tree_task(merklize::hash_kind::sha256)),
                rate(merklize::blocks_task(merklize::leaf_hash::sha256, true)),
                rate(merklize::blake3_input_task()),
                row.compile_ms};
  pick.device_name = facts.name;
  return pick;
}

} // namespace

engine_pick pick_engine(const std::optional<std::string> &spec, const merklize::engine_task &task,
                        std::optional<std::uint64_t> bytes, const std::string &host_refusal) {
  if (spec && *spec == "host") {
    if (!task.host_can_run || !merklize::host_estimate(task, 1, false).can_run)
      throw usage_error("--device host " + host_refusal,
                        "Try 'merklize root --help' for the options.");
    engine_pick pick;
    pick.host = true;
    pick.why = "host engine: asked for (--device host)";
    return pick;
  }
  const char *env = std::getenv("MERKLIZE_DEVICE");
  const bool chosen = (spec && *spec != "auto") || (!spec && env && *env);
  const bool named = chosen && spec && *spec != "default"; // "default": auto's device, no choice
  if (chosen) {
    engine_pick pick = open_device(spec, named);
    pick.why = "device " + pick.device_name + ": asked for (--device or MERKLIZE_DEVICE)";
    return pick;
  }
  merklize::engine_task weighed = task;
  weighed.programs_cached = programs_cached(task);
  const unsigned threads = merklize::host_engine_threads();
  const merklize::engine_estimate host =
      merklize::host_estimate(weighed, threads, merklize::host_engine_sha_extensions(),
                              merklize::host_engine_blake3_lanes());
  const machine_records kept = read_machine_records();
  const std::uint64_t size = bytes.value_or(merklize::unknown_input_bytes); // a pipe: as large
  const bool by_records = kept.devices.has_value();
  const bool host_wins =
      by_records ? merklize::host_beats_recorded(host, bytes, weighed, *kept.devices)
                 : merklize::host_beats_table(host, bytes, weighed, threads,
                                              merklize::drivers_may_bring_gpu(installed_drivers()));
  char line[240];
  std::snprintf(line, sizeof line, "%s %.1f ms, %s %s", host.name.c_str(), host.finish_ms(size),
                host_wins ? "before" : "not before",
                by_records ? ("every device of the " + std::to_string(kept.devices->size()) +
                              " this machine ran")
                                 .c_str()
                           : "the tuning table's fastest device (no records of this machine's)");
  const std::string because =
      "chosen by --device auto for " + std::to_string(size) + " bytes: " + line +
      (weighed.programs_cached ? "" : ", a device's programs compiled first");
  if (host_wins) {
    engine_pick pick;
    pick.host = true;
    pick.why = "host engine: " + because + "; no device looked for";
    return pick;
  }
  engine_pick pick = open_device(spec, false);
  pick.why = "device " + pick.device_name + ": " + because +
             (host.can_run ? "" : " (the host engine cannot do this)");
  return pick;
}

engine_pick pick_engine(const std::optional<std::string> &spec,
                        const merklize::tree_options &options, std::optional<std::uint64_t> bytes) {
  return pick_engine(spec, merklize::tree_task(options.hash), bytes,
                     "builds --hash " + merklize::host_engine_hash_names() + " trees, not --hash " +
                         merklize::to_string(options.hash));
}

engine_pick pick_log_engine(const std::optional<std::string> &spec,
                            std::optional<std::uint64_t> entry_bytes,
                            const std::optional<merklize::tree_options> &tree) {
  const bool host_can_run = !tree || merklize::host_engine_supports(*tree);
  return pick_engine(spec, merklize::blocks_task(merklize::leaf_hash::sha256, host_can_run),
                     entry_bytes,
                     tree ? "builds --hash " + merklize::host_engine_hash_names() +
                                " trees, not --hash " + merklize::to_string(tree->hash)
                          : "");
}

void record_start(const engine_pick &pick, double start_ms) {
  if (pick.host || pick.measured.empty()) return;
  // The fastest start seen is kept: a run that compiled its programs (a new driver, a cold
  // cache; 3.1 s on the H100 machine against 0.2 s warm) says nothing of the usual start, and
  // would send every later choice to the host.
  const auto kept = read_record(pick.measured);
  if (kept && kept->device && kept->start_ms <= start_ms) return;
  if (kept) start_ms = std::min(start_ms, kept->start_ms); // a record without rates gets them
  ::mkdir(merklize::cache_dir().c_str(), 0700); // the program cache may not have made it yet
  std::ofstream out(pick.measured, std::ios::trunc);
  // A failure to keep it only costs the next choice its precision.
  out << start_ms << " " << pick.rates.blake3_gbps << " " << pick.rates.sha256_gbps << " "
      << pick.rates.block_gbps << " " << pick.rates.blake3_input_gbps << " "
      << pick.rates.compile_ms << "\n";
}

} // namespace cli
