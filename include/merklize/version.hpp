// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize's version, for #if tests at compile time and merklize::version() at run time.
// This header is the single place the version number is written: CMakeLists.txt reads the three
// macros below for project(VERSION), which the CMake package and merklize.pc carry.
#pragma once

#define MERKLIZE_VERSION_MAJOR 0
#define MERKLIZE_VERSION_MINOR 2
#define MERKLIZE_VERSION_PATCH 0

#define MERKLIZE_DETAIL_STRINGIFY(x) #x
#define MERKLIZE_DETAIL_VERSION_STRING(major, minor, patch)                                        \
  MERKLIZE_DETAIL_STRINGIFY(major)                                                                 \
  "." MERKLIZE_DETAIL_STRINGIFY(minor) "." MERKLIZE_DETAIL_STRINGIFY(patch)

namespace merklize {

// "MAJOR.MINOR.PATCH" of the headers this program was compiled with, e.g. "0.2.0".
constexpr const char *version() noexcept {
  return MERKLIZE_DETAIL_VERSION_STRING(MERKLIZE_VERSION_MAJOR, MERKLIZE_VERSION_MINOR,
                                        MERKLIZE_VERSION_PATCH);
}

} // namespace merklize
