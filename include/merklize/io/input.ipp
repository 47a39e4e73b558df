// SPDX-License-Identifier: Apache-2.0 OR MIT
// input.hpp's definitions: inline in header-only use, compiled once by <merklize/src.hpp>
// with MERKLIZE_SEPARATE_COMPILATION.
#pragma once

#include "input.hpp"

#include <algorithm>
#include <system_error>

namespace merklize {

MERKLIZE_DECL input::input(const std::string &path, std::string name)
    : name_(std::move(name)), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)), owned_(true) {
  if (fd_ < 0) detail::throw_file_error(name_, "open", errno);
  size_ = detail::regular_file_size(fd_);
  if (!size_) detail::widen_pipe(fd_);
}

MERKLIZE_DECL input::input(int fd, std::string name)
    : name_(std::move(name)), fd_(fd), owned_(false) {
  size_ = detail::regular_file_size(fd_);
  if (!size_) detail::widen_pipe(fd_);
}

MERKLIZE_DECL input::~input() {
  ahead_.reset(); // its thread reads the descriptor: stopped before it is closed
  advice_.reset();
  if (owned_) ::close(fd_);
}

MERKLIZE_DECL void input::read_ahead(std::uint64_t max_held) {
  const std::uint64_t held = max_held ? max_held : detail::default_read_ahead_bytes();
  if (size_ && !read_at_offsets()) return; // a regular file of 1 MiB or less: read at once anyway
  try {
    if (read_at_offsets()) {
      if (!advice_) advice_ = std::make_unique<detail::file_advice>(fd_, std::min(*size_, held));
    } else if (ahead_) {
      ahead_->set_max_held(held);
    } else {
      ahead_ = std::make_unique<detail::stream_prefetch>(fd_, name_, held);
    }
  } catch (const std::system_error &) { // no thread: read on the caller's, as without this
  }
}

MERKLIZE_DECL unsigned input::read_threads(std::uint64_t bytes) const {
  return detail::file_read_threads(bytes, threads_);
}

MERKLIZE_DECL std::size_t input::read_some(std::uint8_t *buffer, std::size_t capacity) {
  if (ahead_) return ahead_->read(buffer, capacity);
  return detail::read_some(fd_, name_, buffer, capacity);
}

MERKLIZE_DECL std::uint64_t input::read_full(std::uint8_t *buffer, std::uint64_t bytes) {
  std::uint64_t have = 0;
  while (have < bytes) {
    const std::size_t got = read_some(
        buffer + have, static_cast<std::size_t>(std::min<std::uint64_t>(bytes - have, max_read)));
    if (got == 0) break;
    have += got;
  }
  return have;
}

MERKLIZE_DECL void input::read_at(std::uint64_t offset, std::uint64_t bytes,
                                  std::uint8_t *into) const {
  if (!size_) throw file_error(name_, "read", "it is not a regular file, so it has no offsets");
  detail::parallel_file_reader reader(fd_, name_, *size_, read_threads(bytes));
  reader.request(into, offset, bytes);
  reader.wait_oldest();
}

MERKLIZE_DECL void input::check_unchanged() const {
  if (!size_) return;
  const auto now = detail::regular_file_size(fd_);
  if (now != size_)
    throw file_error(name_, "read",
                     "it changed size while it was read (" + std::to_string(*size_) +
                         " bytes when opened, " + (now ? std::to_string(*now) : "gone") + " now)");
}

} // namespace merklize
