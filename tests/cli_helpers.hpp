// SPDX-License-Identifier: Apache-2.0 OR MIT
// Running the command-line tools from the tests through a shell, for what needs one (limits,
// redirections, another user, a working folder), and measuring a run's memory.
#pragma once

#include "helpers.hpp"
#include "process.hpp"

#include <sys/resource.h>

namespace test {

// `text` as one word for sh: in single quotes.
inline std::string sh_quote(const std::string &text) {
  std::string word = "'";
  for (char c : text)
    word += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return word + "'";
}

// The merklize tool, as a word for sh.
inline std::string merklize_word() { return sh_quote(MERKLIZE_CLI); }

// `sh -c command`, stdin from `stdin_file` (else /dev/null), stdout and stderr captured.
inline run_result run_shell(const std::string &command, const std::string &stdin_file = "") {
  return run_program({"/bin/sh", "-c", command}, stdin_file);
}

// The peak resident memory, in KiB, of running argv with stdout to /dev/null.
inline long peak_memory_kib(const std::vector<std::string> &argv) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  struct rusage usage {};
  if (::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return -1;
  return usage.ru_maxrss;
}

// A file of `size` zero bytes that takes no disk space.
inline fs::path sparse_file(const std::string &name, std::uint64_t size) {
  const fs::path p = scratch_dir() / name;
  std::ofstream{p};
  fs::resize_file(p, size);
  return p;
}

// The merklize tool run with `arguments`, without a shell; stdin from `stdin_file` if given.
inline run_result merklize_cli(std::vector<std::string> arguments,
                               const std::string &stdin_file = "") {
  arguments.insert(arguments.begin(), MERKLIZE_CLI);
  return run_program(arguments, stdin_file);
}

// The same on the test device: `--device NAME` after the command's name (verify takes none).
inline run_result merklize_cli_on_test_device(std::vector<std::string> arguments,
                                              const std::string &stdin_file = "") {
  if (!arguments.empty() && arguments[0] != "verify")
    arguments.insert(arguments.begin() + 1, {"--device", merklize::device_name(test_device())});
  return merklize_cli(std::move(arguments), stdin_file);
}

// A scratch file holding `text`; its path.
inline std::string write_text(const std::string &name, const std::string &text) {
  return write_file(name, std::vector<std::uint8_t>(text.begin(), text.end())).string();
}

} // namespace test
