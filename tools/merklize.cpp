// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize: the command-line tool. `merklize --help` says what it does; each command lives in its
// own <name>_command.cpp, its options in command_line.cpp.
#include "cli.hpp"
#include "command_line.hpp"

#include <merklize/runtime/compile_notice.hpp>
#include <merklize/runtime/programs.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

// The tool keeps compiled programs across runs, as a library user opts in to: in
// $MERKLIZE_CACHE_DIR where it is set (empty: no cache), else in $XDG_CACHE_HOME/merklize or
// ~/.cache/merklize. A program from the cache loads several times faster than its source
// compiles, and start-up is most of a small command's time.
void use_program_cache() {
  if (std::getenv("MERKLIZE_CACHE_DIR")) return; // the library reads it
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  if (xdg && *xdg == '/')
    merklize::set_cache_dir(std::string(xdg) + "/merklize");
  else if (home && *home == '/')
    merklize::set_cache_dir(std::string(home) + "/.cache/merklize");
}

// A first run's compile of kernels takes seconds: said on a terminal (root's -v says it anywhere),
// unless $MERKLIZE_VERBOSE decides.
void use_compile_notice() {
  if (!std::getenv("MERKLIZE_VERBOSE"))
    merklize::set_compile_notice(merklize::compile_notice::on_terminal);
}

} // namespace

int main(int argc, char **argv) {
  use_program_cache();
  use_compile_notice();
  const int status =
      cli::run_main("merklize", [&] { return cli::parse_merklize_command_line(argc, argv)(); });
  // The command's own objects are gone and its output written (run_main closed stdout; stdio's
  // other streams are flushed here). What is left is the process-wide OpenCL context and program
  // cache, whose release makes the NVIDIA driver tear its context down (leaving without it took
  // a root of 2 leaves on the H200 from 328 to 304 ms: docs/BENCHMARKS.md). The system frees all
  // of it at exit anyway.
  std::cout.flush();
  std::fflush(nullptr);
  std::_Exit(status);
}
