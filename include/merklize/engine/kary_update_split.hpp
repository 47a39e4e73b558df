// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where a k-ary resident tree's update went (resident_kary_tree.hpp; kary_update_bench prints
// it): the host's part by its clock, the device's by markers between the phases on its in-order
// queue, profiled.
#pragma once

#include "../plan/kary_update_plan.hpp"
#include "../runtime/profiling.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>

namespace merklize {

// Where the last update's time went (NaN where the driver gives no times).
struct kary_update_split {
  // host: the batch sorted (from device buffers, its indices read back first), the levels
  // listed, the values elected
  double plan_ms = 0;
  double enqueue_ms = 0; // host: the uploads and launches enqueued
  double wait_ms = 0;    // host: waiting for the root to come back
  // Device: the values' and lists' writes; the leaves written; the listed levels (gather, hash,
  // scatter); the levels hashed whole, up to the root's read.
  double upload_ms = 0, leaves_ms = 0, listed_ms = 0, whole_ms = 0;
  unsigned listed_levels = 0, whole_levels = 0; // the levels above the leaves, each way
  std::uint64_t listed_groups = 0;              // the whole groups listed, every level
};

namespace detail {

// The device's part of an update of `plan` into `split` from its marks (the first write, then
// the ends of the uploads, the leaves, the listed levels) and the root's read, its first
// `listed` of `top` levels listed; NaN where a time is missing.
inline void split_device(kary_update_split &split, const kary_update_plan &plan,
                         const std::array<cl::Event, 5> &marks, unsigned listed, unsigned top) {
  std::array<double, 5> ms; // each mark's end (the read's start) on the device's clock
  double first = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < marks.size(); ++i) {
    const auto ns = marks[i]() ? profiled_ns(marks[i]) : std::nullopt;
    ms[i] = ns ? double(i == 4 ? ns->first : ns->second) * 1e-6
               : std::numeric_limits<double>::quiet_NaN();
    if (i == 0 && ns) first = double(ns->first) * 1e-6;
  }
  split.upload_ms = ms[1] - first;
  split.leaves_ms = ms[2] - ms[1];
  split.listed_ms = ms[3] - ms[2];
  split.whole_ms = ms[4] - ms[3];
  split.listed_levels = listed;
  split.whole_levels = top - listed;
  for (unsigned level = 0; level < listed; ++level)
    split.listed_groups += plan.levels[level].groups;
}

} // namespace detail
} // namespace merklize
