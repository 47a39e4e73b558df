// SPDX-License-Identifier: Apache-2.0 OR MIT
// The tools' version: CMake's project(VERSION), given to version.cpp as MERKLIZE_TOOLS_VERSION.
// The one place the tools take it from, until merklize::version() (include/merklize/version.hpp)
// replaces it.
#pragma once

namespace cli {

const char *version();

} // namespace cli
