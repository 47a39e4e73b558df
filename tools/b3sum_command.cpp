// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize b3sum: the BLAKE3 of files, hashed on the host engine or a device (--device, chosen as
// merklize root chooses) and printed exactly as the b3sum
// program (1.x) prints them: "<hex>  <name>" a line, "-" for stdin, a name holding a backslash or a
// newline escaped (\\ and \n) and its line started with a backslash, a name that is not UTF-8
// shown as Rust's to_string_lossy shows it. A file that cannot be read is reported on stderr and
// skipped, and the status is then 1. Outputs of any --length come from the device in pieces, and
// go to stdout once whole (held_output), or past 16 MiB as they come, as b3sum streams them.
#include "b3sum.hpp"

#include "cli.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "quote.hpp"

#include <merklize/engine/host_blake3.hpp>

#include <algorithm>

namespace cli {
namespace b3sum {

input_hasher::input_hasher(const b3sum_arguments &args, const merklize::blake3_mode &mode)
    : device_spec_(args.device), mode_(mode), threads_(args.num_threads), stdin_taken_(args.keyed),
      progress_(args.progress) {
  config_.file_read_threads = args.num_threads;
}

void input_hasher::hash(const std::string &path, const merklize::blake3_device::output_sink &out,
                        std::uint64_t out_bytes) {
  if (path == "-" && stdin_taken_)
    throw merklize::file_error("-", "open", "stdin held the key (--keyed)");
  library_input in(path, progress_); // a large regular file is read by --num-threads threads
  in.get().set_read_threads(threads_);
  bool finished = false; // the progress line ends before the output, which follows on stdout
  const auto sink = [&](const std::uint8_t *bytes, std::size_t size) {
    if (!finished) in.finish();
    finished = true;
    out(bytes, size);
  };
  const bool on_device = device_.has_value();
  const engine_pick pick =
      on_device ? engine_pick{} // the device already opened takes the rest
                : pick_engine(device_spec_, merklize::blake3_input_task(), in.get().size(), "");
  if (pick.host) {
    merklize::host_blake3(in.get(), mode_, sink, out_bytes, threads_);
  } else {
    if (!device_) device_.emplace(pick.device, config_);
    device_->hash(mode_, in.get(), sink, out_bytes);
  }
  if (!finished) in.finish();
}

} // namespace b3sum

namespace {

// The key of --keyed: exactly 32 bytes on stdin, as b3sum reads it.
merklize::blake3_mode keyed_mode() {
  std::uint8_t key[merklize::blake3::key_len + 1];
  std::size_t have = 0;
  input_file input("-");
  for (std::size_t got = 1; got > 0 && have < sizeof key; have += got)
    got = input.read_some(key + have, sizeof key - have);
  if (have < merklize::blake3::key_len)
    throw merklize::error("expected 32 key bytes from stdin, found " + std::to_string(have));
  if (have > merklize::blake3::key_len)
    throw merklize::error("read more than 32 key bytes from stdin");
  return merklize::blake3_mode::keyed(key);
}

merklize::blake3_mode mode_of(const b3sum_arguments &args) {
  if (args.keyed) return keyed_mode();
  if (args.derive_key) return merklize::blake3_mode::derive_key(*args.derive_key);
  return merklize::blake3_mode::hash();
}

void append_hex(held_output &line, const std::uint8_t *bytes, std::size_t size) {
  static constexpr char digits[] = "0123456789abcdef";
  char hex[2 * 4096];
  while (size > 0) {
    const std::size_t take = std::min(size, sizeof hex / 2);
    for (std::size_t i = 0; i < take; ++i) {
      hex[2 * i] = digits[bytes[i] >> 4];
      hex[2 * i + 1] = digits[bytes[i] & 15];
    }
    line.append(hex, 2 * take);
    bytes += take;
    size -= take;
  }
}

// One input's output as b3sum prints it: raw bytes, or hex and a newline, or "<hex>  <name>".
// It goes to stdout only once it is whole (up to 16 MiB): an input that fails midway prints
// nothing.
void print_output(b3sum::input_hasher &hasher, const b3sum_arguments &args,
                  const std::string &path) {
  held_output output;
  if (args.raw) {
    hasher.hash(
        path, [&](const std::uint8_t *bytes, std::size_t size) { output.append(bytes, size); },
        args.length);
    output.release();
    return;
  }
  bool escaped = false;
  const std::string name = args.no_names ? "" : b3sum::shown_name(path, escaped);
  if (escaped) output.append("\\");
  hasher.hash(
      path, [&](const std::uint8_t *bytes, std::size_t size) { append_hex(output, bytes, size); },
      args.length);
  output.append(args.no_names ? "\n" : "  " + name + "\n");
  output.release();
}

} // namespace

int b3sum_command(const b3sum_arguments &args) {
  std::vector<std::string> files = args.files;
  if (files.empty()) files.push_back("-");
  if (args.raw && files.size() > 1)
    throw usage_error("--raw takes one input only",
                      "Try 'merklize b3sum --help' for more information.");
  b3sum::input_hasher hasher(args, mode_of(args));
  if (args.check) return b3sum::check(args, hasher);
  int status = 0;
  for (const auto &path : files) {
    try {
      print_output(hasher, args, path);
    } catch (const output_error &) {
      throw;
    } catch (const merklize::file_error &e) { // this input; the others are still hashed
      print_error("merklize", quote(path) + ": " + e.reason());
      status = exit_failure;
    }
  }
  return status;
}

} // namespace cli
