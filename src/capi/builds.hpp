// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a builder does with a source, dispatched on its settings as the command-line tool does
// (tools/root_command.cpp, block_command.cpp, kary_command.cpp, proof_command.cpp):
//
//   arity > 2        the k-ary tree built on the device (device_tree.hpp) over the source's
//                    leaves, as given or hashed from its blocks
//   leaf_size > 0    the leaves hashed from the source's blocks on the device (block_hasher),
//                    the binary tree built there from them (block_tree.hpp)
//   32-byte leaves   merkleizer: from host memory as it is; from a file or a descriptor streamed
//                    for a root or a proof, read whole for a tree that keeps levels
//
// and with mix_in_length the root is SSZ's list root and proofs end with the length chunk.
// The caller holds the builder's mutex.
#pragma once

#include "handles.hpp"
#include "sources.hpp"

#include <memory>

namespace merklize_capi {

std::unique_ptr<merklize_tree> build_tree(merklize_builder &b, opened_source &source);

// The root merklize_tree_root would give, built keeping nothing but the root.
digest root_of(merklize_builder &b, opened_source &source);

// The inclusion proof (k-ary for arity > 2) of leaf `index` of the source's tree.
merklize_proof::value_type prove_in(merklize_builder &b, opened_source &source,
                                    std::uint64_t index);

} // namespace merklize_capi
