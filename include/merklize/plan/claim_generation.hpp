// SPDX-License-Identifier: Apache-2.0 OR MIT
// The generation of an in-place update (tree_updater.hpp, merkle_indexed.cl): each call claims
// the nodes it recomputes by writing its generation into their marks, and a node is claimed
// once a call because a second writer finds the generation already there. Marks are never
// cleared between calls; a stale mark could only fool a call of the same generation, so
// generations run 1, 2, ..., 2^32 - 1 and the marks are cleared (all zero, which no generation
// is) before the first and before each wrap back to 1: once every 2^32 - 1 calls. Pure, no
// OpenCL.
//
//   merklize::detail::claim_generation g;  // a fresh one clears first
//   g.clears_next();  // true: zero the marks, then
//   g.next();         // 1
#pragma once

#include <cstdint>

namespace merklize {
namespace detail {

class claim_generation {
public:
  // The generation after `last` comes next; the default, a fresh set of marks, clears first.
  explicit claim_generation(std::uint32_t last = wrap) : last_(last) {}

  // The marks must be zeroed before the next call: fresh, or the generation wraps.
  bool clears_next() const { return last_ == wrap; }

  std::uint32_t next() {
    last_ = last_ == wrap ? 1 : last_ + 1;
    return last_;
  }

private:
  static constexpr std::uint32_t wrap = UINT32_MAX;
  std::uint32_t last_;
};

} // namespace detail
} // namespace merklize
