// SPDX-License-Identifier: Apache-2.0 OR MIT
// Choosing an OpenCL device: the default (MERKLIZE_DEVICE, else the first GPU, else the first
// device), a spec string, or a cl::Device of the caller's.
//
// A spec is "P:D" (platform and device indices, as `merklize devices` lists them) or a
// case-insensitive substring of the platform name or vendor, the device name or vendor, or the
// device type ("gpu", "cpu", "accelerator"): "nvidia", "pocl", "cpu".
#pragma once

#include "detail/quote.hpp"
#include "error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
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
inline std::vector<device_entry> list_devices() {
  std::vector<device_entry> entries;
  const auto platforms = detail::platforms();
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devices;
    cl_uint count = 0;
    // A platform with no device answers CL_DEVICE_NOT_FOUND: it simply contributes none.
    if (clGetDeviceIDs(platforms[p](), CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS)
      continue;
    detail::call("clGetDeviceIDs",
                 [&] { return platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices); });
    for (std::size_t d = 0; d < devices.size(); ++d) {
      using namespace detail;
      entries.push_back(device_entry{
          p, d, platforms[p], devices[d], platform_info<CL_PLATFORM_NAME>(platforms[p]),
          platform_info<CL_PLATFORM_VENDOR>(platforms[p]),
          trimmed(device_info<CL_DEVICE_NAME, std::string>(devices[d])),
          trimmed(device_info<CL_DEVICE_VENDOR, std::string>(devices[d])),
          type_name(device_info<CL_DEVICE_TYPE, cl_device_type>(devices[d]))});
    }
  }
  return entries;
}

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
inline cl::Device select_device(const std::string &spec) {
  const auto devices = list_devices();
  std::size_t p = 0, d = 0;
  if (detail::parse_index_pair(spec, p, d)) {
    for (const auto &e : devices)
      if (e.platform_index == p && e.device_index == d) return e.device;
  } else if (!spec.empty()) {
    const std::string needle = detail::lowercase(spec);
    for (const auto &e : devices)
      for (const auto *field :
           {&e.platform_name, &e.platform_vendor, &e.device_name, &e.device_vendor, &e.type})
        if (detail::lowercase(*field).find(needle) != std::string::npos) return e.device;
  }
  throw error("unknown device " + detail::quoted(spec) + ": no OpenCL device matches it; " +
              detail::available_devices_text(devices));
}

// MERKLIZE_DEVICE if set (an unknown spec is an error, not a silent fallback), else the first
// GPU, else the first device.
inline cl::Device default_device() {
  if (const char *spec = std::getenv("MERKLIZE_DEVICE"); spec && *spec) {
    try {
      return select_device(spec);
    } catch (const error &e) {
      throw error(std::string("MERKLIZE_DEVICE: ") + e.what());
    }
  }
  const auto devices = list_devices();
  for (const auto &e : devices)
    if (e.type == "gpu") return e.device;
  if (devices.empty()) throw error(detail::available_devices_text(devices));
  return devices.front().device;
}

inline std::string device_name(const cl::Device &device) {
  return detail::trimmed(detail::device_info<CL_DEVICE_NAME, std::string>(device));
}

} // namespace merklize
