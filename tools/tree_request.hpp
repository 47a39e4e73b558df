// SPDX-License-Identifier: Apache-2.0 OR MIT
// What `merklize root` and `merklize proof` are asked for, read once from their arguments: the
// kind's row of <merklize/formats/presets.hpp>, the tree as a specification
// (<merklize/core/tree_spec.hpp>: leaf source and rule, node hash, arity, shape, depth, SSZ's
// length) and where it is built. dispatch.hpp's tables pick the runner from it; the runners read
// the tree from it. No OpenCL: the tests build requests without a device.
#pragma once

#include "commands.hpp"

#include <merklize/core/tree_spec.hpp>
#include <merklize/formats/presets.hpp>

namespace cli {

// Where the tree is built, apart from what the tree is.
enum class placement {
  automatic,       // no --device: the default device, or for root's streamed tree whichever of
                   // it and the host engine is expected to finish first (engine.hpp)
  one_device,      // --device SPEC
  several_devices, // --devices SPEC,SPEC...
};

struct tree_request {
  // The kind: the row of --format F, --ssz-list, --ssz-vector, --log, --arity, else binary's.
  // nullptr only for a `merklize proof --format F` that has no proofs: its runner refuses it.
  const merklize::preset_row *row = nullptr;
  merklize::preset_group group = merklize::preset_group::tree;
  // The tree. A --format row's is its spec of the defaults (and --no-sort-leaves): the format's
  // own options (block sizes, salts, UUID) are checked by its runner, with their own messages.
  merklize::tree_spec spec;
  placement where = placement::automatic;
};

// The request of a root's arguments. Refuses, in this order, what root_command always refused
// before running anything: --log without --entries, a hash and shape that do not go together,
// an unknown --format, an --arity or --leaf-size (with --leaf-hash and --salt) that does not
// check, --salt with nothing to salt. The usage errors name `merklize root --help`.
tree_request request_of(const root_arguments &args);

// The same of a proof's: a --format is its row (or nullptr) and nothing else is checked; else
// several -i, --log without --entries, the tree's options, --arity and --leaf-size are refused.
tree_request request_of(const proof_arguments &args);

} // namespace cli
