// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize's command line (command_line.cpp, the one file that includes CLI11).
#pragma once

#include <functional>

namespace cli {

// The command the arguments ask for, ready to run (it returns the exit status); `--help`,
// `--version` and `help COMMAND` are answered by what is returned too. A mistake in the command
// line is a usage_error.
using command_runner = std::function<int()>;
command_runner parse_merklize_command_line(int argc, char **argv);

} // namespace cli
