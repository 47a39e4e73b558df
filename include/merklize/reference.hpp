// The host reference: the same tree as the device builds, computed one node at a time on the
// CPU. Slow, simple and independent of OpenCL: the oracle for tests and the CLI's checks.
#pragma once

#include "tree.hpp"

#include <cstring>

namespace merklize {

inline tree reference_tree(const void *leaves, std::uint64_t leaf_bytes, tree_options options) {
  tree t(leaf_count_of(leaf_bytes), options);
  std::memcpy(t.level_data(0), leaves, leaf_bytes);
  const unsigned root_level = root_depth(options, t.layout()); // above depth() when padded
  const auto zeros = zero_subtree_roots(options.hash, t.depth());
  for (unsigned level = 1; level <= t.depth(); ++level) {
    const std::uint64_t below = t.layout().level_size(level - 1);
    std::uint8_t *out = t.level_data(level);
    for (std::uint64_t i = 0; 2 * i < below; ++i) {
      const digest left = t.node(level - 1, 2 * i);
      digest node = left;
      if (2 * i + 1 < below)
        node = node_hash(options.hash, left, t.node(level - 1, 2 * i + 1), level == root_level);
      else if (options.pad == shape::zero)
        node = node_hash(options.hash, left, zeros[level - 1], level == root_level);
      std::memcpy(out + i * node_bytes, node.data(), node_bytes);
    }
  }
  return t;
}

} // namespace merklize
