// SPDX-License-Identifier: Apache-2.0 OR MIT
// Device selection by index pair, by name substring (any case) and by type.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cctype>

TEST_CASE("every listed device is selected by its spec and by its name", "[device]") {
  const auto devices = merklize::list_devices();
  REQUIRE(!devices.empty());
  for (const auto &e : devices) {
    INFO(e.spec() << " " << e.device_name);
    CHECK(merklize::select_device(e.spec())() == e.device());
    std::string upper = e.device_name;
    for (auto &c : upper)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // A substring matches the first device that has it, which is this one or an identical twin.
    CHECK(merklize::device_name(merklize::select_device(upper)) == e.device_name);
  }
}

TEST_CASE("a device type selects the first device of that type", "[device]") {
  for (const auto &e : merklize::list_devices()) {
    const auto chosen = merklize::select_device(e.type);
    bool found_earlier_or_same = false;
    for (const auto &f : merklize::list_devices()) {
      if (f.device() == chosen()) found_earlier_or_same = f.type == e.type;
      if (f.device() == e.device()) break;
    }
    CHECK(found_earlier_or_same);
  }
}

TEST_CASE("pocl is selectable by name where PoCL is installed", "[device]") {
  bool has_pocl = false;
  for (const auto &e : merklize::list_devices())
    has_pocl |= merklize::detail::lowercase(e.platform_vendor + e.platform_name).find("pocl") !=
                    std::string::npos ||
                e.platform_name == "Portable Computing Language";
  if (!has_pocl) {
    WARN("skipped: no PoCL platform here");
    return;
  }
  CHECK(merklize::list_devices().size() > 0);
  CHECK_NOTHROW(merklize::select_device("pocl"));
  CHECK_NOTHROW(merklize::select_device("POCL"));
}
