// SPDX-License-Identifier: Apache-2.0 OR MIT
// The launch planner: which kernel computes which levels of a tree, and with how many
// work-items. A pure function of the device (facts and tuning row), the node hash and the
// configuration, so it is unit-tested without a device (tests/test_launch_plan.cpp); the level
// runner (level_runner.hpp) enqueues what it plans.
#pragma once

#include "tuning.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

// Whether the node hash has the kernel that hashes several nodes per work-item in vector lanes
// (kernels/merkle_lanes.cl): its row in the table of hashes says.
inline bool lanes_supported(hash_kind hash) { return row_of(hash).lanes_node != nullptr; }

// The kernels of tree builds.
enum class kernel_kind {
  lanes,   // merkle_level_lanes: one level, `lanes` nodes per work-item in vector lanes
  subtree, // merkle_subtree: up to fused_levels levels, a work-group's subtree in local memory
  level,   // merkle_level: one level, nodes_per_item nodes per work-item
  levels,  // merkle_levels: levels_per_item levels, each work-item's subtree in registers
};

// The launch settings of one device and configuration, resolved once (merkleizer's
// constructor): the configuration's knobs where set, else the device's tuning row.
struct launch_settings {
  unsigned lanes;                // > 1: every launch is the lanes kernel
  std::size_t local_size;        // work-items per work-group
  std::uint64_t wave_items;      // work-items of one wave of work-groups on every compute unit
  unsigned fused_levels;         // the most levels a fused launch computes (1: none fused)
  bool fuse_everywhere;          // config::levels_per_launch: fused launches on every level
  unsigned fuse_waves;           // else fused launches on levels of at most this many waves
  bool multi_level;              // merkle_levels where levels_per_item levels remain
  unsigned levels_per_item;      //
  bool one_level;                // merkle_level for the other one-level launches ...
  std::uint64_t one_level_waves; // ... on levels of at least this many waves
  unsigned nodes_per_item;       //
};

// The node hash's kernel for the one-level launches: the configuration's, or for automatic the
// tuning row's for the hash's tuning class.
inline level_kernel_kind level_kernel_for(const config &cfg, const tuning &row) {
  if (cfg.level_kernel != level_kernel_kind::automatic) return cfg.level_kernel;
  return row.nodes_of(row_of(cfg.tree.hash).tuning).level_kernel;
}

// Levels a fused launch computes: a work-group of W (a power of two) reduces 2W nodes to one.
inline unsigned fused_levels_for(unsigned lanes, std::size_t local_size, unsigned asked) {
  if (lanes > 1 || (local_size & (local_size - 1))) return 1;
  unsigned levels = 1;
  while ((std::size_t(1) << levels) <= local_size && levels < 16)
    ++levels;
  return asked ? std::min(asked, levels) : levels;
}

inline launch_settings resolve_launch_settings(const device_facts &device, const tuning &row,
                                               const config &cfg) {
  launch_settings s{};
  s.lanes = !lanes_supported(cfg.tree.hash) ? 1
            : cfg.lanes                     ? cfg.lanes
                        : resolved_lanes(row.nodes_of(row_of(cfg.tree.hash).tuning).lanes, device);
  s.local_size = cfg.work_group_size
                     ? cfg.work_group_size
                     : std::min(s.lanes > 1 ? row.lanes_work_group_size : row.work_group_size,
                                device.max_work_group_size);
  s.wave_items = std::uint64_t(device.compute_units) * s.local_size;
  s.fused_levels = fused_levels_for(s.lanes, s.local_size, cfg.levels_per_launch);
  s.fuse_everywhere = cfg.levels_per_launch != 0;
  s.fuse_waves = row.fuse_waves;
  const level_kernel_kind kind = level_kernel_for(cfg, row);
  s.one_level = s.lanes == 1 && kind != level_kernel_kind::subtree;
  s.multi_level = s.one_level && kind == level_kernel_kind::levels && !s.fuse_everywhere;
  s.levels_per_item = cfg.levels_per_item ? cfg.levels_per_item : row.levels_per_item;
  s.nodes_per_item = cfg.nodes_per_item ? cfg.nodes_per_item
                                        : row.nodes_of(row_of(cfg.tree.hash).tuning).nodes_per_item;
  // A kernel chosen by name serves every level; automatic keeps merkle_level to the levels where
  // several nodes per work-item pay (on smaller ones a second node only adds latency).
  s.one_level_waves = cfg.level_kernel == level_kernel_kind::automatic ? row.level_kernel_waves : 0;
  return s;
}

// Levels of up to this many nodes get merkle_level and merkle_levels with 32-bit indices: their
// indices (16-byte units up to twice the count, node indices up to a global size past the
// level) stay far below 2^32.
constexpr std::uint64_t narrow_index_limit = std::uint64_t(1) << 30;

// One launch: its kernel, the levels it computes above a level of `in_count` nodes, and its
// work-items (rounded up to whole work-groups when enqueued).
struct planned_launch {
  kernel_kind kernel;
  unsigned levels;
  std::uint64_t in_count, items;
  bool wide_index; // merkle_level and merkle_levels: 64-bit indices

  friend bool operator==(const planned_launch &a, const planned_launch &b) {
    return a.kernel == b.kernel && a.levels == b.levels && a.in_count == b.in_count &&
           a.items == b.items && a.wide_index == b.wide_index;
  }
};

// The launch above a level of `count` nodes with `remaining` levels to compute. Fusing saves
// launches but leaves most work-items of a group idle above its first level, so large levels,
// which keep every compute unit busy, get launches of their own (at 2^25 leaves on an H200: 2.35
// ms one launch per level, 3.43 ms fused throughout), and the small top of the tree is fused
// (2^20 leaves: 0.141 ms fused, 0.170 ms one launch per level).
inline planned_launch next_launch(const launch_settings &s, std::uint64_t count,
                                  unsigned remaining) {
  const std::uint64_t pairs = (count + 1) / 2;
  const bool wide = count > narrow_index_limit;
  if (s.lanes > 1) return {kernel_kind::lanes, 1, count, (pairs + s.lanes - 1) / s.lanes, false};
  const unsigned fused = std::min(s.fused_levels, remaining);
  const bool fuses = s.fuse_everywhere || pairs <= s.fuse_waves * s.wave_items;
  if (fuses && fused > 1) return {kernel_kind::subtree, fused, count, pairs, false};
  if (s.multi_level && remaining >= s.levels_per_item)
    return {kernel_kind::levels, s.levels_per_item, count, ceil_shift(count, s.levels_per_item),
            wide};
  const std::uint64_t items = (pairs + s.nodes_per_item - 1) / s.nodes_per_item;
  if (s.one_level && items >= s.one_level_waves * s.wave_items)
    return {kernel_kind::level, 1, count, items, wide};
  return {kernel_kind::subtree, 1, count, pairs, false};
}

// Every launch that computes `levels` levels above a level of `count` nodes, in order.
inline std::vector<planned_launch> plan_launches(const launch_settings &s, std::uint64_t count,
                                                 unsigned levels) {
  std::vector<planned_launch> launches;
  for (unsigned done = 0; done < levels;) {
    launches.push_back(next_launch(s, count, levels - done));
    count = ceil_shift(count, launches.back().levels);
    done += launches.back().levels;
  }
  return launches;
}

} // namespace detail
} // namespace merklize
