// SPDX-License-Identifier: Apache-2.0 OR MIT
// Threads kept for staged_upload's copies (issue 31): started on the first large upload and
// reused by every one after, where starting and joining four threads a call cost 0.1-0.2 ms
// (PoCL's 2-core machine, 2026-11-26), a tenth of the 2 ms an update of 1% of 2^25 leaves has.
// A job runs on every worker at once (each told its number); the caller waits for all of them
// before it lets go of what they read.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace merklize {
namespace detail {

class copy_workers {
public:
  explicit copy_workers(unsigned count) {
    for (unsigned w = 0; w < count; ++w)
      threads_.emplace_back([this, w] { serve(w); });
  }

  copy_workers(const copy_workers &) = delete;
  copy_workers &operator=(const copy_workers &) = delete;

  ~copy_workers() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread &t : threads_)
      t.join();
  }

  unsigned count() const { return static_cast<unsigned>(threads_.size()); }

  // Starts job(w) on every worker w; wait() returns once all have returned. `job` must not
  // throw, and must outlive the wait.
  void start(const std::function<void(unsigned)> &job) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      running_ = count();
      ++round_;
    }
    wake_.notify_all();
  }

  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return running_ == 0; });
  }

private:
  void serve(unsigned w) {
    std::uint64_t seen = 0;
    for (;;) {
      const std::function<void(unsigned)> *job = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || round_ != seen; });
        if (stop_) return;
        seen = round_;
        job = job_;
      }
      (*job)(w);
      const std::lock_guard<std::mutex> lock(mutex_);
      if (--running_ == 0) done_.notify_all();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)> *job_ = nullptr;
  unsigned running_ = 0;
  std::uint64_t round_ = 0; // each start() a new round
  bool stop_ = false;
};

} // namespace detail
} // namespace merklize
