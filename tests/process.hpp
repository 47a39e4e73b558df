// SPDX-License-Identifier: Apache-2.0 OR MIT
// Running programs from tests as a user would: a scratch directory, files in it, and a program
// run with its stdout and stderr captured.
#pragma once

#include "host_helpers.hpp"

#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace test {

namespace fs = std::filesystem;

struct run_result {
  int status;
  std::string out, err;
};

inline fs::path scratch_dir() {
  static const fs::path dir = [] {
    fs::path d =
        fs::temp_directory_path() / ("merklize-cli-test-" + std::to_string(rng()() % 1000000000));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

inline std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline fs::path write_file(const std::string &name, const std::vector<std::uint8_t> &bytes) {
  const fs::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return p;
}

// Runs argv[0] with exactly these arguments (no shell, so any byte may appear in a name), stdin
// from `stdin_file` (else /dev/null).
inline run_result run_program(const std::vector<std::string> &argv,
                              const std::string &stdin_file = "") {
  const fs::path out = scratch_dir() / "stdout", err = scratch_dir() / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(
      &actions, 0, stdin_file.empty() ? "/dev/null" : stdin_file.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {-1, "", "cannot run " + argv[0] + ": " + std::strerror(spawned)};
  int raw = 0;
  waitpid(pid, &raw, 0);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

} // namespace test
