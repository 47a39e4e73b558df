// SPDX-License-Identifier: Apache-2.0 OR MIT
// A batch of leaf updates sorted once: its distinct leaf indices ascending, as 32-bit
// numbers, each with the position in the batch of its last update (a repeated index takes its
// last value). resident_tree.hpp updates without it (the last value elected on the device,
// tree_updater.hpp) and sorts only for what needs the indices in order: the multiproof of
// update_proved and last_plan(). Level l's dirty nodes are the distinct values of leaf >> l over
// the sorted leaves: plan/update_plan.hpp lists every level's from it. Pure, no OpenCL.
//
//   const merklize::update_batch b = merklize::sort_batch(10, {4, 0, 4});
//   // b.leaves == {0, 4}, b.sources == {1, 2}: leaf 4 takes update 2, the last
//
// An LSD radix sort of (index << 32 | position) keys on the index's bits alone, at most 12 bits
// a pass, as few passes as the tree's largest index needs: stable, so each run of one index ends
// with its latest update. O(batch): 335k indices of a tree of 2^25 leaves take three passes,
// about a millisecond on one core; a tree of 2^24 leaves two. A caller that sorts batch after
// batch keeps the sort's memory and may sort in slices on its threads (sort_batch_into): each
// pass then a stable counting sort in slices, counted, then placed, slice by slice, as
// plan/leaf_blocks.hpp groups a batch.
#pragma once

#include "../core/error_type.hpp"

#include <algorithm>
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

// A radix pass's widest digit: a 4096-entry count table a slice stays in the second-level cache
// (its first-level lines the ones in use). Fewer, wider passes: each pass reads and scatters every
// key once, so 24-bit indices (a tree of 2^24 leaves) sort in two passes of 12 bits, not three.
constexpr unsigned sort_digit_bits = 12;

// The digit of a sort of `bits`-bit indices: the passes as few as sort_digit_bits allows, their
// digits as even as they can be (25 bits: three of 9, not two of 12 and one of 1).
inline unsigned sort_digit_for(unsigned bits) {
  const unsigned passes = std::max(1u, (bits + sort_digit_bits - 1) / sort_digit_bits);
  return (bits + passes - 1) / passes;
}

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

// The memory of a batch's sort, kept by a caller that sorts batch after batch (fresh memory,
// faulted in page by page, was half of the sort of a 1% batch of a tree of 2^24 leaves).
struct batch_sort_memory {
  std::vector<std::uint64_t> keys, scratch; // the keys, and the other buffer of the passes
  std::vector<std::uint64_t> counts;        // a slice's count of each digit, slices back to back
  std::vector<std::uint64_t> first_bad;     // a slice's first index outside the tree
};

namespace detail {

// Slice s of `n` items among `slices`: [n * s / slices, n * (s + 1) / slices).
inline std::uint64_t slice_start(std::uint64_t n, unsigned s, unsigned slices) {
  return n * s / slices;
}

// m.keys sorted stably by their digit at bit `shift` (`width` bits), into m.scratch and
// swapped back: slice s of the keys counted, then placed, by work(s) (`parallel`).
template <class Parallel>
void radix_pass(batch_sort_memory &m, unsigned shift, unsigned width, unsigned slices,
                const Parallel &parallel) {
  const std::uint64_t digits = std::uint64_t(1) << width;
  const std::uint64_t n = m.keys.size();
  m.counts.assign(slices * digits, 0);
  // Raw pointers: through the vectors, each store into one would reload the others' data.
  const std::uint64_t *keys = m.keys.data();
  std::uint64_t *sorted = m.scratch.data(), *counts = m.counts.data();
  const auto digit = [shift, digits](std::uint64_t key) { return (key >> shift) & (digits - 1); };
  parallel(slices, [&](unsigned s) {
    std::uint64_t *mine = counts + s * digits;
    for (std::uint64_t k = slice_start(n, s, slices); k < slice_start(n, s + 1, slices); ++k)
      ++mine[digit(keys[k])];
  });
  std::uint64_t at = 0; // each slice's first place of each digit: digits in order, slices within
  for (std::uint64_t d = 0; d < digits; ++d)
    for (unsigned s = 0; s < slices; ++s) {
      const std::uint64_t c = counts[s * digits + d];
      counts[s * digits + d] = at;
      at += c;
    }
  parallel(slices, [&](unsigned s) {
    std::uint64_t *places = counts + s * digits;
    for (std::uint64_t k = slice_start(n, s, slices); k < slice_start(n, s + 1, slices); ++k)
      sorted[places[digit(keys[k])]++] = keys[k];
  });
  m.keys.swap(m.scratch);
}

// m.keys made (index << 32 | position) from the batch, slice by slice; the first index outside
// the tree refused (after every slice has stopped: no exception leaves a worker).
template <class Parallel>
void make_keys(batch_sort_memory &m, std::uint64_t leaf_count, const std::uint64_t *indices,
               std::uint64_t count, unsigned slices, const Parallel &parallel) {
  m.keys.resize(static_cast<std::size_t>(count));
  m.scratch.resize(m.keys.size());
  m.first_bad.assign(slices, count);
  std::uint64_t *keys = m.keys.data(), *first_bad = m.first_bad.data();
  parallel(slices, [&](unsigned s) {
    for (std::uint64_t k = slice_start(count, s, slices); k < slice_start(count, s + 1, slices);
         ++k) {
      if (indices[k] >= leaf_count) {
        first_bad[s] = k;
        return;
      }
      keys[k] = indices[k] << 32 | k;
    }
  });
  const std::uint64_t bad = *std::min_element(m.first_bad.begin(), m.first_bad.end());
  if (bad < count) throw index_out_of_range(bad, count, indices[bad], leaf_count);
}

// The last key of each index (the sorted keys' runs) into out, slice by slice.
template <class Parallel>
void keep_last(update_batch &out, batch_sort_memory &m, unsigned slices, const Parallel &parallel) {
  const std::uint64_t n = m.keys.size();
  const std::uint64_t *keys = m.keys.data();
  const auto last = [&](std::uint64_t k) {
    return k + 1 == n || keys[k + 1] >> 32 != keys[k] >> 32;
  };
  m.counts.assign(slices + 1, 0); // counts[s + 1]: slice s's last keys; then its first place
  std::uint64_t *counts = m.counts.data();
  parallel(slices, [&](unsigned s) {
    std::uint64_t mine = 0;
    for (std::uint64_t k = slice_start(n, s, slices); k < slice_start(n, s + 1, slices); ++k)
      mine += last(k);
    counts[s + 1] = mine;
  });
  for (unsigned s = 0; s < slices; ++s)
    counts[s + 1] += counts[s];
  out.leaves.resize(static_cast<std::size_t>(counts[slices]));
  out.sources.resize(out.leaves.size());
  std::uint32_t *leaves = out.leaves.data(), *sources = out.sources.data();
  parallel(slices, [&](unsigned s) {
    std::uint64_t at = counts[s];
    for (std::uint64_t k = slice_start(n, s, slices); k < slice_start(n, s + 1, slices); ++k)
      if (last(k)) {
        leaves[at] = static_cast<std::uint32_t>(keys[k] >> 32);
        sources[at++] = static_cast<std::uint32_t>(keys[k]);
      }
  });
}

} // namespace detail

// work(0 .. slices - 1) in order on this thread: a sort in slices without threads. A class, not
// a lambda in a variable: a closure type named by a header's variable or static member gave
// GCC 12 COMDAT groups that a 100-file link rejected ("defined in discarded section").
struct serially {
  template <class Work> void operator()(unsigned slices, const Work &work) const {
    for (unsigned s = 0; s < slices; ++s)
      work(s);
  }
};

// sort_batch into `out`, its memory `m` (both reused from call to call), in `slices` slices:
// `parallel(slices, work)` runs work(s) for every slice s, in any order or at once.
template <class Parallel>
void sort_batch_into(update_batch &out, batch_sort_memory &m, std::uint64_t leaf_count,
                     const std::uint64_t *indices, std::uint64_t count, unsigned slices,
                     const Parallel &parallel) {
  detail::check_batch_limits(leaf_count, count);
  detail::make_keys(m, leaf_count, indices, count, slices, parallel);
  unsigned bits = 0;
  while (bits < 32 && (leaf_count - 1) >> bits != 0)
    ++bits;
  const unsigned width = detail::sort_digit_for(bits);
  for (unsigned shift = 32; shift < 32 + bits; shift += width)
    detail::radix_pass(m, shift, width, slices, parallel);
  out.batch = count;
  detail::keep_last(out, m, slices, parallel);
}

// The batch of `count` updates of leaves `indices` (any order, repeats allowed) of a tree of
// `leaf_count` leaves (at most 2^32), sorted. An index outside the tree is refused, naming it and
// its place in the batch, before anything else.
inline update_batch sort_batch(std::uint64_t leaf_count, const std::uint64_t *indices,
                               std::uint64_t count) {
  update_batch b;
  batch_sort_memory m;
  sort_batch_into(b, m, leaf_count, indices, count, 1, serially{});
  return b;
}

inline update_batch sort_batch(std::uint64_t leaf_count,
                               const std::vector<std::uint64_t> &indices) {
  return sort_batch(leaf_count, indices.data(), indices.size());
}

} // namespace merklize
