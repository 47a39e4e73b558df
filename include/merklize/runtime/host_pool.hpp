// SPDX-License-Identifier: Apache-2.0 OR MIT
// Page-locked memory for the trees that host builds return, reused from build to build. A tree's
// storage is handed out as a shared_ptr; when its last owner lets go, the memory goes back to the
// pool (if the pool is still there, and it holds fewer than `keep` idle buffers), so a program
// that builds one tree after another neither pins nor faults in fresh memory for each: the
// device reads and writes it at the bus's speed, with no staging and no copy but the leaves'.
//
// Nothing is pinned on a build's path. Pinning a buffer of a build's size costs the driver far
// more than the build (an H100's driver pins 2 GiB in about 1 s, where a build of 2^25 leaves
// from pinned memory takes 42-53 ms), so a build that finds no idle buffer takes ordinary memory
// (plain_memory) and streams through a small page-locked staging ring instead, and the pool
// pins buffers of that build's sizes on a thread of its own once the same sizes miss a second
// time: a program that builds once pins nothing, one that builds again and again gets its
// page-locked trees from then on.
#pragma once

#include "host_buffer.hpp"
#include "runtime.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace merklize {
namespace detail {

// Ordinary memory of `bytes` bytes, uninitialised. Large runs are aligned to 2 MiB and, on Linux,
// advised into transparent huge pages: the first touch then faults 2 MiB at a time, not 4 KiB,
// which is most of the cost of writing fresh memory.
inline std::shared_ptr<std::uint8_t> plain_memory(std::uint64_t bytes) {
  constexpr std::uint64_t huge = std::uint64_t(2) << 20;
  if (bytes < huge) return {new std::uint8_t[bytes], std::default_delete<std::uint8_t[]>()};
  const std::uint64_t rounded = (bytes + huge - 1) / huge * huge;
  void *memory = std::aligned_alloc(huge, rounded);
  if (!memory) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  (void)madvise(memory, rounded, MADV_HUGEPAGE); // advice only: plain pages where refused
#endif
  return {static_cast<std::uint8_t *>(memory), [](std::uint8_t *p) { std::free(p); }};
}

class host_pool {
public:
  host_pool(const cl::Context &context, const cl::Device &device, std::size_t keep = 2)
      : state_(std::make_shared<state>(context, device, keep)),
        pinner_(std::make_shared<background>()) {}

  // Idle page-locked memory of at least `bytes` bytes (no more than twice as large), held by the
  // returned pointer and its copies; null where none is idle.
  std::shared_ptr<std::uint8_t> take(std::uint64_t bytes) const {
    host_buffer buffer = state_->idle_buffer(bytes);
    if (!buffer.data()) return nullptr;
    std::uint8_t *data = buffer.data();
    return {data, [buffer = std::move(buffer),
                   pool = std::weak_ptr<state>(state_)](std::uint8_t *) mutable {
              if (const auto alive = pool.lock()) alive->give_back(std::move(buffer));
            }};
  }

  // A build found no idle buffer for these sizes. The second time in a row that the same sizes
  // miss, and no pinning is under way, a thread pins a buffer of each and leaves it idle.
  void missed(const std::vector<std::uint64_t> &sizes) {
    const bool again = sizes == last_missed_;
    last_missed_ = sizes;
    if (!again || !pinner_->idle()) return;
    pinner_->start([pool = state_, sizes] {
      try {
        const cl::CommandQueue queue = make_queue(pool->context, pool->device);
        for (const std::uint64_t bytes : sizes) {
          host_buffer buffer(pool->context, queue, static_cast<std::size_t>(bytes));
          touch_pages(buffer);
          pool->give_back(std::move(buffer));
        }
      } catch (...) { // out of page-locked memory: the builds stay on ordinary memory
      }
    });
  }

  // Frees the idle buffers (the memory in trees stays theirs), once any pinning is done.
  void clear() const {
    pinner_->join();
    const std::lock_guard<std::mutex> lock(state_->mutex);
    state_->idle.clear();
  }

private:
  // Writes a byte of each page: where a driver's page-locked memory is only allocated, not yet
  // faulted in (PoCL's), the faults happen here rather than in the build that first uses it.
  static void touch_pages(const host_buffer &buffer) {
    for (std::size_t at = 0; at < buffer.size(); at += 4096)
      buffer.data()[at] = 0;
  }

  struct state {
    state(const cl::Context &context_, const cl::Device &device_, std::size_t keep_)
        : context(context_), device(device_), keep(keep_) {}

    host_buffer idle_buffer(std::uint64_t bytes) {
      const std::lock_guard<std::mutex> lock(mutex);
      const auto fits = std::find_if(idle.begin(), idle.end(), [&](const host_buffer &b) {
        return b.size() >= bytes && b.size() / 2 <= bytes;
      });
      if (fits == idle.end()) return {};
      host_buffer found = std::move(*fits);
      idle.erase(fits);
      return found;
    }

    void give_back(host_buffer buffer) {
      const std::lock_guard<std::mutex> lock(mutex);
      if (idle.size() < keep) idle.push_back(std::move(buffer));
    }

    cl::Context context;
    cl::Device device;
    std::size_t keep;
    std::mutex mutex;
    std::vector<host_buffer> idle;
  };

  // The pinning thread, joined by the last copy of the pool (a merkleizer's destructor waits for
  // a pinning under way rather than leave a thread in the driver at exit).
  class background {
  public:
    background() = default;
    background(const background &) = delete;
    background &operator=(const background &) = delete;
    ~background() { join(); }

    bool idle() {
      if (thread_.joinable() && done_->load(std::memory_order_acquire)) thread_.join();
      return !thread_.joinable();
    }
    template <class Work> void start(Work work) {
      auto done = std::make_shared<std::atomic<bool>>(false);
      try {
        thread_ = std::thread([work = std::move(work), done] {
          work();
          done->store(true, std::memory_order_release);
        });
        done_ = std::move(done);
      } catch (
          const std::system_error &) { // no thread: nothing is pinned, builds go on as they are
      }
    }
    void join() {
      if (thread_.joinable()) thread_.join();
    }

  private:
    std::thread thread_;
    std::shared_ptr<std::atomic<bool>> done_ = std::make_shared<std::atomic<bool>>(true);
  };

  std::shared_ptr<state> state_;
  std::shared_ptr<background> pinner_;
  std::vector<std::uint64_t> last_missed_;
};

} // namespace detail
} // namespace merklize
