// SPDX-License-Identifier: Apache-2.0 OR MIT
// Shared pieces of the tools (merklize, merklize-aot, merklize-mpi): usage errors, exit
// statuses and messages, and the choice of device.
#pragma once

#include <merklize/core/error_type.hpp>

#include <functional>
#include <optional>
#include <string>

namespace cl {
class Device;
}
namespace merklize {
class merkleizer;
}

namespace cli {

// Exit statuses: 0 success, 1 a failure (a bad input, a device error, a failed write, a proof
// that does not verify), 2 a mistake in the command line.
constexpr int exit_failure = 1, exit_usage = 2;

// A mistake in the command line: its message, then `hint` (where to read the usage), exit 2.
struct usage_error : merklize::error {
  explicit usage_error(const std::string &message, std::string hint_ = "")
      : merklize::error(message), hint(std::move(hint_)) {}
  std::string hint;
};

// "<program>: <message>" on stderr, the message printable (no control character but its line
// breaks) and cut to a few KiB: it may quote what the user or an input gave.
void print_error(const std::string &program, const std::string &message);

// Runs a tool: returns what `body` returns, else 2 for a usage_error and 1 for any other failure
// (out of memory included), with a message; then 1 if writing stdout failed.
int run_main(const std::string &program, const std::function<int()> &body);

// The device `spec` names (select_device), or the default device.
cl::Device chosen_device(const std::optional<std::string> &spec);

// Where a command's time went, for --verbose: each phase's milliseconds by the steady clock
// around the real calls, one line per phase on stderr ("phase device discovery: 36.7 ms"), then
// the time since the process began (its static initialisation, just after the dynamic loader).
class phase_split {
public:
  // The phase that began at the last call (or at the start) ends now; returns its milliseconds.
  double done(const std::string &phase);
  // A line of its own (the engine chosen, the programs' form), printed before the phases.
  void note(const std::string &line) { notes_ += line + "\n"; }
  // With `verbose`: the notes, the phases, and that the process exits without teardown.
  void report(bool verbose) const;

private:
  std::string notes_, phases_;
  double last_ms_ = -1;
};

// "program: <form>, N programs built in .. ms" of m's kernels (jit, spirv, spir-bitcode, cache).
std::string program_line(merklize::merkleizer &m);

} // namespace cli
