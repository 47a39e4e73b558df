// SPDX-License-Identifier: Apache-2.0 OR MIT
// merkleizer: builds Merkle trees on one OpenCL device.
//
//   merklize::merkleizer m;                          // default device (see device.hpp)
//   merklize::tree t = m.build(leaves);              // N x 32 bytes in, every node out
//   std::cout << merklize::to_hex(t.root()) << "\n";
//
// The builds are compositions of the pieces under detail/ (docs/ARCHITECTURE.md): the launch
// planner (launch_plan.hpp) decides which kernel computes which levels and the level runner
// (level_runner.hpp) enqueues them; host builds stream the tree through the device in chunks
// (stream_plan.hpp plans them, stream.hpp runs them) with leaves from a source
// (leaf_sources.hpp: page-locked or pageable memory) and nodes to a sink (node_sinks.hpp: a host
// tree, page-locked or not, of the levels config::output keeps). Every choice the device's
// tuning row (tuning.hpp) or the configuration makes is resolved in the constructor.
//
// A merkleizer is not thread-safe; use one per thread. Programs and contexts are shared.
#pragma once

#include "build_config.hpp"
#include "detail/chunk_stream.hpp"
#include "detail/host_pool.hpp"
#include "detail/leaf_sources.hpp"
#include "detail/level_runner.hpp"
#include "detail/node_sinks.hpp"
#include "detail/stream.hpp"
#include "host_buffer.hpp"
#include "input.hpp"
#include "parts.hpp"
#include "profiling.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

// For build(const host_buffer &leaves, tree &out): `out`, which must come from allocate_tree(N)
// with configuration `cfg`, with `leaves` as its level 0 and its node memory.
inline tree reused_tree(const host_buffer &leaves, const tree &out, const config &cfg) {
  const tree_layout layout(leaf_count_of(leaves.size()));
  if (out.leaf_count() != layout.leaf_count() ||
      out.first_level() != std::min(cfg.output.first, layout.depth()))
    throw error("build: the output tree was allocated for " + std::to_string(out.leaf_count()) +
                " leaves from level " + std::to_string(out.first_level()) + ", not " +
                std::to_string(layout.leaf_count()) + " leaves with this configuration");
  root_depth(cfg.tree, layout); // refuses a bad fixed depth
  return tree(layout, cfg.tree, cfg.output, leaves.share(), out.nodes_storage());
}

// Runs `work` while another thread copies the part's leaves into t's level 0, when t keeps it
// and they are not there already (a host_buffer that t holds as its level 0).
template <class Work>
void with_leaf_copy(tree &t, const tree_part &part, const void *leaves, Work &&work) {
  std::uint8_t *to =
      t.first_level() == 0 ? t.level_data(0) + part.first_leaf * node_bytes : nullptr;
  std::thread copy;
  if (to && to != leaves)
    copy = std::thread([&] { std::memcpy(to, leaves, part.layout.leaf_count() * node_bytes); });
  try {
    work();
  } catch (...) {
    if (copy.joinable()) copy.join();
    throw;
  }
  if (copy.joinable()) copy.join();
}

} // namespace detail

class merkleizer {
public:
  explicit merkleizer(config cfg = {}) : merkleizer(default_device(), cfg) {}

  explicit merkleizer(const cl::Device &device, config cfg = {})
      : merkleizer(detail::shared_context(device), device, cfg) {}

  // For buffers of the caller's own context: `device` must belong to `context`.
  merkleizer(const cl::Context &context, const cl::Device &device, config cfg = {})
      : runtime_(context, device), config_(checked(std::move(cfg))),
        chunk_log2_(config_.chunk_log2 ? config_.chunk_log2 : tuning().chunk_log2),
        in_flight_(config_.chunks_in_flight ? config_.chunks_in_flight : tuning().chunks_in_flight),
        memory_limits_(detail::memory_for(runtime_.facts(), config_.max_device_bytes)),
        queues_(runtime_), memory_(runtime_, queues_),
        levels_(runtime_, config_,
                detail::resolve_launch_settings(runtime_.facts(), tuning(), config_)),
        pieces_(runtime_.context(), queues_.uploads, runtime_.shares_host_memory()),
        chunk_stream_(runtime_), pool_(runtime_.context(), queues_.uploads) {}

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
  std::vector<cl::Event> enqueue_build(const cl::Buffer &leaves, std::uint64_t leaf_count,
                                       const cl::Buffer &nodes,
                                       const std::vector<cl::Event> &wait = {}) {
    const tree_layout layout(leaf_count);
    const unsigned root_level = root_depth(config_.tree, layout); // refuses a bad tree.depth
    runtime_.check_buffer(leaves, "leaves", leaf_count * node_bytes, "merkleizer", "tree");
    runtime_.check_buffer(nodes, "nodes", output_node_count(leaf_count) * node_bytes, "merkleizer",
                          "tree");
    std::vector<cl::Event> events;
    if (leaf_count == 1) {
      events.emplace_back();
      detail::call("clEnqueueCopyBuffer", [&] {
        return queue().enqueueCopyBuffer(leaves, nodes, 0, 0, node_bytes, &wait, &events.back());
      });
      return events;
    }
    levels_.enqueue(queue(), {leaves, 0, leaf_count, 0},
                    {nodes, 0, layout.level_size(1), 0, layout.depth()}, root_level, wait, events);
    return events;
  }

  // Page-locked host memory of this merkleizer's context: fill leaves in it, or read results.
  host_buffer allocate_host(std::size_t bytes) const {
    return host_buffer(context(), queues_.uploads, bytes);
  }

  // A tree for build(const host_buffer&, tree&), its nodes in page-locked memory.
  // Its level 0 is the leaves given to each build.
  tree allocate_tree(std::uint64_t leaf_count) const {
    const tree_layout layout(leaf_count);
    const unsigned keep = std::max(1u, std::min(config_.output.first, layout.depth()));
    const std::uint64_t bytes = (layout.node_count() - layout.level_offset(keep)) * node_bytes;
    return tree(layout, config_.tree, config_.output, nullptr,
                bytes ? allocate_host(bytes).share() : nullptr);
  }

  // Host leaves in (N x 32 bytes), the levels config::output asks for out. The tree's memory is
  // page-locked and comes from this merkleizer's pool: freed trees give it back, so a build
  // after one whose tree is gone reuses it (see "Memory" in the README). The leaves, where the
  // tree keeps them, are copied into it chunk by chunk and uploaded from there.
  tree build(const void *leaves, std::uint64_t leaf_bytes) {
    const tree_layout layout(leaf_count_of(leaf_bytes));
    root_depth(config_.tree, layout); // refuses a bad fixed depth before anything is allocated
    const tree_part whole{0, layout, layout.depth()};
    const detail::stream_plan plan = plan_for(whole); // before any allocation: the tree must fit
    tree t = pooled_tree(layout);
    const auto *from = static_cast<const std::uint8_t *>(leaves);
    const bool nodes_pinned = is_page_locked(context(), t.nodes_data(), t.nodes_size());
    const auto start = std::chrono::steady_clock::now();
    if (t.first_level() == 0 && layout.depth() > 0 && !zero_copy(t) &&
        is_page_locked(context(), t.level_data(0), t.leaves_size()))
      build_levels(from, leaf_route::into_tree, nodes_pinned, whole, t, plan);
    else
      detail::with_leaf_copy(t, whole, leaves, [&] {
        build_levels(from, leaf_route::pageable, nodes_pinned, whole, t, plan);
      });
    wall_ms_ = detail::ms_since(start);
    return t;
  }

  tree build(const std::vector<std::uint8_t> &leaves) {
    return build(leaves.data(), leaves.size());
  }

  // Leaves in page-locked memory: uploaded without staging, and kept by the tree as its level 0
  // (no copy). The nodes come back into fresh page-locked memory.
  tree build(const host_buffer &leaves) {
    tree t = allocate_tree(leaf_count_of(leaves.size()));
    build(leaves, t);
    return t;
  }

  // The same into a tree from allocate_tree(N), whose memory is reused.
  void build(const host_buffer &leaves, tree &out) {
    tree on_leaves = detail::reused_tree(leaves, out, config_);
    const tree_part whole{0, on_leaves.layout(), on_leaves.depth()};
    const detail::stream_plan plan = plan_for(whole);
    const auto start = std::chrono::steady_clock::now();
    out = std::move(on_leaves);
    build_levels(leaves.data(), leaf_route::pinned, true, whole, out, plan);
    wall_ms_ = detail::ms_since(start);
  }

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
  std::vector<digest> build_part(const void *leaves, std::uint64_t first_leaf, std::uint64_t count,
                                 unsigned top, tree &out) {
    check_part(leaves, first_leaf, count, top, out);
    const tree_layout layout(count);
    const tree_part part{first_leaf, layout, std::min(top, layout.depth())};
    const detail::stream_plan plan = plan_for(part);
    const auto start = std::chrono::steady_clock::now();
    std::vector<digest> nodes;
    detail::with_leaf_copy(out, part, leaves, [&] {
      nodes = build_levels(
          static_cast<const std::uint8_t *>(leaves),
          is_page_locked(context(), leaves, count * node_bytes) ? leaf_route::pinned
                                                                : leaf_route::pageable,
          is_page_locked(context(), out.nodes_data(), out.nodes_size()), part, out, plan);
    });
    if (part.levels < top) nodes = {lift_lone_node(nodes.front(), part, top, out)};
    wall_ms_ = detail::ms_since(start);
    return nodes;
  }

  // The root of the leaves an input gives (N x 32 bytes; for a pipe N is known only at its end),
  // streamed through the device in chunks of 2^input_chunk_log2 leaves (config::input_chunk_log2,
  // else the tuning row's), each read into
  // page-locked staging ahead of its upload (a regular file by several threads). Only each
  // chunk's top node comes back; the host finishes the few levels above. Memory: the staging
  // (three chunks for a file, two for a pipe) and two chunks of leaves and nodes on the device,
  // whatever N. Errors name the input. An empty input (N = 0) has the root empty_tree_root gives
  // where the tree has one (rfc6962, shape zero with a fixed depth), and is refused otherwise.
  digest root(input &in) { return stream_input(in, std::nullopt).root(); }

  // The inclusion proof of leaf `index` of an input's leaves, streamed as root() streams them:
  // the chunk holding the leaf comes back whole, the others as their top node.
  inclusion_proof prove(input &in, std::uint64_t index) {
    if (in.read_at_offsets()) // a leaf out of range, before any work
      detail::check_leaf_index(index,
                               detail::checked_leaf_count(in.name(), *in.size(), config_.tree));
    return stream_input(in, index).prove(index);
  }

  // Host builds stream chunks of 2^chunk_log2() leaves (config::chunk_log2, else the tuning
  // row's), smaller ones where the device's memory asks.
  unsigned chunk_log2() const { return chunk_log2_; }

  // The times of the last host build: the profiled sums of its commands, read now.
  build_times last_times() const {
    return {events_ms(log_.uploads),   events_ms(log_.kernels),
            events_ms(log_.downloads), wall_ms_,
            log_.kernels.size(),       last_chunks_};
  }

  // Every command of the last host build, ordered by start.
  std::vector<command_span> timeline() const { return log_.timeline(); }

  // The programs of the level kernels for this device and configuration (files and options):
  // merkle_subtree or merkle_level_lanes; merkle_level and merkle_levels with 32-bit node
  // indices or, with wide_index, 64-bit ones.
  detail::program_spec level_program() const { return levels_.level_program(); }
  detail::program_spec merkle_level_program(bool wide_index = false) const {
    return levels_.merkle_level_program(wide_index);
  }
  detail::program_spec merkle_levels_program(bool wide_index = false) const {
    return levels_.merkle_levels_program(wide_index);
  }
  // Nodes per work-item of merkle_level and levels per launch of merkle_levels on this device.
  unsigned nodes_per_item() const { return levels_.settings().nodes_per_item; }
  unsigned levels_per_item() const { return levels_.settings().levels_per_item; }

  // The form the level kernels' program was built from (programs.hpp); builds it if not yet.
  merklize::program_form program_form() const { return levels_.level_program_form(); }

private:
  static config checked(config cfg) {
    check_config(cfg);
    return cfg;
  }

  detail::streamed_tree stream_input(input &in, std::optional<std::uint64_t> keep_leaf) {
    const auto start = std::chrono::steady_clock::now();
    log_.clear();
    const std::uint64_t piece = input_piece_bytes(in.size());
    detail::streamed_tree streamed;
    if (in.read_at_offsets()) {
      detail::checked_leaf_count(in.name(), *in.size(), config_.tree); // before any work
      detail::file_pieces source(in, piece);
      streamed = chunk_stream_.run(source, in.name(), pieces_, levels_, queue(), log_, config_.tree,
                                   keep_leaf);
    } else {
      const detail::piece_reader read = detail::stream_reader(in);
      detail::reader_pieces source(read, piece);
      streamed = chunk_stream_.run(source, in.name(), pieces_, levels_, queue(), log_, config_.tree,
                                   keep_leaf);
    }
    in.check_unchanged();
    last_chunks_ = streamed.tops.size();
    wall_ms_ = detail::ms_since(start);
    return streamed;
  }

  // Bytes of the chunks of an input of `size` bytes (unknown for a pipe): 2^input_chunk_log2
  // leaves, no more than a known size needs (a small file allocates small staging).
  std::uint64_t input_piece_bytes(std::optional<std::uint64_t> size) const {
    std::uint64_t leaves = std::uint64_t(1)
                           << (config_.input_chunk_log2 ? config_.input_chunk_log2
                                                        : tuning().input_chunk_log2);
    while (size && leaves > 1 && (leaves / 2) * node_bytes >= *size)
      leaves /= 2;
    return leaves * node_bytes;
  }

  detail::stream_plan plan_for(const tree_part &part) const {
    return detail::plan_stream(part, chunk_log2_, in_flight_, tuning().min_read_log2,
                               memory_limits_);
  }

  static constexpr std::uint64_t pooled_bytes = std::uint64_t(1) << 20;

  // How a host build's leaves reach the device: from page-locked memory; from pageable memory
  // through staging; or copied into the tree's page-locked level 0 and uploaded from there.
  enum class leaf_route { pinned, pageable, into_tree };

  // A tree over `layout` with config::output's levels, its memory from the pool (page-locked;
  // plain memory for a level run under 1 MiB, where pinning costs more than staging).
  tree pooled_tree(const tree_layout &layout) const {
    const tree shape(layout, config_.tree, config_.output, nullptr, nullptr);
    const auto storage = [&](std::uint64_t bytes) -> std::shared_ptr<std::uint8_t> {
      if (bytes == 0) return nullptr;
      if (bytes >= pooled_bytes) return pool_.take(bytes);
      return {new std::uint8_t[bytes], std::default_delete<std::uint8_t[]>()};
    };
    return tree(layout, config_.tree, config_.output,
                shape.first_level() == 0 ? storage(shape.leaves_size()) : nullptr,
                storage(shape.nodes_size()));
  }

  // Levels 1..part.levels of a part into t (level 0 is the caller's business: copied or
  // shared, but for leaf_route::into_tree), leaves from host memory. Returns the part's nodes
  // of level part.levels.
  std::vector<digest> build_levels(const std::uint8_t *leaves, leaf_route route, bool nodes_pinned,
                                   const tree_part &part, tree &t,
                                   const detail::stream_plan &plan) {
    log_.clear();
    last_chunks_ = 0;
    if (part.levels == 0) { // the part's level 0 is its leaves
      std::vector<digest> nodes(part.layout.leaf_count());
      std::memcpy(nodes.data(), leaves, nodes.size() * node_bytes);
      return nodes;
    }
    if (part.is_whole(t) && zero_copy(t)) {
      build_in_place(leaves, t);
      return {t.node(part.levels, 0)};
    }
    detail::stream_context s{plan, queues_, memory_, log_};
    detail::tree_sink sink(s, part, t, !nodes_pinned);
    last_chunks_ = plan.chunks();
    if (route == leaf_route::pinned) {
      detail::pinned_leaves source(s, leaves);
      return detail::run_stream(s, levels_, part, t.root_depth(), source, sink);
    }
    if (route == leaf_route::into_tree) {
      detail::copied_leaves source(s, leaves, t.level_data(0) + part.first_leaf * node_bytes);
      return detail::run_stream(s, levels_, part, t.root_depth(), source, sink);
    }
    detail::staged_leaves source(s, leaves);
    return detail::run_stream(s, levels_, part, t.root_depth(), source, sink);
  }

  // CPU devices share the host's memory: the kernels read the leaves and write the nodes where
  // they are, with no copy at all (when the tree keeps every level above the leaves).
  bool zero_copy(const tree &t) const {
    return config_.zero_copy && t.first_node_level() == 1 && runtime_.shares_host_memory();
  }

  void build_in_place(const std::uint8_t *leaves, tree &t) {
    const auto wrap = [&](cl_mem_flags flags, std::uint64_t bytes, const void *host) {
      return detail::create("clCreateBuffer", [&](cl_int *err) {
        return cl::Buffer(context(), flags | CL_MEM_USE_HOST_PTR, bytes, const_cast<void *>(host),
                          err);
      });
    };
    const cl::Buffer in = wrap(CL_MEM_READ_ONLY, t.leaves_size(), leaves);
    const cl::Buffer out = wrap(CL_MEM_READ_WRITE, t.nodes_size(), t.nodes_data());
    log_.kernels = enqueue_build(in, t.leaf_count(), out);
    const std::vector<cl::Event> done{log_.kernels.back()};
    // Mapping makes the nodes visible at their host address (no copy where the device used it).
    void *mapped = detail::create("clEnqueueMapBuffer", [&](cl_int *err) {
      return queue().enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, 0, t.nodes_size(), &done, nullptr,
                                      err);
    });
    cl::Event unmapped;
    detail::call("clEnqueueUnmapMemObject",
                 [&] { return queue().enqueueUnmapMemObject(out, mapped, nullptr, &unmapped); });
    detail::call("clWaitForEvents", [&] { return unmapped.wait(); });
    last_chunks_ = 1;
  }

  // build_part's refusals, before anything is written.
  void check_part(const void *leaves, std::uint64_t first_leaf, std::uint64_t count, unsigned top,
                  const tree &out) const {
    merklize::check_part("build_part", out.leaf_count(), out.depth(), first_leaf, count, top);
    if (!leaves) throw error("build_part: the leaves pointer is null");
    const tree_options &o = out.options();
    if (o.hash != config_.tree.hash || o.pad != config_.tree.pad || o.depth != config_.tree.depth)
      throw error("build_part: the output tree's hash, shape or fixed depth is not this "
                  "merkleizer's (config::tree)");
    root_depth(o, out.layout()); // refuses a bad fixed depth
    if (out.first_node_level() <= top && !out.nodes_data())
      throw error("build_part: the output tree has no storage for its nodes");
  }

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
};

} // namespace merklize
