// SPDX-License-Identifier: Apache-2.0 OR MIT
// Device buffers of the caller's, checked before use, and scratch buffers that grow on demand:
// shared by every device class (through device_runtime) and hash_layer.
#pragma once

#include "error.hpp"

#include <cstdint>
#include <string>

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
