// SPDX-License-Identifier: Apache-2.0 OR MIT
// A merklize_tree_config checked and turned into the library's own types, once, in
// merklize_builder_create: the builder, its trees and their proofs read only this. The tree is a
// specification (core/tree_spec.hpp), the description every named tree kind of the command line
// is too (formats/presets.hpp): 32-byte leaves as given or leaves of data blocks, the node hash,
// the arity, the shape, a fixed depth, SSZ's length mixed in.
#pragma once

#include "capi.hpp"

#include <merklize/core/tree_spec.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace merklize_capi {

struct tree_settings {
  tree_spec spec;
  std::uint64_t length = 0; // spec.mix_in_length: the list's length mixed into the root
  output_levels keep;       // the levels builds from host memory keep

  tree_options tree() const { return tree_options_of(spec); }
  bool kary() const { return spec.arity > 2; } // kary.hpp's trees
  kary_options kary_tree() const { return kary_options_of(spec); }
  const std::optional<leaf_rule> &blocks() const { return spec.leaf; } // leaves of data blocks
  bool root_only() const { return keep.first == output_levels::root_only().first; }
};

// Every field checked, each refusal naming the field and its value ("config.arity: arity 3: a
// k-ary tree takes a power of two from 2 to 128"), with the library's own checks and parsers.
tree_settings parse_tree_config(const merklize_tree_config &config);

// Refuses `count` leaves at `leaves` that a hash over field elements does not take (a limb of p or
// more: merklize::leaf_refusal), naming `what` and the first such leaf ("leaves: leaf 2, limb 3
// (2013265921) is not a canonical BabyBear element ..."); the other hashes take any 32 bytes. The
// kernels would take such a limb mod p, so that two leaves would share a tree: refused instead.
void check_field_leaves(hash_kind hash, const void *leaves, std::uint64_t count,
                        const std::string &what);

} // namespace merklize_capi
