// SPDX-License-Identifier: Apache-2.0 OR MIT
// Inputs the library reads itself: a file named by its path, or a descriptor it is handed (stdin,
// a pipe). A regular file of more than 1 MiB is read as it is when opened, by several threads at
// once at known offsets (pread, straight into the memory that goes to the device); anything else
// is read as a stream, in large reads, to its end. Every failure is a file_error naming the input
// and giving the system's reason. No OpenCL.
#pragma once

#include "detail/file_read.hpp"
#include "error_type.hpp"

#include <cerrno>
#include <cstring>
#include <functional>
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
  input(const std::string &path, std::string name)
      : name_(std::move(name)), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)), owned_(true) {
    if (fd_ < 0) detail::throw_file_error(name_, "open", errno);
    size_ = detail::regular_file_size(fd_);
    if (!size_) detail::widen_pipe(fd_);
  }

  // An open descriptor, left open, named `name` in messages: stdin is input(0, "stdin").
  input(int fd, std::string name) : name_(std::move(name)), fd_(fd), owned_(false) {
    size_ = detail::regular_file_size(fd_);
    if (!size_) detail::widen_pipe(fd_);
  }

  input(const input &) = delete;
  input &operator=(const input &) = delete;
  ~input() {
    if (owned_) ::close(fd_);
  }

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
  unsigned read_threads(std::uint64_t bytes) const {
    return detail::file_read_threads(bytes, threads_);
  }

  void set_progress(progress_callback progress) { progress_ = std::move(progress); }
  // Reports `bytes` more read (the readers call this once a piece is in).
  void add_progress(std::uint64_t bytes) {
    done_ += bytes;
    if (progress_) progress_(done_);
  }

  // A stream: up to `capacity` bytes from where the last read ended; 0 only at the end.
  std::size_t read_some(std::uint8_t *buffer, std::size_t capacity) {
    return detail::read_some(fd_, name_, buffer, capacity);
  }

  // Reads until `bytes` bytes or the end of the stream; returns how many.
  std::uint64_t read_full(std::uint8_t *buffer, std::uint64_t bytes) {
    std::uint64_t have = 0;
    while (have < bytes) {
      const std::size_t got = read_some(
          buffer + have, static_cast<std::size_t>(std::min<std::uint64_t>(bytes - have, max_read)));
      if (got == 0) break;
      have += got;
    }
    return have;
  }

  // Bytes [offset, offset + bytes) of a regular file, read by several threads; a file_error if
  // the file ends before them (it shrank).
  void read_at(std::uint64_t offset, std::uint64_t bytes, std::uint8_t *into) const {
    if (!size_) throw file_error(name_, "read", "it is not a regular file, so it has no offsets");
    detail::parallel_file_reader reader(fd_, name_, *size_, read_threads(bytes));
    reader.request(into, offset, bytes);
    reader.wait_oldest();
  }

  // Refuses a regular file whose size changed since it was opened: one that grew or shrank
  // while it was read would give a tree of neither its old nor its new content.
  void check_unchanged() const {
    if (!size_) return;
    const auto now = detail::regular_file_size(fd_);
    if (now != size_)
      throw file_error(name_, "read",
                       "it changed size while it was read (" + std::to_string(*size_) +
                           " bytes when opened, " + (now ? std::to_string(*now) : "gone") +
                           " now)");
  }

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
};

} // namespace merklize
