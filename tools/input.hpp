// SPDX-License-Identifier: Apache-2.0 OR MIT
// What the commands read: a file named on the command line, or stdin for "-". Every failure
// names the input and gives the system's reason ("cannot read d: Is a directory").
#pragma once

#include <merklize/core/error_type.hpp>
#include <merklize/core/hashes.hpp>
#include <merklize/io/input.hpp>
#include <merklize/proofs/proof_encoding.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cli {

class progress_meter;

// A file that cannot be opened or read ("cannot open \"x\": No such file or directory"), with the
// system's error number (file_error::code(); `b3sum --check` shows it).
class input_error : public merklize::file_error {
public:
  input_error(const std::string &name, const std::string &action, int code);
};

// The input at `path` for the library to read itself (merklize::input): stdin for "-". With
// `progress`, --progress is shown as the library reads it, ended once it is read.
class library_input {
public:
  library_input(const std::string &path, bool progress);
  ~library_input();
  merklize::input &get() { return *input_; }
  // The input is read: the progress line's last state.
  void finish();
  // The bytes the library has read so far (of a pipe too, whose size nobody knew).
  std::uint64_t bytes_read() const { return read_; }

private:
  std::unique_ptr<merklize::input> input_;
  std::unique_ptr<progress_meter> meter_;
  std::uint64_t read_ = 0;
};

// An input opened for reading: the file at `path`, or stdin for "-".
class input_file {
public:
  explicit input_file(const std::string &path);
  input_file(const input_file &) = delete;
  input_file &operator=(const input_file &) = delete;
  ~input_file();

  int fd() const { return fd_; }
  const std::string &path() const { return path_; }
  // "stdin" for "-", else the path.
  const std::string &name() const { return name_; }
  // A regular file's size; nothing for a pipe, a terminal, a directory.
  std::optional<std::uint64_t> size() const;
  // Up to `capacity` bytes, 0 only at the end.
  std::size_t read_some(std::uint8_t *buffer, std::size_t capacity);

private:
  std::string path_, name_;
  int fd_;
};

// A documented limit on an input's bytes: a JSON proof's 64 MiB, say, and what it is ("of a
// JSON proof"), for the refusal.
struct text_limit {
  std::uint64_t bytes;
  const char *what;
};

// A JSON text's limit (the library's JSON readers', a proof's as an opening's), which `verify`,
// `verify-consistency` and `verify-opening`'s lines keep to.
constexpr text_limit json_proof_limit{merklize::max_json_proof_bytes, "of a JSON proof"};

// The whole content of the file at `path` (stdin for "-"), with --progress shown if `progress`:
// for inputs the library cannot stream (a proof to verify, leaves for several devices). Past
// `limit`, refused naming the input and the limit once limit + 1 bytes are read (a regular
// file's size at once): /dev/zero or an endless pipe is refused in bounded memory.
std::vector<std::uint8_t> read_input(const std::string &path, bool progress,
                                     const std::optional<text_limit> &limit = std::nullopt);

// line(text) for each non-empty line of the file at `path` (stdin for "-"), read as they come:
// a line longer than `line_limit` is refused (naming the input and the limit) before reading on.
void for_each_line(const std::string &path, const text_limit &line_limit,
                   const std::function<void(const std::string &)> &line);

// The same, checked to hold N >= 1 leaves of 32 bytes, else an error naming the input.
std::vector<std::uint8_t> read_leaves(const std::string &path, bool progress);

// Refuses `bytes` bytes read from `path` that are not N >= 1 leaves, naming the input.
void check_leaves(const std::string &path, std::uint64_t bytes);

// Refuses leaves that a hash over field elements does not take (merklize::leaf_refusal: a limb
// that is not a canonical element), naming the input, the leaf and the limb.
void check_field_leaves(const std::string &path, const std::vector<std::uint8_t> &leaves,
                        merklize::hash_kind hash);

} // namespace cli
