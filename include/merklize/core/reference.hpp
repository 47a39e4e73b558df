// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host reference: the same tree as the device builds, computed one node at a time on the
// CPU (finish_tree from the leaves up). Slow, simple and independent of OpenCL: the oracle for
// tests and the CLI's checks, itself checked against tests/vectors/merkle.json.
#pragma once

#include "tree.hpp"

#include <cstring>

namespace merklize {

inline tree reference_tree(const void *leaves, std::uint64_t leaf_bytes, tree_options options) {
  tree t(leaf_count_of(leaf_bytes), options);
  std::vector<digest> level0(t.leaf_count());
  std::memcpy(level0.data(), leaves, leaf_bytes);
  finish_tree(t, 0, level0);
  return t;
}

} // namespace merklize
