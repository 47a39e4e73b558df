// SPDX-License-Identifier: Apache-2.0 OR MIT
// Waiting for the work already enqueued when a call fails midway. Commands enqueued before the
// failure still run: kernels writing into a caller's memory (buffers made with
// CL_MEM_USE_HOST_PTR, as a CPU build in place does), reads without blocking into memory the call
// owns, uploads from staging. Unwinding frees that memory; the guard makes the unwinding wait
// for the queues first, so no command touches memory after it is freed.
//
//   detail::drain_on_unwind drained{queue, transfer}; // declared after what the work touches
//   ... enqueue, throw anywhere ...
#pragma once

#include "error.hpp"

#include <cstddef>
#include <exception>
#include <initializer_list>

namespace merklize {
namespace detail {

// Waits until every command of `queue` has finished. Never throws: it runs while an exception
// is on its way. A clFinish that fails says nothing about the commands (they may still run), so
// it is tried again; a driver that refuses it three times has lost the queue.
inline void drain(cl_command_queue queue) noexcept {
  if (!queue) return;
  for (int attempt = 0; attempt < 3; ++attempt)
    if (clFinish(queue) == CL_SUCCESS) return;
}

// Drains its queues when the scope it guards is left by an exception (and only then: a call
// that returns normally has waited for what it must). The queues must outlive it.
class drain_on_unwind {
public:
  drain_on_unwind(std::initializer_list<const cl::CommandQueue *> queues)
      : exceptions_(std::uncaught_exceptions()) {
    for (const cl::CommandQueue *q : queues)
      if (q && count_ < max_queues) queues_[count_++] = (*q)();
  }
  drain_on_unwind(const cl::CommandQueue &queue) : drain_on_unwind({&queue}) {}
  ~drain_on_unwind() {
    if (std::uncaught_exceptions() > exceptions_)
      for (std::size_t i = 0; i < count_; ++i)
        drain(queues_[i]);
  }
  drain_on_unwind(const drain_on_unwind &) = delete;
  drain_on_unwind &operator=(const drain_on_unwind &) = delete;

private:
  static constexpr std::size_t max_queues = 4;
  cl_command_queue queues_[max_queues] = {};
  std::size_t count_ = 0;
  int exceptions_;
};

} // namespace detail
} // namespace merklize
