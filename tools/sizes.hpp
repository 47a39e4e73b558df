// SPDX-License-Identifier: Apache-2.0 OR MIT
// Sizes in messages and on the progress line.
#pragma once

#include <cstdint>
#include <string>

namespace cli {

// A size for messages: "8589934592 bytes, 8.0 GiB", or "1000 bytes" below a KiB.
std::string size_text(std::uint64_t bytes);

// A size for the progress line: "1.5 GiB", "512.0 MiB", "1000 B".
std::string short_size(double bytes);

} // namespace cli
