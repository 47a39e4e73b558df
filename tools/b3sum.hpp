// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize b3sum, a drop-in for the b3sum program (1.x): the hashing of one input and the names
// as b3sum shows them, shared by the hashing mode (b3sum_command.cpp) and --check
// (b3sum_check.cpp).
#pragma once

#include "commands.hpp"

#include <merklize/engine/blake3_device.hpp>

#include <optional>
#include <string>

namespace cli {
namespace b3sum {

// Hashes inputs as b3sum does: "-" is stdin, anything else a file; a large regular file is read by
// --num-threads threads. Each input goes to the engine --device picks (engine.hpp): the host
// engine's BLAKE3 (host_blake3.hpp) on --num-threads threads, or a device, opened once, when the
// first input that goes to it comes. Failures to open or read an input are merklize::file_error
// (input_error where the system's error number is known).
class input_hasher {
public:
  input_hasher(const b3sum_arguments &args, const merklize::blake3_mode &mode);

  // The first `out_bytes` bytes of the output for `path`, handed to `out` once the input is read.
  void hash(const std::string &path, const merklize::blake3_device::output_sink &out,
            std::uint64_t out_bytes);

private:
  std::optional<std::string> device_spec_;
  merklize::hash_config config_;
  std::optional<merklize::blake3_device> device_;
  merklize::blake3_mode mode_;
  unsigned threads_; // reading a large regular file (--num-threads; 0: automatic)
  bool stdin_taken_; // by the key (--keyed)
  bool progress_;
};

// A name as b3sum shows it: as UTF-8 (each invalid sequence a U+FFFD, as Rust's
// to_string_lossy), then, if it holds a backslash or a newline, with those escaped (\\ and \n)
// and `escaped` set: b3sum then starts the line with a backslash.
std::string shown_name(const std::string &path, bool &escaped);

// b3sum --check over args.files: prints "NAME: OK" (unless --quiet) or "NAME: FAILED" for each
// line of each check file, as b3sum prints them. Returns the exit status.
int check(const b3sum_arguments &args, input_hasher &hasher);

} // namespace b3sum
} // namespace cli
