// SPDX-License-Identifier: Apache-2.0 OR MIT
// Choosing an OpenCL device: the default (MERKLIZE_DEVICE, else the first GPU, else the first
// device), a spec string, or a cl::Device of the caller's.
//
// A spec is "P:D" (platform and device indices, as `merklize devices` lists them) or a
// case-insensitive substring of the platform name or vendor, the device name or vendor, or the
// device type ("gpu", "cpu", "accelerator"): "nvidia", "pocl", "cpu".
//
// The functions' definitions are in runtime/device.ipp (core/separate_compilation.hpp says why).
#pragma once

#include "../core/quote.hpp"
#include "../core/separate_compilation.hpp"
#include "address_space.hpp"
#include "error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
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

// Refuses to load a driver into too little address space (address_space.hpp): PoCL aborts the
// process there. Once a platform is loaded, nothing more is asked.
inline void check_room_for_a_driver() {
  static bool loaded = false; // only read and set under platforms()'s lock
  if (loaded) return;
  const address_space room = address_space_now();
  if (room.short_of(driver_headroom_bytes))
    throw error(room.text() + ": too little to load an OpenCL driver, which needs at least " +
                std::to_string(driver_headroom_bytes / mib) + " MiB (raise the limit)");
  loaded = true;
}

// The installed platforms: an ICD loader that finds none answers CL_PLATFORM_NOT_FOUND_KHR (or
// none at all), which is no error; any other failure is one.
inline std::vector<cl::Platform> platforms() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  return in_step([] { return std::string("listing the OpenCL platforms"); },
                 [] {
                   check_room_for_a_driver();
                   std::vector<cl::Platform> list;
                   cl_uint count = 0;
                   const cl_int err = clGetPlatformIDs(0, nullptr, &count);
                   if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */) return list;
                   check(err, "clGetPlatformIDs");
                   if (count == 0) return list;
                   std::vector<cl_platform_id> ids(count);
                   check(clGetPlatformIDs(count, ids.data(), &count), "clGetPlatformIDs");
                   for (cl_uint i = 0; i < count && i < ids.size(); ++i)
                     list.emplace_back(ids[i], true);
                   return list;
                 });
}

// Where the ICD loader (ocl-icd) finds the installed drivers: one .icd file each.
inline std::vector<std::string> installed_icds() {
  const char *env = std::getenv("OCL_ICD_VENDORS");
  const std::filesystem::path dir =
      env && std::filesystem::is_directory(env) ? env : "/etc/OpenCL/vendors";
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".icd") names.push_back((dir / it->path().filename()).string());
  std::sort(names.begin(), names.end());
  return names;
}

// Why PoCL may have refused to start: its cache folder (POCL_CACHE_DIR) cannot be made.
inline std::string pocl_cache_problem() {
  const char *dir = std::getenv("POCL_CACHE_DIR");
  if (!dir || !*dir) return {};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec); // what PoCL does first
  if (ec) return "; POCL_CACHE_DIR=" + std::string(dir) + " cannot be made: " + ec.message();
  return {};
}

// "no OpenCL device is installed" where none is; else why the installed ones gave none.
inline std::string no_device_text() {
  const auto icds = installed_icds();
  if (icds.empty()) return "no OpenCL device is installed (try the pocl-opencl-icd package)";
  std::string text = "no OpenCL platform could be loaded, though " + std::to_string(icds.size()) +
                     " driver" + (icds.size() > 1 ? "s are" : " is") + " installed (";
  for (std::size_t i = 0; i < icds.size(); ++i)
    text += (i ? ", " : "") + icds[i];
  text += ")";
  const address_space room = address_space_now();
  const std::string cache = pocl_cache_problem();
  if (room.limit) text += "; " + room.text() + ", which may be too little for the driver";
  text += cache;
  if (!room.limit && cache.empty()) text += "; OCL_ICD_DEBUG=7 shows why";
  return text;
}

} // namespace detail

// Every device of every platform, in platform order then device order.
MERKLIZE_DECL std::vector<device_entry> list_devices();

namespace detail {

inline std::string available_devices_text(const std::vector<device_entry> &devices) {
  if (devices.empty()) return no_device_text();
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

namespace detail {

// The device's name in the words of a step that failed, which must not fail in turn.
inline std::string name_in_message(const cl::Device &device) {
  try {
    return device_name(device);
  } catch (const std::exception &) {
    return "the device";
  }
}

} // namespace detail
} // namespace merklize

#if !defined(MERKLIZE_SEPARATE_COMPILATION)
#include "device.ipp"
#endif
