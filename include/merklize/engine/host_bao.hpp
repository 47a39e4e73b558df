// SPDX-License-Identifier: Apache-2.0 OR MIT
// Bao's outboard (formats/bao.hpp) on the host engine, no OpenCL: BLAKE3's tree hashed as
// host_blake3.hpp hashes it, every node but the root put straight into its slot of the outboard
// by bao_node_slot's arithmetic, as the device's kernel puts it (block_tree.hpp). A file's slots
// are known from its size, so each thread writes its pieces' nodes as it makes them; a stream's
// nodes are kept until its end makes the chunk count known.
#pragma once

#include "../formats/bao.hpp"
#include "host_blake3.hpp"

#include <mutex>
#include <vector>

namespace merklize {

// Bao's outboard and the BLAKE3 root of the input `in`, on `threads` threads (0:
// host_engine_threads()).
inline bao_outboard host_bao_outboard(input &in, unsigned threads = 0) {
  const blake3_mode mode = blake3_mode::hash();
  bao_outboard out;
  const std::optional<std::uint64_t> size = in.size();
  struct made {
    unsigned level;
    std::uint64_t index;
    digest node;
  };
  std::vector<made> kept; // a stream's nodes, until its chunk count is known
  std::mutex lock;
  std::uint64_t chunks = size ? bao_chunk_count(*size) : 0;
  const auto place = [&out, &chunks](unsigned level, std::uint64_t index,
                                     const std::uint8_t *node) {
    if (const auto slot = bao_node_slot(chunks, level, index))
      std::memcpy(out.bytes.data() + 8 + node_bytes * *slot, node, node_bytes);
  };
  detail::blake3_node_sink sink;
  if (size) {
    out.bytes.resize(static_cast<std::size_t>(bao_outboard_bytes(*size)));
    sink = place; // disjoint slots: no lock
  } else {
    sink = [&](unsigned level, std::uint64_t index, const std::uint8_t *node) {
      made m{level, index, {}};
      std::memcpy(m.node.data(), node, node_bytes);
      const std::lock_guard<std::mutex> hold(lock);
      kept.push_back(m);
    };
  }
  std::uint64_t bytes = 0;
  std::vector<detail::blake3_piece> pieces =
      detail::blake3_pieces(in, mode, threads ? threads : host_engine_threads(), sink, bytes);
  if (!size) {
    chunks = bao_chunk_count(bytes);
    out.bytes.resize(static_cast<std::size_t>(bao_outboard_bytes(bytes)));
    for (const made &m : kept)
      place(m.level, m.index, m.node.data());
  }
  if (size && bytes != *size) throw file_error(in.name(), "read", "its size changed while read");
  const detail::blake3_root_node root = detail::blake3_root_of(pieces, mode, place);
  blake3::root_output(root.cv, root.block, root.block_bytes, root.flags, out.root.data(),
                      out.root.size());
  const auto header = bao_length_header(bytes);
  std::copy(header.begin(), header.end(), out.bytes.begin());
  return out;
}

} // namespace merklize
