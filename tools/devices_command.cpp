// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize devices: the OpenCL devices and the specs that select them.
#include "commands.hpp"
#include "output.hpp"

#include <merklize/runtime/device.hpp>

namespace cli {

int devices_command() {
  const auto devices = merklize::list_devices();
  if (devices.empty()) write_stdout("no OpenCL device found\n");
  for (const auto &e : devices)
    write_stdout(e.spec() + "  " + e.device_name + "  [platform: " + e.platform_name +
                 "; vendor: " + e.device_vendor + "; type: " + e.type + "]\n");
  return 0;
}

} // namespace cli
