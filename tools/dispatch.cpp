// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "dispatch.hpp"

namespace cli {
namespace {

using merklize::leaf_source;
using merklize::preset_group;
constexpr std::optional<leaf_source> any_leaves = std::nullopt;
constexpr either no = either::no, yes = either::yes, any = either::any;

bool matches(either key, bool value) { return key == either::any || (key == either::yes) == value; }

template <class Runner, std::size_t N>
const Runner &runner_for(const Runner (&table)[N], const tree_request &request,
                         const char *command) {
  for (const Runner &row : table)
    if (matches(row.key, request)) return row;
  throw merklize::error(std::string("no runner of merklize ") + command + " takes a tree of " +
                        (request.row ? request.row->name : "no kind") + " over " +
                        merklize::to_string(request.spec.leaves));
}

} // namespace

// clang-format off
const root_runner root_runners[9] = {
  // name                group                    leaves                 k-ary devices
  {"log",               {preset_group::tree,       leaf_source::entries, any, any}, log_root},
  {"commitment",        {preset_group::commitment, any_leaves,           any, any}, commitment_root},
  {"data-format",       {preset_group::data,       any_leaves,           any, any}, data_format_root},
  {"kary-on-devices",   {preset_group::tree,       any_leaves,           yes, yes}, kary_root_on_devices},
  {"blocks-on-devices", {preset_group::tree,       leaf_source::blocks,  no,  yes}, blocks_root_on_devices},
  {"leaves-on-devices", {preset_group::tree,       leaf_source::digests, no,  yes}, leaves_root_on_devices},
  {"kary",              {preset_group::tree,       any_leaves,           yes, no},  kary_root},
  {"blocks",            {preset_group::tree,       leaf_source::blocks,  no,  no},  blocks_root},
  {"streamed",          {preset_group::tree,       leaf_source::digests, no,  no},  streamed_root},
};

const proof_runner proof_runners[5] = {
  {"commitment",        {preset_group::commitment, any_leaves,           any, any}, commitment_proof},
  {"log",               {preset_group::tree,       leaf_source::entries, any, any}, log_proof},
  {"kary",              {preset_group::tree,       any_leaves,           yes, any}, kary_proof},
  {"blocks",            {preset_group::tree,       leaf_source::blocks,  no,  any}, blocks_proof},
  {"streamed",          {preset_group::tree,       leaf_source::digests, no,  any}, streamed_proof},
};
// clang-format on

bool matches(const runner_key &key, const tree_request &request) {
  const bool kary = request.row && request.row->kind == merklize::tree_kind::kary;
  return key.group == request.group && (!key.leaves || *key.leaves == request.spec.leaves) &&
         matches(key.kary, kary) &&
         matches(key.several_devices, request.where == placement::several_devices);
}

const root_runner &root_runner_for(const tree_request &request) {
  return runner_for(root_runners, request, "root");
}

const proof_runner &proof_runner_for(const tree_request &request) {
  return runner_for(proof_runners, request, "proof");
}

} // namespace cli
