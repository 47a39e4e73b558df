// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "sizes.hpp"

#include <cstdio>
#include <iterator>

namespace cli {

std::string short_size(double bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  unsigned unit = 0;
  for (; bytes >= 1024 && unit + 1 < std::size(units); ++unit)
    bytes /= 1024;
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

std::string size_text(std::uint64_t bytes) {
  const std::string exact = std::to_string(bytes) + " bytes";
  return bytes < 1024 ? exact : exact + ", " + short_size(static_cast<double>(bytes));
}

} // namespace cli
