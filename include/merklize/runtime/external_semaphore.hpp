// SPDX-License-Identifier: Apache-2.0 OR MIT
// Ordering between OpenCL and another API on the same GPU without the host in between: a binary
// semaphore of cl_khr_external_semaphore, shared as an opaque file descriptor
// (cl_khr_external_semaphore_opaque_fd). Made here and exported where the driver exports (CUDA
// imports it with cuImportExternalSemaphore, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD; CUDA
// cannot export one), or imported from a descriptor another API exported (Vulkan's
// VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT). With external_buffer
// (runtime/external_memory.hpp): the other API writes and signals `ready`; OpenCL
// enqueue_wait(ready), acquire(), builds, release(), enqueue_signal(done); the other API waits
// on `done` before it writes again. A binary semaphore's wait must be enqueued after the signal
// it consumes.
//
// The entry points are the platform's (looked up at run time, as external_memory.hpp does), so
// the library still runs where the OpenCL driver has none.
#pragma once

#include "external_memory.hpp"

#include <CL/cl_ext.h>

#include <string>
#include <utility>
#include <vector>

namespace merklize {

// Which way a semaphore crosses: made here and exported, or made elsewhere and imported.
enum class semaphore_share { exported, imported };

// Why `device` cannot share a binary semaphore as an opaque file descriptor that way, or ""
// where it can: the extensions, then the handle types the device lists for that direction
// (NVIDIA's driver 580 offers the extensions but lists opaque fds for imports only).
inline std::string why_no_external_semaphore(const cl::Device &device,
                                             semaphore_share share = semaphore_share::exported) {
  const std::string name = detail::name_in_message(device);
  for (const char *extension :
       {"cl_khr_semaphore", "cl_khr_external_semaphore", "cl_khr_external_semaphore_opaque_fd"})
    if (!detail::has_extension(device, extension))
      return name + " does not offer " + extension +
             " (its driver cannot share a semaphore as an opaque file descriptor)";
  const bool exported = share == semaphore_share::exported;
  const cl_device_info query = exported ? CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR
                                        : CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR;
  std::size_t bytes = 0;
  std::vector<cl_external_semaphore_handle_type_khr> types;
  if (clGetDeviceInfo(device(), query, 0, nullptr, &bytes) == CL_SUCCESS && bytes > 0) {
    types.resize(bytes / sizeof(cl_external_semaphore_handle_type_khr));
    if (clGetDeviceInfo(device(), query, bytes, types.data(), nullptr) != CL_SUCCESS) types.clear();
  }
  for (const cl_external_semaphore_handle_type_khr type : types)
    if (type == CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR) return {};
  return name + (exported ? " exports" : " imports") +
         " no semaphore as an opaque file descriptor (" +
         (exported ? "CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR"
                   : "CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR") +
         " lists none" +
         (exported ? "; CUDA cannot export one either: make the semaphore in Vulkan and import "
                     "it"
                   : "") +
         ")";
}

namespace detail {

// Declared here rather than taken from CL/cl_ext.h's *_fn types, which older headers lack.
using create_semaphore_fn = cl_semaphore_khr(CL_API_CALL *)(cl_context,
                                                            const cl_semaphore_properties_khr *,
                                                            cl_int *);
using semaphores_fn = cl_int(CL_API_CALL *)(cl_command_queue, cl_uint, const cl_semaphore_khr *,
                                            const cl_semaphore_payload_khr *, cl_uint,
                                            const cl_event *, cl_event *);
using semaphore_handle_fn = cl_int(CL_API_CALL *)(cl_semaphore_khr, cl_device_id,
                                                  cl_external_semaphore_handle_type_khr, size_t,
                                                  void *, size_t *);
using release_semaphore_fn = cl_int(CL_API_CALL *)(cl_semaphore_khr);

} // namespace detail

// A binary semaphore of `context` on `device`. Refused with the reason on a device without the
// extensions; the driver's own refusal comes as an opencl_error naming the call.
class external_semaphore {
public:
  // A new semaphore, exportable as an opaque file descriptor (export_fd()).
  external_semaphore(const cl::Context &context, const cl::Device &device)
      : external_semaphore(context, device, -1) {}

  // The semaphore another API exported as the opaque file descriptor `fd`. After a successful
  // import treat the descriptor as the driver's; after a refused one it is still the caller's.
  static external_semaphore imported(const cl::Context &context, const cl::Device &device, int fd) {
    if (fd < 0)
      throw error("cannot import a semaphore: " + std::to_string(fd) + " is not a file descriptor");
    return external_semaphore(context, device, fd);
  }

  external_semaphore(const external_semaphore &) = delete;
  external_semaphore &operator=(const external_semaphore &) = delete;
  external_semaphore(external_semaphore &&other) noexcept { *this = std::move(other); }
  external_semaphore &operator=(external_semaphore &&other) noexcept {
    std::swap(device_, other.device_);
    std::swap(semaphore_, other.semaphore_);
    std::swap(entry_, other.entry_);
    return *this;
  }
  ~external_semaphore() {
    if (semaphore_) entry_.release(semaphore_);
  }

  // A new descriptor of this semaphore for another API to import (CUDA's import takes it over).
  int export_fd() const {
    int fd = -1;
    detail::check(entry_.handle(semaphore_, device_(), CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof fd,
                                &fd, nullptr),
                  "clGetSemaphoreHandleForTypeKHR");
    return fd;
  }

  // Commands enqueued on `queue` after this one wait for the semaphore's signal (consuming it).
  cl::Event enqueue_wait(const cl::CommandQueue &queue, const std::vector<cl::Event> &wait = {}) {
    return enqueue(entry_.wait, "clEnqueueWaitSemaphoresKHR", queue, wait);
  }
  // Signals the semaphore once the commands before it on `queue` (and `wait`) are done.
  cl::Event enqueue_signal(const cl::CommandQueue &queue, const std::vector<cl::Event> &wait = {}) {
    return enqueue(entry_.signal, "clEnqueueSignalSemaphoresKHR", queue, wait);
  }

  cl_semaphore_khr get() const { return semaphore_; }

private:
  struct entry_points {
    detail::semaphores_fn wait = nullptr, signal = nullptr;
    detail::semaphore_handle_fn handle = nullptr;
    detail::release_semaphore_fn release = nullptr;
  };

  // Exportable where fd < 0, else imported from fd.
  external_semaphore(const cl::Context &context, const cl::Device &device, int fd)
      : device_(device) {
    const semaphore_share share = fd < 0 ? semaphore_share::exported : semaphore_share::imported;
    if (const std::string why = why_no_external_semaphore(device, share); !why.empty())
      throw error(std::string(fd < 0 ? "cannot make an external semaphore: "
                                     : "cannot import a semaphore: ") +
                  why);
    const auto create = detail::platform_entry_point<detail::create_semaphore_fn>(
        device, "clCreateSemaphoreWithPropertiesKHR");
    entry_.wait =
        detail::platform_entry_point<detail::semaphores_fn>(device, "clEnqueueWaitSemaphoresKHR");
    entry_.signal =
        detail::platform_entry_point<detail::semaphores_fn>(device, "clEnqueueSignalSemaphoresKHR");
    entry_.handle = detail::platform_entry_point<detail::semaphore_handle_fn>(
        device, "clGetSemaphoreHandleForTypeKHR");
    entry_.release =
        detail::platform_entry_point<detail::release_semaphore_fn>(device, "clReleaseSemaphoreKHR");
    // No CL_DEVICE_HANDLE_LIST_KHR: NVIDIA's driver 580 refuses it (CL_INVALID_PROPERTY), and
    // without it the semaphore is the context's devices', here the one device.
    const cl_semaphore_properties_khr exported[] = {CL_SEMAPHORE_TYPE_KHR,
                                                    CL_SEMAPHORE_TYPE_BINARY_KHR,
                                                    CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR,
                                                    CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
                                                    CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR,
                                                    0};
    const cl_semaphore_properties_khr from_fd[] = {
        CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
        static_cast<cl_semaphore_properties_khr>(fd), 0};
    cl_int err = CL_SUCCESS;
    semaphore_ = create(context(), fd < 0 ? exported : from_fd, &err);
    detail::check(err, "clCreateSemaphoreWithPropertiesKHR");
  }

  cl::Event enqueue(detail::semaphores_fn f, const char *name, const cl::CommandQueue &queue,
                    const std::vector<cl::Event> &wait) {
    const std::vector<cl_event> events = detail::event_handles(wait);
    cl_event done = nullptr;
    detail::check(f(queue(), 1, &semaphore_, nullptr, static_cast<cl_uint>(events.size()),
                    events.empty() ? nullptr : events.data(), &done),
                  name);
    return cl::Event(done);
  }

  cl::Device device_;
  cl_semaphore_khr semaphore_ = nullptr;
  entry_points entry_;
};

} // namespace merklize
