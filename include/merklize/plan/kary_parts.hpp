// SPDX-License-Identifier: Apache-2.0 OR MIT
// Parts of a k-ary tree built apart, by several devices (kary_multi.hpp) or MPI ranks
// (merklize-mpi --arity): which leaves each builder takes. Host code, no OpenCL.
//
// The aligned-part rule of parts.hpp, for arity k: let a part hold leaves [f, f + m) of a tree
// of N leaves, f a multiple of k^t, and m a multiple of k^t or f + m = N. Then for every l <= t
// the part's own level l (ceil(m / k^l) nodes, kary_part_sizes) is the tree's from node f / k^l
// on. By induction on l: the part's nodes of level l start at a multiple of k (f / k^l, l < t),
// so each group of k children lies in the part whole; only a part that ends the tree has a short
// last group, and it is the tree's own, filled by the same shape rule (shape zero's padding, the
// zero-subtree root of height l, depends on l alone). A part shorter than k^(t-1) that ends the
// tree reaches level t as the tree's last node does: alone in its group at each level, moved up
// (promote) or hashed with zero-subtree roots (zero). So the tree's level t is the builders'
// level-t nodes in order, and kary_levels_above finishes the tree from it.
// tests/test_kary_multi.cpp checks this bit for bit against kary_levels.
#pragma once

#include "../core/kary.hpp"
#include "parts.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace merklize {

// Builder i takes shards [bounds[i], bounds[i + 1]): the subtrees of level shard_levels, of
// shard_leaves = k^shard_levels leaves each (the last maybe fewer). A tree of one shard is built
// whole by one builder: shard_levels is then its height and shard_leaves its leaf count.
struct kary_shard_plan {
  unsigned arity = 2;
  unsigned shard_levels = 0;
  std::uint64_t leaf_count = 0;
  std::uint64_t shard_leaves = 1;
  std::vector<std::uint64_t> bounds; // builders + 1 entries, from 0 to the shard count

  std::size_t builders() const { return bounds.size() - 1; }
  std::uint64_t shards() const { return bounds.back(); }
  std::uint64_t first_leaf(std::size_t i) const { return leaves_before(bounds[i]); }
  // Leaves of builder i; 0 when it has no shard.
  std::uint64_t leaf_count_of(std::size_t i) const {
    return leaves_before(bounds[i + 1]) - first_leaf(i);
  }
  // Whether the tree is really spread: more than one shard, so the top is finished apart.
  bool is_spread() const { return shards() > 1; }
  // The builder whose shards hold leaf `index` (below leaf_count).
  std::size_t builder_of(std::uint64_t index) const {
    const std::uint64_t shard = index / shard_leaves;
    return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), shard) -
                                    bounds.begin() - 1);
  }

private:
  std::uint64_t leaves_before(std::uint64_t shard) const {
    return shard > (leaf_count - 1) / shard_leaves ? leaf_count : shard * shard_leaves;
  }
};

// The plan for a k-ary tree (options.arity) of `leaf_count` leaves over builders of relative
// speeds `weights` (one each, positive): shards of k^shard_levels leaves when shard_levels > 0,
// otherwise the smallest power of k that gives about default_shards_per_builder a builder and no
// fewer than `min_shard_leaves` leaves (a device's piece: a smaller shard would stream worse).
// Builders get runs of shards in proportion to their weights; a tree of one shard or less is
// built whole by the heaviest builder.
inline kary_shard_plan plan_kary_shards(std::uint64_t leaf_count, unsigned arity,
                                        const std::vector<double> &weights,
                                        unsigned shard_levels = 0,
                                        std::uint64_t min_shard_leaves = 1) {
  check_kary({hash_kind::sha256, arity, shape::promote});
  if (weights.empty()) throw error("plan_kary_shards: no builders");
  const unsigned height = kary_height(leaf_count, arity); // refuses 0 leaves
  const std::uint64_t wanted = default_shards_per_builder * weights.size();
  const std::uint64_t per_shard =
      std::max(min_shard_leaves, leaf_count / wanted + (leaf_count % wanted != 0));
  kary_shard_plan plan{arity, 0, leaf_count, 1, {0}};
  bool whole = weights.size() == 1 || leaf_count == 1;
  while (!whole &&
         (shard_levels ? plan.shard_levels < shard_levels : plan.shard_leaves < per_shard)) {
    if (plan.shard_leaves > leaf_count / arity) { // k more times as many: one shard or none
      whole = true;
    } else {
      plan.shard_leaves *= arity;
      ++plan.shard_levels;
    }
  }
  const std::uint64_t shards =
      leaf_count / plan.shard_leaves + (leaf_count % plan.shard_leaves != 0);
  if (whole || shards <= 1) {
    plan.shard_levels = height;
    plan.shard_leaves = leaf_count;
    plan.bounds = detail::whole_on_heaviest(weights);
    return plan;
  }
  plan.bounds = detail::runs_by_weight(shards, weights);
  return plan;
}

} // namespace merklize
