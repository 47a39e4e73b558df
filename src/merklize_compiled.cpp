// SPDX-License-Identifier: Apache-2.0 OR MIT
// The library's entry points compiled once: the merklize::compiled target, for programs built
// with MERKLIZE_SEPARATE_COMPILATION (include/merklize/core/separate_compilation.hpp).
#include <merklize/src.hpp>
