// SPDX-License-Identifier: Apache-2.0 OR MIT
// Inputs the library reads itself: a file named by its path, or a descriptor it is handed (stdin,
// a pipe). A regular file of more than 1 MiB is read as it is when opened, by several threads at
// once at known offsets (pread, straight into the memory that goes to the device); anything else
// is read as a stream, in large reads, to its end. Every failure is a file_error naming the input
// and giving the system's reason. No OpenCL. Definitions: io/input.ipp.
#pragma once

#include "../core/error_type.hpp"
#include "../core/separate_compilation.hpp"
#include "file_read.hpp"
#include "stream_prefetch.hpp"

#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace merklize {

class input {
public:
  // Told the bytes read so far, on the thread that reads (the caller's), once per piece.
  using progress_callback = std::function<void(std::uint64_t bytes_read)>;

  // The file at `path`, named `name` in messages (by default the path itself).
  explicit input(const std::string &path) : input(path, path) {}
  MERKLIZE_DECL input(const std::string &path, std::string name);

  // An open descriptor, left open, named `name` in messages: stdin is input(0, "stdin").
  MERKLIZE_DECL input(int fd, std::string name);

  input(const input &) = delete;
  input &operator=(const input &) = delete;
  MERKLIZE_DECL ~input();

  const std::string &name() const { return name_; }
  int descriptor() const { return fd_; }

  // A regular file's size when it was opened; nothing for a pipe, a terminal or a device.
  std::optional<std::uint64_t> size() const { return size_; }

  // Whether it is read at offsets by several threads: a regular file of more than 1 MiB. Smaller
  // files are read as streams, which also keeps files of /proc and /sys right (their size says
  // nothing of their content).
  bool read_at_offsets() const {
    return size_ && *size_ > detail::parallel_file_reader::block_bytes;
  }

  // Threads reading a regular file at offsets: `threads`, or 0 for min(8, hardware threads).
  void set_read_threads(unsigned threads) { threads_ = threads; }
  MERKLIZE_DECL unsigned read_threads(std::uint64_t bytes) const;

  void set_progress(progress_callback progress) { progress_ = std::move(progress); }
  // Reports `bytes` more read (the readers call this once a piece is in).
  void add_progress(std::uint64_t bytes) {
    done_ += bytes;
    if (progress_) progress_(done_);
  }

  // Starts reading the input ahead of its readers on a thread of its own, so that the reading
  // overlaps what the caller does first (a device's start) and then the work on what was read
  // (io/stream_prefetch.hpp): a stream of unknown size (stdin, a pipe) into ordinary memory,
  // at most `max_held` bytes held at once (0: 1 GiB, or an eighth of the memory where that is
  // less), which read_some takes first; a file read at offsets is only advised to the system; a
  // regular file of 1 MiB or less is left alone (it is read in microseconds). Again: sets
  // max_held. Where no thread can be had, the input is read as before.
  MERKLIZE_DECL void read_ahead(std::uint64_t max_held = 0);
  // Bytes read ahead so far (0 without read_ahead, or for a file read at offsets).
  std::uint64_t read_ahead_bytes() const { return ahead_ ? ahead_->bytes_read() : 0; }
  // Whether a stream is read ahead (read_ahead started its thread).
  bool reading_ahead() const { return ahead_ != nullptr; }

  // A stream read ahead whose blocks read_some has not taken part of: its blocks can be taken
  // whole, in the memory they were read into (no copy), by any thread, in the input's order.
  bool takes_blocks() const { return ahead_ && ahead_->whole_blocks(); }
  // The next such block (stream_prefetch::take); its memory goes back with give_back_block.
  detail::stream_prefetch::whole_block take_block() { return ahead_->take(); }
  void give_back_block(std::unique_ptr<std::uint8_t[]> data) { ahead_->give_back(std::move(data)); }

  // A stream: up to `capacity` bytes from where the last read ended; 0 only at the end.
  MERKLIZE_DECL std::size_t read_some(std::uint8_t *buffer, std::size_t capacity);

  // Reads until `bytes` bytes or the end of the stream; returns how many.
  MERKLIZE_DECL std::uint64_t read_full(std::uint8_t *buffer, std::uint64_t bytes);

  // Bytes [offset, offset + bytes) of a regular file, read by several threads; a file_error if
  // the file ends before them (it shrank).
  MERKLIZE_DECL void read_at(std::uint64_t offset, std::uint64_t bytes, std::uint8_t *into) const;

  // Refuses a regular file whose size changed since it was opened: one that grew or shrank
  // while it was read would give a tree of neither its old nor its new content.
  MERKLIZE_DECL void check_unchanged() const;

private:
  // Reads of a stream are at most this large, so progress moves and nothing waits too long.
  static constexpr std::uint64_t max_read = std::uint64_t(16) << 20;

  std::string name_;
  int fd_;
  bool owned_;
  std::optional<std::uint64_t> size_;
  unsigned threads_ = 0;
  progress_callback progress_;
  std::uint64_t done_ = 0;
  std::unique_ptr<detail::stream_prefetch> ahead_; // read_ahead on a stream
  std::unique_ptr<detail::file_advice> advice_;    // read_ahead on a file read at offsets
};

} // namespace merklize

#if !defined(MERKLIZE_SEPARATE_COMPILATION)
#include "input.ipp"
#endif
