// SPDX-License-Identifier: Apache-2.0 OR MIT
// Loading a merkleizer's level program on a thread of its own, started by its first build, so
// that the load (from the driver's or merklize's disk cache: 16 to 80 ms on an H200, 12 to 53 ms
// on PoCL 3.1; cold, a compile) overlaps what comes before the first launch: the build's
// allocations (the page-locked tree, pinned page by page), the first chunk's copy and upload, a
// stream's first read. A merkleizer that never builds loads nothing, as before. Only the program
// every build of two leaves or more launches (merkle_subtree, or the lanes kernel; at least at the
// top of the tree) is loaded: a kernel a small tree never launches is not compiled for it. The
// process-wide cache (program_cache.hpp) lets a second caller of the program wait for this load
// rather than repeat it, and loads other programs (the leaves') beside it; a load that fails here
// is left alone and fails again, with its message, where the build asks for the program. The spec's
// options (the tuning row's, or $MERKLIZE_KERNEL_OPTIONS) are read on the caller's thread.
#pragma once

#include "program_cache.hpp"
#include "runtime.hpp"

#include <thread>

namespace merklize {
namespace detail {

class program_warmup {
public:
  program_warmup(const device_runtime &runtime, const program_spec &spec) {
    try {
      thread_ = std::thread([context = runtime.context(), device = runtime.device(),
                             tuned = tuned_spec(spec, runtime.tuning_row())] {
        try {
          (void)get_program(context, device, tuned);
        } catch (...) { // the build that needs it reports it
        }
      });
    } catch (...) { // no thread: the program loads where it is first needed
    }
  }
  program_warmup(const program_warmup &) = delete;
  program_warmup &operator=(const program_warmup &) = delete;
  ~program_warmup() {
    if (thread_.joinable()) thread_.join();
  }

private:
  std::thread thread_;
};

} // namespace detail
} // namespace merklize
