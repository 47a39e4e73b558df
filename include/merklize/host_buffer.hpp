// Page-locked host memory allocated by the library, for leaves and results that move between
// host and device at the bus's full speed.
//
// It is an OpenCL buffer created with CL_MEM_ALLOC_HOST_PTR and mapped for the whole of its life,
// which is how OpenCL drivers (NVIDIA's among them) hand out pinned memory: copies from and to it
// need no staging. Copies of a host_buffer share the same memory.
#pragma once

#include "error.hpp"

#include <cstdint>
#include <memory>

namespace merklize {

class host_buffer {
public:
  host_buffer() = default;

  host_buffer(const cl::Context &context, const cl::CommandQueue &queue, std::size_t bytes)
      : state_(std::make_shared<state>()) {
    if (bytes == 0) throw error("host_buffer: cannot allocate 0 bytes");
    state_->queue = queue;
    state_->buffer = detail::create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, err);
    });
    state_->data =
        static_cast<std::uint8_t *>(detail::create("clEnqueueMapBuffer", [&](cl_int *err) {
          return queue.enqueueMapBuffer(state_->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        bytes, nullptr, nullptr, err);
        }));
    state_->size = bytes;
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
