// SPDX-License-Identifier: Apache-2.0 OR MIT
// A merklize_tree_config checked and turned into the library's own types, once, in
// merklize_builder_create: the builder, its trees and their proofs read only this.
#pragma once

#include "capi.hpp"

#include <merklize/core/block_leaves.hpp>
#include <merklize/core/kary.hpp>
#include <merklize/core/tree.hpp>

#include <optional>

namespace merklize_capi {

struct tree_settings {
  tree_options tree;                         // node hash, shape, fixed depth
  unsigned arity = 2;                        // above 2: a k-ary tree (kary.hpp)
  std::optional<leaf_rule> blocks;           // leaf_size > 0: leaves hashed from data blocks
  std::optional<std::uint64_t> mixed_length; // mix_in_length: SSZ's list root
  output_levels keep;                        // the levels builds from host memory keep

  bool kary() const { return arity > 2; }
  kary_options kary_tree() const { return {tree.hash, arity, tree.pad}; }
  bool root_only() const { return keep.first == output_levels::root_only().first; }
};

// Every field checked, each refusal naming the field and its value ("config.arity: arity 3: a
// k-ary tree takes a power of two from 2 to 128"), with the library's own checks and parsers.
tree_settings parse_tree_config(const merklize_tree_config &config);

} // namespace merklize_capi
