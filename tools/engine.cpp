// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "engine.hpp"

#include "cli.hpp"

#include <merklize/engine/host_tree.hpp>
#include <merklize/runtime/device.hpp>
#include <merklize/runtime/programs.hpp>
#include <merklize/runtime/runtime.hpp>

#include <algorithm>
#include <chrono>
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

std::optional<double> measured_start(const std::string &file) {
  if (file.empty()) return std::nullopt;
  std::ifstream in(file);
  double ms = -1;
  if (in >> ms && ms >= 0 && ms < 1e6) return ms;
  return std::nullopt; // none yet, or not a number: the row's estimate
}

void check_host_can_run(const merklize::tree_options &options) {
  if (!merklize::host_engine_supports(options))
    throw usage_error(std::string("--device host builds --hash sha256, rfc6962 and blake3 trees, "
                                  "not --hash ") +
                          merklize::to_string(options.hash),
                      "Try 'merklize root --help' for the options.");
}

// Every start measured on this machine (the files beside the program cache).
std::vector<double> measured_starts() {
  std::vector<double> starts;
  const std::string dir = merklize::cache_dir();
  if (dir.empty()) return starts;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("engine-start-", 0) == 0)
      if (const auto ms = measured_start(entry.path().string())) starts.push_back(*ms);
  }
  return starts;
}

} // namespace

engine_pick pick_engine(const std::optional<std::string> &spec,
                        const merklize::tree_options &options, std::optional<std::uint64_t> bytes) {
  engine_pick pick;
  if (spec && *spec == "host") {
    check_host_can_run(options);
    pick.host = true;
    pick.why = "host engine: asked for (--device host)";
    return pick;
  }
  const char *env = std::getenv("MERKLIZE_DEVICE");
  const bool chosen = (spec && *spec != "auto") || (!spec && env && *env);
  const bool named = chosen && spec && *spec != "default"; // "default": auto's device, no choice
  const unsigned threads = merklize::host_engine_threads();
  const merklize::engine_estimate host =
      merklize::host_estimate(options.hash, threads, merklize::detail::sha_extensions_used());
  const double fastest = merklize::fastest_device_start_ms(measured_starts());
  if (!chosen && merklize::host_finishes_first(host, bytes, fastest)) {
    pick.host = true;
    char line[160];
    std::snprintf(line, sizeof line, "%.1f ms, before any device could start (%.1f ms)",
                  host.finish_ms(*bytes), fastest);
    pick.why = "host engine: chosen by --device auto for " + std::to_string(*bytes) +
               " bytes: " + host.name + " " + line + "; no device looked for";
    return pick;
  }
  const auto looking = std::chrono::steady_clock::now();
  pick.device = named ? merklize::select_device(*spec) : merklize::default_device();
  const merklize::device_facts facts = merklize::detail::read_device_facts(pick.device);
  const double looked_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - looking).count();
  pick.measured = start_file(facts);
  if (chosen) {
    pick.why = "device " + facts.name + ": asked for (--device or MERKLIZE_DEVICE)";
    return pick;
  }
  std::vector<merklize::engine_estimate> estimates{
      merklize::device_estimate(facts, merklize::tuning_for(facts), options.hash,
                                measured_start(pick.measured)),
      host};
  // The driver is loaded and the device found by now: that part of its start is paid whichever
  // engine runs, so only the rest weighs against the host.
  estimates[0].start_ms = std::max(0.0, estimates[0].start_ms - looked_ms);
  const merklize::engine_choice choice = merklize::choose_engine(estimates, bytes);
  pick.host = estimates[choice.chosen].is_host;
  pick.why = std::string(pick.host ? "host engine" : "device " + facts.name) +
             ": chosen by --device auto for " + std::to_string(choice.bytes) +
             " bytes: " + choice.why;
  return pick;
}

void record_start(const engine_pick &pick, double start_ms) {
  if (pick.host || pick.measured.empty()) return;
  // The fastest start seen is kept: a run that compiled its programs (a new driver, a cold
  // cache; 3.1 s on the H100 machine against 0.2 s warm) says nothing of the usual start, and
  // would send every later choice to the host.
  if (const auto kept = measured_start(pick.measured); kept && *kept <= start_ms) return;
  ::mkdir(merklize::cache_dir().c_str(), 0700); // the program cache may not have made it yet
  std::ofstream out(pick.measured, std::ios::trunc);
  out << start_ms << "\n"; // a failure to keep it only costs the next choice its precision
}

} // namespace cli
