// SPDX-License-Identifier: Apache-2.0 OR MIT
// A pipe whose write end a thread fills with bytes: an input of unknown length, as a reader of
// stdin sees it.
#pragma once

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <memory>
#include <thread>
#include <unistd.h>

namespace test {

// A pipe whose write end a thread fills with `bytes` and closes: the reader sees a stream of
// unknown length.
class pipe_input {
public:
  explicit pipe_input(std::vector<std::uint8_t> bytes) : bytes_(std::move(bytes)) {
    std::signal(SIGPIPE, SIG_IGN); // a reader that stops early fails the writer's write, no more
    REQUIRE(::pipe(fds_) == 0);
    writer_ = std::thread([this] {
      for (std::size_t at = 0; at < bytes_.size();) {
        const ssize_t put = ::write(fds_[1], bytes_.data() + at, bytes_.size() - at);
        if (put <= 0) break; // the reader closed early (a test of a failure)
        at += static_cast<std::size_t>(put);
      }
      ::close(fds_[1]);
    });
    input_ = std::make_unique<merklize::input>(fds_[0], "the pipe");
  }
  ~pipe_input() {
    input_.reset(); // its read-ahead thread, if any, stops first: the writer then sees no reader
    ::close(fds_[0]);
    writer_.join();
  }
  merklize::input &get() { return *input_; }

private:
  std::vector<std::uint8_t> bytes_;
  int fds_[2];
  std::thread writer_;
  std::unique_ptr<merklize::input> input_;
};

} // namespace test
