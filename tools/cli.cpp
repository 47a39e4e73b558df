// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "cli.hpp"

#include "output.hpp"
#include "quote.hpp"

#include <merklize/engine/merkleizer.hpp>
#include <merklize/runtime/program_stats.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <new>

namespace cli {

void print_error(const std::string &program, const std::string &message) {
  std::cerr << program << ": " << printable_lines(message, 4096) << "\n";
}

int run_main(const std::string &program, const std::function<int()> &body) {
  int status = 0;
  try {
    status = body();
  } catch (const usage_error &e) {
    print_error(program, e.what());
    if (!e.hint.empty()) std::cerr << e.hint << "\n";
    return exit_usage;
  } catch (const std::bad_alloc &) { // one that no step of the command named
    print_error(program, "out of memory");
    return exit_failure;
  } catch (const std::exception &e) {
    print_error(program, e.what());
    return exit_failure;
  }
  try {
    close_stdout();
  } catch (const std::exception &e) {
    print_error(program, e.what());
    return exit_failure;
  }
  return status;
}

cl::Device chosen_device(const std::optional<std::string> &spec) {
  if (spec && *spec == "host")
    throw usage_error("--device host (the host engine) does not run this: it runs merklize "
                      "root (but other systems' commitments), b3sum, proof, consistency, tiles "
                      "and leaf-hash");
  const bool named = spec && *spec != "auto" && *spec != "default";
  return named ? merklize::select_device(*spec) : merklize::default_device();
}

namespace {
const auto process_start = std::chrono::steady_clock::now();
}

namespace {
double ms_since_start() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - process_start)
      .count();
}
} // namespace

double phase_split::done(const std::string &phase) {
  const double now = ms_since_start(), ms = now - (last_ms_ < 0 ? 0 : last_ms_);
  last_ms_ = now;
  char line[64];
  std::snprintf(line, sizeof line, ": %.1f ms\n", ms);
  phases_ += "phase " + phase + line;
  return ms;
}

void phase_split::report(bool verbose) const {
  if (!verbose) return;
  char total[96];
  std::snprintf(total, sizeof total, "total: %.1f ms since the process began\n", ms_since_start());
  std::cerr << notes_ << phases_ << "phase exit: none (no teardown: the system frees it all)\n"
            << total;
}

std::string program_line(merklize::merkleizer &m) {
  const merklize::program_builds builds = merklize::program_builds_so_far();
  char programs[96];
  std::snprintf(programs, sizeof programs, ", %zu programs built in %.1f ms", builds.count,
                builds.ms);
  return "program: " + std::string(merklize::to_string(m.program_form())) + programs;
}

} // namespace cli
