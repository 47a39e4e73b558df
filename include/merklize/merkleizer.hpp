// merkleizer: builds Merkle trees on one OpenCL device.
//
//   merklize::merkleizer m;                          // default device (see device.hpp)
//   merklize::tree t = m.build(leaves);              // N x 32 bytes in, every node out
//   std::cout << merklize::to_hex(t.root()) << "\n";
//
// Kernels: while a level keeps every compute unit busy, each launch computes levels_per_item
// levels with each work-item's subtree in registers (merkle_levels; config::level_kernel picks
// others), then launches fused in local memory compute up to log2(W) + 1 levels each (W = the
// work-group size); config::levels_per_launch = 1 gives one launch per level. Launches are
// chained by events on an in-order queue with profiling on.
//
// Host builds stream the tree through the device in chunks: while chunk c is hashed, chunk c+1
// is uploaded and chunk c-1's nodes are downloaded, on three queues. A chunk of 2^t leaves
// aligned at a multiple of 2^t is exactly the subtree under one node of level t, for both
// shapes: level k of the tree has ceil(N / 2^k) nodes, of which the chunk at leaf f owns the
// ceil(m / 2^k) from index f / 2^k on (m its leaf count), so its lone nodes are the tree's lone
// nodes. The same holds for any part of 2^t-aligned leaves [f, f + m) with m a multiple of 2^t
// or f + m = N (build_part and every chunk): for k <= t, f / 2^k is even for k < t, so no pair
// of level k - 1 straddles the part's ends, and its level k is the tree's from index f / 2^k on.
// Chunks hold 2^s leaves, except that a long stream starts and ends with smaller ones, so that
// the first upload and the last download, which nothing overlaps, are short; every chunk
// computes its levels up to base (s, or s - 2 with the smaller chunks) and the levels above base
// are computed once all chunks are in.
// Only a few chunks are on the device at a time, so trees larger than its memory (or than
// config::max_device_bytes) are built the same way. The levels above a chunk's lowest ones
// (those of 2^15 nodes or more) are kept in one device buffer in tree layout and downloaded
// once at the end.
//
// A merkleizer is not thread-safe; use one per thread. Programs and contexts are shared.
#pragma once

#include "detail/buffers.hpp"
#include "detail/file_read.hpp"
#include "detail/kernels.hpp"
#include "device.hpp"
#include "host_buffer.hpp"
#include "tree.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace merklize {

// The kernels of the launches below the fused top of the tree (config::level_kernel).
enum class level_kernel_kind {
  automatic, // BLAKE3 nodes: merkle_levels where config::levels_per_item levels remain below
             // the fused top, else as below; SHA-256 nodes (measured so): merkle_level on levels
             // that fill the device many times over, else merkle_subtree
  subtree,   // merkle_subtree with one level: the fused kernel serves every launch
  level,     // merkle_level (kernels/merkle_level.cl): no local memory, several nodes per item
  levels,    // merkle_levels (kernels/merkle_levels.cl) where levels_per_item levels remain,
             // each work-item a subtree in registers; merkle_level on the levels left over
};

// The defaults of config::level_kernel and, on GPUs, of config::nodes_per_item,
// config::levels_per_item and the work-group size, in one place: GPU measurements decide them
// (docs/BENCHMARKS.md, bench/kernel_variants.sh; H200, whole trees of 2^25 / 2^20 leaves:
// merkle_levels x2 at 128 work-items 1.242 / 0.073 ms, x3 1.439 / 0.090 ms (72 registers);
// merkle_level x2 1.323 / 0.082 ms; merkle_subtree 1.419 / 0.082 ms).
constexpr level_kernel_kind default_level_kernel = level_kernel_kind::automatic;
constexpr unsigned default_gpu_nodes_per_item = 2;
constexpr std::size_t default_gpu_work_group_size = 128;
constexpr unsigned default_gpu_levels_per_item = 2;

struct config {
  // A constructor rather than an aggregate: {tree} and {tree, output} name the common settings,
  // and the tuning knobs below are set by name.
  config(tree_options tree_ = {}, output_levels output_ = {}) : tree(tree_), output(output_) {}

  tree_options tree;
  // Levels host builds return (all nodes, from a level up, or the root only).
  output_levels output;
  // Work-items per work-group; 0 picks one for the device.
  std::size_t work_group_size = 0;
  // Levels computed per kernel launch. 0: launches of one level (or levels_per_item levels, see
  // level_kernel) while a level keeps every compute unit busy, then fused launches of as many
  // levels as a work-group holds, log2(W) + 1, in local memory.
  // Any other value: fused launches of at most that many levels throughout.
  unsigned levels_per_launch = 0;
  // Device memory host builds may use, in bytes; 0: the device's own limits.
  std::uint64_t max_device_bytes = 0;
  // Host builds stream chunks of 2^chunk_log2 leaves; 0 picks a size for the device.
  unsigned chunk_log2 = 0;
  // Chunks on the device at once in host builds, each with its own memory: one uploading, one
  // hashed, one downloading, and any more absorb delays between the three. 0: 3.
  unsigned chunks_in_flight = 0;
  // Nodes per work-item in vector lanes (1, 2, 4, 8 or 16; BLAKE3 node hashes only), one launch
  // per level. 0 picks by device: a CPU's preferred int vector width (PoCL does not vectorize
  // across work-items here), 1 on GPUs, whose fused kernel keeps one node per work-item.
  unsigned lanes = 0;
  // The kernel of the launches that compute one level (the large levels of the hybrid dispatch,
  // every level with levels_per_launch = 1) when there is one node per lane (lanes = 1, as on
  // GPUs); the fused launches above stay merkle_subtree.
  level_kernel_kind level_kernel = default_level_kernel;
  // Nodes per work-item of merkle_level (1, 2 or 4), the next one's loads issued before the
  // current one is hashed. 0: default_gpu_nodes_per_item on GPUs, 1 on other devices.
  unsigned nodes_per_item = 0;
  // Levels per launch of merkle_levels (2 or 3), each work-item hashing a subtree of
  // 2^levels_per_item nodes. 0: default_gpu_levels_per_item on GPUs, 2 on other devices.
  unsigned levels_per_item = 0;
  // Build options appended to the program that runs the one-level launches (merkle_level's, else
  // merkle_subtree's or the lanes kernel's), for experiments such as "-cl-nv-maxrregcount=48".
  // Part of the program's cache key; such a program is always compiled, never ahead of time.
  std::string level_options;
  // On CPU devices, let the kernels read the leaves and write the nodes in host memory, with no
  // copies, when a host build keeps every level above the leaves. false streams as on GPUs.
  bool zero_copy = true;

  // multi_merkleizer only (multi.hpp). Shards of 2^shard_log2 leaves; 0: about 8 per device,
  // no smaller than the largest device chunk.
  unsigned shard_log2 = 0;
  // The devices' relative speeds, one per device; empty: measured (a calibration build of
  // 2^calibration_log2 leaves per device, then each build's per-device wall time).
  std::vector<double> weights;
  // 0: 2^20 leaves (32 MiB).
  unsigned calibration_log2 = 0;
};

// Profiled times of the last host build, in milliseconds.
struct build_times {
  double upload_ms = 0;   // sum of the host-to-device copies
  double kernel_ms = 0;   // sum of the kernel executions
  double download_ms = 0; // sum of the device-to-host copies
  double wall_ms = 0;     // the whole call, by the host's clock
  std::size_t kernel_launches = 0;
  std::size_t chunks = 0;
};

// A command of a host build on the device's clock, in milliseconds from the start of the
// build's first command (merkleizer::timeline): where copies and kernels overlap or wait.
struct command_span {
  enum class kind { upload, kernel, download } what;
  double start_ms, end_ms;
};

// Execution time of a finished command, from its profiling information.
namespace detail {

// A finished command's start and end on the device's clock, in nanoseconds.
inline std::pair<cl_ulong, cl_ulong> event_ns(const cl::Event &event) {
  cl_ulong start = 0, end = 0;
  call("clGetEventProfilingInfo",
       [&] { return event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start); });
  call("clGetEventProfilingInfo",
       [&] { return event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end); });
  return {start, end};
}

} // namespace detail

inline double event_ms(const cl::Event &event) {
  const auto [start, end] = detail::event_ns(event);
  return static_cast<double>(end - start) * 1e-6;
}

inline double events_ms(const std::vector<cl::Event> &events) {
  double total = 0;
  for (const auto &e : events)
    total += event_ms(e);
  return total;
}

namespace detail {

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// ceil(n / 2^k): the nodes of level k above n leaves.
inline std::uint64_t ceil_shift(std::uint64_t n, unsigned k) { return (n + (1ull << k) - 1) >> k; }

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

} // namespace detail

class merkleizer {
public:
  explicit merkleizer(config cfg = {}) : merkleizer(default_device(), cfg) {}

  explicit merkleizer(const cl::Device &device, config cfg = {})
      : merkleizer(detail::shared_context(device), device, cfg) {}

  // For buffers of the caller's own context: `device` must belong to `context`.
  merkleizer(const cl::Context &context, const cl::Device &device, config cfg = {})
      : context_(context), device_(device), config_(cfg), queue_(make_queue()),
        upload_queue_(make_queue()), download_queue_(make_queue()) {
    if (!detail::device_info<CL_DEVICE_ENDIAN_LITTLE, cl_bool>(device_))
      throw error(device_name(device_) +
                  " is big-endian; merklize's kernels load BLAKE3 words little-endian");
    if (cfg.level_kernel != level_kernel_kind::automatic &&
        cfg.level_kernel != level_kernel_kind::subtree &&
        cfg.level_kernel != level_kernel_kind::level &&
        cfg.level_kernel != level_kernel_kind::levels)
      throw error("level_kernel must be level_kernel_kind::automatic, subtree, level or levels");
    if (cfg.nodes_per_item > 4 || cfg.nodes_per_item == 3)
      throw error("nodes_per_item must be 0, 1, 2 or 4, not " + std::to_string(cfg.nodes_per_item));
    if (cfg.levels_per_item == 1 || cfg.levels_per_item > 3)
      throw error("levels_per_item must be 0, 2 or 3, not " + std::to_string(cfg.levels_per_item));
  }

  const cl::Context &context() const { return context_; }
  const cl::Device &device() const { return device_; }
  // The queue of the kernels (in order, with profiling).
  const cl::CommandQueue &queue() const { return queue_; }
  const config &configuration() const { return config_; }

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
    check_buffer(leaves, "leaves", leaf_count * node_bytes);
    check_buffer(nodes, "nodes", output_node_count(leaf_count) * node_bytes);
    std::vector<cl::Event> events;
    if (leaf_count == 1) {
      events.emplace_back();
      detail::call("clEnqueueCopyBuffer", [&] {
        return queue_.enqueueCopyBuffer(leaves, nodes, 0, 0, node_bytes, &wait, &events.back());
      });
      return events;
    }
    enqueue_levels({leaves, 0, leaf_count, 0}, {nodes, 0, layout.level_size(1), 0, layout.depth()},
                   root_level, wait, events);
    return events;
  }

  // Page-locked host memory of this merkleizer's context: fill leaves in it, or read results.
  host_buffer allocate_host(std::size_t bytes) const {
    return host_buffer(context_, upload_queue_, bytes);
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

  // Host leaves in (N x 32 bytes), the levels config::output asks for out.
  tree build(const void *leaves, std::uint64_t leaf_bytes) {
    const tree_layout layout(leaf_count_of(leaf_bytes));
    root_depth(config_.tree, layout); // refuses a bad fixed depth before anything is allocated
    const part_span whole{0, layout, layout.depth()};
    const stream_plan plan = plan_for(whole); // before any allocation: the tree must fit
    tree t(layout.leaf_count(), config_.tree, config_.output);
    const auto start = std::chrono::steady_clock::now();
    with_leaf_copy(t, whole, leaves, [&] {
      stream({static_cast<const std::uint8_t *>(leaves), false, false}, whole, t, plan);
    });
    last_.wall_ms = detail::ms_since(start);
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
    const part_span whole{0, on_leaves.layout(), on_leaves.depth()};
    const stream_plan plan = plan_for(whole);
    const auto start = std::chrono::steady_clock::now();
    out = std::move(on_leaves);
    stream({leaves.data(), true, true}, whole, out, plan);
    last_.wall_ms = detail::ms_since(start);
  }

  // The part of tree `out` (any size, layout of out.leaf_count() leaves) over its leaves
  // [first_leaf, first_leaf + count), levels 1..top of it, for trees built on several devices
  // (multi.hpp) or hosts. `leaves` points at that part's leaves (count x 32 bytes). Requires
  // first_leaf % 2^top == 0 and, unless the part ends the tree (first_leaf + count ==
  // out.leaf_count()), count % 2^top == 0: then levels <= top of the part pair no node across
  // its ends, so they equal the whole tree's nodes there (see the top of this file). Writes the
  // levels of the part that `out` keeps (out.first_level()..top; level 0 is copied unless
  // `leaves` already is its place in `out`) at their places in `out`, and returns the part's
  // ceil(count / 2^top) nodes of level `top` (always, kept or not). No ROOT flag is set unless
  // the part's top node is the tree's root (blake3-parent), i.e. top is the root level of `out`.
  // `out`'s options must be this merkleizer's (config::tree). Leaves and nodes in page-locked
  // memory of this context (allocate_host, allocate_tree) move without staging. A part that is
  // the whole tree (top = its depth) is exactly build(leaves, bytes) into `out`.
  std::vector<digest> build_part(const void *leaves, std::uint64_t first_leaf, std::uint64_t count,
                                 unsigned top, tree &out) {
    check_part(leaves, first_leaf, count, top, out);
    const tree_layout layout(count);
    const part_span part{first_leaf, layout, std::min(top, layout.depth())};
    const stream_plan plan = plan_for(part);
    const auto start = std::chrono::steady_clock::now();
    std::vector<digest> nodes;
    with_leaf_copy(out, part, leaves, [&] {
      const host_side host{static_cast<const std::uint8_t *>(leaves),
                           is_page_locked(context_, leaves, count * node_bytes),
                           is_page_locked(context_, out.nodes_data(), out.nodes_size())};
      nodes = stream(host, part, out, plan);
    });
    if (part.levels < top) nodes = {lift_lone_node(nodes.front(), part, top, out)};
    last_.wall_ms = detail::ms_since(start);
    return nodes;
  }

  // Host builds stream chunks of 2^chunk_log2() leaves (config::chunk_log2, else 2^21 on GPUs,
  // the best end-to-end time of 2^18 .. 2^22 on an H200, and 2^22 on CPUs), smaller ones where
  // the device's memory asks.
  unsigned chunk_log2() const {
    return config_.chunk_log2 ? config_.chunk_log2 : (is_cpu() ? 22 : 21);
  }

  // The times of the last host build. The profiled sums are read from its commands' events on
  // the first call, not during the build, whose wall time would otherwise include it.
  const build_times &last_times() const {
    if (!last_profiled_) {
      last_.upload_ms = events_ms(last_events_.uploads);
      last_.kernel_ms = events_ms(last_events_.kernels);
      last_.download_ms = events_ms(last_events_.downloads);
      last_profiled_ = true;
    }
    return last_;
  }

  // Every command of the last host build, ordered by start.
  std::vector<command_span> timeline() const {
    struct command {
      command_span::kind what;
      cl_ulong start, end;
    };
    std::vector<command> commands;
    const auto add = [&](const std::vector<cl::Event> &events, command_span::kind what) {
      for (const auto &e : events) {
        const auto [start, end] = detail::event_ns(e);
        commands.push_back({what, start, end});
      }
    };
    add(last_events_.uploads, command_span::kind::upload);
    add(last_events_.kernels, command_span::kind::kernel);
    add(last_events_.downloads, command_span::kind::download);
    std::sort(commands.begin(), commands.end(),
              [](const command &a, const command &b) { return a.start < b.start; });
    // Differences of the integer nanoseconds: a double holds a device clock's ~1e18 ns only to
    // about 256 ns (NVIDIA's clock; found by the timeline test on an H200).
    std::vector<command_span> spans;
    for (const auto &c : commands)
      spans.push_back({c.what, double(c.start - commands.front().start) * 1e-6,
                       double(c.end - commands.front().start) * 1e-6});
    return spans;
  }

  // The program of the level kernels for this device and configuration (files and options):
  // merkle_subtree, or merkle_level_lanes with lanes.
  detail::program_spec level_program() const {
    const unsigned lanes = lanes_for_device();
    const auto spec = detail::merkle_program(config_.tree.hash, work_group_size(lanes), lanes);
    return uses_level_kernel(lanes) ? spec
                                    : detail::with_extra_options(spec, config_.level_options);
  }

  // The program of merkle_level for this device and configuration, with 32-bit node indices or,
  // with wide_index, 64-bit ones. Used for the one-level launches runs_level_kernel picks.
  detail::program_spec merkle_level_program(bool wide_index = false) const {
    const auto spec = detail::merkle_level_program(config_.tree.hash, work_group_size(1),
                                                   nodes_per_item(), wide_index);
    return detail::with_extra_options(spec, config_.level_options);
  }

  // The program of merkle_levels for this device and configuration (32- or 64-bit indices).
  detail::program_spec merkle_levels_program(bool wide_index = false) const {
    const auto spec = detail::merkle_levels_program(config_.tree.hash, work_group_size(1),
                                                    levels_per_item(), wide_index);
    return detail::with_extra_options(spec, config_.level_options);
  }

  // Nodes per work-item of merkle_level on this device (config::nodes_per_item, resolved).
  unsigned nodes_per_item() const {
    if (config_.nodes_per_item) return config_.nodes_per_item;
    return is_cpu() ? 1 : default_gpu_nodes_per_item;
  }

  // Levels per launch of merkle_levels on this device (config::levels_per_item, resolved).
  unsigned levels_per_item() const {
    if (config_.levels_per_item) return config_.levels_per_item;
    return is_cpu() ? 2 : default_gpu_levels_per_item;
  }

  // The form the level kernels' program was built from (programs.hpp); builds it if not yet.
  merklize::program_form program_form() {
    subtree_kernel();
    return form_;
  }

private:
  // The leaves of a tree a host build covers and the levels it computes: leaves [first_leaf,
  // first_leaf + layout.leaf_count()) of the tree, levels 1..levels of them (the part's own
  // layout: its level k is the tree's from node first_leaf >> k on).
  struct part_span {
    std::uint64_t first_leaf;
    tree_layout layout;
    unsigned levels;

    bool is_whole(const tree &t) const {
      return first_leaf == 0 && layout.leaf_count() == t.leaf_count() && levels == t.depth();
    }
  };

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

  // A run of a host build's leaves that crosses the device as one piece: leaves [first, first +
  // count) of the part, a multiple of 2^base from its start, as many or the part's last leaves
  // (so its levels 1..base are the part's; see the top of this file).
  struct chunk {
    std::uint64_t first, count;
  };

  // How a host build streams: chunks of up to 2^s leaves, levels 1..base of each computed as it
  // arrives, the lowest `lower` of them downloaded from its slot and the rest kept in `upper`
  // (tree layout from level lower+1), where the levels above base are computed once every
  // chunk is in. A long stream starts with chunks of 2^(s-2), 2^(s-2), 2^(s-1) leaves and ends
  // with the mirror image: nothing overlaps the first chunk's upload and the last one's
  // download, so they are kept short (base = s - 2 then, else s).
  struct stream_plan {
    unsigned lower = 0, base = 0, slots = 0;
    // The chunks: `head`, then `middle` chunks of 2^s from leaf middle_first (the last one
    // possibly shorter), then `tail`; computed, not listed, as a huge tree has many.
    std::vector<chunk> head, tail;
    std::uint64_t leaves = 0, middle_first = 0, middle = 0;
    unsigned s = 0;
    std::uint64_t slot_leaves = 0, slot_nodes = 0, upper_nodes = 0;

    std::uint64_t chunks() const { return head.size() + middle + tail.size(); }
    chunk at(std::uint64_t c) const {
      if (c < head.size()) return head[c];
      c -= head.size();
      if (c >= middle) return tail[c - middle];
      const std::uint64_t first = middle_first + (c << s);
      return {first, std::min(std::uint64_t(1) << s, leaves - first)};
    }

    std::uint64_t device_bytes() const {
      return (slots * (slot_leaves + slot_nodes) + upper_nodes + zero_nodes) * node_bytes;
    }
  };

  static constexpr unsigned zero_nodes = 64;

  bool is_cpu() const {
    return (detail::device_info<CL_DEVICE_TYPE, cl_device_type>(device_) & CL_DEVICE_TYPE_CPU) != 0;
  }

  // In-order queues: a build's launches depend on each other anyway, and on an H200 an
  // out-of-order kernel queue held a chunk's launches back until the download queue had
  // finished the chunk before (0.07 ms a chunk; 24.16 against 23.39 ms end to end for 2^25
  // leaves, docs/BENCHMARKS.md).
  cl::CommandQueue make_queue() {
    return detail::create("clCreateCommandQueue", [&](cl_int *err) {
      return cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, err);
    });
  }

  unsigned lanes_for_device() const {
    if (!detail::lanes_supported(config_.tree.hash)) return 1;
    if (config_.lanes) {
      if (config_.lanes > 16 || (config_.lanes & (config_.lanes - 1)))
        throw error("lanes must be 0, 1, 2, 4, 8 or 16, not " + std::to_string(config_.lanes));
      return config_.lanes;
    }
    if (!is_cpu()) return 1;
    const auto width = detail::device_info<CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint>(device_);
    return width >= 16 ? 16 : width >= 8 ? 8 : 4;
  }

  // Whether one-level launches may run merkle_level.
  bool uses_level_kernel(unsigned lanes) const {
    return lanes == 1 && config_.level_kernel != level_kernel_kind::subtree;
  }

  // Whether the one-level launch over a level of `count` nodes runs merkle_level. Automatic: on
  // levels with work for 16 full waves of work-groups on every compute unit, where several
  // nodes per work-item pay; on smaller levels a work-item's second node only adds latency.
  bool runs_level_kernel(std::uint64_t count) const {
    if (!uses_level_kernel(lanes_)) return false;
    if (config_.level_kernel == level_kernel_kind::level ||
        config_.level_kernel == level_kernel_kind::levels)
      return true;
    if (config_.tree.hash == hash_kind::sha256) return false; // measured for BLAKE3 nodes only
    const std::uint64_t items = (count + 1) / 2 / nodes_per_item();
    return items >= std::uint64_t(16) * compute_units_ * local_size_;
  }

  // Whether a launch with `remaining` levels to compute, not fused, runs merkle_levels: where
  // levels_per_item levels remain, with level_kernel levels or automatic for BLAKE3 nodes.
  bool runs_levels_kernel(unsigned remaining) const {
    if (!uses_level_kernel(lanes_) || config_.levels_per_launch || remaining < levels_per_item())
      return false;
    if (config_.level_kernel == level_kernel_kind::levels) return true;
    return config_.level_kernel == level_kernel_kind::automatic &&
           config_.tree.hash != hash_kind::sha256;
  }

  // Levels of up to this many nodes get merkle_level with 32-bit indices: its indices (16-byte
  // units up to twice the count, node indices up to a global size past the level) stay far
  // below 2^32.
  static constexpr std::uint64_t narrow_index_limit = std::uint64_t(1) << 30;

  // merkle_level for a level of `count` nodes, built on first use.
  cl::Kernel &level_kernel(std::uint64_t count) {
    const bool wide = count > narrow_index_limit;
    return built_kernel(level_kernels_[wide], merkle_level_program(wide), "merkle_level",
                        local_size_);
  }

  // merkle_levels above a level of `count` nodes, built on first use.
  cl::Kernel &levels_kernel(std::uint64_t count) {
    const bool wide = count > narrow_index_limit;
    return built_kernel(levels_kernels_[wide], merkle_levels_program(wide), "merkle_levels",
                        local_size_);
  }

  cl::Kernel &built_kernel(cl::Kernel &kernel, const detail::program_spec &spec, const char *name,
                           std::size_t local_size) {
    if (kernel()) return kernel;
    const auto built = detail::get_program(context_, device_, spec);
    kernel = detail::create("clCreateKernel",
                            [&](cl_int *err) { return cl::Kernel(built.program, name, err); });
    check_work_group_size(kernel, local_size);
    return kernel;
  }

  // The level kernel: merkle_subtree (several levels a launch), or merkle_level_lanes.
  cl::Kernel &subtree_kernel() {
    if (kernel_()) return kernel_;
    lanes_ = lanes_for_device();
    local_size_ = work_group_size(lanes_);
    const auto built = detail::get_program(context_, device_, level_program());
    form_ = built.form;
    kernel_ = detail::create("clCreateKernel", [&](cl_int *err) {
      return cl::Kernel(built.program, lanes_ > 1 ? "merkle_level_lanes" : "merkle_subtree", err);
    });
    check_work_group_size(kernel_, local_size_);
    compute_units_ = detail::device_info<CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint>(device_);
    zeros_ = detail::create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_ONLY, zero_nodes * node_bytes, nullptr, err);
    });
    const auto zeros = zero_subtree_roots(config_.tree.hash, zero_nodes - 1);
    detail::call("clEnqueueWriteBuffer", [&] {
      return upload_queue_.enqueueWriteBuffer(zeros_, CL_TRUE, 0, zero_nodes * node_bytes,
                                              zeros.data());
    });
    return kernel_;
  }

  // The configured size, else 16 for lanes (CPU work-groups need little),
  // default_gpu_work_group_size on GPUs and 256 on CPUs without lanes.
  std::size_t work_group_size(unsigned lanes) const {
    if (config_.work_group_size) return config_.work_group_size;
    const auto device_max =
        detail::device_info<CL_DEVICE_MAX_WORK_GROUP_SIZE, std::size_t>(device_);
    return std::min<std::size_t>(lanes > 1  ? 16
                                 : is_cpu() ? 256
                                            : default_gpu_work_group_size,
                                 device_max);
  }

  void check_work_group_size(const cl::Kernel &kernel, std::size_t local_size) const {
    std::size_t kernel_max = 0;
    detail::call("clGetKernelWorkGroupInfo", [&] {
      return kernel.getWorkGroupInfo(device_, CL_KERNEL_WORK_GROUP_SIZE, &kernel_max);
    });
    if (local_size > kernel_max)
      throw error("work-group size " + std::to_string(local_size) +
                  " exceeds the kernel's limit of " + std::to_string(kernel_max) + " on " +
                  device_name(device_));
  }

  // Whether to fuse levels above a level of `count` nodes. Fusing saves launches but leaves
  // most work-items of a group idle above its first level, so large levels, which keep every
  // compute unit busy, get a launch each (at 2^25 leaves on an H200: 2.35 ms one launch per
  // level, 3.43 ms fused throughout) and the small top of the tree is fused (2^20 leaves: 0.141
  // ms fused, 0.170 ms one launch per level).
  bool fuses(std::uint64_t count) const {
    if (config_.levels_per_launch) return true;
    return (count + 1) / 2 <= std::uint64_t(2) * compute_units_ * local_size_;
  }

  // Levels a fused launch computes: a work-group of W (a power of two) reduces 2W nodes to one.
  unsigned levels_per_launch() const {
    if (lanes_ > 1 || local_size_ & (local_size_ - 1)) return 1;
    unsigned levels = 1;
    while ((std::size_t(1) << levels) <= local_size_ && levels < 16)
      ++levels;
    return config_.levels_per_launch ? std::min(config_.levels_per_launch, levels) : levels;
  }

  // One launch of enqueue_levels: its kernel (arguments set), levels, work-items and group size.
  struct launch {
    cl::Kernel *kernel;
    unsigned levels;
    std::uint64_t items;
    std::size_t local_size;
  };

  // The launch above level `in` with `remaining` levels to go into `out`.
  launch plan_launch(const level_source &in, const level_target &out, unsigned remaining,
                     unsigned root_level) {
    const std::uint64_t pairs = (in.count + 1) / 2;
    const auto top = [&](unsigned levels) {
      return in.level + levels == root_level ? int(levels) - 1 : -1;
    };
    if (lanes_ > 1) {
      set_level_args(kernel_, in, out.buffer, out.node_first(), top(1) == 0);
      return {&kernel_, 1, (pairs + lanes_ - 1) / lanes_, local_size_};
    }
    const unsigned fused_levels = std::min(levels_per_launch(), remaining);
    if (fuses(in.count) && fused_levels > 1) {
      set_span_args(kernel_, in, out, fused_levels, top(fused_levels));
      return {&kernel_, fused_levels, pairs, local_size_};
    }
    if (runs_levels_kernel(remaining)) {
      const unsigned levels = levels_per_item();
      cl::Kernel &kernel = levels_kernel(in.count);
      set_span_args(kernel, in, out, std::nullopt, top(levels));
      return {&kernel, levels, detail::ceil_shift(in.count, levels), local_size_};
    }
    if (runs_level_kernel(in.count)) {
      cl::Kernel &kernel = level_kernel(in.count);
      set_level_args(kernel, in, out.buffer, out.node_first(), top(1) == 0);
      return {&kernel, 1, (pairs + nodes_per_item() - 1) / nodes_per_item(), local_size_};
    }
    set_span_args(kernel_, in, out, 1u, top(1));
    return {&kernel_, 1, pairs, local_size_};
  }

  // Enqueues the levels above `source`: launches of one level (or levels_per_item levels) while
  // levels are large, then fused launches of up to levels_per_launch() levels.
  void enqueue_levels(const level_source &source, const level_target &target, unsigned root_level,
                      const std::vector<cl::Event> &wait, std::vector<cl::Event> &events) {
    subtree_kernel();
    std::uint64_t count = source.count;
    for (unsigned done = 0; done < target.levels;) {
      const level_target out = target.from(done);
      const level_source in = done == 0
                                  ? source
                                  : level_source{target.buffer, target.from(done - 1).node_first(),
                                                 count, source.level + done};
      const launch l = plan_launch(in, out, target.levels - done, root_level);
      const std::vector<cl::Event> deps = done == 0 ? wait : std::vector<cl::Event>{events.back()};
      events.emplace_back();
      detail::call("clEnqueueNDRangeKernel", [&] {
        const std::uint64_t groups = (l.items + l.local_size - 1) / l.local_size;
        return queue_.enqueueNDRangeKernel(*l.kernel, cl::NullRange,
                                           cl::NDRange(groups * l.local_size),
                                           cl::NDRange(l.local_size), &deps, &events.back());
      });
      count = detail::ceil_shift(count, l.levels);
      done += l.levels;
    }
  }

  // The arguments of merkle_subtree and merkle_levels: where they read and write, then
  // merkle_subtree's level count (levels_arg), the zero roots, the level read, the shape and the
  // launch level that is the root.
  void set_span_args(cl::Kernel &kernel, const level_source &in, const level_target &out,
                     std::optional<unsigned> levels_arg, int top) {
    detail::call("clSetKernelArg", [&] {
      cl_uint i = 0;
      cl_int err = kernel.setArg(i++, in.buffer);
      err |= kernel.setArg(i++, cl_ulong(in.first));
      err |= kernel.setArg(i++, cl_ulong(in.count));
      err |= kernel.setArg(i++, out.buffer);
      err |= kernel.setArg(i++, cl_ulong(out.first));
      err |= kernel.setArg(i++, cl_ulong(out.size));
      err |= kernel.setArg(i++, cl_ulong(out.offset));
      if (levels_arg) err |= kernel.setArg(i++, cl_int(*levels_arg));
      err |= kernel.setArg(i++, zeros_);
      err |= kernel.setArg(i++, cl_ulong(in.level));
      err |= kernel.setArg(i++, cl_int(config_.tree.pad == shape::zero));
      err |= kernel.setArg(i++, cl_int(top));
      return err;
    });
  }

  // The arguments of the one-level kernels, merkle_level and merkle_level_lanes.
  void set_level_args(cl::Kernel &kernel, const level_source &in, const cl::Buffer &out,
                      std::uint64_t out_first, bool top) {
    detail::call("clSetKernelArg", [&] {
      cl_int err = kernel.setArg(0, in.buffer);
      err |= kernel.setArg(1, cl_ulong(in.first));
      err |= kernel.setArg(2, cl_ulong(in.count));
      err |= kernel.setArg(3, out);
      err |= kernel.setArg(4, cl_ulong(out_first));
      err |= kernel.setArg(5, zeros_);
      err |= kernel.setArg(6, cl_ulong(in.level));
      err |= kernel.setArg(7, cl_int(config_.tree.pad == shape::zero));
      err |= kernel.setArg(8, cl_int(top));
      return err;
    });
  }

  unsigned in_flight() const { return config_.chunks_in_flight ? config_.chunks_in_flight : 3; }

  // Chunk size and slots for a host build, within the device's memory or max_device_bytes.
  stream_plan plan_for(const part_span &part) const {
    const tree_layout &layout = part.layout;
    const auto max_alloc = detail::device_info<CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong>(device_);
    const auto global = detail::device_info<CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong>(device_);
    const std::uint64_t budget = config_.max_device_bytes
                                     ? std::min<std::uint64_t>(config_.max_device_bytes, global)
                                     : global / 10 * 9;
    for (unsigned s = std::min(chunk_log2(), part.levels);; --s) {
      // The fewest levels read back per chunk first; more keep less in `upper`.
      stream_plan plan;
      for (unsigned lower = fewest_lower(s);; ++lower) {
        plan = plan_with(part, s, in_flight(), lower);
        const bool fits =
            plan.device_bytes() <= budget &&
            std::max({plan.slot_leaves, plan.slot_nodes, plan.upper_nodes}) * node_bytes <=
                max_alloc;
        if (fits) return plan;
        if (lower + 1 >= std::max(plan.base, 1u)) break;
      }
      if (s <= 1)
        throw error("tree too large for " + device_name(device_) + ": " +
                    std::to_string(layout.leaf_count() * node_bytes) + " bytes of leaves and " +
                    std::to_string(layout.internal_node_count() * node_bytes) +
                    " bytes of nodes need at least " + std::to_string(plan.device_bytes()) +
                    " bytes of device memory even when streamed, but " + std::to_string(budget) +
                    " bytes are allowed (device memory " + std::to_string(global) +
                    ", largest buffer " + std::to_string(max_alloc) + ")");
    }
  }

  // Each read back costs the bus about as much as moving 2^14 nodes (a chunk's read of a level
  // takes about 10 us more than its bytes on an H200), so a chunk's levels come back from the
  // slot while they hold 2^min_read_log2 nodes or more, and the levels above them, 1/2^lower of
  // the tree, stay in `upper` and come back in one read at the end.
  static constexpr unsigned min_read_log2 = 15;

  // Levels read back per chunk of 2^s leaves by default: those of 2^min_read_log2 nodes or more,
  // at least one.
  static unsigned fewest_lower(unsigned s) { return s > min_read_log2 ? s - min_read_log2 : 1; }

  // The plan for chunks of 2^s leaves, `slots` of them on the device, `lower` levels of each
  // read back from its slot (at most base - 1).
  static stream_plan plan_with(const part_span &part, unsigned s, unsigned slots, unsigned lower) {
    const tree_layout &layout = part.layout;
    const std::uint64_t n = layout.leaf_count(), size = std::uint64_t(1) << s;
    const std::uint64_t full_chunks = (n + size - 1) / size;
    const bool ramp = full_chunks >= 4 && s >= 3;
    stream_plan p;
    p.s = s;
    p.leaves = n;
    p.base = ramp ? s - 2 : s;
    p.middle = ramp ? full_chunks - 2 : full_chunks;
    if (ramp) {
      p.head = {{0, size / 4}, {size / 4, size / 4}, {size / 2, size / 2}};
      p.middle_first = size;
      p.tail = tail_chunks((full_chunks - 1) * size, n - (full_chunks - 1) * size, s);
    }
    p.lower = std::min(lower, p.base == 0 ? 0 : p.base - 1);
    p.slots = static_cast<unsigned>(std::min<std::uint64_t>(slots, p.chunks()));
    p.slot_leaves = std::min(size, n);
    for (unsigned k = 1; k <= p.lower; ++k)
      p.slot_nodes += detail::ceil_shift(p.slot_leaves, k);
    p.upper_nodes = layout.level_offset(part.levels + 1) - layout.level_offset(p.lower + 1);
    return p;
  }

  // The last chunk of a ramped stream, leaves [first, first + count), count <= 2^s: halves and
  // quarters, each aligned to its size, ending in a quarter or less.
  static std::vector<chunk> tail_chunks(std::uint64_t first, std::uint64_t count, unsigned s) {
    std::vector<chunk> chunks;
    for (unsigned levels : {s - 1, s - 2}) {
      const std::uint64_t size = std::uint64_t(1) << levels;
      if (count > size) {
        chunks.push_back({first, size});
        first += size;
        count -= size;
      }
    }
    chunks.push_back({first, count});
    return chunks;
  }

  // Node offset of chunk-level k (1..lower) in a slot's node buffer.
  static std::uint64_t slot_level_first(const stream_plan &p, unsigned k) {
    std::uint64_t first = 0;
    for (unsigned i = 1; i < k; ++i)
      first += detail::ceil_shift(p.slot_leaves, i);
    return first;
  }

  void ensure_stream_buffers(const stream_plan &p) {
    grow(upper_, upper_bytes_, std::max<std::uint64_t>(1, p.upper_nodes) * node_bytes);
    slots_.resize(std::max<std::size_t>(slots_.size(), p.slots));
    for (unsigned i = 0; i < p.slots; ++i) {
      grow(slots_[i].leaves, slots_[i].leaves_bytes, p.slot_leaves * node_bytes);
      grow(slots_[i].nodes, slots_[i].nodes_bytes,
           std::max<std::uint64_t>(1, p.slot_nodes) * node_bytes);
    }
  }

  // Copies with several threads: one core cannot feed a PCIe 5 link, nor fault in fresh pages
  // as fast as the device fills them.
  static void parallel_copy(std::uint8_t *dst, const std::uint8_t *src, std::uint64_t bytes) {
    const std::uint64_t threads = bytes < (std::uint64_t(8) << 20) ? 1 : detail::host_threads();
    if (threads == 1) {
      std::memcpy(dst, src, bytes);
      return;
    }
    const std::uint64_t slice = (bytes / threads + 4095) / 4096 * 4096;
    std::vector<std::thread> pool;
    for (std::uint64_t at = slice; at < bytes; at += slice)
      pool.emplace_back([=] { std::memcpy(dst + at, src + at, std::min(slice, bytes - at)); });
    std::memcpy(dst, src, std::min(slice, bytes));
    for (auto &thread : pool)
      thread.join();
  }

  // Page-locked staging for copies from and to pageable memory: the driver's own pageable path
  // is many times slower than the bus.
  host_buffer &staging(std::vector<host_buffer> &ring, std::size_t index, std::uint64_t bytes) {
    if (ring.size() <= index) ring.resize(index + 1);
    if (ring[index].size() < bytes) {
      ring[index] = host_buffer();
      ring[index] = allocate_host(bytes);
    }
    return ring[index];
  }

  // Where the leaves and the kept nodes of a host build are, and whether they are page-locked.
  struct host_side {
    const std::uint8_t *leaves;
    bool leaves_pinned;
    bool nodes_pinned;
  };

  // CPU devices share the host's memory: the kernels read the leaves and write the nodes where
  // they are, with no copy at all (when the tree keeps every level above the leaves).
  bool zero_copy(const tree &t) const {
    return config_.zero_copy && t.first_node_level() == 1 &&
           detail::device_info<CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool>(device_) && is_cpu();
  }

  void build_in_place(const std::uint8_t *leaves, tree &t) {
    const std::uint64_t n = t.leaf_count();
    const cl::Buffer in = detail::create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, n * node_bytes,
                        const_cast<std::uint8_t *>(leaves), err);
    });
    const cl::Buffer out = detail::create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, t.nodes_size(),
                        t.nodes_data(), err);
    });
    const auto kernels = enqueue_build(in, n, out);
    const std::vector<cl::Event> done{kernels.back()};
    // Mapping makes the nodes visible at their host address (no copy where the device used it).
    void *mapped = detail::create("clEnqueueMapBuffer", [&](cl_int *err) {
      return queue_.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, 0, t.nodes_size(), &done, nullptr,
                                     err);
    });
    cl::Event unmapped;
    detail::call("clEnqueueUnmapMemObject",
                 [&] { return queue_.enqueueUnmapMemObject(out, mapped, nullptr, &unmapped); });
    detail::call("clWaitForEvents", [&] { return unmapped.wait(); });
    last_events_.kernels = kernels;
    last_.kernel_launches = kernels.size();
    last_.chunks = 1;
  }

  // The streaming build of a part (the whole tree for build): leaves from host memory, the
  // part's kept levels 1..part.levels into t at their places (level 0 is the caller's business:
  // copied or shared). Returns the part's nodes of level part.levels.
  std::vector<digest> stream(const host_side &host, const part_span &part, tree &t,
                             const stream_plan &p) {
    last_ = build_times{};
    last_events_ = {};
    last_profiled_ = false;
    const tree_layout &layout = part.layout;
    const unsigned top = part.levels;
    // The level that gets the root flag: the whole tree's root, above its stored levels when a
    // fixed depth pads them, so never a level of a part that is not the whole tree.
    const unsigned root_level = root_depth(config_.tree, t.layout());
    if (top == 0) return as_digests(host.leaves, layout.leaf_count());
    if (part.is_whole(t) && zero_copy(t)) {
      build_in_place(host.leaves, t);
      return {t.node(top, 0)};
    }
    subtree_kernel();
    ensure_stream_buffers(p);
    const unsigned keep = t.first_node_level();
    const auto upper_first = [&](unsigned k) {
      return layout.level_offset(k) - layout.level_offset(p.lower + 1);
    };
    // Node i of the part's level k at its place in t.
    const auto tree_node = [&](unsigned k, std::uint64_t i) {
      const tree_layout &whole = t.layout();
      return t.nodes_data() +
             (whole.level_offset(k) - whole.level_offset(keep) + (part.first_leaf >> k) + i) *
                 node_bytes;
    };
    const unsigned keep_lower = std::max(keep, 1u); // kept levels among the chunks' lower ones
    const bool stage_down = !host.nodes_pinned && keep_lower <= p.lower;
    const std::uint64_t chunks = p.chunks();
    std::vector<cl::Event> uploads, kernels, downloads, chunk_done(chunks), chunk_read(chunks);
    // Host side of a staged download: from the slot's copy to each kept level's place.
    const auto drain = [&](std::uint64_t c) {
      detail::call("clWaitForEvents", [&] { return chunk_read[c].wait(); });
      const std::uint8_t *staged = down_staging_[c % p.slots].data();
      for (unsigned k = keep_lower; k <= p.lower; ++k)
        parallel_copy(tree_node(k, p.at(c).first >> k),
                      staged +
                          (slot_level_first(p, k) - slot_level_first(p, keep_lower)) * node_bytes,
                      detail::ceil_shift(p.at(c).count, k) * node_bytes);
    };
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const slot &sl = slots_[c % p.slots];
      const chunk here = p.at(c);
      const std::uint64_t chunk_first = here.first, m = here.count;
      const std::uint8_t *source = host.leaves + chunk_first * node_bytes;
      if (!host.leaves_pinned) {
        host_buffer &stage = staging(up_staging_, c % p.slots, p.slot_leaves * node_bytes);
        if (c >= p.slots)
          detail::call("clWaitForEvents", [&] { return uploads[c - p.slots].wait(); });
        parallel_copy(stage.data(), source, m * node_bytes);
        source = stage.data();
      }
      std::vector<cl::Event> free_slot;
      if (c >= p.slots) free_slot = {chunk_done[c - p.slots]};
      uploads.emplace_back();
      detail::call("clEnqueueWriteBuffer", [&] {
        return upload_queue_.enqueueWriteBuffer(sl.leaves, CL_FALSE, 0, m * node_bytes, source,
                                                &free_slot, &uploads.back());
      });
      detail::call("clFlush", [&] { return upload_queue_.flush(); });
      std::vector<cl::Event> wait{uploads.back()};
      if (c >= p.slots) wait.push_back(chunk_read[c - p.slots]);
      if (c > 0) wait.push_back(chunk_done[c - 1]);
      // Levels 1..lower into the slot, then lower+1..base into the upper buffer at the chunk's
      // place.
      const level_source leaves_in{sl.leaves, 0, m, 0};
      const level_target upper{upper_, upper_first(p.lower + 1), layout.level_size(p.lower + 1),
                               chunk_first >> (p.lower + 1), p.base - p.lower};
      std::vector<cl::Event> lower_done{wait.front()}; // the slot's levels are written
      if (p.lower > 0) {
        enqueue_levels(leaves_in, {sl.nodes, 0, detail::ceil_shift(p.slot_leaves, 1), 0, p.lower},
                       root_level, wait, kernels);
        lower_done = {kernels.back()};
        enqueue_levels(
            {sl.nodes, slot_level_first(p, p.lower), detail::ceil_shift(m, p.lower), p.lower},
            upper, root_level, lower_done, kernels);
      } else {
        enqueue_levels(leaves_in, upper, root_level, wait, kernels);
      }
      detail::call("clFlush", [&] { return queue_.flush(); });
      chunk_done[c] = kernels.back();
      chunk_read[c] = lower_done.front();
      if (stage_down) { // one read of the slot's kept levels, scattered by the host later
        host_buffer &stage = staging(down_staging_, c % p.slots, p.slot_nodes * node_bytes);
        downloads.emplace_back();
        const std::uint64_t from = slot_level_first(p, keep_lower);
        const std::uint64_t to = slot_level_first(p, p.lower) + detail::ceil_shift(m, p.lower);
        detail::call("clEnqueueReadBuffer", [&] {
          return download_queue_.enqueueReadBuffer(sl.nodes, CL_FALSE, from * node_bytes,
                                                   (to - from) * node_bytes, stage.data(),
                                                   &lower_done, &downloads.back());
        });
        chunk_read[c] = downloads.back();
        if (c + 1 >= p.slots) drain(c + 1 - p.slots);
      } else {
        for (unsigned k = keep_lower; k <= p.lower; ++k) { // straight into page-locked memory
          downloads.emplace_back();
          detail::call("clEnqueueReadBuffer", [&] {
            return download_queue_.enqueueReadBuffer(
                sl.nodes, CL_FALSE, slot_level_first(p, k) * node_bytes,
                detail::ceil_shift(m, k) * node_bytes, tree_node(k, chunk_first >> k), &lower_done,
                &downloads.back());
          });
          chunk_read[c] = downloads.back();
        }
      }
      detail::call("clFlush", [&] { return download_queue_.flush(); });
    }
    if (stage_down)
      for (std::uint64_t c = chunks < p.slots ? 0 : chunks + 1 - p.slots; c < chunks; ++c)
        drain(c);
    // The levels above the chunks, then the kept ones and the top come back from the upper buffer.
    if (top > p.base)
      enqueue_levels(
          {upper_, upper_first(p.base), layout.level_size(p.base), p.base},
          {upper_, upper_first(p.base + 1), layout.level_size(p.base + 1), 0, top - p.base},
          root_level, {kernels.back()}, kernels);
    const std::vector<cl::Event> all_done{kernels.back()};
    const unsigned from = std::max(keep, p.lower + 1);
    // Kept upper levels bound for pageable memory come through one page-locked staging buffer
    // (the driver's pageable path ran at about 1.3 GB/s on an H200) and are copied into place
    // once read.
    const bool stage_upper = !host.nodes_pinned && from <= top;
    std::uint8_t *const staged_upper =
        stage_upper
            ? staging(down_staging_, p.slots,
                      (layout.level_offset(top + 1) - layout.level_offset(from)) * node_bytes)
                  .data()
            : nullptr;
    const auto upper_bytes = [&](unsigned first, unsigned last) {
      return (layout.level_offset(last + 1) - layout.level_offset(first)) * node_bytes;
    };
    const auto staged_at = [&](unsigned first) {
      return staged_upper + (upper_first(first) - upper_first(from)) * node_bytes;
    };
    const auto read_upper = [&](unsigned first, unsigned last, void *to) {
      downloads.emplace_back();
      detail::call("clEnqueueReadBuffer", [&] {
        return download_queue_.enqueueReadBuffer(upper_, CL_FALSE, upper_first(first) * node_bytes,
                                                 upper_bytes(first, last), to, &all_done,
                                                 &downloads.back());
      });
    };
    // The kept levels from upper, as runs of levels [first, last]: a part of every leaf is laid
    // out in t as in the upper buffer, so one read (the end-to-end time of large trees depends
    // on it), else a read per level into its place.
    std::vector<std::pair<unsigned, unsigned>> kept_runs;
    if (layout.leaf_count() == t.leaf_count() && from <= top)
      kept_runs.emplace_back(from, top);
    else
      for (unsigned k = from; k <= top; ++k)
        kept_runs.emplace_back(k, k);
    for (const auto &[first, last] : kept_runs)
      read_upper(first, last, stage_upper ? staged_at(first) : tree_node(first, 0));
    std::vector<digest> top_nodes(layout.level_size(top));
    if (from > top) read_upper(top, top, top_nodes.data());
    detail::call("clFlush", [&] { return queue_.flush(); });
    detail::call("clFinish", [&] { return download_queue_.finish(); });
    if (stage_upper)
      for (const auto &[first, last] : kept_runs)
        parallel_copy(tree_node(first, 0), staged_at(first), upper_bytes(first, last));
    if (from <= top)
      std::memcpy(top_nodes.data(), tree_node(top, 0), top_nodes.size() * node_bytes);
    last_events_ = {std::move(uploads), std::move(kernels), std::move(downloads)};
    last_.kernel_launches = last_events_.kernels.size();
    last_.chunks = chunks;
    return top_nodes;
  }

  static std::vector<digest> as_digests(const std::uint8_t *nodes, std::uint64_t count) {
    std::vector<digest> digests(count);
    std::memcpy(digests.data(), nodes, count * node_bytes);
    return digests;
  }

  // Runs `work` while another thread copies the part's leaves into t's level 0, when t keeps it
  // and they are not there already (a host_buffer that t holds as its level 0).
  template <class Work>
  static void with_leaf_copy(tree &t, const part_span &part, const void *leaves, Work &&work) {
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

  // A last part smaller than 2^top ends at its own depth part.levels < top with one node, the
  // last of its level in the tree, at an even index: it has no partner up to level `top`, so it
  // goes up by the node rule for a lone node (unchanged for promote, hashed with zero subtrees
  // for zero). Kept levels are written into t.
  digest lift_lone_node(digest node, const part_span &part, unsigned top, tree &t) const {
    const auto zeros = zero_subtree_roots(config_.tree.hash, top);
    const unsigned root_level = root_depth(config_.tree, t.layout());
    for (unsigned k = part.levels + 1; k <= top; ++k) {
      node = detail::level_above(config_.tree, k, root_level, {node}, zeros).front();
      if (k >= t.first_level())
        std::memcpy(t.level_data(k) + (part.first_leaf >> k) * node_bytes, node.data(), node_bytes);
    }
    return node;
  }

  // build_part's refusals, before anything is written.
  void check_part(const void *leaves, std::uint64_t first_leaf, std::uint64_t count, unsigned top,
                  const tree &out) const {
    const std::uint64_t n = out.leaf_count();
    const std::string range = "build_part: leaves [" + std::to_string(first_leaf) + ", " +
                              std::to_string(first_leaf + count) + ")";
    if (count == 0) throw error("build_part: no leaves (count 0): a part needs at least one");
    if (!leaves) throw error("build_part: the leaves pointer is null");
    if (first_leaf >= n || count > n - first_leaf)
      throw error(range + " run past the tree's " + std::to_string(n) + " leaves");
    if (top > out.depth())
      throw error("build_part: level " + std::to_string(top) + " is above the tree's top level " +
                  std::to_string(out.depth()));
    const std::uint64_t size = std::uint64_t(1) << top;
    const std::string aligned = "2^" + std::to_string(top) + " = " + std::to_string(size);
    if (first_leaf % size != 0)
      throw error(range + " do not start at a multiple of " + aligned + ", so the part's level " +
                  std::to_string(top) + " is not the tree's");
    if (count % size != 0 && first_leaf + count != n)
      throw error(range + ": " + std::to_string(count) + " leaves are not a multiple of " +
                  aligned + ", and only the part that ends the tree (at leaf " + std::to_string(n) +
                  ") may be shorter");
    const tree_options &o = out.options();
    if (o.hash != config_.tree.hash || o.pad != config_.tree.pad || o.depth != config_.tree.depth)
      throw error("build_part: the output tree's hash, shape or fixed depth is not this "
                  "merkleizer's (config::tree)");
    root_depth(o, out.layout()); // refuses a bad fixed depth
    if (out.first_node_level() <= top && !out.nodes_data())
      throw error("build_part: the output tree has no storage for its nodes");
  }

  void check_buffer(const cl::Buffer &buffer, const char *what, std::uint64_t needed) const {
    detail::check_buffer(context_, buffer, what, needed, "merkleizer", "tree");
  }

  void grow(cl::Buffer &buffer, std::uint64_t &capacity, std::uint64_t needed) {
    detail::grow_buffer(context_, buffer, capacity, needed);
  }

  struct slot {
    cl::Buffer leaves, nodes;
    std::uint64_t leaves_bytes = 0, nodes_bytes = 0;
  };

  cl::Context context_;
  cl::Device device_;
  config config_;
  cl::CommandQueue queue_, upload_queue_, download_queue_;
  cl::Kernel kernel_;
  cl::Kernel level_kernels_[2];  // merkle_level with 32-bit and with 64-bit indices
  cl::Kernel levels_kernels_[2]; // merkle_levels, the same
  merklize::program_form form_ = merklize::program_form::jit;
  unsigned lanes_ = 1;
  std::size_t local_size_ = 0;
  cl_uint compute_units_ = 1;
  cl::Buffer zeros_;
  std::vector<slot> slots_;
  cl::Buffer upper_;
  std::uint64_t upper_bytes_ = 0;
  std::vector<host_buffer> up_staging_, down_staging_;
  struct build_events {
    std::vector<cl::Event> uploads, kernels, downloads;
  };
  build_events last_events_;
  mutable build_times last_;
  mutable bool last_profiled_ = true;
};

} // namespace merklize
