// SPDX-License-Identifier: Apache-2.0 OR MIT
// Bao's outboard encoding (BLAKE3 verified streaming, as the bao crate and iroh write it), on the
// host, no OpenCL: the 8-byte little-endian input length, then every parent node of BLAKE3's
// tree over the input's 1024-byte chunks in pre-order (a parent, its left subtree, its right
// subtree), each node its two children's chaining values (64 bytes). The chunks themselves are
// not in it: a reader takes them from the input and checks each against the outboard. The root
// is BLAKE3 of the input (what b3sum prints). docs/FORMATS.md describes the layout.
//
// BLAKE3's tree is left-balanced: a subtree of c > 1 chunks has the largest power of two below c
// on its left. Pairing each level's nodes two by two and moving a lone last node up unchanged
// builds the same tree, so merklize's blake3-parent tree with shape promote over the chunks'
// chaining values holds every node of it: bao_outboard_of walks such a tree, and the device
// (block_tree.hpp) places each node by bao_node_slot's arithmetic instead.
#pragma once

#include "../core/host_blake3_chunks.hpp"
#include "../core/tree.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <vector>

namespace merklize {

// The chunks of an input of `size` bytes: an empty input is one empty chunk.
inline std::uint64_t bao_chunk_count(std::uint64_t size) {
  return size == 0 ? 1 : (size + blake3::chunk_len - 1) / blake3::chunk_len;
}

// The outboard's size: the length header and 64 bytes per parent node (one fewer than chunks).
inline std::uint64_t bao_outboard_bytes(std::uint64_t size) {
  return 8 + 64 * (bao_chunk_count(size) - 1);
}

// The chaining value of chunk `index` (not the root): its blocks compressed from the key with the
// chunk's index as the counter, CHUNK_START on the first and CHUNK_END on the last.
inline digest blake3_chunk_cv(const std::uint8_t *chunk, std::size_t size, std::uint64_t index) {
  return detail::portable_chunk_cv(chunk, size, blake3::iv, index, 0);
}

// The chunks' chaining values of `size` bytes of input.
inline std::vector<digest> bao_chunk_cvs(const void *data, std::uint64_t size) {
  const auto bytes = static_cast<const std::uint8_t *>(data);
  std::vector<digest> cvs(static_cast<std::size_t>(bao_chunk_count(size)));
  for (std::size_t c = 0; c < cvs.size(); ++c) {
    const std::uint64_t at = c * blake3::chunk_len;
    cvs[c] = blake3_chunk_cv(bytes + at,
                             static_cast<std::size_t>(std::min<std::uint64_t>(
                                 blake3::chunk_len, size - std::min(size, at))),
                             c);
  }
  return cvs;
}

// The outboard's first 8 bytes: the input's length, little-endian.
inline std::array<std::uint8_t, 8> bao_length_header(std::uint64_t size) {
  std::array<std::uint8_t, 8> header;
  for (int i = 0; i < 8; ++i)
    header[i] = static_cast<std::uint8_t>(size >> (8 * i));
  return header;
}

namespace detail {

// The largest power of two below count (count > 1): a left-balanced subtree's left side.
inline std::uint64_t left_chunks(std::uint64_t count) {
  std::uint64_t left = 1;
  while (left * 2 < count)
    left *= 2;
  return left;
}

} // namespace detail

// Where BLAKE3's tree over `chunks` chunks (chunks > 1) stores its nodes in the outboard, without
// walking it. Node (level, index) is merklize's (the blake3-parent tree of shape promote over the
// chunks' chaining values): the subtree of chunks [index << level, ...), a parent where its
// right child exists, (2 index + 1) << (level - 1) < chunks, else a lone node moved up.
//
// The pre-order position of a parent: walking down from the root, a step into a left child
// passes over one parent (the one stepped from) and a step into a right child passes over the
// parent and its left subtree, whose left_chunks - 1 parents and the step's own 1 add up to the
// chunks skipped. So position = (first chunk) + (left steps), and a step into the left child at
// level m - 1 is a step where the child's index is even and its parent at level m is a parent
// (a lone node's step is no step: it is the same node). kernels/bao_outboard.cl computes the same.
inline std::uint64_t bao_parent_position(std::uint64_t chunks, unsigned level,
                                         std::uint64_t index) {
  std::uint64_t position = index << level;
  for (unsigned m = level + 1; (std::uint64_t(1) << (m - 1)) < chunks; ++m) {
    const std::uint64_t child = index >> (m - 1 - level); // the path's node at level m - 1
    if ((child & 1) == 0 && ((child + 1) << (m - 1)) < chunks) ++position;
  }
  return position;
}

// The outboard's 32-byte slot (pair p's left child is slot 2 p, its right 2 p + 1) holding node
// (level, index): its first ancestor that is a parent holds it, on the side it came from. The
// root has none.
inline std::optional<std::uint64_t> bao_node_slot(std::uint64_t chunks, unsigned level,
                                                  std::uint64_t index) {
  for (; (std::uint64_t(1) << level) < chunks; ++level, index >>= 1) {
    const bool right = (index & 1) != 0;
    if (right || ((index + 1) << level) < chunks)
      return 2 * bao_parent_position(chunks, level + 1, index >> 1) + (right ? 1 : 0);
  }
  return std::nullopt;
}

// Calls parent(left, right) for each parent node of BLAKE3's tree over t's leaves, in pre-order.
// `t` is a blake3-parent tree with shape promote over the chunks' chaining values, keeping every
// level from 0: the subtree of chunks [a, a + c) is its node at level ceil(log2 c), index
// a >> that level (a is a multiple of 2^ceil(log2 c) in a left-balanced tree).
inline void
bao_parents_in_preorder(const tree &t,
                        const std::function<void(const digest &, const digest &)> &parent) {
  const auto node_of = [&](std::uint64_t first, std::uint64_t count) {
    const unsigned level = detail::ceil_log2(count);
    return t.node(level, first >> level);
  };
  const std::function<void(std::uint64_t, std::uint64_t)> walk = [&](std::uint64_t first,
                                                                     std::uint64_t count) {
    if (count == 1) return;
    const std::uint64_t left = detail::left_chunks(count);
    parent(node_of(first, left), node_of(first + left, count - left));
    walk(first, left);
    walk(first + left, count - left);
  };
  walk(0, t.leaf_count());
}

struct bao_outboard {
  digest root{}; // BLAKE3 of the input
  std::vector<std::uint8_t> bytes;
};

// The outboard of `size` bytes of input, and its root.
inline bao_outboard bao_outboard_of(const void *data, std::uint64_t size) {
  const std::vector<digest> cvs = bao_chunk_cvs(data, size);
  tree t(cvs.size(), {hash_kind::blake3_parent, shape::promote});
  bao_outboard out;
  out.root =
      cvs.size() == 1 ? blake3::hash(data, static_cast<std::size_t>(size)) : finish_tree(t, 0, cvs);
  const auto header = bao_length_header(size);
  out.bytes.assign(header.begin(), header.end());
  bao_parents_in_preorder(t, [&](const digest &left, const digest &right) {
    out.bytes.insert(out.bytes.end(), left.begin(), left.end());
    out.bytes.insert(out.bytes.end(), right.begin(), right.end());
  });
  return out;
}

} // namespace merklize
