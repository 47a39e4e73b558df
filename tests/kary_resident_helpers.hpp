// SPDX-License-Identifier: Apache-2.0 OR MIT
// What the tests of k-ary trees kept on the device (test_resident_kary*.cpp) share: random
// leaves, and the nodes an update writes, poisoned on the device before it, so that a node the
// update leaves out shows.
#pragma once

#include "block_helpers.hpp"

#include <merklize/engine/resident_kary_tree.hpp>

#include <cstdint>
#include <vector>

namespace test {

// The nodes an update of `indices` writes, a level each (leaves first), from its plan: a level
// hashed whole writes every node.
inline std::vector<std::vector<std::uint64_t>>
dirty_nodes(const merklize::resident_kary_tree &t, const std::vector<std::uint64_t> &indices) {
  const merklize::device_tree &d = t.on_device();
  const unsigned k = d.options().arity;
  const auto plan =
      merklize::plan_kary_update(d.level_sizes(), k, indices, t.whole_level_percent());
  std::vector<std::vector<std::uint64_t>> dirty = {
      {plan.batch.leaves.begin(), plan.batch.leaves.end()}};
  for (std::size_t level = 0; level < plan.levels.size(); ++level) {
    const auto &step = plan.levels[level];
    dirty.emplace_back(plan.list.begin() + static_cast<std::ptrdiff_t>(step.first),
                       plan.list.begin() + static_cast<std::ptrdiff_t>(step.first + step.groups));
    if (step.short_group) dirty.back().push_back(d.level_sizes()[level] / k);
    if (step.whole)
      for (std::uint64_t node = 0; node < d.level_sizes()[level + 1]; ++node)
        dirty.back().push_back(node);
  }
  return dirty;
}

// Every node the update of `indices` writes set to a poison pattern on the device.
inline void poison(const merklize::resident_kary_tree &t,
                   const std::vector<std::uint64_t> &indices) {
  const merklize::device_tree &d = t.on_device();
  const auto dirty = dirty_nodes(t, indices);
  const std::vector<std::uint8_t> pattern(merklize::node_bytes, 0xA5);
  for (unsigned level = 0; level < dirty.size(); ++level)
    for (const std::uint64_t node : dirty[level])
      hasher().queue().enqueueWriteBuffer(d.level_buffer(level), CL_TRUE,
                                          (d.level_first(level) + node) * merklize::node_bytes,
                                          merklize::node_bytes, pattern.data());
}

} // namespace test
