// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "cli.hpp"

#include "output.hpp"
#include "quote.hpp"

#include <merklize/merkleizer.hpp>
#include <merklize/program_stats.hpp>

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
  return spec ? merklize::select_device(*spec) : merklize::default_device();
}

namespace {
const auto process_start = std::chrono::steady_clock::now();
}

void milestones::reached(const char *what) {
  const std::chrono::duration<double, std::milli> since =
      std::chrono::steady_clock::now() - process_start;
  char line[96];
  std::snprintf(line, sizeof line, "%s%s %.1f ms", text_.empty() ? "" : ", ", what, since.count());
  text_ += line;
}

std::string milestones::text() const { return text_; }

void report_program(bool verbose, merklize::merkleizer &m, const milestones &times) {
  if (!verbose) return;
  const merklize::program_builds builds = merklize::program_builds_so_far();
  char programs[96];
  std::snprintf(programs, sizeof programs, "; %zu programs built in %.1f ms", builds.count,
                builds.ms);
  std::cerr << "program: " << merklize::to_string(m.program_form()) << "\n"
            << "times since start: " << times.text() << programs << "\n";
}

} // namespace cli
