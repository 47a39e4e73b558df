// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees (kary.hpp) on several devices: each device takes a run of shards (parts.hpp),
// uploads their leaves or hashes them from the data's blocks (block_hasher), builds the levels of
// its part up to the shards' level and keeps them there (device_tree); the host finishes the
// few levels above. Proofs read each leaf's groups below the shards from the device that holds
// them, and the rest from the host's levels.
//
//   merklize::multi_kary_merkleizer mk(merklize::select_devices("0:0,0:1"),
//                                      {{merklize::hash_kind::sha256, 16}});
//   merklize::kary_multi_tree t = mk.build(in, rule);  // kary_root over block_leaves, bit for bit
//   merklize::kary_proof p = t.prove(7);                // kary_prove's
#pragma once

#include "../plan/parts.hpp"
#include "device_tree.hpp"
#include "multi_blocks.hpp"
#include "spread.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

struct multi_kary_config {
  kary_options tree;
  std::vector<double> weights; // one a device, relative speeds; none: even, then measured
  unsigned shard_levels = 0;   // shards of k^shard_levels leaves; 0: about 8 a device
};

struct kary_multi_times {
  std::vector<device_times> devices; // in the order of multi_kary_merkleizer::devices()
  kary_shard_plan plan;
  double finish_ms = 0; // the levels above the shards, on the host
  double wall_ms = 0;   // the whole call, by the host's clock
};

// A k-ary tree built by several devices: each one's part kept on it, the levels above the
// shards on the host.
class kary_multi_tree {
public:
  // parts[i]: builder i's part (levels 0..plan.shard_levels of its leaves), none where it has
  // no shard.
  kary_multi_tree(const kary_options &options, kary_shard_plan plan,
                  std::vector<std::optional<device_tree>> parts)
      : options_(options), plan_(std::move(plan)), parts_(std::move(parts)),
        above_(kary_levels_above(shard_tops(parts_), options, plan_.shard_levels)) {}

  const kary_options &options() const { return options_; }
  const kary_shard_plan &plan() const { return plan_; }
  std::uint64_t leaf_count() const { return plan_.leaf_count; }
  const digest &root() const { return above_.back().front(); }

  // Every level, leaves first, the root alone last: the whole tree read back.
  std::vector<std::vector<digest>> levels() const {
    std::vector<std::vector<digest>> levels(plan_.shard_levels);
    for (const auto &part : parts_)
      if (part) {
        const auto its = part->levels();
        for (unsigned l = 0; l < plan_.shard_levels; ++l)
          levels[l].insert(levels[l].end(), its[l].begin(), its[l].end());
      }
    levels.insert(levels.end(), above_.begin(), above_.end());
    return levels;
  }

  kary_proof prove(std::uint64_t index) const {
    return prove(std::vector<std::uint64_t>{index}).front();
  }

  // The proofs of `indices` (each below leaf_count(), else refused before any device is asked
  // anything), equal to kary_prove's over levels(): each device reads back only the groups on
  // its leaves' paths (device_tree::path_siblings). Both halves read core/path_plan.hpp's
  // plan_path: a part's path up to the shard level is the tree's there (parts are aligned), the
  // host's from the shard level up the rest of it.
  std::vector<kary_proof> prove(const std::vector<std::uint64_t> &indices) const {
    std::vector<std::vector<std::uint64_t>> local(parts_.size());
    for (const std::uint64_t index : indices) {
      check_kary_index(index, leaf_count());
      const std::size_t i = plan_.builder_of(index);
      local[i].push_back(index - plan_.first_leaf(i));
    }
    std::vector<std::vector<std::vector<std::vector<digest>>>> below(parts_.size());
    for (std::size_t i = 0; i < parts_.size(); ++i)
      if (!local[i].empty()) below[i] = parts_[i]->path_siblings(local[i]);
    std::vector<std::size_t> taken(parts_.size(), 0);
    std::vector<kary_proof> proofs;
    for (const std::uint64_t index : indices) {
      const std::size_t i = plan_.builder_of(index);
      kary_proof proof{options_, leaf_count(), index, std::move(below[i][taken[i]++])};
      for (auto &siblings :
           kary_path_siblings(above_, options_, index / plan_.shard_leaves, plan_.shard_levels))
        proof.siblings.push_back(std::move(siblings));
      proofs.push_back(std::move(proof));
    }
    return proofs;
  }

private:
  // The tree's level shard_levels: the parts' top nodes in order.
  static std::vector<digest> shard_tops(const std::vector<std::optional<device_tree>> &parts) {
    std::vector<digest> level;
    for (const auto &part : parts)
      if (part) level.insert(level.end(), part->top_nodes().begin(), part->top_nodes().end());
    return level;
  }

  kary_options options_;
  kary_shard_plan plan_;
  std::vector<std::optional<device_tree>> parts_;
  std::vector<std::vector<digest>> above_; // levels shard_levels .. the root
};

// Builds k-ary trees over several devices. Not thread-safe; it runs its own threads, and an
// error on any device is rethrown on the caller's thread.
class multi_kary_merkleizer {
public:
  explicit multi_kary_merkleizer(multi_kary_config cfg)
      : multi_kary_merkleizer(default_devices(), std::move(cfg)) {}

  multi_kary_merkleizer(std::vector<cl::Device> devices, multi_kary_config cfg)
      : config_(checked(std::move(cfg))),
        spread_(std::move(devices), config_.weights, "multi_kary_merkleizer") {}

  const std::vector<cl::Device> &devices() const { return spread_.devices(); }
  const multi_kary_config &configuration() const { return config_; }
  const std::vector<double> &weights() const { return spread_.weights(); }
  const kary_multi_times &last_times() const { return last_; }

  // Every device streams its data in pieces of about `bytes` bytes (tests set small ones).
  void set_piece_target(std::uint64_t bytes) {
    for (std::size_t i = 0; i < spread_.size(); ++i)
      spread_[i].set_piece_target(bytes);
  }

  // The tree over leaves in host memory (N >= 1 leaves of 32 bytes).
  kary_multi_tree build(const void *leaves, std::uint64_t leaf_bytes) {
    return build(memory_reader(leaves), leaf_bytes, std::nullopt);
  }
  // The tree over an input's leaves (N >= 1 leaves of 32 bytes).
  kary_multi_tree build(input &in) {
    return with_input_reader(in, "leaf", [&](const data_reader &read, std::uint64_t bytes) {
      try {
        leaf_count_of(bytes);
      } catch (const error &e) {
        throw error(in.name() + ": " + e.what());
      }
      return build(read, bytes, std::nullopt);
    });
  }
  // The tree over the leaves of data blocks (`rule`), in host memory (at least one byte).
  kary_multi_tree build(const void *data, std::uint64_t bytes, const leaf_rule &rule) {
    return build(memory_reader(data), bytes, rule);
  }
  // The same over an input's blocks: a regular file is read by each device at its own offsets,
  // anything else read whole first (with_input_reader). Errors name the input.
  kary_multi_tree build(input &in, const leaf_rule &rule) {
    return with_input_reader(in, "data block", [&](const data_reader &read, std::uint64_t bytes) {
      return build(read, bytes, rule);
    });
  }

  // The tree over `bytes` bytes from `read` (called by several devices at once): the leaves of
  // its blocks by `rule`, or without one the bytes themselves as leaves.
  kary_multi_tree build(const data_reader &read, std::uint64_t bytes,
                        const std::optional<leaf_rule> &rule) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t unit = rule ? check_rule(*rule) : node_bytes;
    const std::uint64_t leaf_count = rule ? block_count(bytes, unit) : leaf_count_of(bytes);
    if (leaf_count == 0) throw error("no data: a tree needs at least one leaf");
    const std::uint64_t grain =
        spread_.largest([&](const block_hasher &h) { return detail::piece_units(h, unit); });
    const kary_shard_plan plan = plan_kary_shards(leaf_count, config_.tree.arity, spread_.weights(),
                                                  config_.shard_levels, grain);
    last_ = {{}, plan, 0, 0};
    std::vector<std::optional<device_tree>> parts(spread_.size());
    return spread_.run(
        plan, last_, start,
        [&](std::size_t i, block_hasher &h) {
          const auto part_start = std::chrono::steady_clock::now();
          parts[i].emplace(h, part_leaves(plan, i, h, read, bytes, rule), config_.tree,
                           plan.shard_levels);
          build_times times = h.last_times();
          times.wall_ms = detail::ms_since(part_start);
          return detail::part_built{parts[i]->top_nodes(), times};
        },
        // The parts' top nodes are the shard level: the tree gathers them itself.
        [&](const std::vector<digest> &) {
          return kary_multi_tree(config_.tree, plan, std::move(parts));
        });
  }

private:
  static multi_kary_config checked(multi_kary_config cfg) {
    check_kary(cfg.tree);
    return cfg;
  }

  static std::uint64_t check_rule(const leaf_rule &rule) {
    check_leaf_rule(rule);
    return rule.block_bytes;
  }

  // Builder i's leaves on its device: hashed from its blocks of the data by `rule`, or without
  // one its bytes of the data uploaded as they are.
  static device_leaves part_leaves(const kary_shard_plan &plan, std::size_t i, block_hasher &h,
                                   const data_reader &read, std::uint64_t bytes,
                                   const std::optional<leaf_rule> &rule) {
    const std::uint64_t first = plan.first_leaf(i), count = plan.leaf_count_of(i);
    const auto [from, to] = detail::bytes_of(plan, i, rule ? rule->block_bytes : node_bytes, bytes);
    const std::string what =
        "leaves [" + std::to_string(first) + ", " + std::to_string(first + count) + ")";
    return rule ? h.leaves_of(read, from, to - from, *rule, what)
                : h.leaves_as_given(read, from, to - from, what);
  }

  multi_kary_config config_; // checked before spread_ sets up the devices
  detail::device_spread<block_hasher> spread_;
  kary_multi_times last_;
};

} // namespace merklize
