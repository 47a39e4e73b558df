// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine: roots of SHA-256 trees (sha256 and rfc6962 nodes, both shapes, fixed depths)
// on the CPU's own cores, with no OpenCL; and of blake3 trees, 8 or 16 nodes at once in vector
// lanes where the CPU has AVX2 or AVX-512 (host_blake3_simd.hpp), else portably. Where a CPU has
// the SHA extensions, OpenCL C cannot reach them and this is the fastest SHA-256 tree on the
// machine (docs/BENCHMARKS.md); the CLI's
// --device auto picks it then (engine_choice.hpp).
//
// How: the leaves are cut into blocks of 2^block_log2 (1 MiB of leaves), each block's subtree is
// built in place in one thread's buffer (the aligned-part rule of parts.hpp: a block's top node
// is the tree's node there), and the block tops are finished on the host. A file is read into the
// buffers by the threads at their blocks' offsets (pread); a pipe by a thread of its own
// (stream_prefetch.hpp) into blocks the threads take whole and hash where they were read. So a
// few blocks a thread are held whatever the input's size, and reading overlaps hashing.
#pragma once

#include "../core/hashes.hpp"
#include "../core/tree.hpp"
#include "../io/input.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace merklize {

// Whether the host engine builds trees with these options: node hashes whose row (hashes.hpp)
// has pair hashers (sha256, rfc6962, blake3). Not blake3-parent, whose root alone is flagged.
inline bool host_engine_supports(const tree_options &options) {
  return row_of(options.hash).host_pairs != nullptr;
}

// The node hashes the host engine takes, "sha256, rfc6962 and blake3".
inline std::string host_engine_hash_names() {
  return hash_list([](const node_hash_row &row) { return row.host_pairs != nullptr; }, " and ");
}

// Threads the host engine runs by default: the hardware's.
inline unsigned host_engine_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// What the host engine runs on this CPU: SHA-256 on the SHA extensions or not, and BLAKE3 (and
// Keccak, on the same ISA) in 16 vector lanes (AVX-512), 8 (AVX2) or 1 (the portable code). Public
// because host_estimate takes both: a caller weighs this machine's host engine as the CLI's
// --device auto does.
inline bool host_engine_sha_extensions() { return detail::sha_extensions_used(); }
inline unsigned host_engine_blake3_lanes() { return detail::blake3_lanes_used(); }

namespace detail {

// The fastest of a hash's pair hashers on this CPU.
inline pair_hash_fn pair_hasher(const node_hash_row &row) {
  return row.host_pairs_sha_ni && sha_extensions_used() ? row.host_pairs_sha_ni : row.host_pairs;
}

constexpr unsigned host_block_log2 = 15; // 2^15 leaves: 1 MiB, a block in a core's L2

// Level `level` of a tree from `count` nodes below it, in place in `nodes`: pairs hash, a lone
// last node moves up (promote) or hashes with the zero subtree of its height (zero). Returns the
// level's size.
inline std::uint64_t host_level(pair_hash_fn hash_pairs, const tree_options &options,
                                std::uint8_t *nodes, std::uint64_t count,
                                const std::vector<digest> &zeros, unsigned level) {
  const std::uint64_t pairs = count / 2;
  hash_pairs(nodes, nodes, pairs);
  if (count % 2) {
    std::uint8_t *lone = nodes + node_bytes * pairs;
    std::memmove(lone, nodes + node_bytes * (count - 1), node_bytes);
    if (options.shape == shape::zero) {
      std::memcpy(lone + node_bytes, zeros[level - 1].data(), node_bytes);
      hash_pairs(lone, lone, 1);
    }
  }
  return (count + 1) / 2;
}

// Levels 1..levels over `count` nodes in place; the top node is nodes[0] when they reach one.
inline std::uint64_t host_levels(pair_hash_fn hash_pairs, const tree_options &options,
                                 std::uint8_t *nodes, std::uint64_t count,
                                 const std::vector<digest> &zeros, unsigned from, unsigned to) {
  for (unsigned level = from + 1; level <= to; ++level)
    count = host_level(hash_pairs, options, nodes, count, zeros, level);
  return count;
}

// The leaves in `bytes` bytes of the input `name`, else an error naming it.
inline std::uint64_t host_leaf_count(const std::string &name, std::uint64_t bytes) {
  try {
    return leaf_count_of(bytes);
  } catch (const error &e) {
    throw error(name + ": " + e.what());
  }
}

// A block of leaves: its index, its bytes (0 past the end), and where it is: in the source's own
// memory (`memory`, hashed there and then given back) or, without it, in the thread's buffer.
struct block_read {
  std::uint64_t index = 0, bytes = 0;
  std::unique_ptr<std::uint8_t[]> memory;
};

// Where blocks of leaves come from: `fill(buffer)` puts the next block not yet taken into the
// thread's buffer (2^host_block_log2 leaves at most; it sizes the buffer on first use, see
// block_buffer) or hands memory of its own, which `give_back` takes after hashing.
struct block_source {
  std::function<block_read(std::vector<std::uint8_t> &buffer)> fill;
  std::function<void(std::unique_ptr<std::uint8_t[]>)> give_back;
};

// A thread's buffer for a block, + a lone node's zero sibling; allocated only once a source
// fills it (a source with memory of its own never does).
inline std::uint8_t *block_buffer(std::vector<std::uint8_t> &buffer) {
  buffer.resize((node_bytes << host_block_log2) + node_bytes);
  return buffer.data();
}

// The tops of every block, worked on by `threads` threads; `total` the bytes read in all.
struct block_tops {
  std::vector<digest> tops;
  std::uint64_t bytes = 0;
};

// Runs hash(block, bytes) on each block `source` fills, on `threads` threads, until it gives a
// short one (its last); the first failure is rethrown once every thread has stopped.
template <class Hash>
void host_each_block(const block_source &source, unsigned threads, const Hash &hash) {
  const std::uint64_t block_bytes = node_bytes << host_block_log2;
  std::mutex lock; // guards `failure`
  std::exception_ptr failure;
  std::atomic<bool> ended{false};
  const auto work = [&] {
    std::vector<std::uint8_t> buffer;
    try {
      while (!ended) {
        block_read block = source.fill(buffer);
        if (block.bytes < block_bytes) ended = true;
        if (block.bytes == 0) break;
        hash(block, block.memory ? block.memory.get() : buffer.data());
        if (block.memory) source.give_back(std::move(block.memory));
      }
    } catch (...) {
      ended = true;
      const std::lock_guard<std::mutex> hold(lock);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> others;
  for (unsigned t = 1; t < std::max(1u, threads); ++t)
    others.emplace_back(work);
  work();
  for (auto &t : others)
    t.join();
  if (failure) std::rethrow_exception(failure);
}

// What a caller sees of each block before it is hashed in place: its index, leaves and bytes
// (host_proof.hpp keeps the proven leaf's block so).
using block_seen =
    std::function<void(std::uint64_t index, const std::uint8_t *leaves, std::uint64_t bytes)>;

// Each block's subtree up to min(host_block_log2, depth of the whole tree); the last block may
// be short, and only it knows the tree's leaf count (from its size), so it alone finishes with
// the lone-node rule of the whole tree's depth.
inline block_tops host_block_tops(const block_source &source, const tree_options &options,
                                  unsigned threads, const std::string &name,
                                  const block_seen &seen = nullptr) {
  const pair_hash_fn hash_pairs = pair_hasher(row_of(options.hash));
  const std::uint64_t block_bytes = node_bytes << host_block_log2;
  const auto zeros = zero_subtree_roots(options.hash, host_block_log2);
  block_tops result;
  std::mutex lock; // guards result
  host_each_block(source, threads, [&](const block_read &block, std::uint8_t *nodes) {
    const std::uint64_t index = block.index, got = block.bytes;
    if (got % node_bytes) host_leaf_count(name, index * block_bytes + got); // throws
    const std::uint64_t count = got / node_bytes;
    // Only a first block that is short is the whole tree, of depth ceil(log2 count).
    const unsigned top = index == 0 && got < block_bytes ? ceil_log2(count) : host_block_log2;
    if (seen) seen(index, nodes, got);
    host_levels(hash_pairs, options, nodes, count, zeros, 0, top);
    digest d;
    std::memcpy(d.data(), nodes, node_bytes);
    const std::lock_guard<std::mutex> hold(lock);
    if (result.tops.size() <= index) result.tops.resize(index + 1);
    result.tops[index] = d;
    result.bytes += got;
  });
  return result;
}

// The root above the block tops (levels host_block_log2 + 1 .. depth), extended to a fixed depth.
inline digest host_finish(const block_tops &blocks, const tree_options &options,
                          const std::string &name) {
  const std::uint64_t leaves = host_leaf_count(name, blocks.bytes);
  const tree_layout layout(leaves);
  const unsigned depth = layout.depth(), root_level = root_depth(options, layout);
  const auto zeros = zero_subtree_roots(options.hash, depth);
  std::vector<std::uint8_t> nodes(node_bytes * (blocks.tops.size() + 1));
  for (std::size_t i = 0; i < blocks.tops.size(); ++i)
    std::memcpy(nodes.data() + node_bytes * i, blocks.tops[i].data(), node_bytes);
  const unsigned from = std::min(depth, host_block_log2);
  host_levels(pair_hasher(row_of(options.hash)), options, nodes.data(), blocks.tops.size(), zeros,
              from, depth);
  digest top;
  std::memcpy(top.data(), nodes.data(), node_bytes);
  return extend_root(options.hash, top, depth, root_level);
}

// The options' check and the root of no leaves, where the tree has one.
inline std::optional<digest> host_empty_root(const tree_options &options, std::uint64_t bytes) {
  if (!host_engine_supports(options))
    throw error("the host engine builds " + host_engine_hash_names() + " trees, not " +
                to_string(options.hash));
  check_tree_options(options);
  if (bytes == 0) return empty_tree_root(options);
  return std::nullopt;
}

// Blocks of `leaf_bytes` bytes of leaves in memory, copied into each thread's buffer in turn
// (`next`: the next block's index).
inline block_source host_memory_blocks(const void *leaves, std::uint64_t leaf_bytes,
                                       std::atomic<std::uint64_t> &next) {
  const auto *data = static_cast<const std::uint8_t *>(leaves);
  block_source source;
  source.fill = [data, leaf_bytes, &next](std::vector<std::uint8_t> &buffer) -> block_read {
    const std::uint64_t block_bytes = node_bytes << host_block_log2, index = next++;
    if (index * block_bytes >= leaf_bytes) return {index, 0, nullptr};
    const std::uint64_t bytes = std::min(block_bytes, leaf_bytes - index * block_bytes);
    std::memcpy(block_buffer(buffer), data + index * block_bytes, bytes);
    return {index, bytes, nullptr};
  };
  return source;
}

} // namespace detail

// The root of the tree over `leaf_bytes` bytes of leaves at `leaves`, on `threads` host threads
// (0: host_engine_threads()). `options.hash` must be one of host_engine_hash_names().
inline digest host_root(const void *leaves, std::uint64_t leaf_bytes, const tree_options &options,
                        unsigned threads = 0) {
  if (auto empty = detail::host_empty_root(options, leaf_bytes)) return *empty;
  std::atomic<std::uint64_t> next{0};
  const detail::block_source source = detail::host_memory_blocks(leaves, leaf_bytes, next);
  const std::string name = "leaf data";
  return detail::host_finish(
      detail::host_block_tops(source, options, threads ? threads : host_engine_threads(), name),
      options, name);
}

namespace detail {

// Blocks of a regular file of more than 1 MiB, read at their offsets by any thread, in any order.
inline block_read host_file_block(input &in, std::atomic<std::uint64_t> &next,
                                  std::vector<std::uint8_t> &buffer) {
  const std::uint64_t block_bytes = node_bytes << host_block_log2;
  const std::uint64_t index = next++;
  const std::uint64_t offset = index * block_bytes, size = *in.size();
  if (offset >= size) return {index, 0, nullptr};
  const std::uint64_t bytes = std::min(block_bytes, size - offset);
  std::uint8_t *into = block_buffer(buffer);
  for (std::uint64_t have = 0; have < bytes;) {
    const ssize_t got =
        ::pread(in.descriptor(), into + have, bytes - have, static_cast<off_t>(offset + have));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw_file_error(in.name(), "read", errno);
    if (got == 0) { // it shrank
      in.check_unchanged();
      throw file_error(in.name(), "read", "it ended before the size it had when opened");
    }
    have += static_cast<std::uint64_t>(got);
  }
  return {index, bytes, nullptr};
}

// The blocks of a stream: taken whole from its read-ahead thread where they can be (no copy; the
// thread reads the pipe continuously while these are hashed), else read in turn under `order`
// (one thread reads straight into its buffer while the others hash).
inline block_source host_stream_blocks(input &in, std::mutex &order,
                                       std::atomic<std::uint64_t> &next) {
  const std::uint64_t block_bytes = node_bytes << host_block_log2;
  static_assert(stream_prefetch::block_bytes == node_bytes << host_block_log2 &&
                    stream_prefetch::room_after >= node_bytes,
                "a stream's blocks are the host engine's, with room for a lone node's sibling");
  block_source source;
  if (in.takes_blocks()) {
    source.fill = [&in](std::vector<std::uint8_t> &) {
      auto block = in.take_block();
      return block_read{block.index, block.size, std::move(block.data)};
    };
    source.give_back = [&in](std::unique_ptr<std::uint8_t[]> data) {
      in.give_back_block(std::move(data));
    };
    return source;
  }
  source.fill = [&in, &order, &next, block_bytes](std::vector<std::uint8_t> &buffer) {
    std::uint8_t *into = block_buffer(buffer);
    const std::lock_guard<std::mutex> hold(order); // numbered in the order read
    const std::uint64_t index = next++;
    return block_read{index, in.read_full(into, block_bytes), nullptr};
  };
  return source;
}

} // namespace detail

namespace detail {

// The blocks of `in`: a regular file of more than 1 MiB read at offsets by the threads; a stream
// (a pipe, stdin) read ahead on a thread of its own (started here, holding `threads` MiB, unless
// the caller started it) into blocks the threads hash where they were read; a small file or
// /proc's in order under `order`. The progress is told once a block is in.
inline block_source host_input_blocks(input &in, unsigned threads, std::mutex &order,
                                      std::atomic<std::uint64_t> &next) {
  if (!in.size() && !in.reading_ahead()) in.read_ahead(std::uint64_t(threads) << 20);
  block_source source;
  if (in.read_at_offsets())
    source.fill = [&in, &next](std::vector<std::uint8_t> &buffer) {
      return host_file_block(in, next, buffer);
    };
  else
    source = host_stream_blocks(in, order, next);
  block_source counted = source;
  counted.fill = [&in, &order, source](std::vector<std::uint8_t> &buffer) {
    block_read block = source.fill(buffer);
    const std::lock_guard<std::mutex> hold(order);
    in.add_progress(block.bytes);
    return block;
  };
  return counted;
}

} // namespace detail

// The root of the tree over the leaves `in` holds, read as host_input_blocks reads it. A file
// that changed while read is refused, a partial leaf named with the input.
inline digest host_root(input &in, const tree_options &options, unsigned threads = 0) {
  detail::host_empty_root(options, 1); // the options' check, before any read
  const unsigned n = threads ? threads : host_engine_threads();
  std::mutex order; // guards progress, and a stream's reads in turn
  std::atomic<std::uint64_t> next{0};
  const detail::block_source source = detail::host_input_blocks(in, n, order, next);
  const detail::block_tops blocks = detail::host_block_tops(source, options, n, in.name());
  in.check_unchanged();
  if (auto empty = detail::host_empty_root(options, blocks.bytes)) return *empty;
  return detail::host_finish(blocks, options, in.name());
}

} // namespace merklize
