// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "version.hpp"

namespace cli {

const char *version() { return MERKLIZE_TOOLS_VERSION; }

} // namespace cli
