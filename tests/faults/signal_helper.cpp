// SPDX-License-Identifier: Apache-2.0 OR MIT
// Makes PATH as a named temporary file held for removal on signals (detail::removed_on_signal,
// replace_file.hpp), then raises SIGTERM, as `kill` or `timeout` would end a write midway. The
// test (test_cli_outputs.cpp) checks that the process ended by the signal and PATH is gone.
//   merklize_signal_helper PATH
#include <merklize/io/replace_file.hpp>

#include <csignal>
#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: merklize_signal_helper PATH\n");
    return 2;
  }
  const merklize::detail::removed_on_signal removal(argv[1]);
  const int fd = ::open(argv[1], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::perror(argv[1]);
    return 1;
  }
  std::raise(SIGTERM);
  return 3; // not reached: SIGTERM ends the process
}
