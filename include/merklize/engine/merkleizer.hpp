// SPDX-License-Identifier: Apache-2.0 OR MIT
// merkleizer: builds Merkle trees on one OpenCL device.
//
//   merklize::merkleizer m;                          // default device (see device.hpp)
//   merklize::tree t = m.build(leaves);              // N x 32 bytes in, every node out
//   std::cout << merklize::to_hex(t.root()) << "\n";
//
// The builds are compositions of the pieces of plan/ and pipeline/ (docs/ARCHITECTURE.md): the
// launch planner (launch_plan.hpp) decides which kernel computes which levels and the level runner
// (level_runner.hpp) enqueues them; host builds stream the tree through the device in chunks
// (stream_plan.hpp plans them, stream.hpp runs them) with leaves from a source
// (leaf_sources.hpp: page-locked or pageable memory) and nodes to a sink (node_sinks.hpp: a host
// tree, page-locked or not, of the levels config::output keeps). Every choice the device's
// tuning row (tuning.hpp) or the configuration makes is resolved in the constructor.
//
// A merkleizer is not thread-safe; use one per thread. Programs and contexts are shared.
//
// This header declares; engine/merkleizer.ipp defines, included below unless the program compiles
// the library once (MERKLIZE_SEPARATE_COMPILATION, core/separate_compilation.hpp).
#pragma once

#include "../core/separate_compilation.hpp"
#include "../io/input.hpp"
#include "../pipeline/chunk_stream.hpp"
#include "../pipeline/level_runner.hpp"
#include "../pipeline/stream_memory.hpp"
#include "../plan/build_config.hpp"
#include "../plan/parts.hpp"
#include "../runtime/host_buffer.hpp"
#include "../runtime/host_pool.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/program_warmup.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace merklize {
namespace detail {

// For build(const host_buffer &leaves, tree &out) (here and multi.hpp): `out`, which must come
// from allocate_tree(N) with configuration `cfg`, with `leaves` as its level 0 and its node memory.
MERKLIZE_DECL tree reused_tree(const host_buffer &leaves, const tree &out, const config &cfg);

} // namespace detail

class merkleizer {
public:
  MERKLIZE_DECL explicit merkleizer(config cfg = {});
  MERKLIZE_DECL explicit merkleizer(const cl::Device &device, config cfg = {});
  // For buffers of the caller's own context: `device` must belong to `context`.
  MERKLIZE_DECL merkleizer(const cl::Context &context, const cl::Device &device, config cfg = {});
  MERKLIZE_DECL ~merkleizer();

  const cl::Context &context() const { return runtime_.context(); }
  const cl::Device &device() const { return runtime_.device(); }
  // The queue of the kernels (in order, with profiling).
  const cl::CommandQueue &queue() const { return queues_.kernels; }
  const config &configuration() const { return config_; }
  // The row of the tuning table this device got (tuning.hpp); config_ overrides its fields.
  const merklize::tuning &tuning() const { return runtime_.tuning_row(); }

  // Nodes that enqueue_build writes for N leaves: levels 1..depth, and for N = 1 the root (the
  // leaf itself), so the root is always the last node written.
  static std::uint64_t output_node_count(std::uint64_t leaf_count) {
    return std::max<std::uint64_t>(1, tree_layout(leaf_count).internal_node_count());
  }

  // Device buffers in and out. `leaves` holds N x 32 bytes; `nodes` receives
  // output_node_count(N) nodes in the tree layout less its leaves (level 1 at offset 0, root
  // last). Waits for `wait` first; returns the events of the enqueued commands, the last one
  // completing the tree. Nothing is read back.
  // With tree.depth above ceil(log2 N), the last node is the top stored node, not the root:
  // extend_root(hash, top, tree_layout(N).depth(), *tree.depth) gives the root.
  MERKLIZE_DECL std::vector<cl::Event> enqueue_build(const cl::Buffer &leaves,
                                                     std::uint64_t leaf_count,
                                                     const cl::Buffer &nodes,
                                                     const std::vector<cl::Event> &wait = {});

  // Page-locked host memory of this merkleizer's context: fill leaves in it, or read results.
  MERKLIZE_DECL host_buffer allocate_host(std::size_t bytes) const;

  // A tree for build(const host_buffer&, tree&), its nodes in page-locked memory.
  // Its level 0 is the leaves given to each build.
  MERKLIZE_DECL tree allocate_tree(std::uint64_t leaf_count) const;

  // Host leaves in (N x 32 bytes), the levels config::output asks for out. The tree's memory is
  // page-locked and comes from this merkleizer's pool: freed trees give it back, so a build
  // after one whose tree is gone reuses it (see "Memory" in the README). The leaves, where the
  // tree keeps them, are copied into it chunk by chunk and uploaded from there.
  MERKLIZE_DECL tree build(const void *leaves, std::uint64_t leaf_bytes);

  tree build(const std::vector<std::uint8_t> &leaves) {
    return build(leaves.data(), leaves.size());
  }

  // Leaves in page-locked memory: uploaded without staging, and kept by the tree as its level 0
  // (no copy). The nodes come back into fresh page-locked memory.
  MERKLIZE_DECL tree build(const host_buffer &leaves);

  // The same into a tree from allocate_tree(N), whose memory is reused.
  MERKLIZE_DECL void build(const host_buffer &leaves, tree &out);

  // The part of tree `out` (any size, layout of out.leaf_count() leaves) over its leaves
  // [first_leaf, first_leaf + count), levels 1..top of it, for trees built on several devices
  // (multi.hpp) or hosts: the part must obey the aligned-part rule at level `top` (parts.hpp),
  // so its levels 1..top are the whole tree's there. Writes the levels of the part that `out`
  // keeps (out.first_level()..top; level 0 is copied unless `leaves` already is its place in
  // `out`) at their places in `out`, and returns the part's ceil(count / 2^top) nodes of level
  // `top` (always, kept or not). No ROOT flag is set unless the part's top node is the tree's
  // root (blake3-parent), i.e. top is the root level of `out`. `out`'s options must be this
  // merkleizer's (config::tree). Leaves and nodes in page-locked memory of this context
  // (allocate_host, allocate_tree) move without staging. A part that is the whole tree (top =
  // its depth) is exactly build(leaves, bytes) into `out`.
  MERKLIZE_DECL std::vector<digest> build_part(const void *leaves, std::uint64_t first_leaf,
                                               std::uint64_t count, unsigned top, tree &out);

  // The root of the leaves an input gives (N x 32 bytes; for a pipe N is known only at its end),
  // streamed through the device in chunks of 2^input_chunk_log2 leaves (config::input_chunk_log2,
  // else the tuning row's), each read into
  // page-locked staging ahead of its upload (a regular file by several threads). Only each
  // chunk's top node comes back; the host finishes the few levels above. Memory: the staging
  // (three chunks for a file, two for a pipe) and two chunks of leaves and nodes on the device,
  // whatever N. Errors name the input. An empty input (N = 0) has the root empty_tree_root gives
  // where the tree has one (rfc6962, shape zero with a fixed depth), and is refused otherwise.
  MERKLIZE_DECL digest root(input &in);

  // The inclusion proof of leaf `index` of an input's leaves, streamed as root() streams them:
  // the chunk holding the leaf comes back whole, the others as their top node.
  MERKLIZE_DECL inclusion_proof prove(input &in, std::uint64_t index);

  // Host builds stream chunks of 2^chunk_log2() leaves (config::chunk_log2, else the tuning
  // row's), smaller ones where the device's memory asks.
  unsigned chunk_log2() const { return chunk_log2_; }

  // The times of the last host build: the profiled sums of its commands, read now.
  MERKLIZE_DECL build_times last_times() const;

  // Every command of the last host build, ordered by start.
  std::vector<command_span> timeline() const { return log_.timeline(); }

  // The programs of the level kernels for this device and configuration (files and options):
  // merkle_subtree or merkle_level_lanes; merkle_level and merkle_levels with 32-bit node
  // indices or, with wide_index, 64-bit ones.
  MERKLIZE_DECL detail::program_spec level_program() const;
  MERKLIZE_DECL detail::program_spec merkle_level_program(bool wide_index = false) const;
  MERKLIZE_DECL detail::program_spec merkle_levels_program(bool wide_index = false) const;
  // Nodes per work-item of merkle_level and levels per launch of merkle_levels on this device.
  unsigned nodes_per_item() const { return levels_.settings().nodes_per_item; }
  unsigned levels_per_item() const { return levels_.settings().levels_per_item; }

  // The form the level kernels' program was built from (programs.hpp); builds it if not yet.
  MERKLIZE_DECL merklize::program_form program_form() const;

private:
  // How a host build's leaves reach the device: from page-locked memory; from pageable memory
  // through staging; or copied into the tree's page-locked level 0 and uploaded from there.
  enum class leaf_route { pinned, pageable, into_tree };

  MERKLIZE_DECL static config checked(config cfg);
  MERKLIZE_DECL detail::streamed_tree stream_input(input &in,
                                                   std::optional<std::uint64_t> keep_leaf);
  MERKLIZE_DECL void warm_up();
  MERKLIZE_DECL std::uint64_t input_piece_bytes(std::optional<std::uint64_t> size) const;
  MERKLIZE_DECL detail::stream_plan plan_for(const tree_part &part) const;
  MERKLIZE_DECL tree pooled_tree(const tree_layout &layout) const;
  MERKLIZE_DECL std::vector<digest> build_levels(const std::uint8_t *leaves, leaf_route route,
                                                 bool nodes_pinned, const tree_part &part, tree &t,
                                                 const detail::stream_plan &plan);
  MERKLIZE_DECL std::vector<cl::Event> enqueue_levels(const cl::Buffer &leaves,
                                                      std::uint64_t leaf_count,
                                                      const cl::Buffer &nodes,
                                                      const std::vector<cl::Event> &wait);
  MERKLIZE_DECL bool zero_copy(const tree &t) const;
  MERKLIZE_DECL void build_in_place(const std::uint8_t *leaves, tree &t);
  MERKLIZE_DECL void check_part(const void *leaves, std::uint64_t first_leaf, std::uint64_t count,
                                unsigned top, const tree &out) const;

  detail::device_runtime runtime_;
  config config_;
  unsigned chunk_log2_, in_flight_;
  detail::device_memory memory_limits_;
  detail::stream_queues queues_;
  detail::stream_memory memory_;
  detail::level_runner levels_;
  detail::piece_pipeline pieces_;     // inputs' chunks into page-locked staging and up
  detail::chunk_stream chunk_stream_; // their levels on the device
  detail::host_pool pool_;            // page-locked memory of the trees build() returns
  // The last host build.
  detail::event_log log_;
  double wall_ms_ = 0;
  std::uint64_t last_chunks_ = 0;
  // Last: its thread loads the level program while the first build starts (warm_up). Shared:
  // merkleizers are copied (a copy waits for the same load).
  std::shared_ptr<detail::program_warmup> warmup_;
};

} // namespace merklize

#if !defined(MERKLIZE_SEPARATE_COMPILATION)
#include "merkleizer.ipp"
#endif
