// SPDX-License-Identifier: Apache-2.0 OR MIT
// A pipe whose write end a thread fills with bytes: an input of unknown length, as a reader of
// stdin sees it.
#pragma once

#include "host_helpers.hpp"

#include <merklize/io/input.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>

namespace test {

// How a pipe_input's writer cuts its bytes: `piece` bytes a write() (all at once by default);
// `trickled`: in writes of irregular sizes (1 byte to 1 MiB - 1), pausing now and then, so the
// reader sees short reads, waits, and block edges cut anywhere; `widened`: into a pipe widened to
// 1 MiB, as `cat` of a large file fills merklize's widened stdin, so reads arrive in large pieces.
struct pipe_writes {
  std::size_t piece = SIZE_MAX;
  bool trickled = false;
  bool widened = false;

  static pipe_writes in_pieces(std::size_t piece) { return {piece, false, false}; }
  static pipe_writes trickle() { return {SIZE_MAX, true, false}; }
  static pipe_writes widened_at_once() { return {SIZE_MAX, false, true}; }
};

// A pipe whose write end a thread fills with `bytes` and closes: the reader sees a stream of
// unknown length.
class pipe_input {
public:
  explicit pipe_input(std::vector<std::uint8_t> bytes, bool trickled = false,
                      const std::string &name = "the pipe")
      : pipe_input(std::move(bytes), trickled ? pipe_writes::trickle() : pipe_writes{}, name) {}

  pipe_input(std::vector<std::uint8_t> bytes, pipe_writes writes,
             const std::string &name = "the pipe")
      : bytes_(std::move(bytes)) {
    std::signal(SIGPIPE, SIG_IGN); // a reader that stops early fails the writer's write, no more
    REQUIRE(::pipe(fds_) == 0);
#ifdef F_SETPIPE_SZ
    if (writes.widened) (void)::fcntl(fds_[1], F_SETPIPE_SZ, 1 << 20);
#endif
    writer_ = std::thread([this, writes] { write_all(writes); });
    input_ = std::make_unique<merklize::input>(fds_[0], name);
  }
  ~pipe_input() {
    input_.reset(); // its read-ahead thread, if any, stops first: the writer then sees no reader
    ::close(fds_[0]);
    writer_.join();
  }
  merklize::input &get() { return *input_; }

private:
  void write_all(const pipe_writes &writes) {
    std::uint64_t state = 29;
    for (std::size_t at = 0; at < bytes_.size();) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const std::size_t sizes[] = {1, 31, 33, 4096, 65537, (std::size_t(1) << 20) - 1, 300000};
      const std::size_t want =
          std::min(writes.trickled ? sizes[(state >> 33) % 7] : writes.piece, bytes_.size() - at);
      const ssize_t put = ::write(fds_[1], bytes_.data() + at, want);
      if (put <= 0) break; // the reader closed early (a test of a failure)
      at += static_cast<std::size_t>(put);
      if (writes.trickled && (state >> 40) % 5 == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
    ::close(fds_[1]);
  }

  std::vector<std::uint8_t> bytes_;
  int fds_[2];
  std::thread writer_;
  std::unique_ptr<merklize::input> input_;
};

} // namespace test
