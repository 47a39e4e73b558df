// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where the kernels' compiled programs come from, and how to choose.
//
//   merklize::set_kernel_dir("build/kernels");   // ahead-of-time kernels (`make aot`), or
//                                                 // $MERKLIZE_KERNEL_DIR
//   merklize::set_cache_dir("/var/cache/merklize"); // binaries kept across runs, or
//                                                   // $MERKLIZE_CACHE_DIR (off by default)
//   merklize::merkleizer m;
//   std::cout << merklize::to_string(m.program_form()); // "jit", "spirv", "spir-bitcode", "cache"
//
// For each program and device the library takes, in order: a valid entry of the disk cache; an
// ahead-of-time kernel in the form the device loads best (SPIR-V, then SPIR bitcode); the
// embedded OpenCL C source compiled at run time. An artifact or cache entry that is missing a
// piece, corrupt, or built from other kernel source is passed over with a warning, never used.
// These settings are process-wide; a program already built in a context is reused as it is.
#pragma once

#include "device.hpp"

#include <cstdio>
#include <functional>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace merklize {

enum class program_form {
  jit,          // the embedded OpenCL C source, compiled at run time
  spirv,        // an ahead-of-time SPIR-V module, through clCreateProgramWithIL
  spir_bitcode, // ahead-of-time SPIR 1.2 LLVM bitcode (cl_khr_spir), through
                // clCreateProgramWithBinary
  cache,        // a device binary from the disk cache
};

inline const char *to_string(program_form form) {
  switch (form) {
  case program_form::jit:
    return "jit";
  case program_form::spirv:
    return "spirv";
  case program_form::spir_bitcode:
    return "spir-bitcode";
  case program_form::cache:
    return "cache";
  }
  return "unknown";
}

using warning_handler = std::function<void(const std::string &message)>;

namespace detail {

struct program_settings {
  std::mutex mutex;
  std::optional<std::string> kernel_dir, cache_dir; // unset: the environment variable decides
  warning_handler warn;                             // empty: stderr
};

inline program_settings &settings() {
  static program_settings s;
  return s;
}

inline std::string setting_or_env(const std::optional<std::string> &setting, const char *env) {
  if (setting) return *setting;
  const char *value = std::getenv(env);
  return value ? value : "";
}

// Reports something the library worked around, such as a stale kernel it did not use.
inline void warn(const std::string &message) {
  warning_handler handler;
  {
    std::lock_guard<std::mutex> lock(settings().mutex);
    handler = settings().warn;
  }
  if (handler)
    handler(message);
  else
    std::cerr << "merklize: warning: " << message << "\n";
}

inline bool has_extension(const cl::Device &device, const std::string &name) {
  std::istringstream extensions(device_info<CL_DEVICE_EXTENSIONS, std::string>(device));
  std::string word;
  while (extensions >> word)
    if (word == name) return true;
  return false;
}

// "OpenCL 3.0 ..." -> 300.
inline int opencl_version(const cl::Device &device) {
  const auto text = device_info<CL_DEVICE_VERSION, std::string>(device);
  int major = 0, minor = 0;
  std::sscanf(text.c_str(), "OpenCL %d.%d", &major, &minor);
  return major * 100 + minor;
}

// The device's CL_DEVICE_IL_VERSION ("SPIR-V_1.2 ..."), empty where it takes no IL or predates
// the query (OpenCL 1.2 without cl_khr_il_program answers an error: no IL).
inline std::string il_versions(const cl::Device &device) {
  std::size_t size = 0;
  if (clGetDeviceInfo(device(), CL_DEVICE_IL_VERSION_KHR, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string text(size, '\0');
  if (size &&
      clGetDeviceInfo(device(), CL_DEVICE_IL_VERSION_KHR, size, &text[0], nullptr) != CL_SUCCESS)
    return {};
  return trimmed(text);
}

using create_program_with_il_fn = cl_program(CL_API_CALL *)(cl_context, const void *, size_t,
                                                            cl_int *);

// clCreateProgramWithIL (core since OpenCL 2.1) or clCreateProgramWithILKHR (cl_khr_il_program)
// where the device takes SPIR-V, else null. Looked up at run time: the bindings target 1.2.
inline create_program_with_il_fn il_entry_point(const cl::Device &device) {
  if (il_versions(device).find("SPIR-V") == std::string::npos) return nullptr;
  const char *name = has_extension(device, "cl_khr_il_program") ? "clCreateProgramWithILKHR"
                     : opencl_version(device) >= 201            ? "clCreateProgramWithIL"
                                                                : nullptr;
  if (!name) return nullptr;
  const auto platform = device_info<CL_DEVICE_PLATFORM, cl_platform_id>(device);
  return reinterpret_cast<create_program_with_il_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, name));
}

} // namespace detail

// The folder of ahead-of-time kernels that `make aot` writes. std::nullopt (the default) defers
// to $MERKLIZE_KERNEL_DIR; an empty string turns ahead-of-time kernels off.
inline void set_kernel_dir(std::optional<std::string> dir) {
  std::lock_guard<std::mutex> lock(detail::settings().mutex);
  detail::settings().kernel_dir = std::move(dir);
}

inline std::string kernel_dir() {
  std::lock_guard<std::mutex> lock(detail::settings().mutex);
  return detail::setting_or_env(detail::settings().kernel_dir, "MERKLIZE_KERNEL_DIR");
}

// The folder of the disk cache of program binaries, created when first written. std::nullopt
// (the default) defers to $MERKLIZE_CACHE_DIR; empty turns the cache off.
inline void set_cache_dir(std::optional<std::string> dir) {
  std::lock_guard<std::mutex> lock(detail::settings().mutex);
  detail::settings().cache_dir = std::move(dir);
}

inline std::string cache_dir() {
  std::lock_guard<std::mutex> lock(detail::settings().mutex);
  return detail::setting_or_env(detail::settings().cache_dir, "MERKLIZE_CACHE_DIR");
}

// Receives every warning, e.g. an ahead-of-time kernel or cache entry passed over. An empty
// handler (the default) prints "merklize: warning: ..." on stderr. Returns the previous handler.
inline warning_handler set_warning_handler(warning_handler handler) {
  std::lock_guard<std::mutex> lock(detail::settings().mutex);
  std::swap(detail::settings().warn, handler);
  return handler;
}

// The ahead-of-time forms the device loads, best first: spirv where it reports SPIR-V in
// CL_DEVICE_IL_VERSION, spir_bitcode where it has cl_khr_spir and 64-bit addresses (the
// kernels are compiled for spir64).
inline std::vector<program_form> aot_forms(const cl::Device &device) {
  std::vector<program_form> forms;
  if (detail::il_entry_point(device)) forms.push_back(program_form::spirv);
  if (detail::has_extension(device, "cl_khr_spir") &&
      detail::device_info<CL_DEVICE_ADDRESS_BITS, cl_uint>(device) == 64)
    forms.push_back(program_form::spir_bitcode);
  return forms;
}

} // namespace merklize
