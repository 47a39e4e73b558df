// SPDX-License-Identifier: Apache-2.0 OR MIT
// Devices: the list of `merklize devices`, and _Device, an opened device (merklize_device_open).
#include "common.hpp"

#include <optional>

namespace merklize_python {
namespace {

using info_tuple = nb::tuple;

info_tuple to_tuple(const merklize_device_info &info) {
  return nb::make_tuple(std::string(info.spec), std::string(info.name), std::string(info.vendor),
                        std::string(info.platform), std::string(info.type));
}

merklize_device_info empty_info() {
  merklize_device_info info{};
  info.size = sizeof info;
  return info;
}

std::size_t device_count() {
  std::size_t count = 0;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_count(&count));
  }
  return count;
}

info_tuple device_info(std::size_t index) {
  merklize_device_info info = empty_info();
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_get_info(index, &info));
  }
  return to_tuple(info);
}

void open_device(device_object *self, std::optional<std::string> spec) {
  merklize_device *device = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_open(spec ? spec->c_str() : nullptr, &device));
  }
  new (self) device_object{device_ptr(device)};
}

info_tuple describe(const device_object &self) {
  merklize_device_info info = empty_info();
  check(merklize_device_describe(self.handle.get(), &info));
  return to_tuple(info);
}

} // namespace

void bind_devices(nb::module_ &m) {
  m.def("device_count", &device_count, "merklize_device_count().");
  m.def("device_info", &device_info, nb::arg("index"),
        "merklize_device_get_info(index): (spec, name, vendor, platform, type).");
  nb::class_<device_object>(m, "_Device", "merklize_device: merklize.Device's handle.")
      .def("__init__", &open_device, nb::arg("spec").none(), "merklize_device_open(spec).")
      .def("info", &describe, "merklize_device_describe(): (spec, name, vendor, platform, type).");
}

} // namespace merklize_python
