// SPDX-License-Identifier: Apache-2.0 OR MIT
// device.hpp's definitions: inline in header-only use, compiled once by <merklize/src.hpp>
// with MERKLIZE_SEPARATE_COMPILATION.
#pragma once

#include "device.hpp"

namespace merklize {

namespace detail {

// The devices of platform p: none where it answers CL_DEVICE_NOT_FOUND (a platform with no
// device), an error for any other failure.
inline std::vector<cl::Device> platform_devices(const cl::Platform &platform) {
  cl_uint count = 0;
  const cl_int err = clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && count == 0)) return {};
  check(err, "clGetDeviceIDs");
  std::vector<cl_device_id> ids(count);
  check(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, count, ids.data(), &count),
        "clGetDeviceIDs");
  std::vector<cl::Device> devices;
  for (cl_uint i = 0; i < count && i < ids.size(); ++i)
    devices.emplace_back(ids[i], true);
  return devices;
}

} // namespace detail

MERKLIZE_DECL std::vector<device_entry> list_devices() {
  using namespace detail;
  // Discovery is serialised in the process: PoCL 3.1 answers concurrent first clGetDeviceIDs
  // calls with CL_DEVICE_NOT_FOUND, or crashes, so threads opening devices at once (a binding's
  // threads, say) would see no device. Once discovered, devices are used concurrently.
  static std::mutex discovery;
  const std::lock_guard<std::mutex> lock(discovery);
  std::vector<device_entry> entries;
  const auto platforms = detail::platforms();
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    const auto step = [&] { return "listing the devices of OpenCL platform " + std::to_string(p); };
    in_step(step, [&] {
      const std::vector<cl::Device> devices = platform_devices(platforms[p]);
      for (std::size_t d = 0; d < devices.size(); ++d)
        entries.push_back(device_entry{
            p, d, platforms[p], devices[d], platform_info<CL_PLATFORM_NAME>(platforms[p]),
            platform_info<CL_PLATFORM_VENDOR>(platforms[p]),
            trimmed(device_info<CL_DEVICE_NAME, std::string>(devices[d])),
            trimmed(device_info<CL_DEVICE_VENDOR, std::string>(devices[d])),
            type_name(device_info<CL_DEVICE_TYPE, cl_device_type>(devices[d]))});
    });
  }
  return entries;
}

MERKLIZE_DECL cl::Device select_device(const std::string &spec) {
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

MERKLIZE_DECL cl::Device default_device() {
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

MERKLIZE_DECL std::string device_name(const cl::Device &device) {
  return detail::trimmed(detail::device_info<CL_DEVICE_NAME, std::string>(device));
}

} // namespace merklize
