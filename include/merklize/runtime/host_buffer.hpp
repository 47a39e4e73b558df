// SPDX-License-Identifier: Apache-2.0 OR MIT
// Page-locked host memory allocated by the library, for leaves and results that move between
// host and device at the bus's full speed.
//
// It is an OpenCL buffer created with CL_MEM_ALLOC_HOST_PTR and mapped for the whole of its life,
// which is how OpenCL drivers (NVIDIA's among them) hand out pinned memory: copies from and to it
// need no staging. Copies of a host_buffer share the same memory.
#pragma once

#include "error.hpp"

#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

namespace merklize {
namespace detail {

// Every live host_buffer's memory and context, so that code given a plain pointer (build_part)
// can tell page-locked memory from pageable memory, which must go through staging.
class page_locked_registry {
public:
  // Never destroyed: host_buffers held by static or global objects unregister at exit, after
  // a function-local static registry would already be gone.
  static page_locked_registry &instance() {
    static auto *registry = new page_locked_registry;
    return *registry;
  }

  void add(const std::uint8_t *data, std::size_t size, cl_context context) {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_[data] = {size, context};
  }
  void remove(const std::uint8_t *data) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_.erase(data);
  }

  // Whether [data, data + size) lies in one host_buffer of `context`.
  bool contains(const cl::Context &context, const void *data, std::uint64_t size) const {
    const auto *p = static_cast<const std::uint8_t *>(data);
    std::lock_guard<std::mutex> lock(mutex_);
    auto after = ranges_.upper_bound(p);
    if (after == ranges_.begin()) return false;
    const auto &[start, range] = *std::prev(after);
    return range.context == context() && std::uint64_t(p - start) + size <= range.size;
  }

private:
  struct range {
    std::size_t size;
    cl_context context;
  };
  mutable std::mutex mutex_;
  std::map<const std::uint8_t *, range> ranges_;
};

} // namespace detail

// Whether `size` bytes at `data` are in page-locked memory of `context` (a host_buffer's).
inline bool is_page_locked(const cl::Context &context, const void *data, std::uint64_t size) {
  return data && detail::page_locked_registry::instance().contains(context, data, size);
}

class host_buffer {
public:
  host_buffer() = default;

  host_buffer(const cl::Context &context, const cl::CommandQueue &queue, std::size_t bytes)
      : state_(std::make_shared<state>()) {
    if (bytes == 0) throw error("host_buffer: cannot allocate 0 bytes");
    state_->queue = queue;
    detail::in_step(
        [&] { return "allocating " + std::to_string(bytes) + " bytes of page-locked memory"; },
        [&] {
          state_->buffer = detail::create("clCreateBuffer", [&](cl_int *err) {
            return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr,
                              err);
          });
          state_->data =
              static_cast<std::uint8_t *>(detail::create("clEnqueueMapBuffer", [&](cl_int *err) {
                return queue.enqueueMapBuffer(state_->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                              0, bytes, nullptr, nullptr, err);
              }));
        });
    state_->size = bytes;
    detail::page_locked_registry::instance().add(state_->data, bytes, context());
  }

  std::uint8_t *data() const { return state_ ? state_->data : nullptr; }
  std::size_t size() const { return state_ ? state_->size : 0; }
  const cl::Buffer &buffer() const { return state_->buffer; }

  // A pointer to the memory that keeps it mapped and allocated while it lives.
  std::shared_ptr<std::uint8_t> share() const { return {state_, state_ ? state_->data : nullptr}; }

private:
  struct state {
    cl::CommandQueue queue;
    cl::Buffer buffer;
    std::uint8_t *data = nullptr;
    std::size_t size = 0;

    ~state() { // never throws: an unmap that fails leaves nothing to recover
      if (!data) return;
      detail::page_locked_registry::instance().remove(data);
      try {
        queue.enqueueUnmapMemObject(buffer, data);
        queue.finish();
      } catch (...) { // the bindings throw only where the includer enabled their exceptions
      }
    }
  };
  std::shared_ptr<state> state_;
};

} // namespace merklize
