// Running the merklize command-line tool as a user would: files in a scratch directory, the exit
// status, stdout and stderr of each run.
#pragma once

#include "helpers.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

struct run_result {
  int status;
  std::string out, err;
};

inline fs::path scratch_dir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() /
                 ("merklize-cli-test-" + std::to_string(test::rng()() % 1000000000));
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

inline run_result run(const std::string &args, const std::string &stdin_file = "") {
  const fs::path out = scratch_dir() / "stdout", err = scratch_dir() / "stderr";
  std::string command = std::string("\"") + MERKLIZE_CLI + "\" " + args + " >\"" + out.string() +
                        "\" 2>\"" + err.string() + "\"";
  if (!stdin_file.empty()) command += " <\"" + stdin_file + "\"";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}
