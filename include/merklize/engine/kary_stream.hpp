// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees (kary.hpp) of an input's leaves as given (N x 32 bytes; for a pipe N is known only
// at its end), streamed through one device with bounded memory: the input comes in aligned
// chunks of k^j leaves (kary_chunk_levels: about the binary stream's chunk) through
// chunk_stream.hpp's loop, and kary_chunk_step builds each chunk's levels 1..j on the device,
// which are the tree's there: at arity 2 by merkleizer's level kernels (level_runner.hpp), at
// arity k by the block-leaf kernels a level at a time (detail::enqueue_kary_level, as
// device_tree builds). Only each chunk's node of level j comes back, and the one chunk a proof
// needs whole; the host finishes the root or the proof (kary_streamed_tree, streamed_tree.hpp).
// Memory: the pipeline's staging and two chunks of leaves and nodes on the device, whatever N.
//
//   merklize::block_hasher h(device);
//   merklize::input in("leaves.bin");
//   merklize::digest root = merklize::kary_root(h, in, {hash_kind::sha256, 16}); // kary_root's
//   merklize::kary_proof p = merklize::kary_prove(h, in2, {hash_kind::sha256, 16}, 7);
#pragma once

#include "../pipeline/chunk_stream.hpp"
#include "device_tree.hpp"

#include <optional>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

// The level step of a streamed k-ary tree: one chunk's levels on the device, chosen by the arity.
class kary_chunk_step {
public:
  kary_chunk_step(block_hasher &h, const device_runtime &runtime, const kary_options &options,
                  unsigned chunk_levels)
      : h_(h), runtime_(runtime), options_(options), chunk_levels_(chunk_levels),
        zeros_(kary_zero_roots(options, chunk_levels)),
        scratch_(h.device_buffer(options.arity * node_bytes, "a group of children")) {
    if (options.arity == 2) {
      const config cfg{{options.hash, options.shape}};
      runner_.emplace(runtime, cfg,
                      resolve_launch_settings(runtime.facts(), runtime.tuning_row(), cfg));
    }
  }

  // Enqueues on the hasher's queue, after `uploaded`, chunk c's levels (`count` leaves in
  // `chunk`) up to level j, or for a `whole` tree up to its root, into a node buffer, and the
  // read of its top node into `top`; for a chunk `kept`, reads all its levels into it
  // (blocking). Returns the event after which the chunk's leaves may be overwritten.
  cl::Event enqueue(const cl::Buffer &chunk, std::uint64_t count, std::uint64_t c, bool whole,
                    const std::vector<cl::Event> &uploaded, digest &top,
                    std::vector<std::vector<digest>> *kept) {
    const unsigned levels = whole ? kary_height(count, options_.arity) : chunk_levels_;
    const std::vector<std::uint64_t> sizes = kary_part_sizes(count, options_.arity, levels);
    std::vector<std::uint64_t> first = {0, 0}; // of each level, in its buffer
    for (unsigned l = 1; l < levels; ++l)
      first.push_back(first.back() + sizes[l]);
    const std::uint64_t nodes_count = levels > 0 ? first[levels] + sizes[levels] : 0;
    cl::Buffer &nodes = nodes_[c % 2];
    runtime_.grow(nodes, bytes_[c % 2], std::max<std::uint64_t>(1, nodes_count) * node_bytes);
    const auto span = [&](unsigned l) -> node_span {
      return {l == 0 ? chunk : nodes, first[l], sizes[l]};
    };
    enqueue_levels(span, sizes, levels, uploaded);
    const cl::CommandQueue &queue = h_.queue();
    const node_span top_span = span(levels);
    cl::Event done = read_nodes(queue, top_span.buffer, top_span.first, 1, top.data(), false);
    if (kept) {
      kept->assign(sizes.size(), {});
      for (unsigned l = 0; l <= levels; ++l) {
        (*kept)[l].resize(static_cast<std::size_t>(sizes[l]));
        done = read_nodes(queue, span(l).buffer, first[l], sizes[l], (*kept)[l].data(), true);
      }
    }
    call("clFlush", [&] { return queue.flush(); });
    return done;
  }

private:
  // Levels 1..levels: at arity 2 the level runner's launches up to the chunk's own height, then
  // (arity k, or above a short last chunk's own height) a block-leaf launch a level, as
  // device_tree builds. All on the hasher's in-order queue, after `uploaded` (the upload queue's).
  template <class Span>
  void enqueue_levels(const Span &span, const std::vector<std::uint64_t> &sizes, unsigned levels,
                      const std::vector<cl::Event> &uploaded) {
    const cl::CommandQueue &queue = h_.queue();
    unsigned level = runner_ ? std::min(levels, kary_height(sizes.front(), 2)) : 0;
    if (level > 0) {
      const node_span leaves = span(0), above = span(1);
      runner_->enqueue(queue, {leaves.buffer, 0, leaves.count, 0},
                       {above.buffer, 0, above.count, 0, level}, ~0u, uploaded, kernels_);
      kernels_.clear(); // in order on the queue: nothing waits for them by event
    } else {
      call("clEnqueueBarrierWithWaitList",
           [&] { return queue.enqueueBarrierWithWaitList(&uploaded); });
    }
    for (; level < levels; ++level)
      enqueue_kary_level(h_, options_, span(level), span(level + 1), scratch_, zeros_[level]);
  }

  block_hasher &h_;
  device_runtime runtime_;
  kary_options options_;
  unsigned chunk_levels_;
  std::vector<digest> zeros_; // zeros_[h]: shape zero's padding of a group of level h
  cl::Buffer scratch_;        // a short group padded with zero-subtree roots
  std::optional<level_runner> runner_;
  std::vector<cl::Event> kernels_;
  cl::Buffer nodes_[2]; // the chunks alternate between them, as between the pipeline's buffers
  std::uint64_t bytes_[2] = {0, 0};
};

// Streams `in` through h's device as kary_streamed_tree's chunks, keeping the chunk of
// `keep_leaf` whole if given. Chunks of about 2^chunk_log2 leaves (0: the device's tuning row's
// input_chunk_log2, merkleizer's chunk of inputs).
inline kary_streamed_tree stream_kary(block_hasher &h, input &in, const kary_options &options,
                                      std::optional<std::uint64_t> keep_leaf, unsigned chunk_log2) {
  check_kary(options);
  if (in.read_at_offsets()) checked_leaf_count(in.name(), *in.size()); // before any work
  const device_runtime runtime(h.context(), h.device());
  const unsigned j = kary_chunk_levels(
      options.arity, chunk_log2 ? chunk_log2 : runtime.tuning_row().input_chunk_log2, in.size());
  const unsigned shift = j * ceil_log2(options.arity);
  const std::uint64_t piece = (std::uint64_t(1) << shift) * node_bytes;
  kary_chunk_step step(h, runtime, options, j);
  piece_pipeline pipeline(runtime.context(), runtime.make_queue(), runtime.shares_host_memory());
  kary_streamed_tree result;
  result.options = options;
  result.chunk_levels = j;
  event_log log;
  const auto count = [&](std::uint64_t bytes) { return checked_leaf_count(in.name(), bytes); };
  const auto on_chunk = [&](const cl::Buffer &chunk, std::uint64_t leaves, std::uint64_t c,
                            bool whole, const std::vector<cl::Event> &uploaded, digest &top) {
    const bool kept = keep_leaf && (*keep_leaf >> shift) == c;
    if (kept) result.kept_first = c << shift;
    return step.enqueue(chunk, leaves, c, whole, uploaded, top, kept ? &result.kept : nullptr);
  };
  if (in.read_at_offsets()) {
    file_pieces source(in, piece);
    result.tops =
        stream_chunks(source, pipeline, h.queue(), log.uploads, count, result.leaf_count, on_chunk);
  } else {
    in.read_ahead(piece); // a thread reads the stream while this one stages, uploads, hashes
    const piece_reader read = stream_reader(in);
    reader_pieces source(read, piece);
    result.tops =
        stream_chunks(source, pipeline, h.queue(), log.uploads, count, result.leaf_count, on_chunk);
  }
  in.check_unchanged();
  return result;
}

// "computing the root of NAME on DEVICE", a streamed tree's step.
inline std::string streaming(const std::string &what, const input &in, const block_hasher &h) {
  return what + " of " + in.name() + " on " + name_in_message(h.device());
}

} // namespace detail

// Whether the k-ary tree over an input's leaves as given is better kept on h's device (device_tree
// over h.leaves_as_given: the file read by several threads and uploaded whole) than streamed: a
// regular file whose leaves fit in one buffer of the device and, with their levels, in half its
// memory. Kept is faster there (1 GiB on an H100: 430-450 ms kept, 500-630 ms streamed,
// dev/PERFORMANCE_LOG.md); streamed holds two chunks whatever the input, and takes pipes.
inline bool kary_fits_on_device(const block_hasher &h, const input &in,
                                const kary_options &options) {
  if (!in.read_at_offsets() || !in.size()) return false;
  const auto facts = read_device_facts(h.device());
  const std::uint64_t leaves = *in.size(), levels = leaves / (options.arity - 1) + node_bytes;
  return leaves <= facts.max_buffer_bytes && leaves + levels <= facts.global_memory_bytes / 2;
}

// The root of the k-ary tree over an input's leaves as given (N >= 1 leaves of 32 bytes),
// streamed through h's device in chunks of about 2^chunk_log2 leaves (0: the device's tuning
// row's input_chunk_log2) with bounded memory; equal to kary_root over the same leaves. Errors
// name the input: an empty one, or one not of whole leaves, is refused.
inline digest kary_root(block_hasher &h, input &in, const kary_options &options,
                        unsigned chunk_log2 = 0) {
  return detail::in_step(
      [&] { return detail::streaming("computing the root", in, h); },
      [&] { return detail::stream_kary(h, in, options, {}, chunk_log2).root(); });
}

// The proof of leaf `index` of the same tree, streamed as kary_root streams it (the chunk holding
// the leaf comes back whole); equal to kary_prove's. An index past a file's leaves is refused
// before any work, past a pipe's once it is read; the error names the input.
inline kary_proof kary_prove(block_hasher &h, input &in, const kary_options &options,
                             std::uint64_t index, unsigned chunk_log2 = 0) {
  const auto named = [&](std::uint64_t leaves) {
    try {
      check_kary_index(index, leaves);
    } catch (const error &e) {
      throw error(in.name() + ": " + e.what());
    }
  };
  if (in.read_at_offsets()) named(detail::checked_leaf_count(in.name(), *in.size()));
  const auto step = [&] {
    return detail::streaming("proving leaf " + std::to_string(index), in, h);
  };
  return detail::in_step(step, [&] {
    const detail::kary_streamed_tree tree = detail::stream_kary(h, in, options, index, chunk_log2);
    named(tree.leaf_count);
    return tree.prove(index);
  });
}

} // namespace merklize
