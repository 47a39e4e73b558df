// SPDX-License-Identifier: Apache-2.0 OR MIT
// The level runner: enqueues the launches that the launch planner lays out for the levels above a
// level of a tree, one after another on one in-order queue. Each kernel is built when a launch
// first needs it, so a build compiles only the programs it runs.
#pragma once

#include "../plan/build_config.hpp"
#include "../plan/launch_plan.hpp"
#include "../plan/stream_plan.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/runtime.hpp"

#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

// Where a span of levels reads its first level from.
struct level_source {
  const cl::Buffer &buffer;
  std::uint64_t first; // node offset of the level in buffer
  std::uint64_t count; // nodes in the level
  unsigned level;      // its level in the tree
};

// Where `levels` levels above a source go: as in the tree layout, level j (from 0) of the
// span starting at node `first` of buffer and holding `size` nodes, halving (rounded up) each
// level, with the span's nodes from index `offset >> j` of level j (a chunk in its place).
struct level_target {
  const cl::Buffer &buffer;
  std::uint64_t first, size, offset;
  unsigned levels;

  // The target of the levels from j on.
  level_target from(unsigned j) const {
    level_target t = *this;
    for (unsigned k = 0; k < j; ++k) {
      t.first += t.size;
      t.size = (t.size + 1) / 2;
    }
    t.offset >>= j;
    t.levels -= j;
    return t;
  }
  std::uint64_t node_first() const { return first + offset; }
};

class level_runner {
public:
  level_runner(device_runtime runtime, const config &cfg, const launch_settings &settings)
      : runtime_(std::move(runtime)), options_(cfg.tree), level_options_(cfg.level_options),
        settings_(settings), zeros_(zero_roots(runtime_, cfg.tree.hash)) {}

  const launch_settings &settings() const { return settings_; }

  // Enqueues on `queue` the levels above `source` into `target`, after `wait`; each launch's
  // event is appended to `events`. The node of `root_level` gets blake3-parent's ROOT flag.
  void enqueue(const cl::CommandQueue &queue, const level_source &source,
               const level_target &target, unsigned root_level, const std::vector<cl::Event> &wait,
               std::vector<cl::Event> &events) {
    unsigned done = 0;
    for (const planned_launch &l : plan_launches(settings_, source.count, target.levels)) {
      const level_target out = target.from(done);
      const level_source in = done == 0
                                  ? source
                                  : level_source{target.buffer, target.from(done - 1).node_first(),
                                                 l.in_count, source.level + done};
      // The launch level that is the root, counted from 0, or -1.
      const int top = in.level + l.levels == root_level ? int(l.levels) - 1 : -1;
      cl::Kernel &kernel = kernel_for(l);
      if (l.kernel == kernel_kind::level || l.kernel == kernel_kind::lanes)
        set_args(kernel, in.buffer, cl_ulong(in.first), cl_ulong(in.count), out.buffer,
                 cl_ulong(out.node_first()), zeros_, cl_ulong(in.level), pad_with_zero(),
                 cl_int(top == 0));
      else if (l.kernel == kernel_kind::levels)
        set_args(kernel, in.buffer, cl_ulong(in.first), cl_ulong(in.count), out.buffer,
                 cl_ulong(out.first), cl_ulong(out.size), cl_ulong(out.offset), zeros_,
                 cl_ulong(in.level), pad_with_zero(), cl_int(top));
      else
        set_args(kernel, in.buffer, cl_ulong(in.first), cl_ulong(in.count), out.buffer,
                 cl_ulong(out.first), cl_ulong(out.size), cl_ulong(out.offset), cl_int(l.levels),
                 zeros_, cl_ulong(in.level), pad_with_zero(), cl_int(top));
      events.push_back(launch(queue, kernel, l.items, settings_.local_size,
                              done == 0 ? wait : std::vector<cl::Event>{events.back()}));
      done += l.levels;
    }
  }

  // The program of merkle_subtree (or, with lanes, merkle_level_lanes) for this device and
  // configuration; the configuration's level_options go to it when it runs the one-level
  // launches.
  program_spec level_program() const {
    const auto spec = merkle_program(options_.hash, settings_.local_size, settings_.lanes);
    return settings_.one_level ? spec : with_extra_options(spec, level_options_);
  }
  // The program of merkle_level, with 32-bit node indices or, with wide_index, 64-bit ones.
  program_spec merkle_level_program(bool wide_index = false) const {
    return with_extra_options(
        merklize::detail::merkle_level_program(options_.hash, settings_.local_size,
                                               settings_.nodes_per_item, wide_index),
        level_options_);
  }
  // The program of merkle_levels, the same.
  program_spec merkle_levels_program(bool wide_index = false) const {
    return with_extra_options(
        merklize::detail::merkle_levels_program(options_.hash, settings_.local_size,
                                                settings_.levels_per_item, wide_index),
        level_options_);
  }

  // The form the level program was built from (programs.hpp); builds it if not yet.
  program_form level_program_form() const { return runtime_.program(level_program()).form; }

private:
  // The zero-subtree roots of heights 0..zero_root_nodes - 1, which shape zero hashes lone nodes
  // with.
  static cl::Buffer zero_roots(const device_runtime &runtime, hash_kind hash) {
    const auto zeros = zero_subtree_roots(hash, zero_root_nodes - 1);
    return runtime.copy_of(zeros.data(), zero_root_nodes * node_bytes);
  }

  cl_int pad_with_zero() const { return options_.shape == shape::zero; }

  cl::Kernel &kernel_for(const planned_launch &l) {
    if (l.kernel == kernel_kind::level)
      return built(level_[l.wide_index], merkle_level_program(l.wide_index), "merkle_level");
    if (l.kernel == kernel_kind::levels)
      return built(levels_[l.wide_index], merkle_levels_program(l.wide_index), "merkle_levels");
    return built(subtree_, level_program(),
                 l.kernel == kernel_kind::lanes ? "merkle_level_lanes" : "merkle_subtree");
  }

  cl::Kernel &built(cl::Kernel &kernel, const program_spec &spec, const char *name) {
    if (!kernel()) kernel = runtime_.kernel(spec, name, settings_.local_size);
    return kernel;
  }

  device_runtime runtime_;
  tree_options options_;
  std::string level_options_;
  launch_settings settings_;
  cl::Buffer zeros_;
  // Built on first use: merkle_subtree or merkle_level_lanes (one program serves a device's
  // fused and lanes launches), merkle_level and merkle_levels with 32- and 64-bit indices.
  cl::Kernel subtree_, level_[2], levels_[2];
};

} // namespace detail
} // namespace merklize
