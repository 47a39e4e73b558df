// SPDX-License-Identifier: Apache-2.0 OR MIT
// A batch of leaf updates grouped by block of 2^height leaves, for the host's cores
// (engine/host_updater.hpp): each block's subtree goes up on one thread, which writes the block's
// leaves first and then hashes them while their lines are still in its cache. Within a block the
// updates keep the batch's order, so that a repeated index takes its last value. A stable
// counting sort in slices: slice s of the batch is counted and placed by worker s, slices in
// order. The counting pass checks the indices too: an index outside the tree stops the grouping
// before anything is placed. Pure, no OpenCL.
//
//   merklize::leaf_blocks b;
//   merklize::group_by_block(b, indices, 5, 2, 3, 1, serial); // indices {9, 1, 4, 2, 9}, blocks of
//   4
//   // b.order == {1, 3, 2, 0, 4}: block 0 has updates 1 and 3, block 1 update 2, block 2 updates
//   // 0 and 4 (leaf 9 takes update 4, the last); b.starts == {0, 2, 3, 5}
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace merklize {

struct leaf_blocks {
  // Block b's updates: positions in the batch order[starts[b] .. starts[b + 1]), ascending.
  std::vector<std::uint64_t> starts, order;
  std::vector<std::uint64_t> counts; // a slice's updates of each block, slices back to back
};

// `out` (its vectors reused from call to call) the `count` updates `indices` of a tree of
// `leaves` leaves grouped by block of 2^height leaves, in `slices` slices;
// `parallel(slices, work)` runs work(s) for every slice s, in any order or at once. False, and
// `out` left unfinished, where an index is outside the tree.
template <class Parallel>
[[nodiscard]] bool group_by_block(leaf_blocks &out, const std::uint64_t *indices,
                                  std::uint64_t count, std::uint64_t leaves, unsigned height,
                                  unsigned slices, const Parallel &parallel) {
  const std::uint64_t blocks = leaves == 0 ? 0 : ((leaves - 1) >> height) + 1;
  const auto slice = [&](unsigned s) { return count * s / slices; };
  out.counts.assign(slices * blocks, 0);
  std::vector<std::uint8_t> outside(slices, 0); // a slice's index outside the tree
  parallel(slices, [&](unsigned s) {
    std::uint64_t *counts = out.counts.data() + s * blocks;
    for (std::uint64_t k = slice(s); k < slice(s + 1); ++k) {
      const std::uint64_t i = indices[k];
      if (i >= leaves) {
        outside[s] = 1;
        return;
      }
      ++counts[i >> height];
    }
  });
  if (std::find(outside.begin(), outside.end(), 1) != outside.end()) return false;
  // counts becomes each slice's first place in each block: blocks in order, slices within.
  out.starts.assign(blocks + 1, 0);
  std::uint64_t at = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    out.starts[b] = at;
    for (unsigned s = 0; s < slices; ++s) {
      const std::uint64_t n = out.counts[s * blocks + b];
      out.counts[s * blocks + b] = at;
      at += n;
    }
  }
  out.starts[blocks] = at;
  out.order.resize(count);
  parallel(slices, [&](unsigned s) {
    std::uint64_t *places = out.counts.data() + s * blocks;
    for (std::uint64_t k = slice(s); k < slice(s + 1); ++k)
      out.order[places[indices[k] >> height]++] = k;
  });
  return true;
}

} // namespace merklize
