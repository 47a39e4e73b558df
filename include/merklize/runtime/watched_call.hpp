// SPDX-License-Identifier: Apache-2.0 OR MIT
// A driver call that may never return, watched. Short of address space, PoCL (3.1) can deadlock
// in clBuildProgram: an allocation fails inside its compiler and a lock of the program's is never
// released. The library watches builds there, and every load of a cache entry's binary. A thread
// that compiles uses CPU time all along; one stuck on a lock uses none. So the call runs on a
// thread of its own while the caller watches that thread's CPU clock, and a call that has used none
// for `stall` is given up as deadlocked: the caller gets an error within seconds instead of a hang.
// The stuck thread cannot be ended: it is left blocked (it owns copies of what it uses), and the
// driver is not to be used again in that process.
#pragma once

#include "../core/error_type.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include <pthread.h>
#include <time.h>

namespace merklize {
namespace detail {

// A driver call given up as deadlocked.
struct stalled_call : error {
  using error::error;
};

inline std::chrono::nanoseconds thread_cpu_time(clockid_t clock) {
  timespec t{};
  if (::clock_gettime(clock, &t) != 0) return std::chrono::nanoseconds::max(); // it has ended
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

// Runs `work` (which must own what it uses: it may outlive this call) and passes on what it
// throws; throws stalled_call naming `what` once it has used no CPU time for `stall`.
template <class Work>
void run_watched(Work work, std::chrono::milliseconds stall, const std::string &what) {
  struct state {
    std::mutex mutex;
    std::condition_variable changed;
    bool done = false;
    std::exception_ptr failure;
  };
  const auto shared = std::make_shared<state>();
  std::thread worker;
  try {
    worker = std::thread([shared, work]() mutable {
      std::exception_ptr failure;
      try {
        work();
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(shared->mutex);
      shared->failure = failure;
      shared->done = true;
      shared->changed.notify_all();
    });
  } catch (const std::system_error &e) {
    throw error("cannot start a thread to watch " + what + ": " + e.what());
  }
  clockid_t clock{};
  const bool clocked = ::pthread_getcpuclockid(worker.native_handle(), &clock) == 0;
  auto used = clocked ? thread_cpu_time(clock) : std::chrono::nanoseconds::max();
  auto progressed = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(shared->mutex);
  while (!shared->changed.wait_for(lock, std::chrono::milliseconds(100),
                                   [&] { return shared->done; })) {
    const auto now_used = clocked ? thread_cpu_time(clock) : used;
    if (!clocked || now_used != used) progressed = std::chrono::steady_clock::now();
    used = now_used;
    if (std::chrono::steady_clock::now() - progressed > stall) {
      worker.detach();
      throw stalled_call(what + " made no progress for " + std::to_string(stall.count() / 1000) +
                         " s: the driver is stuck on a lock (PoCL's, when memory ran out)");
    }
  }
  lock.unlock();
  worker.join();
  if (shared->failure) std::rethrow_exception(shared->failure);
}

} // namespace detail
} // namespace merklize
