// SPDX-License-Identifier: Apache-2.0 OR MIT
// The process's worker threads: host copies on several threads, since one core cannot feed a
// PCIe 5 link (runtime/staged_upload.hpp), and the host's cores hashing a resident tree's update
// (engine/host_updater.hpp). Started on first use and kept (parked on a condition variable)
// until exit: an update of 1% of 2^25 leaves has 2 ms in all on a GPU and ~10 ms on 16 cores,
// where starting and joining threads for each job (15-100 us a thread; ~2 ms for three jobs of
// 16 threads on the GPU machine's cores) would cost a tenth or more of it.
#pragma once

#include "../io/file_read.hpp" // host_threads

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

class worker_pool {
public:
  // The process's copy workers: host_threads() - 1 of them (the caller enqueues meanwhile).
  static worker_pool &shared() {
    static worker_pool workers(host_threads() - 1);
    return workers;
  }

  // The process's hashing workers: one a core besides the caller's (the copies keep to fewer:
  // more threads than host_threads() do not copy faster).
  static worker_pool &cores() {
    static worker_pool workers(std::max(1u, std::thread::hardware_concurrency()) - 1);
    return workers;
  }

  explicit worker_pool(unsigned helpers) {
    try {
      for (unsigned i = 0; i < helpers; ++i)
        threads_.emplace_back([this] { serve(); });
    } catch (const std::system_error &) { // fewer threads: the copies use those there are
    }
  }
  worker_pool(const worker_pool &) = delete;
  worker_pool &operator=(const worker_pool &) = delete;
  ~worker_pool() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread &t : threads_)
      t.join();
  }

  // A job started by start(): wait() (or the destructor) returns once its tasks are done.
  class started {
  public:
    started(worker_pool *workers, std::unique_lock<std::mutex> busy, std::uint64_t job)
        : workers_(workers), busy_(std::move(busy)), job_(job) {}
    started(started &&) = default;
    ~started() { wait(); }
    void wait() {
      if (!busy_.owns_lock()) return;
      std::unique_lock<std::mutex> lock(workers_->mutex_);
      workers_->done_.wait(lock, [&] { return workers_->left_ == 0; });
      workers_->task_ = nullptr;
      lock.unlock();
      busy_.unlock();
    }

    // This thread takes tasks of the job too, until none is left to take (where the tasks ran
    // in start, none is).
    void help() {
      if (busy_.owns_lock()) workers_->work(job_);
    }

  private:
    worker_pool *workers_;
    std::unique_lock<std::mutex> busy_;
    std::uint64_t job_;
  };

  // Starts task(0) .. task(n - 1) on the workers alone, for a caller with other work meanwhile
  // (staged_upload enqueues each piece as it lands), and returns; `task` must outlive the
  // returned job's wait. Where there are no workers, or another caller's job holds them, the
  // tasks run here before this returns.
  started start(unsigned n, const std::function<void(unsigned)> &task) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock() || threads_.empty()) {
      for (unsigned i = 0; i < n; ++i)
        task(i);
      return started(this, std::unique_lock<std::mutex>(), 0);
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
    return started(this, std::move(busy), job);
  }

  // task(0) .. task(n - 1) on the workers and this thread, returned once all are done: for
  // `threads()` + 1 tasks of equal work, one each. Where another caller's job holds the workers,
  // the tasks run here. A task must not throw (nothing on a worker would catch it).
  void run(unsigned n, const std::function<void(unsigned)> &task) {
    started job = start(n, task);
    job.help();
    job.wait();
  }

  // The workers (besides the caller's thread).
  unsigned threads() const { return static_cast<unsigned>(threads_.size()); }

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

  std::mutex busy_;  // held by the caller of start, until its job's wait
  std::mutex mutex_; // the job's fields below
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)> *task_ = nullptr;
  unsigned count_ = 0, left_ = 0, next_ = 0;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// work(s) for s < slices on the process's hashing workers and this thread, where a pure pass
// takes a `parallel(slices, work)` (sort_batch_into, group_by_block). A class: see serially's
// note (plan/update_batch.hpp).
struct on_cores {
  template <class Work> void operator()(unsigned slices, const Work &work) const {
    if (slices == 1) return work(0);
    worker_pool::cores().run(slices, work);
  }
};

// Slices of a batch of `count` updates sorted and copied on the host's cores: one a core from
// 2^15 updates (fewer: one, on this thread, below a worker's wake-up cost).
inline unsigned batch_slices(std::uint64_t count) {
  return count < (1u << 15) ? 1 : worker_pool::cores().threads() + 1;
}

} // namespace detail
} // namespace merklize
