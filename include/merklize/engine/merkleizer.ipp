// SPDX-License-Identifier: Apache-2.0 OR MIT
// merkleizer's definitions (merkleizer.hpp declares them): inline in header-only use, compiled
// once by <merklize/src.hpp> with MERKLIZE_SEPARATE_COMPILATION.
#pragma once

#include "../pipeline/leaf_sources.hpp"
#include "../pipeline/node_sinks.hpp"
#include "../pipeline/stream.hpp"
#include "../runtime/queue_drain.hpp"
#include "merkleizer.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace merklize {
namespace detail {

MERKLIZE_DECL tree reused_tree(const host_buffer &leaves, const tree &out, const config &cfg) {
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

// Runs `first` on a thread of its own beside `second` where `together`, else one after the other;
// the first failure of either is rethrown once both are done. For the two page-locked buffers of
// a tree the pool has none idle for: the driver pins every page of each (some 0.4 s a GiB on an
// H100, where the first build of 2^25 leaves pins 2 GiB), and two threads pin them side by side.
template <class First, class Second>
void side_by_side(First &&first, Second &&second, bool together) {
  std::exception_ptr failed;
  std::thread beside;
  if (together) {
    try {
      beside = std::thread([&] {
        try {
          first();
        } catch (...) {
          failed = std::current_exception();
        }
      });
    } catch (const std::system_error &) { // no thread: one after the other
    }
  }
  if (!beside.joinable()) first();
  try {
    second();
  } catch (...) {
    if (beside.joinable()) beside.join();
    throw;
  }
  if (beside.joinable()) beside.join();
  if (failed) std::rethrow_exception(failed);
}

// "building the tree of 1024 leaves on DEVICE", the step of a build.
inline std::string building(std::uint64_t leaves, const device_facts &facts) {
  return "building the tree of " + std::to_string(leaves) + " leaves on " + facts.name;
}

} // namespace detail

MERKLIZE_DECL merkleizer::merkleizer(config cfg) : merkleizer(default_device(), cfg) {}

MERKLIZE_DECL merkleizer::merkleizer(const cl::Device &device, config cfg)
    : merkleizer(detail::shared_context(device), device, cfg) {}

MERKLIZE_DECL merkleizer::merkleizer(const cl::Context &context, const cl::Device &device,
                                     config cfg) try
    : runtime_(context, device), config_(checked(std::move(cfg))),
      chunk_log2_(config_.chunk_log2 ? config_.chunk_log2 : tuning().chunk_log2),
      in_flight_(config_.chunks_in_flight ? config_.chunks_in_flight : tuning().chunks_in_flight),
      memory_limits_(detail::memory_for(runtime_.facts(), config_.max_device_bytes)),
      queues_(runtime_), memory_(runtime_, queues_),
      levels_(runtime_, config_,
              detail::resolve_launch_settings(runtime_.facts(), tuning(), config_)),
      pieces_(runtime_.context(), queues_.uploads, runtime_.shares_host_memory()),
      chunk_stream_(runtime_), pool_(runtime_.context(), queues_.uploads) {
} catch (...) {
  detail::rethrow_in_step(
      [&] { return "setting up a merkleizer on " + detail::name_in_message(device); });
}

MERKLIZE_DECL merkleizer::~merkleizer() = default;

MERKLIZE_DECL std::vector<cl::Event> merkleizer::enqueue_build(const cl::Buffer &leaves,
                                                               std::uint64_t leaf_count,
                                                               const cl::Buffer &nodes,
                                                               const std::vector<cl::Event> &wait) {
  root_depth(config_.tree, tree_layout(leaf_count)); // refuses a bad tree.depth
  const detail::drain_on_unwind drained(queue());    // none of it runs on once this has failed
  const auto step = [&] {
    return "enqueueing the build of " + std::to_string(leaf_count) + " leaves on " +
           runtime_.facts().name;
  };
  return detail::in_step(step, [&] {
    runtime_.check_buffer(leaves, "leaves", leaf_count * node_bytes, "merkleizer", "tree");
    runtime_.check_buffer(nodes, "nodes", output_node_count(leaf_count) * node_bytes, "merkleizer",
                          "tree");
    return enqueue_levels(leaves, leaf_count, nodes, wait);
  });
}

MERKLIZE_DECL std::vector<cl::Event>
merkleizer::enqueue_levels(const cl::Buffer &leaves, std::uint64_t leaf_count,
                           const cl::Buffer &nodes, const std::vector<cl::Event> &wait) {
  const tree_layout layout(leaf_count);
  const unsigned root_level = root_depth(config_.tree, layout);
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

MERKLIZE_DECL host_buffer merkleizer::allocate_host(std::size_t bytes) const {
  return host_buffer(context(), queues_.uploads, bytes);
}

MERKLIZE_DECL tree merkleizer::allocate_tree(std::uint64_t leaf_count) const {
  const tree_layout layout(leaf_count);
  const unsigned keep = std::max(1u, std::min(config_.output.first, layout.depth()));
  const std::uint64_t bytes = (layout.node_count() - layout.level_offset(keep)) * node_bytes;
  return tree(layout, config_.tree, config_.output, nullptr,
              bytes ? allocate_host(bytes).share() : nullptr);
}

MERKLIZE_DECL tree merkleizer::build(const void *leaves, std::uint64_t leaf_bytes) {
  const tree_layout layout(leaf_count_of(leaf_bytes));
  root_depth(config_.tree, layout); // refuses a bad fixed depth before anything is allocated
  const tree_part whole{0, layout, layout.depth()};
  const detail::stream_plan plan = plan_for(whole); // before any allocation: the tree must fit
  warm_up();
  tree t = pooled_tree(layout);
  const auto *from = static_cast<const std::uint8_t *>(leaves);
  const bool nodes_pinned = is_page_locked(context(), t.nodes_data(), t.nodes_size());
  const auto start = std::chrono::steady_clock::now();
  detail::in_step([&] { return detail::building(layout.leaf_count(), runtime_.facts()); },
                  [&] {
                    if (t.first_level() == 0 && layout.depth() > 0 && !zero_copy(t) &&
                        is_page_locked(context(), t.level_data(0), t.leaves_size()))
                      build_levels(from, leaf_route::into_tree, nodes_pinned, whole, t, plan);
                    else
                      detail::with_leaf_copy(t, whole, leaves, [&] {
                        build_levels(from, leaf_route::pageable, nodes_pinned, whole, t, plan);
                      });
                  });
  wall_ms_ = detail::ms_since(start);
  return t;
}

MERKLIZE_DECL tree merkleizer::build(const host_buffer &leaves) {
  tree t = allocate_tree(leaf_count_of(leaves.size()));
  build(leaves, t);
  return t;
}

MERKLIZE_DECL void merkleizer::build(const host_buffer &leaves, tree &out) {
  tree on_leaves = detail::reused_tree(leaves, out, config_);
  const tree_part whole{0, on_leaves.layout(), on_leaves.depth()};
  const detail::stream_plan plan = plan_for(whole);
  const auto start = std::chrono::steady_clock::now();
  out = std::move(on_leaves);
  detail::in_step([&] { return detail::building(whole.layout.leaf_count(), runtime_.facts()); },
                  [&] { build_levels(leaves.data(), leaf_route::pinned, true, whole, out, plan); });
  wall_ms_ = detail::ms_since(start);
}

MERKLIZE_DECL std::vector<digest> merkleizer::build_part(const void *leaves,
                                                         std::uint64_t first_leaf,
                                                         std::uint64_t count, unsigned top,
                                                         tree &out) {
  check_part(leaves, first_leaf, count, top, out);
  const tree_layout layout(count);
  const tree_part part{first_leaf, layout, std::min(top, layout.depth())};
  const detail::stream_plan plan = plan_for(part);
  const auto start = std::chrono::steady_clock::now();
  std::vector<digest> nodes;
  const auto step = [&] {
    return "building leaves " + std::to_string(first_leaf) + ".." +
           std::to_string(first_leaf + count - 1) + " of a tree of " +
           std::to_string(out.leaf_count()) + " leaves on " + runtime_.facts().name;
  };
  detail::in_step(step, [&] {
    detail::with_leaf_copy(out, part, leaves, [&] {
      nodes = build_levels(
          static_cast<const std::uint8_t *>(leaves),
          is_page_locked(context(), leaves, count * node_bytes) ? leaf_route::pinned
                                                                : leaf_route::pageable,
          is_page_locked(context(), out.nodes_data(), out.nodes_size()), part, out, plan);
    });
  });
  if (part.levels < top) nodes = {lift_lone_node(nodes.front(), part, top, out)};
  wall_ms_ = detail::ms_since(start);
  return nodes;
}

MERKLIZE_DECL digest merkleizer::root(input &in) {
  const auto step = [&] {
    return "computing the root of " + in.name() + " on " + runtime_.facts().name;
  };
  return detail::in_step(step, [&] { return stream_input(in, std::nullopt).root(); });
}

MERKLIZE_DECL inclusion_proof merkleizer::prove(input &in, std::uint64_t index) {
  if (in.read_at_offsets()) // a leaf out of range, before any work
    detail::check_leaf_index(index,
                             detail::checked_leaf_count(in.name(), *in.size(), config_.tree));
  const auto step = [&] {
    return "proving leaf " + std::to_string(index) + " of " + in.name() + " on " +
           runtime_.facts().name;
  };
  return detail::in_step(step, [&] { return stream_input(in, index).prove(index); });
}

MERKLIZE_DECL build_times merkleizer::last_times() const {
  return {events_ms(log_.uploads),   events_ms(log_.kernels),
          events_ms(log_.downloads), wall_ms_,
          log_.kernels.size(),       last_chunks_};
}

MERKLIZE_DECL detail::program_spec merkleizer::level_program() const {
  return levels_.level_program();
}

MERKLIZE_DECL detail::program_spec merkleizer::merkle_level_program(bool wide_index) const {
  return levels_.merkle_level_program(wide_index);
}

MERKLIZE_DECL detail::program_spec merkleizer::merkle_levels_program(bool wide_index) const {
  return levels_.merkle_levels_program(wide_index);
}

MERKLIZE_DECL merklize::program_form merkleizer::program_form() const {
  return levels_.level_program_form();
}

MERKLIZE_DECL config merkleizer::checked(config cfg) {
  check_config(cfg);
  return cfg;
}

MERKLIZE_DECL detail::streamed_tree
merkleizer::stream_input(input &in, std::optional<std::uint64_t> keep_leaf) {
  const auto start = std::chrono::steady_clock::now();
  warm_up();
  log_.clear();
  const std::uint64_t piece = input_piece_bytes(in.size());
  detail::streamed_tree streamed;
  if (in.read_at_offsets()) {
    detail::checked_leaf_count(in.name(), *in.size(), config_.tree); // before any work
    detail::file_pieces source(in, piece);
    streamed = chunk_stream_.run(source, in.name(), pieces_, levels_, queue(), log_, config_.tree,
                                 keep_leaf);
  } else {
    in.read_ahead(piece); // a thread reads the stream while this one stages, uploads, hashes
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

// The first build starts loading the level program on a thread, beside its allocations and its
// first chunk's read and upload (program_warmup.hpp); a merkleizer that never builds loads none.
MERKLIZE_DECL void merkleizer::warm_up() {
  if (!warmup_)
    warmup_ = std::make_shared<detail::program_warmup>(runtime_, levels_.level_program());
}

// Bytes of the chunks of an input of `size` bytes (unknown for a pipe): 2^input_chunk_log2
// leaves, no more than a known size needs (a small file allocates small staging).
MERKLIZE_DECL std::uint64_t merkleizer::input_piece_bytes(std::optional<std::uint64_t> size) const {
  std::uint64_t leaves = std::uint64_t(1) << (config_.input_chunk_log2 ? config_.input_chunk_log2
                                                                       : tuning().input_chunk_log2);
  while (size && leaves > 1 && (leaves / 2) * node_bytes >= *size)
    leaves /= 2;
  return leaves * node_bytes;
}

MERKLIZE_DECL detail::stream_plan merkleizer::plan_for(const tree_part &part) const {
  return detail::plan_stream(part, chunk_log2_, in_flight_, tuning().min_read_log2, memory_limits_);
}

// A tree over `layout` with config::output's levels, its memory from the pool (page-locked;
// plain memory for a level run under 1 MiB, where pinning costs more than staging).
MERKLIZE_DECL tree merkleizer::pooled_tree(const tree_layout &layout) const {
  constexpr std::uint64_t pooled_bytes = std::uint64_t(1) << 20;
  const tree shape(layout, config_.tree, config_.output, nullptr, nullptr);
  const auto storage = [&](std::uint64_t bytes) -> std::shared_ptr<std::uint8_t> {
    if (bytes == 0) return nullptr;
    if (bytes >= pooled_bytes) return pool_.take(bytes);
    return {new std::uint8_t[bytes], std::default_delete<std::uint8_t[]>()};
  };
  const std::uint64_t leaf_bytes = shape.first_level() == 0 ? shape.leaves_size() : 0;
  std::shared_ptr<std::uint8_t> leaves, nodes;
  detail::side_by_side([&] { leaves = storage(leaf_bytes); },
                       [&] { nodes = storage(shape.nodes_size()); },
                       leaf_bytes >= pooled_bytes && shape.nodes_size() >= pooled_bytes);
  return tree(layout, config_.tree, config_.output, std::move(leaves), std::move(nodes));
}

// Levels 1..part.levels of a part into t (level 0 is the caller's business: copied or
// shared, but for leaf_route::into_tree), leaves from host memory. Returns the part's nodes
// of level part.levels.
MERKLIZE_DECL std::vector<digest> merkleizer::build_levels(const std::uint8_t *leaves,
                                                           leaf_route route, bool nodes_pinned,
                                                           const tree_part &part, tree &t,
                                                           const detail::stream_plan &plan) {
  log_.clear();
  last_chunks_ = 0;
  // Unwinding frees the tree and may free the leaves: nothing enqueued may still touch them.
  const detail::drain_on_unwind drained{&queues_.kernels, &queues_.uploads, &queues_.downloads};
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
MERKLIZE_DECL bool merkleizer::zero_copy(const tree &t) const {
  return config_.zero_copy && t.first_node_level() == 1 && runtime_.shares_host_memory();
}

MERKLIZE_DECL void merkleizer::build_in_place(const std::uint8_t *leaves, tree &t) {
  const auto wrap = [&](cl_mem_flags flags, std::uint64_t bytes, const void *host) {
    return detail::create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context(), flags | CL_MEM_USE_HOST_PTR, bytes, const_cast<void *>(host),
                        err);
    });
  };
  const cl::Buffer in = wrap(CL_MEM_READ_ONLY, t.leaves_size(), leaves);
  const cl::Buffer out = wrap(CL_MEM_READ_WRITE, t.nodes_size(), t.nodes_data());
  log_.kernels = enqueue_levels(in, t.leaf_count(), out, {}); // build_levels drains on failure
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
MERKLIZE_DECL void merkleizer::check_part(const void *leaves, std::uint64_t first_leaf,
                                          std::uint64_t count, unsigned top,
                                          const tree &out) const {
  merklize::check_part("build_part", out.leaf_count(), out.depth(), first_leaf, count, top);
  if (!leaves) throw error("build_part: the leaves pointer is null");
  const tree_options &o = out.options();
  if (o.hash != config_.tree.hash || o.shape != config_.tree.shape || o.depth != config_.tree.depth)
    throw error("build_part: the output tree's hash, shape or fixed depth is not this "
                "merkleizer's (config::tree)");
  root_depth(o, out.layout()); // refuses a bad fixed depth
  if (out.first_node_level() <= top && !out.nodes_data())
    throw error("build_part: the output tree has no storage for its nodes");
}

} // namespace merklize
