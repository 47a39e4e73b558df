// Shared pieces of the merklize command-line tool: argument parsing, input, device choice.
// Each command lives in its own <name>_command.cpp and is listed in merklize.cpp.
#pragma once

#include <merklize/merklize.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace cli {

// A mistake in the command line: reported with the usage text, exit status 2.
struct usage_error : merklize::error {
  using merklize::error::error;
};

// Splits "--name value" options from positional arguments. Options named in `flags` take no
// value; every other known option takes one.
struct arguments {
  std::map<std::string, std::string> options;
  std::vector<std::string> positional;

  arguments(int argc, char **argv, int first, const std::vector<std::string> &known,
            const std::vector<std::string> &flags = {});

  bool has(const std::string &name) const { return options.count(name) != 0; }
  std::string get(const std::string &name, const std::string &fallback) const {
    auto found = options.find(name);
    return found == options.end() ? fallback : found->second;
  }
};

// The whole content of a file, or of stdin for "-".
std::vector<std::uint8_t> read_input(const std::string &path);

// The leaves in a file (or stdin for "-"): N >= 1 leaves of 32 bytes, else an error naming it.
std::vector<std::uint8_t> read_leaves(const std::string &path);

// The value of option --name as a non-negative decimal integer, else a usage error.
std::uint64_t count_option(const arguments &args, const std::string &name);

// --device SPEC if given, else the default device.
cl::Device chosen_device(const arguments &args);

// Node hash, shape and fixed depth from --hash, --pad and --depth.
merklize::tree_options tree_options_of(const arguments &args);

// The flag a command accepts to report on stderr how it ran (see report_program).
inline const std::string verbose_flag = "verbose";

// With --verbose, "program: <form>" on stderr: where m's kernels came from (jit, spirv,
// spir-bitcode or cache).
void report_program(const arguments &args, merklize::merkleizer &m);

} // namespace cli
