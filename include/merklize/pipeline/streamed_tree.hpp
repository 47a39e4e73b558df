// SPDX-License-Identifier: Apache-2.0 OR MIT
// A tree known only by its parts: the top node of each aligned chunk of 2^s leaves (level s, by
// the aligned-part rule of parts.hpp), or for a k-ary tree of k^j leaves (level j), and, for a
// proof, every level of the one chunk that holds the proven leaf. The root and the proof follow
// on the host; nothing else of the tree is ever held. Filled by chunk_stream.hpp's loop as an
// input streams through the device (binary: chunk_stream; k-ary: engine/kary_stream.hpp); no
// OpenCL here.
#pragma once

#include "../core/kary.hpp"
#include "../plan/parts.hpp"
#include "../proofs/proof_model.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace merklize {
namespace detail {

struct streamed_tree {
  tree_options options;
  unsigned chunk_log2 = 0; // s
  std::uint64_t leaf_count = 0;
  // Each chunk's top node in order: level s of the tree, but for a last chunk shorter than 2^s,
  // which stops at its own depth (lifted to level s by finish).
  std::vector<digest> tops;
  std::optional<tree> kept;     // the chunk holding the proven leaf: its own tree, every level
  std::uint64_t kept_first = 0; // its first leaf

  // The level the tops stand at once lifted: s, or the whole tree's depth for one chunk.
  unsigned top_level() const { return std::min(chunk_log2, tree_layout(leaf_count).depth()); }

  // The tree's levels from top_level() up in `t` (a tree of leaf_count leaves), and its root.
  digest finish(tree &t) const {
    std::vector<digest> level = tops;
    if (level.size() > 1) { // a short last chunk's top goes up to level s as a lone node
      const std::uint64_t first = (level.size() - 1) << chunk_log2;
      const tree_layout last(leaf_count - first);
      if (last.depth() < chunk_log2)
        level.back() = lift_lone_node(level.back(), {first, last, last.depth()}, chunk_log2, t);
    }
    return finish_tree(t, top_level(), level);
  }

  digest root() const {
    if (leaf_count == 0) return *empty_tree_root(options); // chunk_stream allows N = 0 then only
    tree t(leaf_count, options, output_levels::root_only());
    return finish(t);
  }

  // The proof of leaf `index`, which kept's chunk holds: its siblings below level s from the
  // kept chunk, those from level s up from the levels finish() computes.
  inclusion_proof prove(std::uint64_t index) const {
    check_leaf_index(index, leaf_count);
    tree upper(leaf_count, options, output_levels::from_level(top_level()));
    finish(upper);
    inclusion_proof proof{options, leaf_count, index, {}};
    const unsigned root_level = upper.root_depth();
    const auto zeros = zero_subtree_roots(options.hash, root_level);
    for (const path_group &g :
         plan_path(binary_path_shape(options), leaf_count, index, root_level)) {
      const auto node = [&](std::uint64_t i) {
        return g.level < top_level() ? kept->node(g.level, i - (kept_first >> g.level))
                                     : upper.node(g.level, i);
      };
      for (const digest &sibling : group_siblings(g, node, zeros[g.level]))
        proof.siblings.push_back(sibling);
    }
    return proof;
  }
};

// The same for a k-ary tree (kary.hpp): chunks of k^j leaves, each built on the device up to
// level j (a short last chunk's lone node raised there by the shape's rule, as device_tree
// raises a part's), or, where one chunk is the whole tree, up to its root. Root and proof equal
// kary_root's and kary_prove's over the same leaves.
struct kary_streamed_tree {
  kary_options options;
  unsigned chunk_levels = 0; // j
  std::uint64_t leaf_count = 0;
  std::vector<digest> tops;              // each chunk's node of level top_level(), in order
  std::vector<std::vector<digest>> kept; // the proven leaf's chunk: its levels 0..top_level()
  std::uint64_t kept_first = 0;          // its first leaf

  unsigned height() const { return kary_height(leaf_count, options.arity); }
  // The level the tops stand at: j, or the whole tree's height for one chunk.
  unsigned top_level() const { return std::min(chunk_levels, height()); }

  // The tree's levels from top_level() up, the root alone last.
  std::vector<std::vector<digest>> upper_levels() const {
    return kary_levels_above(tops, options, top_level());
  }

  digest root() const { return upper_levels().back().front(); }

  // The proof of leaf `index`, which kept's chunk holds: its groups below top_level() from the
  // kept chunk's levels, those above from upper_levels().
  kary_proof prove(std::uint64_t index) const {
    check_kary_index(index, leaf_count);
    const unsigned top = top_level(), bits = ceil_log2(options.arity);
    const auto upper = upper_levels();
    const auto zeros = kary_zero_roots(options, height());
    kary_proof proof{options, leaf_count, index, {}};
    for (const path_group &g : plan_path(kary_path_shape(options), leaf_count, index, height())) {
      const auto node = [&](std::uint64_t i) {
        if (g.level >= top) return upper[g.level - top][static_cast<std::size_t>(i)];
        return kept.at(g.level).at(static_cast<std::size_t>(i - (kept_first >> (bits * g.level))));
      };
      proof.siblings.push_back(group_siblings(g, node, zeros[g.level]));
    }
    return proof;
  }
};

} // namespace detail
} // namespace merklize
