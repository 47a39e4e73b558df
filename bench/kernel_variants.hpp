// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_bench --variants: the tree's kernel time for each kernel variant of the one-level
// launches, one line per variant (kernel_variants.cpp).
#pragma once

#include <merklize/merklize.hpp>

#include <string>
#include <vector>

namespace bench {

// Times every variant at 2^k leaves for each k in `log2_sizes`, after checking its root; with
// `build_log` (e.g. -cl-nv-verbose) appended to each variant's level options, adds the
// registers and spills the build log reports. The nodes are `hash`'s (BLAKE3 unless said).
// Returns the process's exit status.
int run_kernel_variants(const cl::Device &device, const std::vector<unsigned> &log2_sizes,
                        const std::string &build_log,
                        merklize::hash_kind hash = merklize::hash_kind::blake3);

} // namespace bench
