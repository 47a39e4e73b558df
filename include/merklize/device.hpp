// SPDX-License-Identifier: Apache-2.0 OR MIT
// Choosing an OpenCL device: the default (MERKLIZE_DEVICE, else the first GPU, else the first
// device), a spec string, or a cl::Device of the caller's.
//
// A spec is "P:D" (platform and device indices, as `merklize devices` lists them) or a
// case-insensitive substring of the platform name or vendor, the device name or vendor, or the
// device type ("gpu", "cpu", "accelerator"): "nvidia", "pocl", "cpu".
//
// The functions' definitions are in impl/device.ipp (detail/separate_compilation.hpp says why).
#pragma once

#include "detail/quote.hpp"
#include "detail/separate_compilation.hpp"
#include "error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace merklize {

struct device_entry {
  std::size_t platform_index;
  std::size_t device_index;
  cl::Platform platform;
  cl::Device device;
  std::string platform_name;
  std::string platform_vendor;
  std::string device_name;
  std::string device_vendor;
  std::string type; // "gpu", "cpu", "accelerator" or "other"

  std::string spec() const {
    return std::to_string(platform_index) + ":" + std::to_string(device_index);
  }
};

namespace detail {

inline std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

inline std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
    s.pop_back();
  return s;
}

template <cl_platform_info Name> std::string platform_info(const cl::Platform &p) {
  std::string value;
  call("clGetPlatformInfo", [&] { return p.getInfo(Name, &value); });
  return trimmed(value);
}

template <cl_device_info Name, class T> T device_info(const cl::Device &d) {
  T value{};
  call("clGetDeviceInfo", [&] { return d.getInfo(Name, &value); });
  return value;
}

inline std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "gpu";
  if (type & CL_DEVICE_TYPE_CPU) return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

inline std::vector<cl::Platform> platforms() {
  std::vector<cl::Platform> list;
  cl_uint count = 0;
  const cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || count == 0) return list;
  check(err, "clGetPlatformIDs");
  call("clGetPlatformIDs", [&] { return cl::Platform::get(&list); });
  return list;
}

} // namespace detail

// Every device of every platform, in platform order then device order.
MERKLIZE_DECL std::vector<device_entry> list_devices();

namespace detail {

inline std::string available_devices_text(const std::vector<device_entry> &devices) {
  if (devices.empty()) return "no OpenCL device is installed (try the pocl-opencl-icd package)";
  std::string text = "available devices:";
  for (const auto &e : devices)
    text += "\n  " + e.spec() + "  " + e.device_name + " [" + e.platform_name + ", " + e.type + "]";
  return text;
}

inline bool parse_index_pair(const std::string &spec, std::size_t &p, std::size_t &d) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size()) return false;
  const auto digits = [](const std::string &s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  };
  const std::string a = spec.substr(0, colon), b = spec.substr(colon + 1);
  if (!digits(a) || !digits(b) || a.size() > 6 || b.size() > 6) return false;
  p = std::stoul(a);
  d = std::stoul(b);
  return true;
}

} // namespace detail

// The device a spec names; throws merklize::error listing the available devices when none
// matches.
MERKLIZE_DECL cl::Device select_device(const std::string &spec);

// MERKLIZE_DEVICE if set (an unknown spec is an error, not a silent fallback), else the first
// GPU, else the first device.
MERKLIZE_DECL cl::Device default_device();

MERKLIZE_DECL std::string device_name(const cl::Device &device);

} // namespace merklize

#if !defined(MERKLIZE_SEPARATE_COMPILATION)
#include "impl/device.ipp"
#endif
