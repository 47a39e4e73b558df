// SPDX-License-Identifier: Apache-2.0 OR MIT
// Host copies on several threads, the process's copy workers (runtime/copy_workers.hpp): runs of
// bytes cut into slices of whole pages, one a thread.
#pragma once

#include "../runtime/copy_workers.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace merklize {
namespace detail {

// A copy of `bytes` bytes from `from` to `to`; one of the runs a parallel copy spreads.
struct copy_run {
  std::uint8_t *to;
  const std::uint8_t *from;
  std::uint64_t bytes;
};

// Copies every run, the bytes of all of them cut into equal slices of whole pages, one a thread.
// Under 1 MiB in all, one memcpy each: the workers' wake-up costs more.
inline void parallel_copy(const std::vector<copy_run> &runs) {
  std::uint64_t total = 0;
  for (const copy_run &r : runs)
    total += r.bytes;
  copy_workers &workers = copy_workers::shared();
  const unsigned slices = total < (std::uint64_t(1) << 20) ? 1 : workers.threads();
  const std::uint64_t slice = (total / slices + 4095) / 4096 * 4096;
  workers.run(slices, [&](unsigned s) {
    // The bytes [s * slice, (s + 1) * slice) of the runs laid end to end.
    std::uint64_t begin = s * slice, end = std::min(total, begin + slice), at = 0;
    for (const copy_run &r : runs) {
      const std::uint64_t lo = std::max(begin, at), hi = std::min(end, at + r.bytes);
      if (lo < hi) std::memcpy(r.to + (lo - at), r.from + (lo - at), hi - lo);
      at += r.bytes;
    }
  });
}

inline void parallel_copy(std::uint8_t *to, const std::uint8_t *from, std::uint64_t bytes) {
  parallel_copy(std::vector<copy_run>{{to, from, bytes}});
}

} // namespace detail
} // namespace merklize
