// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root --leaf-size L / --format F: trees over a file's data blocks, its leaves hashed on
// the device (block_tree.hpp): a binary tree of any hash and shape, or dm-verity's, fs-verity's
// or Bao's tree, with their files written where asked.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "output.hpp"
#include "quote.hpp"

#include <merklize/block_tree.hpp>
#include <merklize/kary_device.hpp>

#include <functional>
#include <string_view>

namespace cli {
namespace {

// What the command will do once the input is open: the line it prints.
using block_job = std::function<std::string(merklize::block_hasher &, merklize::input &)>;

// A mistake in the options of `merklize command`.
[[noreturn]] void refuse(const std::string &message, const std::string &command = "root") {
  throw usage_error(message, "Try 'merklize " + command + " --help' for the options.");
}

// A library error about the options (a block size, a salt, a hash name) is a mistake in the
// command line.
template <class F> auto options_checked(F &&check, const std::string &command = "root") {
  try {
    return check();
  } catch (const merklize::error &e) {
    refuse(e.what(), command);
  }
}

std::vector<std::uint8_t> salt_of(const std::optional<std::string> &hex,
                                  const std::string &command = "root") {
  if (!hex || *hex == "-") return {};
  try {
    return merklize::from_hex(*hex);
  } catch (const merklize::error &e) {
    refuse(std::string("--salt: ") + e.what(), command);
  }
}

// The options a format has no use for are refused, naming them.
void refuse_unused(const block_arguments &args, const std::string &format) {
  const std::pair<const char *, bool> owned[] = {
      {"--data-block-size", args.data_block_size && format != "dm-verity"},
      {"--hash-block-size", args.hash_block_size && format != "dm-verity"},
      {"--hash-output", args.hash_output && format != "dm-verity"},
      {"--block-size", args.block_size && format != "fs-verity"},
      {"--tree-output", args.tree_output && format != "fs-verity"},
      {"--outboard", args.outboard && format != "bao-outboard"},
      {"--salt", args.salt && format == "bao-outboard"},
  };
  for (const auto &[option, unused] : owned)
    if (unused) refuse(std::string(option) + " has no use with --format " + format);
}

void write_bytes(const std::optional<std::string> &path, const std::vector<std::uint8_t> &bytes) {
  if (path)
    write_file_replacing(
        *path, std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

block_job dm_verity_job(const block_arguments &b) {
  merklize::dm_verity_options options;
  options.data_block_bytes = b.data_block_size.value_or(4096);
  options.hash_block_bytes = b.hash_block_size.value_or(4096);
  options.salt = salt_of(b.salt);
  options_checked([&] { merklize::check_dm_verity(options); });
  return [options, b](merklize::block_hasher &h, merklize::input &in) {
    const auto tree = merklize::dm_verity_tree(h, in, options, b.hash_output.has_value());
    write_bytes(b.hash_output, tree.levels);
    return merklize::to_hex(tree.root);
  };
}

block_job fs_verity_job(const block_arguments &b) {
  merklize::fs_verity_options options;
  options.block_bytes = b.block_size.value_or(4096);
  options.salt = salt_of(b.salt);
  options_checked([&] { merklize::check_fs_verity(options); });
  return [options, b](merklize::block_hasher &h, merklize::input &in) {
    const auto result = merklize::fs_verity_tree(h, in, options, b.tree_output.has_value());
    write_bytes(b.tree_output, result.tree.levels);
    return merklize::fs_verity_digest_text(result.file_digest);
  };
}

block_job format_job(const block_arguments &b) {
  const std::string &format = *b.format;
  if (format != "dm-verity" && format != "fs-verity" && format != "bao-outboard")
    refuse("--format: unknown format " + quote(format, 64) +
           " (known: dm-verity, fs-verity, bao-outboard)");
  refuse_unused(b, format);
  if (format == "dm-verity") return dm_verity_job(b);
  if (format == "fs-verity") return fs_verity_job(b);
  return [b](merklize::block_hasher &h, merklize::input &in) {
    const auto outboard = merklize::bao_outboard_of(h, in);
    write_bytes(b.outboard, outboard.bytes);
    return merklize::to_hex(outboard.root);
  };
}

// --leaf-size L: the tree of --hash, --pad and --depth over the blocks' leaves.
block_job leaf_size_job(const root_arguments &args) {
  return [rule = leaf_rule_of(args), tree = args.tree](merklize::block_hasher &h,
                                                       merklize::input &in) {
    return merklize::to_hex(merklize::block_tree_root(h, in, rule, tree));
  };
}

// --arity K: the k-ary tree over FILE's leaves, or with --leaf-size over its blocks' leaves.
block_job kary_job(const root_arguments &args) {
  const merklize::kary_options options = kary_options_of(*args.blocks.arity, args.tree, "root");
  if (!args.blocks.leaf_size) {
    if (args.blocks.salt) refuse("--salt needs --leaf-size or --format");
    return [options](merklize::block_hasher &h, merklize::input &in) {
      return merklize::to_hex(
          merklize::kary_tree_on_device(h, h.leaves_as_given(in), options).root);
    };
  }
  return [rule = leaf_rule_of(args), options](merklize::block_hasher &h, merklize::input &in) {
    return merklize::to_hex(merklize::kary_tree_on_device(h, h.leaves_of(in, rule), options).root);
  };
}

} // namespace

merklize::leaf_rule leaf_rule_of(const leaf_block_arguments &blocks, merklize::hash_kind tree_hash,
                                 const std::string &command) {
  merklize::leaf_rule rule;
  rule.block_bytes = *blocks.leaf_size;
  rule.hash = tree_hash == merklize::hash_kind::sha256 ? merklize::leaf_hash::sha256
                                                       : merklize::leaf_hash::blake3;
  if (blocks.leaf_hash)
    rule.hash =
        options_checked([&] { return merklize::parse_leaf_hash(*blocks.leaf_hash); }, command);
  rule.prefix = salt_of(blocks.salt, command);
  options_checked([&] { merklize::check_leaf_rule(rule); }, command);
  return rule;
}

merklize::kary_options kary_options_of(std::uint64_t arity, const merklize::tree_options &tree,
                                       const std::string &command) {
  if (tree.depth) throw usage_error("--depth has no use with --arity");
  const merklize::kary_options options{
      tree.hash, static_cast<unsigned>(std::min<std::uint64_t>(arity, 1u << 30)), tree.pad};
  options_checked([&] { merklize::check_kary(options); }, command);
  return options;
}

int block_root_command(const root_arguments &args) {
  if (!args.blocks.format && !args.blocks.arity && !args.blocks.leaf_size)
    refuse("--salt needs --leaf-size or --format");
  const block_job job = args.blocks.format  ? format_job(args.blocks)
                        : args.blocks.arity ? kary_job(args)
                                            : leaf_size_job(args);
  library_input in(args.file, args.progress); // opened before the device: a bad FILE fails at once
  merklize::block_hasher h(chosen_device(args.device));
  const std::string line = job(h, in.get());
  in.finish();
  write_stdout(line + "\n");
  return 0;
}

} // namespace cli
