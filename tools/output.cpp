// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "output.hpp"

#include "quote.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace cli {
namespace {

[[noreturn]] void write_failed(const std::string &target, int code) {
  throw output_error(target, "write", std::strerror(code));
}

void write_all(int fd, const std::string &target, const char *data, std::size_t size) {
  while (size > 0) {
    const ssize_t wrote = ::write(fd, data, size);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) write_failed(target, errno);
    data += wrote;
    size -= static_cast<std::size_t>(wrote);
  }
}

} // namespace

void write_stdout(const void *data, std::size_t size) {
  if (size > 0 && std::fwrite(data, 1, size, stdout) != size) write_failed("stdout", errno);
}

void close_stdout() {
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  const int code = errno;
  if (std::fclose(stdout) != 0 && !failed) write_failed("stdout", errno);
  // A write error of an earlier, automatic flush leaves no errno here: say what can be said.
  if (failed) write_failed("stdout", code ? code : EIO);
}

void write_file_replacing(const std::string &path, std::string_view text) {
  static std::atomic<unsigned> counter{0};
  const std::string target = quote(path);
  const std::string temp =
      path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) write_failed(target, errno);
  try {
    write_all(fd, target, text.data(), text.size());
    if (::fsync(fd) != 0) write_failed(target, errno);
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0) write_failed(target, errno);
    if (std::rename(temp.c_str(), path.c_str()) != 0) write_failed(target, errno);
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
}

} // namespace cli
