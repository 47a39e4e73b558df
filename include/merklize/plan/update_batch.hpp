// SPDX-License-Identifier: Apache-2.0 OR MIT
// A batch of leaf updates sorted once (issue 31): its distinct leaf indices ascending, as 32-bit
// numbers, each with the position in the batch of its last update (a repeated index takes its
// last value). resident_tree.hpp updates without it (the last value elected on the device,
// tree_updater.hpp) and sorts only for what needs the indices in order: the multiproof of
// update_proved and last_plan(). Level l's dirty nodes are the distinct values of leaf >> l over
// the sorted leaves: plan/update_plan.hpp lists every level's from it. Pure, no OpenCL.
//
//   const merklize::update_batch b = merklize::sort_batch(10, {4, 0, 4});
//   // b.leaves == {0, 4}, b.sources == {1, 2}: leaf 4 takes update 2, the last
//
// An LSD radix sort of (index << 32 | position) keys on the index's bits alone, 11 bits a pass
// (a 2048-entry count table stays in the first-level cache), as many passes as the tree's
// largest index needs: stable, so each run of one index ends with its latest update. O(batch):
// 335k indices of a tree of 2^25 leaves take three passes, about a millisecond on one core.
#pragma once

#include "../core/error_type.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

struct update_batch {
  std::uint64_t batch = 0;            // the updates given, repeated indices included
  std::vector<std::uint32_t> leaves;  // the distinct leaves written, ascending
  std::vector<std::uint32_t> sources; // for each, the position of its last update
};

namespace detail {

// The most leaves a tree updated by sorted batches holds: indices are sorted as 32-bit numbers.
constexpr std::uint64_t max_sorted_leaves = std::uint64_t(1) << 32;

inline void check_batch_limits(std::uint64_t leaf_count, std::uint64_t count) {
  if (leaf_count > max_sorted_leaves)
    throw error("update: the tree has " + std::to_string(leaf_count) +
                " leaves; updates in place take trees of at most 2^32 leaves (32-bit indices)");
  if (count > max_sorted_leaves)
    throw error("update: a batch of " + std::to_string(count) +
                " updates; a batch holds at most 2^32 updates");
}

// `keys` (index << 32 | position) sorted stably by their index bits below `bits`, `scratch`
// of the same size the other buffer of the passes.
inline void radix_sort_indices(std::vector<std::uint64_t> &keys,
                               std::vector<std::uint64_t> &scratch, unsigned bits) {
  constexpr unsigned digit = 11, buckets = 1u << digit;
  for (unsigned shift = 32; shift < 32 + bits; shift += digit) {
    std::array<std::uint64_t, buckets> starts{};
    for (const std::uint64_t key : keys)
      ++starts[(key >> shift) & (buckets - 1)];
    std::uint64_t at = 0;
    for (std::uint64_t &start : starts) {
      const std::uint64_t n = start;
      start = at;
      at += n;
    }
    for (const std::uint64_t key : keys)
      scratch[static_cast<std::size_t>(starts[(key >> shift) & (buckets - 1)]++)] = key;
    keys.swap(scratch);
  }
}

// The refusal of update k of `count`, whose leaf index is outside the tree of `leaf_count`.
inline error index_out_of_range(std::uint64_t k, std::uint64_t count, std::uint64_t index,
                                std::uint64_t leaf_count) {
  return error("update " + std::to_string(k) + " of " + std::to_string(count) + ": leaf index " +
               std::to_string(index) + " out of range: the tree has " + std::to_string(leaf_count) +
               " leaves");
}

// Refuses the first of `count` indices outside the tree of `leaf_count` leaves: O(batch).
inline void check_indices(std::uint64_t leaf_count, const std::uint64_t *indices,
                          std::uint64_t count) {
  for (std::uint64_t k = 0; k < count; ++k)
    if (indices[k] >= leaf_count) throw index_out_of_range(k, count, indices[k], leaf_count);
}

// Refuses a batch of `indices` indices and `leaves` leaves: a leaf for each index.
inline void check_leaf_each(std::size_t indices, std::size_t leaves) {
  if (indices != leaves)
    throw error("update: " + std::to_string(indices) + " indices but " + std::to_string(leaves) +
                " leaves; give a leaf for each index");
}

} // namespace detail

// The batch of `count` updates of leaves `indices` (any order, repeats allowed) of a tree of
// `leaf_count` leaves (at most 2^32), sorted. An index outside the tree is refused, naming it and
// its place in the batch, before anything else.
inline update_batch sort_batch(std::uint64_t leaf_count, const std::uint64_t *indices,
                               std::uint64_t count) {
  detail::check_batch_limits(leaf_count, count);
  detail::check_indices(leaf_count, indices, count);
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(count)), scratch(keys.size());
  for (std::uint64_t k = 0; k < count; ++k)
    keys[static_cast<std::size_t>(k)] = indices[k] << 32 | k;
  unsigned bits = 0;
  while (bits < 32 && (leaf_count - 1) >> bits != 0)
    ++bits;
  detail::radix_sort_indices(keys, scratch, bits);
  update_batch b;
  b.batch = count;
  b.leaves.reserve(keys.size());
  b.sources.reserve(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (k + 1 < keys.size() && keys[k + 1] >> 32 == keys[k] >> 32) continue; // not the last
    b.leaves.push_back(static_cast<std::uint32_t>(keys[k] >> 32));
    b.sources.push_back(static_cast<std::uint32_t>(keys[k]));
  }
  return b;
}

inline update_batch sort_batch(std::uint64_t leaf_count,
                               const std::vector<std::uint64_t> &indices) {
  return sort_batch(leaf_count, indices.data(), indices.size());
}

} // namespace merklize
