// SPDX-License-Identifier: Apache-2.0 OR MIT
// Many small binary trees built at once: B trees of n leaves each, tree k over leaves
// [k n, (k + 1) n) of one buffer (Celestia's row trees, one tree per block), every node hash,
// shapes promote and zero and a fixed depth: root k is, bit for bit, the root device_tree and
// merkleizer give the tree of those n leaves, for any n >= 1. The work is spread over all the
// trees: one launch a level over every tree's nodes of that level (plan/many_trees_plan.hpp), the
// levels where no pair straddles two trees by the level runner's launches over the whole buffer.
//
//   merklize::block_hasher h(device);
//   std::vector<merklize::digest> roots = merklize::roots_many(
//       h, leaves.data(), leaves.size() * 32, 256, merklize::config{{hash_kind::sha256}});
//   merklize::many_levels all = merklize::levels_many(h, leaves.data(), bytes, 256, cfg);
//   all.node(1, 7, 3); // tree 7's node 3 of level 1
//
// The caller's leaves are read, never written. Device memory: the leaves (from host memory, a
// copy) and every level above them, about as much again.
#pragma once

#include "../plan/many_trees_plan.hpp"
#include "../runtime/queue_drain.hpp"
#include "device_tree.hpp"

#include <optional>
#include <string>
#include <vector>

namespace merklize {

// Every level of B trees of n leaves: level l (0 .. each tree's top, leaves first, as
// device_tree::levels() has them) holds the trees' nodes of level l, tree after tree, each
// tree's ceil(n / 2^l) of them; and the roots (a fixed depth's above the top level).
struct many_levels {
  std::uint64_t trees = 0, tree_size = 0;
  std::vector<std::vector<digest>> levels;
  std::vector<digest> roots;

  std::uint64_t nodes_per_tree(unsigned level) const {
    return detail::ceil_shift(tree_size, level); // ceil(n / 2^level)
  }
  // Tree `tree`'s node `index` of level `level`.
  const digest &node(unsigned level, std::uint64_t tree, std::uint64_t index) const {
    return levels.at(level).at(static_cast<std::size_t>(tree * nodes_per_tree(level) + index));
  }
};

// The commands of the last build, profiled: the leaves' upload and the roots' (levels') reads,
// and the kernels.
struct many_trees_events {
  std::vector<cl::Event> transfers, kernels;
};

// Builds many trees of one configuration on h's device and queue, keeping its kernels and its
// level buffer (grown to the largest build) for the next build.
class many_trees_builder {
public:
  many_trees_builder(block_hasher &h, const config &cfg)
      : runtime_(h.context(), h.device()), queue_(h.queue()), cfg_(checked(cfg)),
        settings_(detail::resolve_launch_settings(runtime_.facts(), runtime_.tuning_row(), cfg)) {}

  // The roots of the trees of `tree_size` leaves over `bytes` bytes of leaves in host memory.
  std::vector<digest> roots(const void *leaves, std::uint64_t bytes, std::uint64_t tree_size) {
    const std::uint64_t trees = detail::many_tree_count(bytes, tree_size);
    if (!leaves) throw error("roots_many: the leaves are a null pointer");
    return build_from_host(leaves, trees, tree_size, false).roots;
  }

  // The same over `count` leaves in a device buffer of h's context, read where they are.
  std::vector<digest> roots(const cl::Buffer &leaves, std::uint64_t count,
                            std::uint64_t tree_size) {
    const std::uint64_t trees = detail::many_tree_count(count * node_bytes, tree_size);
    runtime_.check_buffer(leaves, "the leaves", count * node_bytes, "trees", "roots_many");
    return build(leaves, trees, tree_size, false).roots;
  }

  // Every level and the roots, from host memory or a device buffer.
  many_levels levels(const void *leaves, std::uint64_t bytes, std::uint64_t tree_size) {
    const std::uint64_t trees = detail::many_tree_count(bytes, tree_size, "levels_many");
    if (!leaves) throw error("levels_many: the leaves are a null pointer");
    return build_from_host(leaves, trees, tree_size, true);
  }
  many_levels levels(const cl::Buffer &leaves, std::uint64_t count, std::uint64_t tree_size) {
    const std::uint64_t trees =
        detail::many_tree_count(count * node_bytes, tree_size, "levels_many");
    runtime_.check_buffer(leaves, "the leaves", count * node_bytes, "trees", "levels_many");
    return build(leaves, trees, tree_size, true);
  }

  const many_trees_plan &last_plan() const { return plan_; }
  const many_trees_events &last_events() const { return events_; }
  const detail::launch_settings &settings() const { return settings_; }
  // The levels above the leaves of the last build on the device, all trees' nodes of a level
  // together (last_plan().levels[l - 1].first): the roots from last_plan().roots_first(), for a
  // caller that keeps working on the device. Holds device_bytes() - the leaves' copy.
  const cl::Buffer &level_buffer() const { return levels_; }
  // Device memory the builder holds: its level buffer and its copy of host leaves.
  std::uint64_t device_bytes() const { return levels_capacity_ + leaves_capacity_; }

private:
  static const config &checked(const config &cfg) {
    check_config(cfg);
    check_tree_options(cfg.tree);
    return cfg;
  }

  many_levels build_from_host(const void *leaves, std::uint64_t trees, std::uint64_t tree_size,
                              bool keep_levels) {
    const std::uint64_t bytes = trees * tree_size * node_bytes;
    events_ = {};
    runtime_.grow(leaves_, leaves_capacity_, bytes);
    cl::Event upload;
    detail::call("clEnqueueWriteBuffer", [&] { // blocking: the caller's leaves are free after it
      return queue_.enqueueWriteBuffer(leaves_, CL_TRUE, 0, bytes, leaves, nullptr, &upload);
    });
    const std::vector<cl::Event> uploaded = {upload};
    many_levels built = build(leaves_, trees, tree_size, keep_levels);
    events_.transfers.insert(events_.transfers.begin(), uploaded.begin(), uploaded.end());
    return built;
  }

  // Plans, enqueues every level and reads back the roots (and levels).
  many_levels build(const cl::Buffer &leaves, std::uint64_t trees, std::uint64_t tree_size,
                    bool keep_levels) {
    plan_ = plan_many_trees(settings_, trees, tree_size, cfg_.tree); // refuses before any launch
    events_.kernels.clear();
    events_.transfers.clear();
    const detail::drain_on_unwind drained(queue_); // nothing runs on once this has failed
    return detail::in_step(
        [&] {
          return "building " + std::to_string(trees) + " trees of " + std::to_string(tree_size) +
                 " leaves on " + detail::name_in_message(runtime_.device());
        },
        [&] {
          runtime_.grow(levels_, levels_capacity_,
                        std::max<std::uint64_t>(1, plan_.level_nodes) * node_bytes);
          enqueue_levels(leaves);
          return read_back(leaves, keep_levels);
        });
  }

  void enqueue_levels(const cl::Buffer &leaves) {
    if (plan_.runner_levels > 0) {
      if (!runner_) runner_.emplace(runtime_, cfg_, settings_);
      runner_->enqueue(queue_, {leaves, 0, plan_.trees * plan_.tree_size, 0},
                       {levels_, 0, plan_.levels.front().nodes, 0, plan_.runner_levels},
                       plan_.root_level, {}, events_.kernels);
    }
    if (plan_.runner_levels == plan_.levels.size()) return;
    if (!kernel_())
      kernel_ = runtime_.kernel(detail::merkle_many_program(cfg_.tree.hash), "merkle_many_level",
                                settings_.local_size);
    const auto zeros = zero_subtree_roots(cfg_.tree.hash, std::max(1u, plan_.root_level));
    zeros_ = runtime_.copy_of(zeros.data(), zeros.size() * node_bytes);
    for (const many_level &l : plan_.levels) {
      if (l.by_runner) continue;
      const bool from_leaves = l.level == 1;
      detail::set_args(kernel_, from_leaves ? leaves : levels_,
                       cl_ulong(from_leaves ? 0 : plan_.levels[l.level - 2].first),
                       cl_ulong(l.in_per_tree), levels_, cl_ulong(l.first),
                       cl_ulong(l.out_per_tree), cl_ulong(l.nodes), zeros_, cl_ulong(l.level - 1),
                       cl_int(cfg_.tree.shape == shape::zero || l.level > plan_.top),
                       cl_int(l.is_root));
      events_.kernels.push_back(
          detail::launch(queue_, kernel_, l.nodes, settings_.local_size,
                         events_.kernels.empty() ? std::vector<cl::Event>{}
                                                 : std::vector<cl::Event>{events_.kernels.back()}));
    }
  }

  // The roots, and with keep_levels levels 0 .. top, read back; waits for them.
  many_levels read_back(const cl::Buffer &leaves, bool keep_levels) {
    many_levels out{plan_.trees, plan_.tree_size, {}, {}};
    const detail::drain_on_unwind drained(queue_); // no read may still be writing into out
    const std::uint64_t leaf_count = plan_.trees * plan_.tree_size;
    if (keep_levels) {
      out.levels.emplace_back(static_cast<std::size_t>(leaf_count));
      read(leaves, 0, out.levels.back());
      for (unsigned level = 1; level <= plan_.top; ++level) {
        const many_level &l = plan_.levels[level - 1];
        out.levels.emplace_back(static_cast<std::size_t>(l.nodes));
        read(levels_, l.first, out.levels.back());
      }
    }
    out.roots.resize(static_cast<std::size_t>(plan_.trees));
    read(plan_.levels.empty() ? leaves : levels_, plan_.roots_first(), out.roots);
    detail::call("clFinish", [&] { return queue_.finish(); });
    return out;
  }

  void read(const cl::Buffer &from, std::uint64_t first, std::vector<digest> &to) {
    cl::Event done;
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(from, CL_FALSE, first * node_bytes, to.size() * node_bytes,
                                      to.data(), nullptr, &done);
    });
    events_.transfers.push_back(done);
  }

  detail::device_runtime runtime_;
  cl::CommandQueue queue_; // the block_hasher's, in order
  config cfg_;
  detail::launch_settings settings_;
  std::optional<detail::level_runner> runner_; // made on the first build with runner levels
  cl::Kernel kernel_;                          // merkle_many_level, built on first use
  cl::Buffer levels_, leaves_, zeros_;         // leaves_: a copy of host leaves
  std::uint64_t levels_capacity_ = 0, leaves_capacity_ = 0;
  many_trees_plan plan_;
  many_trees_events events_;
};

// The roots of the trees of `tree_size` leaves each over `bytes` bytes of leaves in host memory
// (bytes a multiple of 32 * tree_size): root k over leaves [k tree_size, (k + 1) tree_size).
inline std::vector<digest> roots_many(block_hasher &h, const void *leaves, std::uint64_t bytes,
                                      std::uint64_t tree_size, const config &cfg) {
  return many_trees_builder(h, cfg).roots(leaves, bytes, tree_size);
}

// The same over `count` leaves in a device buffer of h's context.
inline std::vector<digest> roots_many(block_hasher &h, const cl::Buffer &leaves,
                                      std::uint64_t count, std::uint64_t tree_size,
                                      const config &cfg) {
  return many_trees_builder(h, cfg).roots(leaves, count, tree_size);
}

// Every level of those trees (and their roots).
inline many_levels levels_many(block_hasher &h, const void *leaves, std::uint64_t bytes,
                               std::uint64_t tree_size, const config &cfg) {
  return many_trees_builder(h, cfg).levels(leaves, bytes, tree_size);
}

} // namespace merklize
