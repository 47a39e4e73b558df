// SPDX-License-Identifier: Apache-2.0 OR MIT
// Whole processes run and timed as a user's shell runs them (merklize bench): from the spawn to
// the exit, stdout and stderr kept, the peak resident memory from the kernel's account.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cli {

struct timed_result {
  int status = -1;    // the exit status; -1 when killed by a signal or not started
  double seconds = 0; // wall time from the spawn to the exit
  long peak_kib = 0;  // peak resident memory (getrusage's ru_maxrss)
  std::string out, err;
};

// Runs argv[0] (a path) with argv, stdin from /dev/null.
timed_result run_timed(const std::vector<std::string> &argv);

// The program `name` in $PATH, else in /usr/sbin and /sbin (where veritysetup lives, off a user's
// PATH); nothing if there is none.
std::optional<std::string> find_program(const std::string &name);

// The path of the running program (/proc/self/exe).
std::string own_path();

} // namespace cli
