// SPDX-License-Identifier: Apache-2.0 OR MIT
// Page-locked memory for the trees that host builds return, reused from build to build. A tree's
// storage is handed out as a shared_ptr; when its last owner lets go, the memory goes back to the
// pool (if the pool is still there, and it holds fewer than `keep` idle buffers), so a program
// that builds one tree after another neither pins nor faults in fresh memory for each: the
// device reads and writes it at the bus's speed, with no staging and no copy but the leaves'.
#pragma once

#include "host_buffer.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace merklize {
namespace detail {

class host_pool {
public:
  host_pool(const cl::Context &context, const cl::CommandQueue &queue, std::size_t keep = 2)
      : state_(std::make_shared<state>(context, queue, keep)) {}

  // Page-locked memory of at least `bytes` bytes (an idle buffer no more than twice as large, else
  // a new one), held by the returned pointer and its copies.
  std::shared_ptr<std::uint8_t> take(std::uint64_t bytes) const {
    host_buffer buffer = state_->idle_buffer(bytes);
    if (!buffer.data()) buffer = host_buffer(state_->context, state_->queue, bytes);
    std::uint8_t *data = buffer.data();
    return {data, [buffer = std::move(buffer),
                   pool = std::weak_ptr<state>(state_)](std::uint8_t *) mutable {
              if (const auto alive = pool.lock()) alive->give_back(std::move(buffer));
            }};
  }

  // Frees the idle buffers (the memory in trees stays theirs).
  void clear() const {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    state_->idle.clear();
  }

private:
  struct state {
    state(const cl::Context &context_, const cl::CommandQueue &queue_, std::size_t keep_)
        : context(context_), queue(queue_), keep(keep_) {}

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
    cl::CommandQueue queue;
    std::size_t keep;
    std::mutex mutex;
    std::vector<host_buffer> idle;
  };
  std::shared_ptr<state> state_;
};

} // namespace detail
} // namespace merklize
