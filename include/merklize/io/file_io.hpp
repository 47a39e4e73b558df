// SPDX-License-Identifier: Apache-2.0 OR MIT
// Whole-file reads and plain writes for the ahead-of-time kernels and the program cache, with
// the system's reason in every error (whole-file writes: replace_file.hpp).
#pragma once

#include "../core/error_type.hpp"

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace merklize {
namespace detail {

inline std::string system_reason(int code) { return std::generic_category().message(code); }

// A file descriptor, closed when this goes.
class fd_guard {
public:
  explicit fd_guard(int fd) : fd_(fd) {}
  ~fd_guard() {
    if (fd_ >= 0) ::close(fd_);
  }
  fd_guard(const fd_guard &) = delete;
  fd_guard &operator=(const fd_guard &) = delete;
  int get() const { return fd_; }
  // Closes it now, returning close()'s error (0 if none): a write may fail only there.
  int close() {
    const int result = ::close(fd_) == 0 ? 0 : errno;
    fd_ = -1;
    return result;
  }

private:
  int fd_;
};

// What a file that is not a regular one is, for messages.
inline const char *file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// The whole of a regular file of at most `max_bytes`; anything else (a directory, a FIFO, a
// device) is refused without reading, so a read can neither block nor run without end.
inline std::vector<unsigned char> read_file(const std::filesystem::path &path,
                                            std::uintmax_t max_bytes = UINTMAX_MAX) {
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer; regular files ignore it.
  fd_guard fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) throw error("cannot open " + path.string() + ": " + system_reason(errno));
  struct stat status {};
  if (::fstat(fd.get(), &status) != 0)
    throw error("cannot read " + path.string() + ": " + system_reason(errno));
  if (!S_ISREG(status.st_mode))
    throw error("cannot read " + path.string() + ": it is " + file_type_name(status.st_mode));
  if (static_cast<std::uintmax_t>(status.st_size) > max_bytes)
    throw error("cannot read " + path.string() + ": it is " + std::to_string(status.st_size) +
                " bytes, more than " + std::to_string(max_bytes));
  std::vector<unsigned char> bytes(static_cast<std::size_t>(status.st_size));
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw error("cannot read " + path.string() + ": " + system_reason(errno));
    if (n == 0) break; // it shrank since fstat: what is there is the file
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

// Writes all of `data` to `fd`; returns errno on failure, else 0.
inline int write_all(int fd, const unsigned char *data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

} // namespace detail
} // namespace merklize
