// The tools' version, from CMake's project(VERSION) (MERKLIZE_TOOLS_VERSION). The one place the
// tools take it from, until merklize::version() (include/merklize/version.hpp) replaces it.
#pragma once

namespace cli {

inline const char *version() { return MERKLIZE_TOOLS_VERSION; }

} // namespace cli
