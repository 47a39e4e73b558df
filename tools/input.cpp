// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "input.hpp"

#include "memory.hpp"
#include "progress.hpp"
#include "quote.hpp"
#include "sizes.hpp"

#include <merklize/core/tree.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cli {

input_error::input_error(const std::string &name, const std::string &action, int code)
    : merklize::file_error(quote(name), action, std::strerror(code), code) {}

library_input::library_input(const std::string &path, bool progress) {
  input_ = path == "-" ? std::make_unique<merklize::input>(STDIN_FILENO, "stdin")
                       : std::make_unique<merklize::input>(path, quote(path));
  meter_ = std::make_unique<progress_meter>(progress, path == "-" ? "stdin" : path, input_->size());
  input_->set_progress([this](std::uint64_t done) {
    meter_->add(done - read_);
    read_ = done;
  });
}

library_input::~library_input() = default;

void library_input::finish() { meter_->finish(); }

input_file::input_file(const std::string &path)
    : path_(path), name_(path == "-" ? "stdin" : path),
      fd_(path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) throw input_error(name_, "open", errno);
}

input_file::~input_file() {
  if (fd_ != STDIN_FILENO) ::close(fd_);
}

std::optional<std::uint64_t> input_file::size() const {
  struct stat info;
  if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return static_cast<std::uint64_t>(info.st_size);
}

std::size_t input_file::read_some(std::uint8_t *buffer, std::size_t capacity) {
  for (;;) {
    const ssize_t got = ::read(fd_, buffer, capacity);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw input_error(name_, "read", errno);
  }
}

namespace {

// "out of memory while reading "big" (8589934592 bytes, 8.0 GiB)": the file's size, or the
// buffer that could not be had for a stream.
merklize::error out_of_reading_memory(const std::string &name, std::optional<std::uint64_t> size,
                                      std::uint64_t wanted) {
  const std::uint64_t shown = size && wanted == *size + 1 ? *size : wanted;
  return out_of_memory("reading " + quote(name) + " (" + size_text(shown) + ")");
}

} // namespace

// Refuses an input past `limit` bytes, before reading on.
merklize::error past_limit(const std::string &name, const text_limit &limit) {
  return merklize::error(quote(name) + " is past the limit " + limit.what + " (" +
                         size_text(limit.bytes) + "): refused before reading on");
}

std::vector<std::uint8_t> read_input(const std::string &path, bool progress,
                                     const std::optional<text_limit> &limit) {
  // Reads of at most 16 MiB, so that --progress moves; buffers of a regular file's size (and the
  // byte of the read that finds its end), else doubling from 1 MiB; never more than a limit's
  // bytes and the one that shows the input past it.
  constexpr std::size_t read_bytes = std::size_t(16) << 20, first_buffer = std::size_t(1) << 20;
  input_file input(path);
  const std::optional<std::uint64_t> size = input.size();
  const std::uint64_t most = limit ? limit->bytes + 1 : UINT64_MAX;
  if (size && *size >= most) throw past_limit(input.name(), *limit);
  progress_meter meter(progress, input.name(), size);
  std::vector<std::uint8_t> data;
  std::uint64_t wanted = size ? *size + 1 : std::min<std::uint64_t>(first_buffer, most);
  try {
    for (std::size_t used = 0;;) {
      if (used == data.size()) {
        if (used >= most) throw past_limit(input.name(), *limit);
        wanted = std::max<std::uint64_t>(used == 0 ? wanted : 2 * used, used + 1);
        data.resize(static_cast<std::size_t>(std::min(wanted, most)));
      }
      const std::size_t got =
          input.read_some(data.data() + used, std::min(read_bytes, data.size() - used));
      if (got == 0) {
        data.resize(used);
        break;
      }
      used += got;
      meter.add(got);
    }
  } catch (const std::bad_alloc &) {
    throw out_of_reading_memory(input.name(), size, wanted);
  } catch (const std::length_error &) {
    throw out_of_reading_memory(input.name(), size, wanted);
  }
  meter.finish();
  return data;
}

void for_each_line(const std::string &path, const text_limit &line_limit,
                   const std::function<void(const std::string &)> &line) {
  input_file input(path);
  std::vector<std::uint8_t> buffer(std::size_t(1) << 16);
  std::string current;
  for (;;) {
    const std::size_t got = input.read_some(buffer.data(), buffer.size());
    for (std::size_t i = 0; i < got;) {
      const std::uint8_t *start = buffer.data() + i;
      const auto *end = static_cast<const std::uint8_t *>(std::memchr(start, '\n', got - i));
      const std::size_t run = end ? static_cast<std::size_t>(end - start) : got - i;
      if (current.size() + run > line_limit.bytes) throw past_limit(input.name(), line_limit);
      current.append(reinterpret_cast<const char *>(start), run);
      i += run;
      if (!end) break;
      if (!current.empty()) line(current);
      current.clear();
      ++i;
    }
    if (got == 0) break;
  }
  if (!current.empty()) line(current);
}

std::vector<std::uint8_t> read_leaves(const std::string &path, bool progress) {
  auto leaves = read_input(path, progress);
  check_leaves(path, leaves.size());
  return leaves;
}

void check_leaves(const std::string &path, std::uint64_t bytes) {
  try {
    merklize::leaf_count_of(bytes);
  } catch (const merklize::error &e) {
    throw merklize::error((path == "-" ? "stdin" : quote(path)) + ": " + e.what());
  }
}

void check_field_leaves(const std::string &path, const std::vector<std::uint8_t> &leaves,
                        merklize::hash_kind hash) {
  merklize::digest leaf;
  for (std::uint64_t i = 0; i < leaves.size() / merklize::node_bytes; ++i) {
    std::copy_n(leaves.data() + i * merklize::node_bytes, merklize::node_bytes, leaf.begin());
    const std::string why = merklize::leaf_refusal(hash, leaf, i);
    if (!why.empty())
      throw merklize::error((path == "-" ? "stdin" : quote(path)) + ": " + why + ", which --hash " +
                            merklize::to_string(hash) + " does not take");
  }
}

} // namespace cli
