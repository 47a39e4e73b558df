// SPDX-License-Identifier: Apache-2.0 OR MIT
// Setting a kernel's arguments and launching it: the one way every device class of the library
// does both, so that a failure names the kernel, the argument and the error the same way.
#pragma once

#include "device.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

inline std::string kernel_name(const cl::Kernel &kernel) {
  std::string name;
  if (clGetKernelInfo(kernel(), CL_KERNEL_FUNCTION_NAME, 0, nullptr, nullptr) != CL_SUCCESS)
    return "a kernel";
  call("clGetKernelInfo", [&] { return kernel.getInfo(CL_KERNEL_FUNCTION_NAME, &name); });
  return trimmed(name);
}

template <class T> cl_int set_arg(cl::Kernel &kernel, cl_uint index, const T &value) {
#ifdef CL_HPP_ENABLE_EXCEPTIONS
  try {
    return kernel.setArg(index, value);
  } catch (const cl::Error &e) {
    return e.err();
  }
#else
  return kernel.setArg(index, value);
#endif
}

// Sets arguments 0, 1, ... of `kernel` to `args`; the first that fails is reported by its index
// and error (the others are not tried: OR-ing the codes together would report a wrong error).
template <class... Args> void set_args(cl::Kernel &kernel, const Args &...args) {
  cl_uint index = 0;
  cl_int err = CL_SUCCESS;
  ((err = err == CL_SUCCESS ? set_arg(kernel, index++, args) : err), ...);
  if (err != CL_SUCCESS)
    throw opencl_error(err, "clSetKernelArg",
                       kernel_name(kernel) + ", argument " + std::to_string(index - 1));
}

// The largest work-group `kernel` can run with on `device`.
inline std::size_t work_group_limit(const cl::Kernel &kernel, const cl::Device &device) {
  std::size_t limit = 0;
  call("clGetKernelWorkGroupInfo",
       [&] { return kernel.getWorkGroupInfo(device, CL_KERNEL_WORK_GROUP_SIZE, &limit); });
  return limit;
}

// Refuses a work-group size the kernel cannot run with, naming both and the device.
inline void check_work_group_size(const cl::Kernel &kernel, const cl::Device &device,
                                  std::size_t local_size) {
  const std::size_t limit = work_group_limit(kernel, device);
  if (local_size > limit)
    throw error("work-group size " + std::to_string(local_size) + " exceeds the limit of " +
                kernel_name(kernel) + ", " + std::to_string(limit) + ", on " + device_name(device));
}

// Enqueues `kernel` over `items` work-items, rounded up to whole work-groups of `local_size`,
// after `wait`; returns its event.
inline cl::Event launch(const cl::CommandQueue &queue, const cl::Kernel &kernel,
                        std::uint64_t items, std::size_t local_size,
                        const std::vector<cl::Event> &wait) {
  const std::uint64_t groups = (items + local_size - 1) / local_size;
  cl::Event done;
  call("clEnqueueNDRangeKernel", [&] {
    return queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * local_size),
                                      cl::NDRange(local_size), &wait, &done);
  });
  return done;
}

} // namespace detail
} // namespace merklize
