// SPDX-License-Identifier: Apache-2.0 OR MIT
// One error path: every failure is a merklize::error (a std::runtime_error). Failures of OpenCL
// calls are opencl_error, carrying the error name and the call, and the steps the library was
// taking ("creating the context on DEVICE: clCreateContext failed: CL_OUT_OF_HOST_MEMORY (-6)");
// failed kernel builds are build_error, carrying the build log of each device.
#pragma once

#include "../core/error_type.hpp"
#include "address_space.hpp"
#include "opencl.hpp"

#include <new>
#include <string>
#include <system_error>

namespace merklize {

inline const char *cl_error_name(cl_int code) {
  switch (code) {
#define MERKLIZE_CL_ERROR(name)                                                                    \
  case name:                                                                                       \
    return #name;
    MERKLIZE_CL_ERROR(CL_SUCCESS)
    MERKLIZE_CL_ERROR(CL_DEVICE_NOT_FOUND)
    MERKLIZE_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    MERKLIZE_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    MERKLIZE_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    MERKLIZE_CL_ERROR(CL_OUT_OF_RESOURCES)
    MERKLIZE_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    MERKLIZE_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    MERKLIZE_CL_ERROR(CL_MEM_COPY_OVERLAP)
    MERKLIZE_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
    MERKLIZE_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    MERKLIZE_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    MERKLIZE_CL_ERROR(CL_MAP_FAILURE)
    MERKLIZE_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    MERKLIZE_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    MERKLIZE_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
    MERKLIZE_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
    MERKLIZE_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    MERKLIZE_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
    MERKLIZE_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    MERKLIZE_CL_ERROR(CL_INVALID_VALUE)
    MERKLIZE_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    MERKLIZE_CL_ERROR(CL_INVALID_PLATFORM)
    MERKLIZE_CL_ERROR(CL_INVALID_DEVICE)
    MERKLIZE_CL_ERROR(CL_INVALID_CONTEXT)
    MERKLIZE_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    MERKLIZE_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    MERKLIZE_CL_ERROR(CL_INVALID_HOST_PTR)
    MERKLIZE_CL_ERROR(CL_INVALID_MEM_OBJECT)
    MERKLIZE_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    MERKLIZE_CL_ERROR(CL_INVALID_IMAGE_SIZE)
    MERKLIZE_CL_ERROR(CL_INVALID_SAMPLER)
    MERKLIZE_CL_ERROR(CL_INVALID_BINARY)
    MERKLIZE_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    MERKLIZE_CL_ERROR(CL_INVALID_PROGRAM)
    MERKLIZE_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    MERKLIZE_CL_ERROR(CL_INVALID_KERNEL_NAME)
    MERKLIZE_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    MERKLIZE_CL_ERROR(CL_INVALID_KERNEL)
    MERKLIZE_CL_ERROR(CL_INVALID_ARG_INDEX)
    MERKLIZE_CL_ERROR(CL_INVALID_ARG_VALUE)
    MERKLIZE_CL_ERROR(CL_INVALID_ARG_SIZE)
    MERKLIZE_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    MERKLIZE_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    MERKLIZE_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    MERKLIZE_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    MERKLIZE_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    MERKLIZE_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    MERKLIZE_CL_ERROR(CL_INVALID_EVENT)
    MERKLIZE_CL_ERROR(CL_INVALID_OPERATION)
    MERKLIZE_CL_ERROR(CL_INVALID_GL_OBJECT)
    MERKLIZE_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    MERKLIZE_CL_ERROR(CL_INVALID_MIP_LEVEL)
    MERKLIZE_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    MERKLIZE_CL_ERROR(CL_INVALID_PROPERTY)
    MERKLIZE_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
    MERKLIZE_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
    MERKLIZE_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
    MERKLIZE_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef MERKLIZE_CL_ERROR
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "unknown OpenCL error";
  }
}

class opencl_error : public error {
public:
  opencl_error(cl_int code, const std::string &call, const std::string &detail = {})
      : error(call), message_(call + " failed: " + cl_error_name(code) + " (" +
                              std::to_string(code) + ")" + (detail.empty() ? "" : ": " + detail)),
        code_(code), call_(call) {}
  const char *what() const noexcept override { return message_.c_str(); }
  cl_int code() const noexcept { return code_; }
  const std::string &call() const noexcept { return call_; }
  // The steps the library was taking, outermost first, or empty.
  const std::string &steps() const noexcept { return steps_; }

  // Names a step the failed call was part of; each step added encloses the ones before.
  void add_step(const std::string &step) {
    if (step.empty()) return;
    steps_ = steps_.empty() ? step : step + ": " + steps_;
    message_ = step + ": " + message_;
  }

private:
  std::string message_;
  cl_int code_;
  std::string call_;
  std::string steps_;
};

class build_error : public opencl_error {
public:
  build_error(cl_int code, const std::string &log)
      : opencl_error(code, "clBuildProgram",
                     log.empty() ? "the driver wrote no build log" : "kernel build log:\n" + log),
        log_(log) {}
  const std::string &log() const noexcept { return log_; }

private:
  std::string log_;
};

namespace detail {

inline void check(cl_int code, const char *call) {
  if (code != CL_SUCCESS) throw opencl_error(code, call);
}

// Runs an OpenCL C++ binding call whose result is a cl_int, whether or not the includer enabled
// the bindings' own exceptions (CL_HPP_ENABLE_EXCEPTIONS), and reports failures one way.
template <class F> void call(const char *name, F &&f) {
#ifdef CL_HPP_ENABLE_EXCEPTIONS
  try {
    check(f(), name);
  } catch (const cl::Error &e) {
    throw opencl_error(e.err(), name);
  }
#else
  check(f(), name);
#endif
}

// Creates an OpenCL object through a binding constructor or getter that reports through a
// cl_int out-parameter: f(&err) returns the object.
template <class F> auto create(const char *name, F &&f) {
  cl_int err = CL_SUCCESS;
#ifdef CL_HPP_ENABLE_EXCEPTIONS
  try {
    auto object = f(&err);
    check(err, name);
    return object;
  } catch (const cl::Error &e) {
    throw opencl_error(e.err(), name);
  }
#else
  auto object = f(&err);
  check(err, name);
  return object;
#endif
}

// "; the address space is limited to ..." where it is: what running out of memory or threads
// most likely comes from then.
inline std::string limit_note() {
  const address_space room = address_space_now();
  return room.limit ? " (" + room.text() + ")" : "";
}

// Inside a catch block: passes on the exception being handled as one of a step of the
// library's, `describe()` its words ("creating the context on DEVICE"): an OpenCL call that
// failed names the step (opencl_error::add_step), and memory or threads running out
// (std::bad_alloc, std::system_error) become an error naming the step; anything else passes on
// as it is. describe() must not throw. For constructors' function-try-blocks; in_step otherwise.
template <class Describe> [[noreturn]] void rethrow_in_step(Describe &&describe) {
  try {
    throw;
  } catch (opencl_error &e) {
    e.add_step(describe());
    throw;
  } catch (const std::bad_alloc &) {
    throw error(describe() + ": out of memory" + limit_note());
  } catch (const std::system_error &e) {
    throw error(describe() + ": " + e.what() + limit_note());
  }
}

// Runs `work` as a step of the library's (see rethrow_in_step); describe() runs only on failure.
template <class Describe, class Work> decltype(auto) in_step(Describe &&describe, Work &&work) {
  try {
    return std::forward<Work>(work)();
  } catch (...) {
    rethrow_in_step(describe);
  }
}

} // namespace detail
} // namespace merklize
