// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which function runs a request (tree_request.hpp): for `merklize root` and for `merklize proof`
// a table each (dispatch.cpp), a row a runner, keyed by what the request says: the kind's group
// (a tree, a --format over data blocks, a commitment), where the leaves come from, whether the
// tree is k-ary, whether several devices build it. The keys of a table's rows do not overlap
// (tests/test_cli_dispatch.cpp checks that each request matches one row). A runner is the
// function that ran that case before there was a table; which kernels it runs is its own
// business, as a preset row's builder is.
#pragma once

#include "commands.hpp"
#include "tree_request.hpp"

#include <optional>

namespace cli {

// A key that a row may leave open.
enum class either { no, yes, any };

struct runner_key {
  merklize::preset_group group;
  std::optional<merklize::leaf_source> leaves; // nullopt: any
  either kary;                                 // the k-ary kind: --arity K (2 included)
  either several_devices;                      // --devices
};

bool matches(const runner_key &key, const tree_request &request);

template <class Arguments> struct runner {
  const char *name; // what the tests and errors call it
  runner_key key;
  int (*run)(const Arguments &, const tree_request &);
};

using root_runner = runner<root_arguments>;
using proof_runner = runner<proof_arguments>;

// The tables, in dispatch.cpp.
extern const root_runner root_runners[9];
extern const proof_runner proof_runners[5];

// The row whose key matches `request`; none is an internal error naming the request.
const root_runner &root_runner_for(const tree_request &request);
const proof_runner &proof_runner_for(const tree_request &request);

// The runners. `merklize root`: root_command.cpp, block_command.cpp, commitment_command.cpp.
int log_root(const root_arguments &args, const tree_request &request);
int commitment_root(const root_arguments &args, const tree_request &request);
int data_format_root(const root_arguments &args, const tree_request &request);
int kary_root_on_devices(const root_arguments &args, const tree_request &request);
int blocks_root_on_devices(const root_arguments &args, const tree_request &request);
int leaves_root_on_devices(const root_arguments &args, const tree_request &request);
int kary_root(const root_arguments &args, const tree_request &request);
int blocks_root(const root_arguments &args, const tree_request &request);
int streamed_root(const root_arguments &args, const tree_request &request);

// `merklize proof`: proof_command.cpp, kary_command.cpp, commitment_command.cpp.
int commitment_proof(const proof_arguments &args, const tree_request &request);
int log_proof(const proof_arguments &args, const tree_request &request);
int kary_proof(const proof_arguments &args, const tree_request &request);
int blocks_proof(const proof_arguments &args, const tree_request &request);
int streamed_proof(const proof_arguments &args, const tree_request &request);

} // namespace cli
