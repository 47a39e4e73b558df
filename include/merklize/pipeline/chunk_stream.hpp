// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees of leaves that arrive from an input (a file, a pipe), whose count may be known only at the
// end. The leaves come in chunks (the pieces of piece_pipeline.hpp: read into page-locked staging
// ahead of the upload, uploaded while the device builds the chunk before), and a level step
// builds each chunk's own levels on the device, which are the tree's there (the aligned-part
// rule, parts.hpp, kary_part_sizes): for binary trees chunk_stream's (2^s leaves, levels 1..s by
// the level runner), for k-ary trees kary_chunk_step's (engine/kary_stream.hpp: k^j leaves,
// levels 1..j). Both run in stream_chunks' loop. Only each chunk's top node comes back, and every
// level of the one chunk a proof needs: streamed_tree.hpp finishes the root or the proof on the
// host. Memory: the pipeline's staging and two chunks of leaves and nodes on the device, whatever
// the input's length.
#pragma once

#include "../runtime/profiling.hpp"
#include "../runtime/queue_drain.hpp"
#include "level_runner.hpp"
#include "piece_pipeline.hpp"
#include "streamed_tree.hpp"

#include <deque>
#include <optional>
#include <vector>

namespace merklize {
namespace detail {

// The leaves in `bytes` bytes of the input `name`: N >= 1 whole leaves, else an error naming it.
inline std::uint64_t checked_leaf_count(const std::string &name, std::uint64_t bytes) {
  try {
    return leaf_count_of(bytes);
  } catch (const error &e) {
    throw error(name + ": " + e.what());
  }
}

// The same, where a tree of no leaves has a root (empty_tree_root: rfc6962, or shape zero with a
// fixed depth): 0 for no bytes.
inline std::uint64_t checked_leaf_count(const std::string &name, std::uint64_t bytes,
                                        const tree_options &options) {
  if (bytes == 0 && empty_tree_root(options)) return 0;
  return checked_leaf_count(name, bytes);
}

// Enqueues the read of nodes [first, first + count) of `from` into `to` after `after`.
inline cl::Event read_nodes(const cl::CommandQueue &queue, const cl::Buffer &from,
                            std::uint64_t first, std::uint64_t count, void *to, bool blocking,
                            const std::vector<cl::Event> &after = {}) {
  cl::Event done;
  call("clEnqueueReadBuffer", [&] {
    return queue.enqueueReadBuffer(from, blocking ? CL_TRUE : CL_FALSE, first * node_bytes,
                                   count * node_bytes, to, &after, &done);
  });
  return done;
}

// The loop every streamed tree shares, whatever its arity: streams `source` (pieces of an
// input, a chunk of leaves each) through `pipeline`, and hands each chunk j, once its upload is
// enqueued, to the level step on_chunk(chunk, its leaves, j, whole, uploaded, top), which
// enqueues the chunk's levels on `queue` and the read of its top node into `top` and returns the
// event after which the chunk's leaves may be overwritten. `whole`: the chunk is the tree.
// count(bytes): the leaves in the input's first `bytes` bytes, refusing what is not whole
// leaves (0: an empty input that has a root). Returns the tops in order, once all are read;
// `leaves` is then the input's leaf count.
template <class Source, class Count, class OnChunk>
std::vector<digest> stream_chunks(Source &source, piece_pipeline &pipeline,
                                  const cl::CommandQueue &queue, std::vector<cl::Event> &uploads,
                                  const Count &count, std::uint64_t &leaves, OnChunk &&on_chunk) {
  std::deque<digest> tops; // read back without waiting: their places must not move
  {
    // Nothing still in flight may use the staging or read into `tops` once this has failed.
    const drain_on_unwind drained{&queue, &pipeline.transfer()};
    pipeline.run(source, uploads,
                 [&](const cl::Buffer &chunk, std::uint64_t bytes, std::uint64_t j, bool last,
                     const std::vector<cl::Event> &uploaded) {
                   leaves = count(j * source.piece_bytes() + bytes);
                   if (leaves == 0) return cl::Event(); // an empty input, N = 0
                   tops.emplace_back();
                   return on_chunk(chunk, bytes / node_bytes, j, j == 0 && last, uploaded,
                                   tops.back());
                 });
    call("clFinish", [&] { return queue.finish(); });
  }
  return {tops.begin(), tops.end()};
}

class chunk_stream {
public:
  explicit chunk_stream(device_runtime runtime) : runtime_(std::move(runtime)) {}

  // Streams `source` (pieces of 2^s leaves of the input `name`) through `pipeline`, the chunks'
  // levels enqueued by `levels` on `queue`; keeps every level of the chunk holding `keep_leaf`,
  // if given.
  template <class Source>
  streamed_tree run(Source &source, const std::string &name, piece_pipeline &pipeline,
                    level_runner &levels, const cl::CommandQueue &queue, event_log &log,
                    const tree_options &options, std::optional<std::uint64_t> keep_leaf) {
    const unsigned s = ceil_log2(source.piece_bytes() / node_bytes);
    streamed_tree result;
    result.options = options;
    result.chunk_log2 = s;
    const auto count = [&](std::uint64_t bytes) {
      return checked_leaf_count(name, bytes, options);
    };
    result.tops = stream_chunks(
        source, pipeline, queue, log.uploads, count, result.leaf_count,
        [&](const cl::Buffer &chunk, std::uint64_t leaves, std::uint64_t j, bool whole,
            const std::vector<cl::Event> &uploaded, digest &top) {
          const bool kept = keep_leaf && (*keep_leaf >> s) == j;
          if (kept) result.kept_first = j << s;
          return enqueue_chunk(levels, queue, log, options, chunk, leaves, j, whole, uploaded, top,
                               kept ? &result.kept.emplace(leaves, options) : nullptr);
        });
    return result;
  }

private:
  // Enqueues chunk j's levels into a node buffer and the read of its top into `top`, and, for a
  // kept chunk, reads all of it into `kept` (blocking). `whole`: the chunk is the tree, so its
  // top is the root (blake3-parent's ROOT flag). Returns the event after which the chunk's leaves
  // may be overwritten.
  cl::Event enqueue_chunk(level_runner &levels, const cl::CommandQueue &queue, event_log &log,
                          const tree_options &options, const cl::Buffer &chunk, std::uint64_t count,
                          std::uint64_t j, bool whole, const std::vector<cl::Event> &uploaded,
                          digest &top, tree *kept) {
    const tree_layout layout(count);
    const unsigned depth = layout.depth();
    cl::Buffer &nodes = nodes_[j % 2];
    runtime_.grow(nodes, bytes_[j % 2],
                  std::max<std::uint64_t>(1, layout.internal_node_count()) * node_bytes);
    const unsigned root_level = whole ? root_depth(options, layout) : ~0u;
    if (depth > 0)
      levels.enqueue(queue, {chunk, 0, count, 0}, {nodes, 0, layout.level_size(1), 0, depth},
                     root_level, uploaded, log.kernels);
    const std::vector<cl::Event> built{depth > 0 ? log.kernels.back() : uploaded.front()};
    const cl::Buffer &top_of = depth > 0 ? nodes : chunk;
    const std::uint64_t top_at = depth > 0 ? layout.internal_node_count() - 1 : 0;
    log.downloads.push_back(read_nodes(queue, top_of, top_at, 1, top.data(), false, built));
    if (kept) {
      log.downloads.push_back(read_nodes(queue, chunk, 0, count, kept->level_data(0), true, built));
      if (depth > 0)
        log.downloads.push_back(read_nodes(queue, nodes, 0, layout.internal_node_count(),
                                           kept->nodes_data(), true, built));
    }
    call("clFlush", [&] { return queue.flush(); });
    return log.downloads.back();
  }

  device_runtime runtime_;
  cl::Buffer nodes_[2]; // the chunks alternate between them, as between the pipeline's buffers
  std::uint64_t bytes_[2] = {0, 0};
};

} // namespace detail
} // namespace merklize
