// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a tree build is asked for: the tree (node hash, shape, fixed depth), the levels it keeps,
// and knobs that override the device's tuning row (tuning.hpp). Plain data, no OpenCL, so that
// the launch and stream planners are tested without a device.
#pragma once

#include "../core/tree.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

// The kernels of the launches below the fused top of the tree (config::level_kernel).
enum class level_kernel_kind {
  automatic, // the device's tuning row: its kernel for the node hash (tuning.hpp), merkle_level
             // only on levels with tuning::level_kernel_waves waves, merkle_subtree elsewhere
  subtree,   // merkle_subtree with one level: the fused kernel serves every launch
  level,     // merkle_level (kernels/merkle_level.cl): no local memory, several nodes per item
  levels,    // merkle_levels (kernels/merkle_levels.cl) where levels_per_item levels remain,
             // each work-item a subtree in registers; merkle_level on the levels left over
};

// Which engine applies a resident tree's update batches from host memory (config's
// resident_updates, engine/host_updater.hpp): automatic takes the host's cores where the device
// is a CPU and the node hash has host pair hashers (sha256, rfc6962, blake3), else the kernels.
enum class resident_update { automatic, kernels, host };

struct config {
  // A constructor rather than an aggregate: {tree} and {tree, output} name the common settings,
  // and the tuning knobs below are set by name.
  config(tree_options tree_ = {}, output_levels output_ = {}) : tree(tree_), output(output_) {}

  tree_options tree;
  // Levels host builds return (all nodes, from a level up, or the root only).
  output_levels output;

  // The knobs below default to 0 (or automatic), which takes the device's tuning row.
  // Work-items per work-group.
  std::size_t work_group_size = 0;
  // Levels computed per kernel launch. 0: launches of one level (or levels_per_item levels, see
  // level_kernel) while a level keeps every compute unit busy, then fused launches of as many
  // levels as a work-group holds, log2(W) + 1, in local memory.
  // Any other value: fused launches of at most that many levels throughout.
  unsigned levels_per_launch = 0;
  // Device memory host builds may use, in bytes; 0: the device's own limits.
  std::uint64_t max_device_bytes = 0;
  // Host builds stream chunks of 2^chunk_log2 leaves.
  unsigned chunk_log2 = 0;
  // Chunks on the device at once in host builds, each with its own memory: one uploading, one
  // hashed, one downloading, and any more absorb delays between the three.
  unsigned chunks_in_flight = 0;
  // Trees of inputs (merkleizer::root(input), prove(input)) stream chunks of 2^input_chunk_log2
  // leaves (at most 2^40).
  unsigned input_chunk_log2 = 0;
  // Nodes per work-item in vector lanes (1, 2, 4, 8 or 16; BLAKE3 node hashes only), one launch
  // per level (PoCL does not vectorize across work-items; GPUs keep one node per work-item).
  unsigned lanes = 0;
  // The kernel of the launches that compute one level (the large levels of the hybrid dispatch,
  // every level with levels_per_launch = 1) when there is one node per lane (lanes = 1, as on
  // GPUs); the fused launches above stay merkle_subtree.
  level_kernel_kind level_kernel = level_kernel_kind::automatic;
  // Nodes per work-item of merkle_level (1, 2 or 4), the next one's loads issued before the
  // current one is hashed.
  unsigned nodes_per_item = 0;
  // Levels per launch of merkle_levels (2 or 3), each work-item hashing a subtree of
  // 2^levels_per_item nodes.
  unsigned levels_per_item = 0;
  // Build options appended to the program that runs the one-level launches (merkle_level's, else
  // merkle_subtree's or the lanes kernel's), for experiments such as "-cl-nv-maxrregcount=48".
  // Part of the program's cache key; such a program is always compiled, never ahead of time.
  std::string level_options;
  // On CPU devices, let the kernels read the leaves and write the nodes in host memory, with no
  // copies, when a host build keeps every level above the leaves. false streams as on GPUs.
  bool zero_copy = true;
  // resident_tree only: the engine of its updates from host memory (see resident_update).
  resident_update resident_updates = resident_update::automatic;

  // multi_merkleizer only (multi.hpp). Shards of 2^shard_log2 leaves; 0: about 8 per device,
  // no smaller than the largest device chunk (parts.hpp).
  unsigned shard_log2 = 0;
  // The devices' relative speeds, one per device; empty: measured (a calibration build of
  // 2^calibration_log2 leaves per device, then each build's per-device wall time).
  std::vector<double> weights;
  // 0: 2^20 leaves (32 MiB).
  unsigned calibration_log2 = 0;
};

// Refuses knob values no kernel has, before anything is built.
inline void check_config(const config &cfg) {
  check_tree_options(cfg.tree);
  if (cfg.level_kernel != level_kernel_kind::automatic &&
      cfg.level_kernel != level_kernel_kind::subtree &&
      cfg.level_kernel != level_kernel_kind::level && cfg.level_kernel != level_kernel_kind::levels)
    throw error("level_kernel must be level_kernel_kind::automatic, subtree, level or levels");
  if (cfg.nodes_per_item > 4 || cfg.nodes_per_item == 3)
    throw error("nodes_per_item must be 0, 1, 2 or 4, not " + std::to_string(cfg.nodes_per_item));
  if (cfg.levels_per_item == 1 || cfg.levels_per_item > 3)
    throw error("levels_per_item must be 0, 2 or 3, not " + std::to_string(cfg.levels_per_item));
  if (cfg.input_chunk_log2 > 40)
    throw error("input_chunk_log2 must be 0 (the device's) or 1 .. 40, not " +
                std::to_string(cfg.input_chunk_log2));
  if (cfg.lanes > 16 || (cfg.lanes & (cfg.lanes - 1)))
    throw error("lanes must be 0, 1, 2, 4, 8 or 16, not " + std::to_string(cfg.lanes));
}

// Profiled times of the last host build, in milliseconds.
struct build_times {
  double upload_ms = 0;   // sum of the host-to-device copies
  double kernel_ms = 0;   // sum of the kernel executions
  double download_ms = 0; // sum of the device-to-host copies
  double wall_ms = 0;     // the whole call, by the host's clock
  std::size_t kernel_launches = 0;
  std::size_t chunks = 0;
};

} // namespace merklize
