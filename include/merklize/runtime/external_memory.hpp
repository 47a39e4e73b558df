// SPDX-License-Identifier: Apache-2.0 OR MIT
// Memory another API allocated on the GPU, used by the library without a copy: a buffer that
// CUDA (cuMemCreate with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, then
// cuMemExportToShareableHandle) or Vulkan (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) exported
// as an opaque file descriptor, imported into an OpenCL context through
// cl_khr_external_memory_opaque_fd. The tree kernels then read a tensor or a prover's buffer in
// place: merkleizer(context, device).enqueue_build(imported.buffer(), ...), or a resident_tree
// over it, between acquire() and release().
//
// Ordering with the exporting API is the caller's: either at the host (finish its writes with
// cuStreamSynchronize before acquire(), and wait for release()'s event before it touches the
// memory again), or on the GPU with semaphores shared with it (runtime/external_semaphore.hpp):
// enqueue_wait(ready) before acquire(), enqueue_signal(done) after release().
//
// The entry points (clCreateBufferWithProperties, core in OpenCL 3.0, and the extension's
// acquire and release) are looked up at run time, as the bindings target OpenCL 1.2: the ICD
// loader's exports first (dlsym), then the platform's.
#pragma once

#include "device.hpp"
#include "error.hpp"
#include "opencl.hpp"
#include "programs.hpp"

#include <CL/cl_ext.h>
#include <dlfcn.h>

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

// Why `device` cannot import an opaque file descriptor, or "" where it can.
inline std::string why_no_external_memory(const cl::Device &device) {
  const std::string name = detail::name_in_message(device);
  if (!detail::has_extension(device, "cl_khr_external_memory_opaque_fd"))
    return name + " does not offer cl_khr_external_memory_opaque_fd (its driver cannot import "
                  "memory exported as an opaque file descriptor)";
  if (detail::opencl_version(device) < 300)
    return name + " is not an OpenCL 3.0 device (clCreateBufferWithProperties)";
  return {};
}

namespace detail {

using create_buffer_with_properties_fn = cl_mem(CL_API_CALL *)(cl_context, const cl_properties *,
                                                               cl_mem_flags, size_t, void *,
                                                               cl_int *);
using external_mem_objects_fn = cl_int(CL_API_CALL *)(cl_command_queue, cl_uint, const cl_mem *,
                                                      cl_uint, const cl_event *, cl_event *);

// An entry point the bindings' target (OpenCL 1.2) does not declare: the ICD loader's export
// where it has one (a core 3.0 function such as clCreateBufferWithProperties, which NVIDIA's
// platform does not hand out by name), else the platform's (an extension's).
template <class F> F platform_entry_point(const cl::Device &device, const char *name) {
  if (void *exported = dlsym(RTLD_DEFAULT, name)) return reinterpret_cast<F>(exported);
  const auto platform = device_info<CL_DEVICE_PLATFORM, cl_platform_id>(device);
  auto f = reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(platform, name));
  if (!f)
    throw error("neither the OpenCL loader nor " + name_in_message(device) + "'s platform has " +
                name);
  return f;
}

// The handles of `events`, for an entry point's wait list.
inline std::vector<cl_event> event_handles(const std::vector<cl::Event> &events) {
  std::vector<cl_event> handles;
  for (const cl::Event &e : events)
    handles.push_back(e());
  return handles;
}

} // namespace detail

// `bytes` of memory exported as the opaque file descriptor `fd`, as a buffer of `context` on
// `device`. The descriptor goes to the driver as it is: after a successful import treat it as
// the driver's (Vulkan's rule for opaque descriptors; the OpenCL extension leaves it to the
// driver), after a refused one it is still the caller's. Refused with the reason on a device
// without the extension; the driver's own refusal (a descriptor of another GPU, a size past the
// allocation) comes as an opencl_error naming clCreateBufferWithProperties.
class external_buffer {
public:
  external_buffer(const cl::Context &context, const cl::Device &device, int fd, std::uint64_t bytes)
      : device_(device), bytes_(bytes) {
    if (const std::string why = why_no_external_memory(device); !why.empty())
      throw error("cannot import external memory: " + why);
    if (fd < 0)
      throw error("cannot import external memory: " + std::to_string(fd) +
                  " is not a file descriptor");
    if (bytes == 0) throw error("cannot import external memory of 0 bytes");
    const auto create = detail::platform_entry_point<detail::create_buffer_with_properties_fn>(
        device, "clCreateBufferWithProperties");
    const cl_properties properties[] = {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR,
                                        static_cast<cl_properties>(fd),
                                        CL_DEVICE_HANDLE_LIST_KHR,
                                        reinterpret_cast<cl_properties>(device()),
                                        CL_DEVICE_HANDLE_LIST_END_KHR,
                                        0};
    cl_int err = CL_SUCCESS;
    cl_mem mem =
        create(context(), properties, CL_MEM_READ_WRITE, static_cast<size_t>(bytes), nullptr, &err);
    detail::check(err, "clCreateBufferWithProperties");
    buffer_ = cl::Buffer(mem); // takes the reference create returned
    acquire_ = detail::platform_entry_point<detail::external_mem_objects_fn>(
        device, "clEnqueueAcquireExternalMemObjectsKHR");
    release_ = detail::platform_entry_point<detail::external_mem_objects_fn>(
        device, "clEnqueueReleaseExternalMemObjectsKHR");
  }

  const cl::Buffer &buffer() const { return buffer_; }
  std::uint64_t bytes() const { return bytes_; }

  // Hands the memory to OpenCL's commands on `queue` (after `wait`), and back.
  cl::Event acquire(const cl::CommandQueue &queue, const std::vector<cl::Event> &wait = {}) {
    return enqueue(acquire_, "clEnqueueAcquireExternalMemObjectsKHR", queue, wait);
  }
  cl::Event release(const cl::CommandQueue &queue, const std::vector<cl::Event> &wait = {}) {
    return enqueue(release_, "clEnqueueReleaseExternalMemObjectsKHR", queue, wait);
  }

private:
  cl::Event enqueue(detail::external_mem_objects_fn f, const char *name,
                    const cl::CommandQueue &queue, const std::vector<cl::Event> &wait) {
    const std::vector<cl_event> events = detail::event_handles(wait);
    const cl_mem mem = buffer_();
    cl_event done = nullptr;
    detail::check(f(queue(), 1, &mem, static_cast<cl_uint>(events.size()),
                    events.empty() ? nullptr : events.data(), &done),
                  name);
    return cl::Event(done);
  }

  cl::Device device_;
  std::uint64_t bytes_;
  cl::Buffer buffer_;
  detail::external_mem_objects_fn acquire_ = nullptr, release_ = nullptr;
};

} // namespace merklize
