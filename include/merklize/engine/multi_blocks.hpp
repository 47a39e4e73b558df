// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees over data blocks built on several devices (or MPI ranks): each device hashes the blocks
// of its own run of shards into leaves and builds its part of the tree from them, on the device,
// so the data crosses the bus once; the host finishes the few levels above the shards.
//
//   merklize::multi_block_merkleizer mm(merklize::select_devices("0:0,0:1"), {options});
//   merklize::leaf_rule rule;                       // SHA-256 of 4 KiB blocks
//   merklize::tree t = mm.build(data, bytes, rule);  // = block_tree_root's tree, bit for bit
//
// The leaves are those of block_leaves.hpp, the tree the binary tree of config::tree over them:
// the tree block_tree_root builds on one device and reference_tree builds on the host. The shards
// are planned by plan_shards (parts.hpp) over the blocks, so each device's run obeys the
// aligned-part rule and its level S (config::shard_log2) is the tree's.
//
// block_part_builder is one device's share: build_part is merkleizer::build_part's contract
// for leaves hashed from data on the device. multi_block_merkleizer runs one per device on a
// thread of its own; merklize-mpi runs one per rank.
#pragma once

#include "../pipeline/level_runner.hpp"
#include "../plan/launch_plan.hpp"
#include "../plan/parts.hpp"
#include "../runtime/queue_drain.hpp"
#include "block_tree.hpp"
#include "spread.hpp"

#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

// One device's part of a tree over data blocks: the blocks' leaves hashed on the device
// (block_hasher) and the part's levels built from them there (the level kernels of merkleizer).
// Not thread-safe; use one per thread.
class block_part_builder {
public:
  explicit block_part_builder(const cl::Device &device, config cfg = {})
      : block_part_builder(detail::shared_context(device), device, std::move(cfg)) {}

  // `device` must belong to `context`.
  block_part_builder(const cl::Context &context, const cl::Device &device, config cfg = {})
      : hasher_(context, device), runtime_(context, device), config_(checked(std::move(cfg))),
        levels_(runtime_, config_,
                detail::resolve_launch_settings(runtime_.facts(), runtime_.tuning_row(), config_)) {
  }

  const cl::Device &device() const { return runtime_.device(); }
  // The leaf kernels (set_piece_target sets the pieces the data streams in).
  block_hasher &hasher() { return hasher_; }
  const block_hasher &hasher() const { return hasher_; }
  // The form of the level kernels' program (programs.hpp); builds it now if not yet, so that a
  // timed build does not.
  merklize::program_form program_form() const { return levels_.level_program_form(); }

  // The part of tree `out` (config::tree's options, one leaf a block of `rule`) over the blocks
  // [first_block, first_block + ceil(bytes / L)), which are bytes [first_block L, first_block L +
  // bytes) of the data (`read` gives them): a part of whole blocks, or the part that ends the
  // tree. As merkleizer::build_part: the part obeys the aligned-part rule at level `top`; the
  // levels of it that `out` keeps (up to `top`) are written at their places in `out`; returns the
  // part's nodes of level `top`, a short last part's top node lifted by the lone-node rule. The
  // data streams through the device in pieces (a few held at once); the part's leaves and nodes
  // stay on it (64 bytes a block) until the kept levels are read back.
  std::vector<digest> build_part(const data_reader &read, const leaf_rule &rule,
                                 std::uint64_t first_block, std::uint64_t bytes, unsigned top,
                                 tree &out) {
    const auto start = std::chrono::steady_clock::now();
    check_leaf_rule(rule);
    const std::uint64_t count = block_count(bytes, rule.block_bytes);
    check_block_part(rule, first_block, bytes, count, top, out);
    const tree_layout layout(count);
    const tree_part part{first_block, layout, std::min(top, layout.depth())};
    const std::string blocks =
        "blocks [" + std::to_string(first_block) + ", " + std::to_string(first_block + count) + ")";
    const device_leaves leaves =
        hasher_.leaves_of(read, first_block * rule.block_bytes, bytes, rule, blocks);
    const device_tree levels(hasher_, leaves, config_, part.levels, out.root_depth(), blocks,
                             levels_);
    level_kernels_ = levels.level_kernels();
    for (unsigned k = out.first_level(); k <= part.levels; ++k)
      levels.read_levels(k, k, out.level_data(k) + (first_block >> k) * node_bytes);
    std::vector<digest> top_nodes = levels.top_nodes();
    if (part.levels < top) top_nodes = {lift_lone_node(top_nodes.front(), part, top, out)};
    wall_ms_ = detail::ms_since(start);
    return top_nodes;
  }

  // The last build_part: its uploads and kernels (leaves and levels), profiled; pieces as chunks.
  build_times last_times() const {
    build_times times = hasher_.last_times();
    times.kernel_ms += events_ms(level_kernels_);
    times.kernel_launches += level_kernels_.size();
    times.wall_ms = wall_ms_;
    return times;
  }

private:
  static config checked(config cfg) {
    check_config(cfg);
    return cfg;
  }

  // build_part's refusals, before any work.
  void check_block_part(const leaf_rule &rule, std::uint64_t first_block, std::uint64_t bytes,
                        std::uint64_t count, unsigned top, const tree &out) const {
    const char *who = "block_part_builder::build_part";
    check_part(who, out.leaf_count(), out.depth(), first_block, count, top);
    if (bytes % rule.block_bytes != 0 && first_block + count != out.leaf_count())
      throw error(std::string(who) + ": " + std::to_string(bytes) + " bytes are not whole " +
                  std::to_string(rule.block_bytes) + "-byte blocks, and only the part that ends " +
                  "the tree may end in a short block");
    const tree_options &o = out.options();
    if (o.hash != config_.tree.hash || o.shape != config_.tree.shape ||
        o.depth != config_.tree.depth)
      throw error(std::string(who) + ": the output tree's hash, shape or fixed depth is not " +
                  "this builder's (config::tree)");
    if (out.first_node_level() <= top && !out.nodes_data())
      throw error(std::string(who) + ": the output tree has no storage for its nodes");
  }

  block_hasher hasher_;
  detail::device_runtime runtime_;
  config config_;
  detail::level_runner levels_;
  std::vector<cl::Event> level_kernels_; // of the last build_part
  double wall_ms_ = 0;
};

// An input's whole content, read as a stream (a pipe, stdin, a small file): its blocks are
// counted before they are shared out.
inline std::vector<std::uint8_t> read_whole(input &in) {
  constexpr std::size_t first_buffer = std::size_t(1) << 20, max_read = std::size_t(16) << 20;
  std::vector<std::uint8_t> data(first_buffer);
  for (std::size_t used = 0;;) {
    if (used == data.size()) data.resize(2 * data.size());
    const std::size_t got =
        in.read_some(data.data() + used, std::min(max_read, data.size() - used));
    in.add_progress(got);
    if (got == 0) {
      data.resize(used);
      return data;
    }
    used += got;
  }
}

// Calls build(read, bytes) with `in`'s `bytes` bytes and returns what it returns: a regular file
// of more than 1 MiB is read where `read` is asked (by several devices at once, each at its own
// offsets), anything else (a pipe, stdin, a small file) read whole into memory first. An empty
// input is refused, naming it and the `unit` a tree needs at least one of.
template <class Build> auto with_input_reader(input &in, const char *unit, const Build &build) {
  const auto refuse_empty = [&](std::uint64_t bytes) {
    if (bytes == 0)
      throw error(in.name() + " is empty: a tree needs at least one " + std::string(unit));
  };
  if (!in.read_at_offsets()) {
    const std::vector<std::uint8_t> data = read_whole(in);
    in.check_unchanged();
    refuse_empty(data.size());
    return build(memory_reader(data.data()), data.size());
  }
  refuse_empty(*in.size());
  std::mutex progress;
  auto built = build(
      [&](std::uint64_t offset, std::uint64_t n, std::uint8_t *into) {
        in.read_at(offset, n, into);
        std::lock_guard<std::mutex> lock(progress);
        in.add_progress(n);
      },
      *in.size());
  in.check_unchanged();
  return built;
}

namespace detail {

// Units (blocks, or leaves as given) a piece of data streamed through `h` holds, at least one: no
// shard is smaller, as one would stream worse.
inline std::uint64_t piece_units(const block_hasher &h, std::uint64_t unit_bytes) {
  return std::max<std::uint64_t>(1, h.piece_bytes(unit_bytes, std::nullopt) / unit_bytes);
}

// The bytes [from, to) of the data (`bytes` in all) that builder i of `plan` hashes or uploads,
// its leaves being units of `unit_bytes`: the last unit of the data may be short.
template <class Plan>
std::pair<std::uint64_t, std::uint64_t> bytes_of(const Plan &plan, std::size_t i,
                                                 std::uint64_t unit_bytes, std::uint64_t bytes) {
  const std::uint64_t first = plan.first_leaf(i), count = plan.leaf_count_of(i);
  return {first * unit_bytes, std::min(bytes, (first + count) * unit_bytes)};
}

} // namespace detail

// One tree over data blocks on several devices. A multi_block_merkleizer is not thread-safe; it
// runs its own threads, and an error on any device is rethrown on the caller's thread.
class multi_block_merkleizer {
public:
  // MERKLIZE_DEVICES, else every GPU of the default platform (multi.hpp).
  explicit multi_block_merkleizer(config cfg = {})
      : multi_block_merkleizer(default_devices(), std::move(cfg)) {}

  // config::tree, config::output, the level kernels' knobs, shard_log2 and weights apply (the
  // chunk sizes do not: the data streams in block_hasher's pieces). Without weights, the devices
  // start even and each build's blocks per millisecond on each device become its weight.
  multi_block_merkleizer(std::vector<cl::Device> devices, config cfg = {})
      : config_(std::move(cfg)),
        spread_(std::move(devices), config_.weights, "multi_block_merkleizer", config_) {}

  const std::vector<cl::Device> &devices() const { return spread_.devices(); }
  const config &configuration() const { return config_; }
  const std::vector<double> &weights() const { return spread_.weights(); }
  // The last build: each device's blocks (as leaves) and times, the shards, the host's finish.
  const multi_times &last_times() const { return last_; }

  // Every device streams its data in pieces of about `bytes` bytes (tests set small ones).
  void set_piece_target(std::uint64_t bytes) {
    for (std::size_t i = 0; i < spread_.size(); ++i)
      spread_[i].hasher().set_piece_target(bytes);
  }

  // The tree over the leaves of `bytes` bytes of data in host memory (at least one byte), the
  // levels config::output asks for kept.
  tree build(const void *data, std::uint64_t bytes, const leaf_rule &rule) {
    return build(memory_reader(data), bytes, rule);
  }

  // The same over an input: a regular file of more than 1 MiB is read by each device at its own
  // offsets, a few pieces at a time; anything else (a pipe, stdin, a small file) is read whole
  // into memory first. Errors name the input.
  tree build(input &in, const leaf_rule &rule) {
    return with_input_reader(in, "data block", [&](const data_reader &read, std::uint64_t bytes) {
      return build(read, bytes, rule);
    });
  }

  // The same with the data from `read`, called by several devices at once.
  tree build(const data_reader &read, std::uint64_t bytes, const leaf_rule &rule) {
    check_leaf_rule(rule);
    if (bytes == 0) throw error("no data: a tree of data blocks needs at least one byte");
    const tree_layout layout(block_count(bytes, rule.block_bytes));
    root_depth(config_.tree, layout); // refuses a bad fixed depth before anything is allocated
    tree t(layout.leaf_count(), config_.tree, config_.output);
    build_into(read, bytes, rule, t);
    return t;
  }

private:
  // Shards of at least a piece of data each, unless config::shard_log2 asks for smaller ones.
  shard_plan plan_for(std::uint64_t blocks, const leaf_rule &rule) const {
    const std::uint64_t per_piece = spread_.largest([&](const block_part_builder &b) {
      return detail::piece_units(b.hasher(), rule.block_bytes);
    });
    return plan_shards(blocks, spread_.weights(), config_.shard_log2, detail::ceil_log2(per_piece));
  }

  void build_into(const data_reader &read, std::uint64_t bytes, const leaf_rule &rule, tree &out) {
    const auto start = std::chrono::steady_clock::now();
    const shard_plan plan = plan_for(out.leaf_count(), rule);
    const unsigned s = plan.shard_log2;
    last_ = multi_times{{}, s, plan.shards()};
    spread_.run(
        plan, last_, start,
        [&](std::size_t i, block_part_builder &b) {
          const auto [from, to] = detail::bytes_of(plan, i, rule.block_bytes, bytes);
          auto nodes = b.build_part(read, rule, plan.first_leaf(i), to - from, s, out);
          return detail::part_built{std::move(nodes), b.last_times()};
        },
        [&](const std::vector<digest> &level) { finish_tree(out, s, level); });
  }

  config config_; // before spread_, whose builders are made with it
  detail::device_spread<block_part_builder> spread_;
  multi_times last_;
};

} // namespace merklize
