// merklize devices: the OpenCL devices and the specs that select them.
#include "cli.hpp"

#include <iostream>

namespace cli {

int devices_command(int argc, char **) {
  if (argc != 2) throw usage_error("devices takes no arguments");
  const auto devices = merklize::list_devices();
  if (devices.empty()) std::cout << "no OpenCL device found\n";
  for (const auto &e : devices)
    std::cout << e.spec() << "  " << e.device_name << "  [platform: " << e.platform_name
              << "; vendor: " << e.device_vendor << "; type: " << e.type << "]\n";
  return 0;
}

} // namespace cli
