// SPDX-License-Identifier: Apache-2.0 OR MIT
// What loading programs has cost this process: how many were built (from any form: source, an
// ahead-of-time kernel or the disk cache) and the wall time those builds took. Start-up is the
// driver's (finding the platform, creating the context) plus this, plus the first kernels; a
// tool can report the three apart (`merklize root --verbose`).
#pragma once

#include "program_cache.hpp"

#include <cstddef>

namespace merklize {

struct program_builds {
  std::size_t count = 0; // programs built; a program taken from the in-memory cache is not counted
  double ms = 0;         // the wall time of those builds
};

inline program_builds program_builds_so_far() {
  const auto &cache = detail::program_cache::instance();
  return {cache.builds(), cache.build_ms()};
}

} // namespace merklize
