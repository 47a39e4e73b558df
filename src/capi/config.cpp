// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_tree_config: its defaults, and its checks (settings.hpp), made with the library's own
// parsers and checks so that the C ABI refuses exactly what the library and the command-line
// tool refuse, in the same words, prefixed with the field.
#include "settings.hpp"

#include <merklize/core/node_rule.hpp>

#include <cstring>
#include <string>

extern "C" void merklize_tree_config_init(merklize_tree_config *config) {
  if (!config) return;
  std::memset(config, 0, sizeof *config);
  config->size = sizeof *config;
  config->depth = -1;
  config->arity = 2;
  config->keep = MERKLIZE_KEEP_ALL;
}

namespace merklize_capi {
namespace {

tree_options tree_options_of(const merklize_tree_config &config) {
  tree_options options;
  options.hash = for_field("config.hash",
                           [&] { return parse_hash_kind(config.hash ? config.hash : "blake3"); });
  options.shape = for_field("config.shape",
                            [&] { return parse_shape(config.shape ? config.shape : "promote"); });
  for_field("config.shape", [&] { check_tree_options(options); });
  if (config.depth < -1)
    throw argument_error("config.depth is " + std::to_string(config.depth) +
                         ": -1 (the natural depth) or a fixed depth of 0 to 64");
  if (config.depth >= 0) {
    options.depth = static_cast<unsigned>(config.depth);
    // A tree of one leaf fits any depth: what is left is the shape and the limit of 64.
    for_field("config.depth", [&] { root_depth(options, tree_layout(1)); });
  }
  return options;
}

void check_arity(const merklize_tree_config &config, const tree_settings &s) {
  if (config.arity == 2) return;
  for_field("config.arity", [&] { check_kary(s.kary_tree()); });
  if (s.spec.depth)
    throw argument_error("config.depth is " + std::to_string(config.depth) +
                         ": a fixed depth has no use with config.arity " +
                         std::to_string(config.arity) + " (-1 for a k-ary tree)");
}

// leaf_size, leaf_hash and salt: the leaf rule of data blocks, or nothing for 32-byte leaves.
std::optional<leaf_rule> leaf_rule_of(const merklize_tree_config &config, hash_kind tree_hash) {
  if (!config.salt && config.salt_size > 0)
    throw argument_error("config.salt is NULL and config.salt_size is " +
                         std::to_string(config.salt_size));
  if (config.leaf_size == 0) {
    if (config.leaf_hash) throw argument_error("config.leaf_hash needs config.leaf_size");
    if (config.salt) throw argument_error("config.salt needs config.leaf_size");
    return std::nullopt;
  }
  leaf_rule rule;
  rule.block_bytes = config.leaf_size;
  // As the command line's --leaf-size: the leaves of the tree's own hash (SHA-256 under a sha256
  // tree, Keccak-256 under keccak256, SHA3-256 under sha3-256), else BLAKE3.
  rule.hash = leaf_hash_of(tree_hash);
  if (config.leaf_hash)
    rule.hash = for_field("config.leaf_hash", [&] { return parse_leaf_hash(config.leaf_hash); });
  if (config.salt) rule.prefix.assign(config.salt, config.salt + config.salt_size);
  for_field("config", [&] { check_leaf_rule(rule); });
  return rule;
}

// mix_in_length: whether the root is SSZ's list root, refused where the tree is not a list's.
bool mixes_in_length(const merklize_tree_config &config, const tree_settings &s) {
  if (!config.mix_in_length) return false;
  const tree_options tree = s.tree();
  if (tree.hash != hash_kind::sha256 || tree.shape != shape::zero)
    throw argument_error(std::string("config.mix_in_length is SSZ's list root: it needs hash "
                                     "sha256 and shape zero, not ") +
                         to_string(tree.hash) + " and " + to_string(tree.shape));
  if (s.kary())
    throw argument_error("config.mix_in_length is SSZ's list root, a binary tree: it has no use "
                         "with config.arity " +
                         std::to_string(s.spec.arity));
  // As the command line's --mix-in-length: the list's limit fixes the depth. Without it the root
  // would be that of List[Bytes32, N] for N the length given, another SSZ type than the user's.
  if (!tree.depth)
    throw argument_error("config.mix_in_length is SSZ's list root: it needs config.depth, the "
                         "depth of the list's limit (ceil(log2 LIMIT)); the natural depth would "
                         "give the root of another SSZ type");
  return true;
}

} // namespace

void check_struct_size(std::uint32_t size, std::size_t expected, const char *what) {
  if (size != expected)
    throw argument_error(std::string(what) + "->size is " + std::to_string(size) + ", not " +
                         std::to_string(expected) + " (sizeof of this merklize.h's struct): " +
                         "call its _init function first");
}

tree_settings parse_tree_config(const merklize_tree_config &config) {
  check_struct_size(config.size, sizeof config, "config");
  tree_settings s;
  s.spec = spec_of(tree_options_of(config));
  s.spec.arity = config.arity;
  check_arity(config, s);
  s.spec.leaf = leaf_rule_of(config, s.spec.node);
  if (s.spec.leaf) s.spec.leaves = leaf_source::blocks;
  s.spec.mix_in_length = mixes_in_length(config, s);
  s.length = config.length;
  s.keep = output_levels{config.keep};
  // The fields were checked one by one above, each refusal naming its field; the
  // specification's own check of how they go together is then a backstop that refuses nothing
  // more.
  for_field("config", [&] { check_tree_spec(s.spec); });
  return s;
}

void check_field_leaves(hash_kind hash, const void *leaves, std::uint64_t count,
                        const std::string &what) {
  if (!row_of(hash).non_canonical) return;
  const auto *bytes = static_cast<const std::uint8_t *>(leaves);
  digest leaf;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::memcpy(leaf.data(), bytes + i * node_bytes, node_bytes);
    const std::string why = leaf_refusal(hash, leaf, i);
    if (!why.empty())
      throw argument_error(what + ": " + why + ", which hash " + to_string(hash) +
                           " does not take");
  }
}

} // namespace merklize_capi
