// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize b3sum against the b3sum program (Debian package b3sum): the same arguments to both,
// stdout compared byte for byte, and the exit status.
#pragma once

#include "cli_helpers.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

namespace test {

inline const char *const b3sum_program = "/usr/bin/b3sum";

// Whether b3sum is there to compare with; a warning saying the test is skipped if not.
inline bool have_b3sum() {
  if (::access(b3sum_program, X_OK) == 0) return true;
  WARN("SKIPPED: " << b3sum_program << " is not installed (apt-get install b3sum)");
  return false;
}

inline std::vector<std::string> with(std::vector<std::string> command,
                                     const std::vector<std::string> &more) {
  command.insert(command.end(), more.begin(), more.end());
  return command;
}

// Both programs on the same arguments and stdin (ours also given --device for the test device):
// the same stdout, byte for byte, and the same exit status. Returns our run.
inline run_result check_same_output(const std::vector<std::string> &args,
                                    const std::string &stdin_file = "") {
  const auto theirs = run_program(with({b3sum_program}, args), stdin_file);
  const auto ours = run_program(
      with({MERKLIZE_CLI, "b3sum", "--device", merklize::device_name(test_device())}, args),
      stdin_file);
  INFO("b3sum stderr: " << theirs.err << "\nmerklize stderr: " << ours.err);
  CHECK(ours.out == theirs.out);
  CHECK(ours.status == theirs.status);
  return ours;
}

} // namespace test
