// SPDX-License-Identifier: Apache-2.0 OR MIT
// Device buffers of the caller's, checked before use (and a batch's indices found bad by the
// device, refused), and scratch buffers that grow on demand: shared by every device class
// (through device_runtime), hash_layer and the resident trees.
#pragma once

#include "../plan/update_batch.hpp" // index_out_of_range
#include "error.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

// Refuses a buffer of another context than `context`, or one smaller than `needed` bytes, with a
// message naming the buffer (`what`), the object that refuses it (`owner`) and what needs the
// bytes (`purpose`).
inline void check_buffer(const cl::Context &context, const cl::Buffer &buffer, const char *what,
                         std::uint64_t needed, const char *owner, const char *purpose) {
  std::size_t size = 0;
  cl_context buffer_context = nullptr;
  call("clGetMemObjectInfo", [&] { return buffer.getInfo(CL_MEM_SIZE, &size); });
  call("clGetMemObjectInfo", [&] { return buffer.getInfo(CL_MEM_CONTEXT, &buffer_context); });
  if (buffer_context != context())
    throw error(std::string(what) + " buffer belongs to another OpenCL context than the " + owner +
                "'s; give buffers of the " + owner + "'s context");
  if (size < needed)
    throw error(std::string(what) + " buffer too small: it holds " + std::to_string(size) +
                " bytes, the " + purpose + " needs " + std::to_string(needed));
}

// `count` indices (cl_ulong) of the caller's buffer from index `first`, read back once the device
// is done with `wait`, blocking.
inline std::vector<std::uint64_t> read_indices(const cl::CommandQueue &queue,
                                               const cl::Buffer &indices, std::uint64_t first,
                                               std::uint64_t count,
                                               const std::vector<cl::Event> &wait = {}) {
  std::vector<std::uint64_t> read(static_cast<std::size_t>(count));
  call("clEnqueueReadBuffer", [&] {
    return queue.enqueueReadBuffer(indices, CL_TRUE, first * sizeof(cl_ulong),
                                   count * sizeof(cl_ulong), read.data(),
                                   wait.empty() ? nullptr : &wait);
  });
  return read;
}

// Refuses update `k` of a batch of `count` in the caller's buffer `indices`, whose index the
// device found outside a tree of `leaf_count` leaves, naming it (read back).
[[noreturn]] inline void refuse_device_index(const cl::CommandQueue &queue,
                                             const cl::Buffer &indices, std::uint64_t k,
                                             std::uint64_t count, std::uint64_t leaf_count) {
  throw index_out_of_range(k, count, read_indices(queue, indices, k, 1).front(), leaf_count);
}

// Makes `buffer` hold at least `needed` bytes, reallocating only to grow.
inline void grow_buffer(const cl::Context &context, cl::Buffer &buffer, std::uint64_t &capacity,
                        std::uint64_t needed) {
  if (needed <= capacity) return;
  buffer = cl::Buffer(); // release the old one first: both may not fit at once
  capacity = 0;
  buffer = create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(context, CL_MEM_READ_WRITE, needed, nullptr, err);
  });
  capacity = needed;
}

} // namespace detail
} // namespace merklize
