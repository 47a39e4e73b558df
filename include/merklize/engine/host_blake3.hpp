// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine's full BLAKE3, no OpenCL: BLAKE3 of an input in any mode (hash, keyed,
// derive-key) and any output length, as b3sum prints it, and the parents of its tree, which Bao's
// outboard stores (host_bao.hpp). What blake3_device (blake3_device.hpp) computes, bit for bit.
//
//   merklize::input in("release.tar");
//   merklize::digest d = merklize::host_blake3(in);
//
// How: the input is read in pieces of 1 MiB (1024 chunks) as host_tree.hpp reads leaves. Each
// thread hashes its pieces' chunks in vector lanes (host_blake3_chunks.hpp) and their parents,
// pairs in lanes too (host_blake3_simd.hpp), up to the piece's top: a piece of 1024 chunks is a
// whole subtree of BLAKE3's tree, which is left-balanced, and pairing a level's nodes two by two
// with a lone last node moved up builds that tree (formats/bao.hpp). The pieces' tops are then
// paired the same way up to the root's two children, and the root's output is made from them.
#pragma once

#include "../core/host_blake3_chunks.hpp"
#include "../plan/hash_config.hpp"
#include "host_tree.hpp"

#include <functional>
#include <mutex>
#include <vector>

namespace merklize {

namespace detail {

// The node whose output is the root's: its chaining value, block, length and flags (ROOT aside).
struct blake3_root_node {
  blake3::words8 cv{};
  std::uint8_t block[blake3::block_len] = {};
  std::uint32_t block_bytes = 0, flags = 0;
};

// The root node of an input that is one chunk (up to 1024 bytes): its last block, from the
// chaining value of the blocks before it.
inline blake3_root_node blake3_chunk_root(const std::uint8_t *chunk, std::size_t size,
                                          const blake3_mode &mode) {
  blake3_root_node root;
  root.cv = mode.key;
  const std::size_t blocks = size == 0 ? 1 : (size + blake3::block_len - 1) / blake3::block_len;
  for (std::size_t b = 0; b + 1 < blocks; ++b)
    root.cv = blake3::chaining_value(
        blake3::compress(root.cv, chunk + b * blake3::block_len, 0, blake3::block_len,
                         mode.flags | (b == 0 ? blake3::chunk_start : 0u)));
  const std::size_t at = (blocks - 1) * blake3::block_len;
  root.block_bytes = static_cast<std::uint32_t>(size - at);
  if (root.block_bytes) std::memcpy(root.block, chunk + at, root.block_bytes);
  root.flags = mode.flags | blake3::chunk_end | (blocks == 1 ? blake3::chunk_start : 0u);
  return root;
}

// The root node above two children (the 64 bytes at `pair`).
inline blake3_root_node blake3_parent_root(const std::uint8_t *pair, const blake3_mode &mode) {
  blake3_root_node root;
  root.cv = mode.key;
  std::memcpy(root.block, pair, blake3::block_len);
  root.block_bytes = blake3::block_len;
  root.flags = mode.flags | blake3::parent;
  return root;
}

// What a piece's hashing keeps: its top (a chaining value) and, should the piece be the whole
// input, the root node (above its top's two children, or of its one chunk).
struct blake3_piece {
  digest top{};
  blake3_root_node root;
};

// A piece of the input is 2^10 chunks, a subtree of that level.
constexpr unsigned blake3_piece_level = host_block_log2 - 5;
static_assert((std::uint64_t(1) << blake3_piece_level) * blake3::chunk_len ==
                  node_bytes << host_block_log2,
              "a piece of the input is host_tree.hpp's block of leaves");

// The place of each node a piece's hashing makes: (level, index in the whole tree, its value).
using blake3_node_sink = std::function<void(unsigned, std::uint64_t, const std::uint8_t *)>;

// A level's pairs hashed into the level above, in place, a lone last node moved up: the parents
// of `count` nodes (count > 1). Returns the level's size.
inline std::uint64_t blake3_parent_level(std::uint8_t *nodes, std::uint64_t count,
                                         const blake3_mode &mode) {
  static const blake3_keyed_blocks_fn blocks = blake3_keyed_blocks_of(blake3_isa_used());
  blocks(nodes, nodes, count / 2, mode.key.data(), mode.flags | blake3::parent);
  if (count % 2)
    std::memmove(nodes + node_bytes * (count / 2), nodes + node_bytes * (count - 1), node_bytes);
  return (count + 1) / 2;
}

// Levels over `count` nodes in place up to one, the pair below it kept; each node made is told
// to `sink` (when given) at its level from `level` + 1 on, its index from `first` (the level's
// index of nodes[0]).
inline void blake3_reduce(std::uint8_t *nodes, std::uint64_t count, const blake3_mode &mode,
                          blake3_piece &piece, unsigned level, std::uint64_t first,
                          const blake3_node_sink &sink) {
  for (; count > 1; ++level, first >>= 1) {
    if (count == 2) piece.root = blake3_parent_root(nodes, mode);
    count = blake3_parent_level(nodes, count, mode);
    if (sink)
      for (std::uint64_t i = 0; i < count; ++i)
        sink(level + 1, first / 2 + i, nodes + node_bytes * i);
  }
  std::memcpy(piece.top.data(), nodes, node_bytes);
}

// A piece of `bytes` bytes (a whole number of chunks, but for the input's last piece), number
// `index`: its chunks' chaining values, then the levels above them.
inline blake3_piece blake3_hash_piece(const std::uint8_t *data, std::uint64_t bytes,
                                      std::uint64_t index, const blake3_mode &mode,
                                      const blake3_node_sink &sink) {
  static const blake3_chunks_fn chunks_of = blake3_chunks_of(blake3_isa_used());
  blake3_piece piece;
  const std::uint64_t per_piece = std::uint64_t(1) << blake3_piece_level;
  const std::uint64_t whole = bytes / blake3::chunk_len, rest = bytes % blake3::chunk_len;
  const std::uint64_t chunks = whole + (rest ? 1 : 0), first = index * per_piece;
  if (index == 0 && chunks <= 1) { // the whole input is one chunk: its root is the chunk's own
    piece.root = blake3_chunk_root(data, static_cast<std::size_t>(bytes), mode);
    return piece;
  }
  std::vector<std::uint8_t> nodes(chunks * node_bytes);
  chunks_of(data, whole, mode.key.data(), first, mode.flags, nodes.data());
  if (rest) {
    const digest last = portable_chunk_cv(data + whole * blake3::chunk_len, rest, mode.key.data(),
                                          first + whole, mode.flags);
    std::memcpy(nodes.data() + whole * node_bytes, last.data(), node_bytes);
  }
  if (sink)
    for (std::uint64_t i = 0; i < chunks; ++i)
      sink(0, first + i, nodes.data() + node_bytes * i);
  blake3_reduce(nodes.data(), chunks, mode, piece, 0, first, sink);
  return piece;
}

// The root node of an input of `pieces` (their tops paired up to the root's children; `sink` told
// the nodes made above the pieces).
inline blake3_root_node blake3_root_of(std::vector<blake3_piece> &pieces, const blake3_mode &mode,
                                       const blake3_node_sink &sink) {
  if (pieces.size() == 1) return pieces[0].root;
  std::vector<std::uint8_t> tops(pieces.size() * node_bytes);
  for (std::size_t i = 0; i < pieces.size(); ++i)
    std::memcpy(tops.data() + node_bytes * i, pieces[i].top.data(), node_bytes);
  blake3_piece above;
  blake3_reduce(tops.data(), pieces.size(), mode, above, blake3_piece_level, 0, sink);
  return above.root;
}

// Hashes `in`'s pieces on `threads` threads; `sink` (when given) told every node below the
// pieces' tops. Returns the pieces in order and, in `bytes`, the input's size.
inline std::vector<blake3_piece> blake3_pieces(input &in, const blake3_mode &mode, unsigned threads,
                                               const blake3_node_sink &sink, std::uint64_t &bytes) {
  std::mutex order, lock;
  std::atomic<std::uint64_t> next{0};
  const block_source source = host_input_blocks(in, threads, order, next);
  std::vector<blake3_piece> pieces;
  bytes = 0;
  host_each_block(source, threads, [&](const block_read &block, const std::uint8_t *data) {
    blake3_piece piece = blake3_hash_piece(data, block.bytes, block.index, mode, sink);
    const std::lock_guard<std::mutex> hold(lock);
    if (pieces.size() <= block.index) pieces.resize(block.index + 1);
    pieces[block.index] = std::move(piece);
    bytes += block.bytes;
  });
  in.check_unchanged();
  if (pieces.empty()) pieces.push_back({digest{}, blake3_chunk_root(nullptr, 0, mode)}); // empty
  return pieces;
}

} // namespace detail

// The first `out_bytes` bytes of BLAKE3's output for the input `in` in `mode`, handed to `out` in
// pieces, on `threads` threads (0: host_engine_threads()).
inline void host_blake3(input &in, const blake3_mode &mode,
                        const std::function<void(const std::uint8_t *, std::size_t)> &out,
                        std::uint64_t out_bytes, unsigned threads = 0) {
  std::uint64_t bytes = 0;
  std::vector<detail::blake3_piece> pieces =
      detail::blake3_pieces(in, mode, threads ? threads : host_engine_threads(), nullptr, bytes);
  const detail::blake3_root_node root = detail::blake3_root_of(pieces, mode, nullptr);
  std::vector<std::uint8_t> piece(
      static_cast<std::size_t>(std::min<std::uint64_t>(out_bytes, std::uint64_t(1) << 16)));
  for (std::uint64_t done = 0; done < out_bytes; done += piece.size()) {
    const std::size_t take =
        static_cast<std::size_t>(std::min<std::uint64_t>(piece.size(), out_bytes - done));
    blake3::root_output(root.cv, root.block, root.block_bytes, root.flags, piece.data(), take,
                        done);
    out(piece.data(), take);
  }
}

// BLAKE3 of the input, 32 bytes, in the default mode.
inline digest host_blake3(input &in, unsigned threads = 0) {
  digest d;
  host_blake3(
      in, blake3_mode::hash(),
      [&](const std::uint8_t *bytes, std::size_t size) { std::memcpy(d.data(), bytes, size); },
      d.size(), threads);
  return d;
}

} // namespace merklize
