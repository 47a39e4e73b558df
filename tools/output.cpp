// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "output.hpp"

#include "quote.hpp"

#include <merklize/detail/replace_file.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
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
  try {
    merklize::detail::replace_file(path, text.data(), text.size(), {0666, true});
  } catch (const merklize::file_error &e) {
    throw output_error(quote(path), "write", e.reason(), e.code());
  }
}

namespace {

constexpr std::size_t held_in_memory = std::size_t(16) << 20;

// An unnamed file in $TMPDIR (else /tmp): O_TMPFILE, or where that is missing a file unlinked
// as soon as it is made.
int unnamed_temporary_file() {
  const char *env = std::getenv("TMPDIR");
  const std::string dir = env && *env ? env : "/tmp";
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  std::string name = dir + "/merklize-output-XXXXXX";
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    throw output_error("a temporary file in " + quote(dir), "create", std::strerror(errno));
  ::unlink(name.c_str());
  return fd;
}

} // namespace

held_output::~held_output() {
  if (spool_ >= 0) ::close(spool_);
}

void held_output::append(const void *data, std::size_t size) {
  if (spool_ < 0 && memory_.size() + size <= held_in_memory) {
    memory_.append(static_cast<const char *>(data), size);
    return;
  }
  if (spool_ < 0) {
    spool_ = unnamed_temporary_file();
    write_all(spool_, "a temporary file", memory_.data(), memory_.size());
    spooled_ = memory_.size();
    memory_.clear();
  }
  write_all(spool_, "a temporary file", static_cast<const char *>(data), size);
  spooled_ += size;
}

void held_output::release() {
  if (spool_ >= 0) {
    std::string piece(std::min(spooled_, held_in_memory), '\0');
    for (off_t at = 0; at < static_cast<off_t>(spooled_);) {
      const ssize_t got = ::pread(spool_, piece.data(), piece.size(), at);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        throw output_error("a temporary file", "read", std::strerror(got ? errno : EIO));
      write_stdout(piece.data(), static_cast<std::size_t>(got));
      at += got;
    }
    ::close(spool_);
    spool_ = -1;
    spooled_ = 0;
  }
  write_stdout(memory_);
  memory_.clear();
}

} // namespace cli
