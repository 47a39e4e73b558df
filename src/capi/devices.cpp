// SPDX-License-Identifier: Apache-2.0 OR MIT
// Devices: listing them as `merklize devices` does, opening one by spec (device.hpp's
// select_device and default_device) or from the caller's own OpenCL context.
#include "handles.hpp"

#include <merklize/runtime/device.hpp>
#include <merklize/runtime/program_cache.hpp>

#include <algorithm>
#include <cstring>

namespace merklize_capi {
namespace {

// Copies `text` into a field of merklize_device_info, cut to fit with its terminating NUL
// (device and platform names are far shorter than the fields).
template <std::size_t N> void put(char (&field)[N], const std::string &text) {
  const std::size_t n = std::min(text.size(), N - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

merklize_device_info info_of(const device_entry &e) {
  merklize_device_info info{};
  info.size = sizeof info;
  put(info.spec, e.spec());
  put(info.name, e.device_name);
  put(info.vendor, e.device_vendor);
  put(info.platform, e.platform_name);
  put(info.type, e.type);
  return info;
}

// The facts of `device` as list_devices gives them, found there by its id; a device that is not
// listed (a sub-device of the caller's) gets them from OpenCL and no spec.
merklize_device_info info_of(const cl::Device &device) {
  for (const device_entry &e : list_devices())
    if (e.device() == device()) return info_of(e);
  using namespace detail;
  const cl::Platform platform(device_info<CL_DEVICE_PLATFORM, cl_platform_id>(device), true);
  merklize_device_info info =
      info_of(device_entry{0, 0, platform, device, platform_info<CL_PLATFORM_NAME>(platform), "",
                           trimmed(device_info<CL_DEVICE_NAME, std::string>(device)),
                           trimmed(device_info<CL_DEVICE_VENDOR, std::string>(device)),
                           type_name(device_info<CL_DEVICE_TYPE, cl_device_type>(device))});
  info.spec[0] = '\0';
  return info;
}

// The device a spec names, or the default one; the library's refusals (no device, none that
// matches, a bad MERKLIZE_DEVICE) become MERKLIZE_ERROR_NO_DEVICE.
cl::Device chosen_device(const char *spec) {
  try {
    return spec && *spec ? select_device(spec) : default_device();
  } catch (const opencl_error &) {
    throw;
  } catch (const error &e) {
    throw no_device_error(e.what());
  }
}

merklize_device *opened(cl::Context context, cl::Device device) {
  auto state = std::make_shared<device_state>();
  state->context = std::move(context);
  state->device = std::move(device);
  state->info = info_of(state->device);
  return new merklize_device(std::move(state));
}

// Refuses a device that is not one of the context's: the buffers of one context cannot be used
// with the queues of another.
void check_device_of(const cl::Context &context, const cl::Device &device) {
  const auto devices = detail::create(
      "clGetContextInfo", [&](cl_int *err) { return context.getInfo<CL_CONTEXT_DEVICES>(err); });
  if (std::none_of(devices.begin(), devices.end(),
                   [&](const cl::Device &d) { return d() == device(); }))
    throw argument_error("merklize_device_open_cl: `device_id` is not a device of `context`");
}

void write_info(const merklize_device_info &from, merklize_device_info *to) {
  check_struct_size(to->size, sizeof *to, "info");
  *to = from;
}

} // namespace
} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

merklize_status merklize_device_count(size_t *count) {
  return guarded([&] {
    required(count, "merklize_device_count", "count");
    *count = merklize::list_devices().size();
  });
}

merklize_status merklize_device_get_info(size_t index, merklize_device_info *info) {
  return guarded([&] {
    required(info, "merklize_device_get_info", "info");
    const auto devices = merklize::list_devices();
    if (index >= devices.size())
      throw argument_error("device index " + std::to_string(index) + " out of range: " +
                           std::to_string(devices.size()) + " devices are installed");
    write_info(info_of(devices[index]), info);
  });
}

merklize_status merklize_device_open(const char *spec, merklize_device **device) {
  return guarded([&] {
    required(device, "merklize_device_open", "device");
    const cl::Device chosen = chosen_device(spec);
    *device = opened(merklize::detail::shared_context(chosen), chosen);
  });
}

merklize_status merklize_device_open_cl(struct _cl_context *context,
                                        struct _cl_device_id *device_id, merklize_device **device) {
  return guarded([&] {
    required(context, "merklize_device_open_cl", "context");
    required(device_id, "merklize_device_open_cl", "device_id");
    required(device, "merklize_device_open_cl", "device");
    const cl::Context caller_context(context, true); // retained, as the handle holds it
    const cl::Device caller_device(device_id, true);
    check_device_of(caller_context, caller_device);
    *device = opened(caller_context, caller_device);
  });
}

void merklize_device_free(merklize_device *device) {
  free_handle(device, "merklize_device_free", "device");
}

merklize_status merklize_device_describe(const merklize_device *device,
                                         merklize_device_info *info) {
  return guarded([&] {
    const merklize_device &d = required(device, "merklize_device_describe", "device");
    required(info, "merklize_device_describe", "info");
    write_info(d.state->info, info);
  });
}

} // extern "C"
