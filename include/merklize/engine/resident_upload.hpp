// SPDX-License-Identifier: Apache-2.0 OR MIT
// A binary resident tree's batches on their way to the device (resident_tree.hpp), into scratch
// of its own kept from call to call, never into the tree. A batch in host memory goes up through
// page-locked staging (runtime/staged_upload.hpp, leaves first) while the host checks its
// indices, so that an index outside the tree is refused before the tree is written; a
// resident_batch (resident_batch.hpp) is written straight from its page-locked memory, nothing
// copied on the host, its indices left to the device to check. An append's leaves in host
// memory go up through the same staging, into the tree's own leaves.
#pragma once

#include "../plan/update_batch.hpp" // check_indices
#include "../runtime/error.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/runtime.hpp"
#include "../runtime/staged_upload.hpp"
#include "resident_batch.hpp"
#include "tree_updater.hpp" // update_events

#include <chrono>
#include <cstdint>
#include <future>

namespace merklize {
namespace detail {

class resident_upload {
public:
  // `count` indices and count x 32 bytes of leaves in host memory, for a tree of `leaves`
  // leaves, staged into indices() and values() on `queue`; the uploads and the host's times
  // recorded in `events`. An index outside the tree is refused once the uploads are enqueued.
  void from_host(const device_runtime &runtime, const cl::CommandQueue &queue, std::uint64_t leaves,
                 const std::uint64_t *indices, const void *new_leaves, std::uint64_t count,
                 update_events &events) {
    const auto start = clock_type::now();
    runtime.grow(values_, values_capacity_, count * node_bytes);
    runtime.grow(indices_, indices_capacity_, count * sizeof(cl_ulong));
    up_.begin(queue, count * (node_bytes + sizeof(cl_ulong)));
    // A large batch is checked on a thread of its own while this one stages the uploads (into
    // the tree's scratch, not the tree); the check's refusal is rethrown by get().
    std::future<double> checked =
        std::async(count >= parallel_check ? std::launch::async : std::launch::deferred, [=] {
          const auto at = clock_type::now();
          check_indices(leaves, indices, count);
          return ms_since(at);
        });
    up_.write(queue,
              {{values_, 0, new_leaves, count * node_bytes},
               {indices_, 0, indices, count * sizeof(cl_ulong)}},
              events.transfers);
    const auto uploaded = clock_type::now();
    events.check_ms = checked.get();
    events.upload_ms = ms_between(start, uploaded);
  }

  // The first `count` updates of `batch` written into indices() and values() straight from its
  // page-locked memory, the bus started on them; recorded in `events`.
  void from_batch(const device_runtime &runtime, const cl::CommandQueue &queue,
                  const resident_batch &batch, std::uint64_t count, update_events &events) {
    const auto start = clock_type::now();
    runtime.grow(values_, values_capacity_, count * node_bytes);
    runtime.grow(indices_, indices_capacity_, count * sizeof(cl_ulong));
    events.transfers.push_back(write(queue, values_, 0, count * node_bytes, batch.leaves()));
    events.transfers.push_back(
        write(queue, indices_, 0, count * sizeof(cl_ulong), batch.indices()));
    call("clFlush", [&] { return queue.flush(); }); // the bus starts on them now
    events.upload_ms = ms_since(start);
  }

  // `bytes` bytes of leaves in host memory written at byte `at` of `to` (an append's, into the
  // tree's leaves) through the staging; the writes recorded in `events`.
  void leaves(const cl::CommandQueue &queue, const cl::Buffer &to, std::uint64_t at,
              const void *from, std::uint64_t bytes, update_events &events) {
    up_.begin(queue, bytes);
    up_.write(queue, to, at, from, bytes, events.transfers);
  }

  // The last batch's indices (cl_ulong) and leaves, on the device.
  const cl::Buffer &indices() const { return indices_; }
  const cl::Buffer &values() const { return values_; }

  // Device memory the scratch holds: the largest batch's indices and leaves.
  std::uint64_t device_bytes() const { return indices_capacity_ + values_capacity_; }

private:
  // Batches of at least this many updates are checked on a thread of their own (a thread's
  // start, tens of microseconds, is small beside their check and staging).
  static constexpr std::uint64_t parallel_check = 1 << 15;
  using clock_type = std::chrono::steady_clock;

  static double ms_between(clock_type::time_point from, clock_type::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  }

  static cl::Event write(const cl::CommandQueue &queue, const cl::Buffer &to, std::uint64_t at,
                         std::uint64_t bytes, const void *from) {
    cl::Event done;
    call("clEnqueueWriteBuffer",
         [&] { return queue.enqueueWriteBuffer(to, CL_FALSE, at, bytes, from, nullptr, &done); });
    return done;
  }

  cl::Buffer indices_, values_; // a batch's indices and leaves
  staged_upload up_;            // pageable leaves and indices go up
  std::uint64_t indices_capacity_ = 0, values_capacity_ = 0;
};

} // namespace detail
} // namespace merklize
