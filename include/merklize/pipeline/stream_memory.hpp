// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a streaming host build runs on, kept by its merkleizer from build to build: three
// in-order queues (uploads, kernels, downloads, so the three overlap), the device memory of the
// chunks in flight and of the upper levels, and page-locked staging for host memory that is not
// page-locked. Everything grows on demand and is reused.
#pragma once

#include "../io/file_read.hpp"
#include "../plan/stream_plan.hpp"
#include "../runtime/host_buffer.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/runtime.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace merklize {
namespace detail {

struct stream_queues {
  cl::CommandQueue kernels, uploads, downloads;

  explicit stream_queues(const device_runtime &runtime)
      : kernels(runtime.make_queue()), uploads(runtime.make_queue()),
        downloads(runtime.make_queue()) {}
};

// Copies with several threads: one core cannot feed a PCIe 5 link, nor fault in fresh pages as
// fast as the device fills them.
inline void parallel_copy(std::uint8_t *dst, const std::uint8_t *src, std::uint64_t bytes) {
  const std::uint64_t threads = bytes < (std::uint64_t(8) << 20) ? 1 : host_threads();
  if (threads == 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const std::uint64_t slice = (bytes / threads + 4095) / 4096 * 4096;
  std::vector<std::thread> pool;
  for (std::uint64_t at = slice; at < bytes; at += slice)
    pool.emplace_back([=] { std::memcpy(dst + at, src + at, std::min(slice, bytes - at)); });
  std::memcpy(dst, src, std::min(slice, bytes));
  for (auto &thread : pool)
    thread.join();
}

// Page-locked buffers by index, for copies from and to pageable memory: the driver's own
// pageable path is many times slower than the bus (about 1.3 GB/s on an H200).
class staging_ring {
public:
  staging_ring(const cl::Context &context, const cl::CommandQueue &queue)
      : context_(context), queue_(queue) {}

  // Buffer `index`, holding at least `bytes` bytes.
  std::uint8_t *at(std::size_t index, std::uint64_t bytes) {
    if (buffers_.size() <= index) buffers_.resize(index + 1);
    if (buffers_[index].size() < bytes) {
      buffers_[index] = host_buffer(); // the old one first: both may not fit at once
      buffers_[index] = host_buffer(context_, queue_, bytes);
    }
    return buffers_[index].data();
  }

private:
  cl::Context context_;
  cl::CommandQueue queue_;
  std::vector<host_buffer> buffers_;
};

// The device memory of a stream: a slot (leaves and lower levels) per chunk in flight, and the
// upper levels in tree layout; and the staging of leaves on their way up and of nodes on their
// way down.
class stream_memory {
public:
  struct slot {
    cl::Buffer leaves, nodes;
    std::uint64_t leaves_bytes = 0, nodes_bytes = 0;
  };

  stream_memory(device_runtime runtime, const stream_queues &queues)
      : runtime_(std::move(runtime)), up_(runtime_.context(), queues.uploads),
        down_(runtime_.context(), queues.downloads) {}

  void reserve(const stream_plan &p) {
    runtime_.grow(upper_, upper_bytes_, std::max<std::uint64_t>(1, p.upper_nodes) * node_bytes);
    slots_.resize(std::max<std::size_t>(slots_.size(), p.slots));
    for (unsigned i = 0; i < p.slots; ++i) {
      runtime_.grow(slots_[i].leaves, slots_[i].leaves_bytes, p.slot_leaves * node_bytes);
      runtime_.grow(slots_[i].nodes, slots_[i].nodes_bytes,
                    std::max<std::uint64_t>(1, p.slot_nodes) * node_bytes);
    }
  }

  const slot &slot_for(std::uint64_t c, const stream_plan &p) const { return slots_[c % p.slots]; }
  const cl::Buffer &upper() const { return upper_; }
  staging_ring &up() { return up_; }
  staging_ring &down() { return down_; }

private:
  device_runtime runtime_;
  std::vector<slot> slots_;
  cl::Buffer upper_;
  std::uint64_t upper_bytes_ = 0;
  staging_ring up_, down_;
};

// What the pipeline, its leaf source and its node sink share during one build.
struct stream_context {
  const stream_plan &plan;
  stream_queues &queues;
  stream_memory &memory;
  event_log &log;
};

} // namespace detail
} // namespace merklize
