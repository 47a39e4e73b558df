// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "tree_request.hpp"

#include "cli.hpp"
#include "presets.hpp"

namespace cli {
namespace {

placement placement_of(const std::optional<std::string> &device,
                       const std::optional<std::string> &devices = std::nullopt) {
  return devices  ? placement::several_devices
         : device ? placement::one_device
                  : placement::automatic;
}

tree_request request_of_row(const merklize::preset_row &row,
                            const merklize::preset_parameters &parameters, placement where) {
  return {&row, row.group, row.spec(parameters), where};
}

// The row of the tree options' kinds: --arity's, --ssz-list's, --ssz-vector's, else binary's.
const merklize::preset_row &tree_row(bool kary, const preset_arguments &preset) {
  using merklize::tree_kind;
  return merklize::row_of(kary                ? tree_kind::kary
                          : preset.ssz_list   ? tree_kind::ssz_list
                          : preset.ssz_vector ? tree_kind::ssz_vector
                                              : tree_kind::binary);
}

// The parameters of a tree over FILE's leaves or blocks, checked in the order the runners
// checked them before there was a request: the arity, then the leaf rule.
merklize::preset_parameters tree_parameters(const merklize::tree_options &tree,
                                            const preset_arguments &preset,
                                            const std::optional<std::uint64_t> &arity,
                                            const leaf_block_arguments &blocks,
                                            const std::string &command) {
  merklize::preset_parameters p;
  p.tree = tree;
  p.ssz_limit = preset.ssz_list.value_or(0);
  if (arity) p.arity = kary_options_of(*arity, tree, command).arity;
  if (blocks.leaf_size) p.leaf = leaf_rule_of(blocks, tree.hash, command);
  return p;
}

// The tree of a tree kind's row, with --mix-in-length's length where it was given; its parts
// were checked one by one, and together here (an internal error if they did not go together).
tree_request tree_kind_request(const merklize::preset_row &row,
                               const merklize::preset_parameters &parameters,
                               const std::optional<std::uint64_t> &mix_in_length, placement where) {
  tree_request request = request_of_row(row, parameters, where);
  if (mix_in_length) request.spec.mix_in_length = true;
  merklize::check_tree_spec(request.spec);
  return request;
}

merklize::preset_parameters log_parameters(const preset_arguments &preset) {
  merklize::preset_parameters p;
  p.framing = *preset.entries; // check_preset refused --log without --entries
  return p;
}

} // namespace

tree_request request_of(const root_arguments &args) {
  check_preset(args.preset, "root");
  check_tree_arguments(args.tree, args.mix_in_length, "root");
  const placement where = placement_of(args.device, args.devices);
  if (args.preset.log)
    return request_of_row(merklize::row_of(merklize::tree_kind::log), log_parameters(args.preset),
                          where);
  if (args.blocks.format) {
    merklize::preset_parameters p;
    p.sort_leaves = !args.blocks.commitment.no_sort_leaves;
    return request_of_row(format_row(*args.blocks.format), p, where);
  }
  const merklize::tree_options tree = preset_tree(args.preset, args.tree);
  const merklize::preset_parameters p =
      tree_parameters(tree, args.preset, args.blocks.arity, args.blocks, "root");
  // A salt is of blocks' leaves; a k-ary tree's runners refuse it themselves (as they did, one
  // with and one without the help's line).
  if (args.blocks.salt && !args.blocks.leaf_size && !args.blocks.arity)
    throw usage_error("--salt needs --leaf-size or --format",
                      "Try 'merklize root --help' for the options.");
  return tree_kind_request(tree_row(args.blocks.arity.has_value(), args.preset), p,
                           args.mix_in_length, where);
}

tree_request request_of(const proof_arguments &args) {
  const placement where = placement_of(args.device);
  if (args.format) { // commitment_proof refuses what does not go with it
    const merklize::preset_row *row = merklize::find_format(*args.format, "proof");
    merklize::preset_parameters p;
    p.sort_leaves = !args.commitment.no_sort_leaves;
    return row ? request_of_row(*row, p, where)
               : tree_request{nullptr, merklize::preset_group::commitment, {}, where};
  }
  check_preset(args.preset, "proof");
  check_tree_arguments(args.tree, args.mix_in_length, "proof");
  if (args.preset.log)
    return request_of_row(merklize::row_of(merklize::tree_kind::log), log_parameters(args.preset),
                          where);
  const merklize::tree_options tree = preset_tree(args.preset, args.tree);
  return tree_kind_request(tree_row(args.arity.has_value(), args.preset),
                           tree_parameters(tree, args.preset, args.arity, args.blocks, "proof"),
                           args.mix_in_length, where);
}

} // namespace cli
