// SPDX-License-Identifier: Apache-2.0 OR MIT
// Host copies on several threads: one core cannot feed a PCIe 5 link, nor fault in fresh pages as
// fast as the device fills them. The threads are the process's copy workers, started on the first
// large copy and kept (parked on a condition variable) until exit: a build through the staging
// ring copies a few MiB a chunk, hundreds of times, where starting threads for each copy (some
// 15 us a thread) would cost more than the copy.
#pragma once

#include "../io/file_read.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace merklize {
namespace detail {

// A copy of `bytes` bytes from `from` to `to`; one of the runs a parallel copy spreads.
struct copy_run {
  std::uint8_t *to;
  const std::uint8_t *from;
  std::uint64_t bytes;
};

class copy_workers {
public:
  // The process's workers: host_threads() - 1 of them besides the caller.
  static copy_workers &shared() {
    static copy_workers workers(host_threads() - 1);
    return workers;
  }

  explicit copy_workers(unsigned helpers) {
    try {
      for (unsigned i = 0; i < helpers; ++i)
        threads_.emplace_back([this] { serve(); });
    } catch (const std::system_error &) { // fewer threads: the copies use those there are
    }
  }
  copy_workers(const copy_workers &) = delete;
  copy_workers &operator=(const copy_workers &) = delete;
  ~copy_workers() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread &t : threads_)
      t.join();
  }

  unsigned threads() const { return static_cast<unsigned>(threads_.size()) + 1; }

  // Runs task(0) .. task(n - 1) on the workers and this thread; returns once all are done. One
  // caller at a time: another thread's call meanwhile runs its tasks itself.
  void run(unsigned n, const std::function<void(unsigned)> &task) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock() || threads_.empty() || n < 2) {
      for (unsigned i = 0; i < n; ++i)
        task(i);
      return;
    }
    std::uint64_t job;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      task_ = &task;
      count_ = left_ = n;
      next_ = 0;
      job = ++generation_;
    }
    wake_.notify_all();
    work(job);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return left_ == 0; });
    task_ = nullptr;
  }

private:
  void serve() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
      }
      work(seen);
    }
  }

  // Takes tasks of job `job` until none is left (indices under the lock: a worker that wakes late
  // never takes a task of the next job as one of this one's).
  void work(std::uint64_t job) {
    for (;;) {
      unsigned i;
      const std::function<void(unsigned)> *task;
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (generation_ != job || next_ >= count_) return;
        i = next_++;
        task = task_;
      }
      (*task)(i);
      const std::lock_guard<std::mutex> lock(mutex_);
      if (--left_ == 0) done_.notify_one();
    }
  }

  std::mutex busy_;  // held by the caller of run
  std::mutex mutex_; // the job's fields below
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)> *task_ = nullptr;
  unsigned count_ = 0, left_ = 0, next_ = 0;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// Copies every run, the bytes of all of them cut into equal slices of whole pages, one a thread.
// Under 1 MiB in all, one memcpy each: the workers' wake-up costs more.
inline void parallel_copy(const std::vector<copy_run> &runs) {
  std::uint64_t total = 0;
  for (const copy_run &r : runs)
    total += r.bytes;
  copy_workers &workers = copy_workers::shared();
  const unsigned slices = total < (std::uint64_t(1) << 20) ? 1 : workers.threads();
  const std::uint64_t slice = (total / slices + 4095) / 4096 * 4096;
  workers.run(slices, [&](unsigned s) {
    // The bytes [s * slice, (s + 1) * slice) of the runs laid end to end.
    std::uint64_t begin = s * slice, end = std::min(total, begin + slice), at = 0;
    for (const copy_run &r : runs) {
      const std::uint64_t lo = std::max(begin, at), hi = std::min(end, at + r.bytes);
      if (lo < hi) std::memcpy(r.to + (lo - at), r.from + (lo - at), hi - lo);
      at += r.bytes;
    }
  });
}

inline void parallel_copy(std::uint8_t *to, const std::uint8_t *from, std::uint64_t bytes) {
  parallel_copy(std::vector<copy_run>{{to, from, bytes}});
}

} // namespace detail
} // namespace merklize
