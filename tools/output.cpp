// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "output.hpp"

#include "quote.hpp"

#include <merklize/io/replace_file.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace cli {
namespace {

[[noreturn]] void write_failed(const std::string &target, int code) {
  throw output_error(target, "write", std::strerror(code));
}

// An input's output is held up to this many bytes (held_output).
constexpr std::size_t held_in_memory = std::size_t(16) << 20;

// Whether `path` is the very file this process's stdout is (/dev/stdout, /dev/fd/1, a terminal,
// or the file stdout was redirected to): what goes there joins the stream, after what the
// command printed before it, where opening it anew would truncate or overwrite that.
bool is_own_stdout(const std::string &path) {
  struct stat out {
  }, named{};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &named) == 0 &&
         out.st_dev == named.st_dev && out.st_ino == named.st_ino;
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
  if (is_own_stdout(path)) return write_stdout(text);
  try {
    merklize::replace_file_options options;
    options.mode = 0666; // as the shell's > makes a file
    options.sync = true;
    options.as_cp = true; // a file that is there keeps its mode and owner, or is refused
    merklize::replace_file(path, text.data(), text.size(), options);
  } catch (const merklize::file_error &e) {
    throw output_error(quote(path), "write", e.reason(), e.code());
  }
}

void held_output::append(const void *data, std::size_t size) {
  if (!streaming_ && memory_.size() + size <= held_in_memory) {
    memory_.append(static_cast<const char *>(data), size);
    return;
  }
  streaming_ = true;
  release();
  write_stdout(data, size);
}

void held_output::release() {
  write_stdout(memory_);
  memory_.clear();
}

} // namespace cli
