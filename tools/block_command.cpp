// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root --leaf-size L / --format F: trees over a file's data blocks, its leaves hashed on
// the device (block_tree.hpp): a binary tree of any hash and shape, or dm-verity's, fs-verity's
// or Bao's tree, with their files written where asked.
#include "cli.hpp"
#include "commands.hpp"
#include "dispatch.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "output.hpp"
#include "presets.hpp"
#include "quote.hpp"

#include <merklize/engine/block_tree.hpp>
#include <merklize/engine/device_tree.hpp>
#include <merklize/engine/host_bao.hpp>
#include <merklize/engine/host_blocks.hpp>
#include <merklize/engine/host_groups.hpp>
#include <merklize/engine/kary_stream.hpp>
#include <merklize/runtime/program_stats.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string_view>

#include <sys/random.h>

namespace cli {
namespace {

// What the command will do once the input is open, on a device or on the host engine: what it
// prints, its last line break aside. `task` is what --device auto weighs; `on_host` is empty
// where the host engine cannot do it (`host_refusal` says why, for --device host).
using device_work = std::function<std::string(merklize::block_hasher &, library_input &)>;
using host_work = std::function<std::string(library_input &)>;
struct block_job {
  device_work on_device;
  host_work on_host;
  merklize::engine_task task;
  std::string host_refusal;
};

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

// The options the format's row does not take are refused, naming them.
void refuse_unused(const block_arguments &args, const merklize::preset_row &row) {
  cli::refuse_unused(row,
                     {
                         {"--data-block-size", args.data_block_size.has_value()},
                         {"--hash-block-size", args.hash_block_size.has_value()},
                         {"--hash-output", args.hash_output.has_value()},
                         {"--no-superblock", args.no_superblock},
                         {"--uuid", args.uuid.has_value()},
                         {"--block-size", args.block_size.has_value()},
                         {"--tree-output", args.tree_output.has_value()},
                         {"--outboard", args.outboard.has_value()},
                         {"--salt", args.salt.has_value()},
                         {"--display-order", args.commitment.display_order},
                         {"--cid", args.commitment.cid},
                         {"--dump", args.commitment.dump.has_value()},
                         {"--no-sort-leaves", args.commitment.no_sort_leaves},
                     },
                     "root");
  if (args.uuid && args.no_superblock)
    refuse("--uuid has no use with --no-superblock: the UUID is the superblock's");
}

void write_bytes(const std::optional<std::string> &path, const std::vector<std::uint8_t> &bytes) {
  if (path)
    write_file_replacing(
        *path, std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

// `count` bytes from the system's random source (getrandom), as veritysetup takes its salt.
std::vector<std::uint8_t> random_bytes(std::size_t count) {
  std::vector<std::uint8_t> bytes(count);
  for (std::size_t got = 0; got < count;) {
    const ssize_t n = ::getrandom(bytes.data() + got, count - got, 0);
    if (n < 0 && errno != EINTR)
      throw merklize::error(std::string("cannot read random bytes: ") + std::strerror(errno));
    got += n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  return bytes;
}

// A random UUID, as veritysetup gives a superblock without --uuid.
merklize::uuid_bytes fresh_uuid() {
  const auto bytes = random_bytes(16);
  merklize::uuid_bytes random;
  std::copy(bytes.begin(), bytes.end(), random.begin());
  return merklize::random_uuid(random);
}

// What veritysetup format prints of a hash device it wrote: the superblock's fields, the salt and
// the root, "UUID:" empty without a superblock and "Salt:" "-" without a salt.
std::string veritysetup_report(const block_arguments &b, const merklize::dm_verity_options &o,
                               const std::optional<merklize::uuid_bytes> &uuid,
                               std::uint64_t data_blocks, const merklize::digest &root) {
  std::uint64_t hash_blocks = 0;
  for (const std::uint64_t blocks :
       merklize::dm_verity_level_blocks(o, data_blocks * o.data_block_bytes))
    hash_blocks += blocks;
  const std::uint64_t device_bytes =
      (uuid ? merklize::dm_verity_tree_offset(o) : 0) + hash_blocks * o.hash_block_bytes;
  const auto line = [](const char *field, const std::string &value) {
    return std::string(field) + "\t" + value + "\n";
  };
  return (b.hash_output ? "VERITY header information for " + *b.hash_output + "\n" : "") +
         line("UUID:            ", uuid ? merklize::uuid_text(*uuid) : "") +
         line("Hash type:       ", "1") + line("Data blocks:     ", std::to_string(data_blocks)) +
         line("Data block size: ", std::to_string(o.data_block_bytes)) +
         line("Hash blocks:     ", std::to_string(hash_blocks)) +
         line("Hash block size: ", std::to_string(o.hash_block_bytes)) +
         line("Hash algorithm:  ", "sha256") +
         line("Salt:            ",
              o.salt.empty() ? "-" : merklize::to_hex(o.salt.data(), o.salt.size())) +
         line("Root hash:      ", merklize::to_hex(root)) + "Hash device size: \t" +
         std::to_string(device_bytes) + " [bytes]";
}

// The hash device as veritysetup format writes it: the superblock (where there is one) and the
// zeros after it up to the tree's offset, then the tree.
std::vector<std::uint8_t> hash_device(const merklize::dm_verity_options &options,
                                      const std::optional<merklize::uuid_bytes> &uuid,
                                      std::uint64_t data_blocks,
                                      const std::vector<std::uint8_t> &tree) {
  if (!uuid) return tree;
  std::vector<std::uint8_t> device(merklize::dm_verity_tree_offset(options), 0);
  const auto sb = merklize::dm_verity_superblock_of(options, data_blocks, *uuid);
  std::copy(sb.begin(), sb.end(), device.begin());
  device.insert(device.end(), tree.begin(), tree.end());
  return device;
}

// veritysetup format's defaults: a superblock (unless --no-superblock) with a random UUID (unless
// --uuid), a random 32-byte salt (unless --salt; --salt - is none), blocks of 4096 bytes.
block_job dm_verity_job(const block_arguments &b) {
  merklize::dm_verity_options options;
  options.data_block_bytes = b.data_block_size.value_or(4096);
  options.hash_block_bytes = b.hash_block_size.value_or(4096);
  options.salt = b.salt ? salt_of(b.salt) : random_bytes(32);
  options_checked([&] { merklize::check_dm_verity(options); });
  std::optional<merklize::uuid_bytes> uuid;
  if (!b.no_superblock)
    uuid = b.uuid ? options_checked([&] { return merklize::parse_uuid(*b.uuid); }) : fresh_uuid();
  const auto report = [options, uuid, b](library_input &in, const merklize::verity_tree &tree) {
    const std::uint64_t data_blocks = in.bytes_read() / options.data_block_bytes;
    write_bytes(b.hash_output, hash_device(options, uuid, data_blocks, tree.levels));
    return veritysetup_report(b, options, uuid, data_blocks, tree.root);
  };
  const bool keep = b.hash_output.has_value();
  return {
      [=](merklize::block_hasher &h, library_input &in) {
        return report(in, merklize::dm_verity_tree(h, in.get(), options, keep));
      },
      [=](library_input &in) {
        return report(in, merklize::host_dm_verity_tree(in.get(), options, keep));
      },
      merklize::blocks_task(merklize::leaf_hash::sha256, merklize::host_engine_supports(options)),
      "hashes data blocks whose size divides 1 MiB"};
}

// fsverity digest's line: the digest, then the file's name as given ("-" for stdin).
block_job fs_verity_job(const block_arguments &b, const std::string &file) {
  merklize::fs_verity_options options;
  options.block_bytes = b.block_size.value_or(4096);
  options.salt = salt_of(b.salt);
  options_checked([&] { merklize::check_fs_verity(options); });
  const auto line = [b, file](const merklize::fs_verity_result &result) {
    write_bytes(b.tree_output, result.tree.levels);
    return merklize::fs_verity_digest_text(result.file_digest) + " " + file;
  };
  const bool keep = b.tree_output.has_value();
  return {
      [=](merklize::block_hasher &h, library_input &in) {
        return line(merklize::fs_verity_tree(h, in.get(), options, keep));
      },
      [=](library_input &in) {
        return line(merklize::host_fs_verity_tree(in.get(), options, keep));
      },
      merklize::blocks_task(merklize::leaf_hash::sha256, merklize::host_engine_supports(options)),
      "hashes blocks whose size divides 1 MiB"};
}

block_job bao_outboard_job(const block_arguments &b) {
  const auto line = [b](const merklize::bao_outboard &outboard) {
    write_bytes(b.outboard, outboard.bytes);
    return merklize::to_hex(outboard.root);
  };
  return {[=](merklize::block_hasher &h, library_input &in) {
            return line(merklize::bao_outboard_of(h, in.get()));
          },
          [=](library_input &in) { return line(merklize::host_bao_outboard(in.get())); },
          merklize::blake3_input_task(), ""};
}

// --format F of preset_group::data (dispatch.cpp's table gives the others other runners).
block_job format_job(const block_arguments &b, const merklize::preset_row &row,
                     const std::string &file) {
  refuse_unused(b, row);
  switch (row.kind) {
  case merklize::tree_kind::dm_verity:
    return dm_verity_job(b);
  case merklize::tree_kind::fs_verity:
    return fs_verity_job(b, file);
  case merklize::tree_kind::bao_outboard:
    return bao_outboard_job(b);
  default:
    throw merklize::error(std::string("--format ") + row.name + " is not a tree of data blocks");
  }
}

// --leaf-size L: the tree of --hash, --pad and --depth over the blocks' leaves.
block_job leaf_size_job(const merklize::tree_spec &spec) {
  const merklize::leaf_rule rule = *spec.leaf;
  const merklize::tree_options tree = merklize::tree_options_of(spec);
  const bool host =
      merklize::host_engine_hashes_blocks(rule) && merklize::host_engine_supports(tree);
  return {[=](merklize::block_hasher &h, library_input &in) {
            return merklize::to_hex(merklize::block_tree_root(h, in.get(), rule, tree));
          },
          [=](library_input &in) {
            return merklize::to_hex(merklize::host_block_tree_root(in.get(), rule, tree));
          },
          merklize::blocks_task(rule.hash, host),
          "builds --hash " + merklize::host_engine_hash_names() +
              " trees over blocks whose size divides 1 MiB"};
}

// --arity K: the k-ary tree over FILE's leaves (on the host engine; on a device kept there where
// they fit, else streamed through it: kary_stream.hpp), or with --leaf-size over its blocks'
// leaves (on the host engine where it hashes the blocks, else kept on the device).
block_job kary_job(const root_arguments &args, const merklize::tree_spec &spec) {
  const merklize::kary_options options = merklize::kary_options_of(spec);
  const merklize::leaf_hash group_hash = merklize::row_of(options.hash).leaf;
  if (!spec.leaf) {
    if (args.blocks.salt) refuse("--salt needs --leaf-size or --format");
    return {[options](merklize::block_hasher &h, library_input &in) {
              if (!merklize::kary_fits_on_device(h, in.get(), options)) // streamed: bounded memory
                return merklize::to_hex(merklize::kary_root(h, in.get(), options));
              return merklize::to_hex(
                  merklize::kary_tree_on_device(h, h.leaves_as_given(in.get()), options).root);
            },
            [options](library_input &in) {
              return merklize::to_hex(
                  merklize::host_group_root(in.get(), merklize::group_rule_of(options)));
            },
            merklize::blocks_task(group_hash, true), ""};
  }
  const merklize::leaf_rule rule = *spec.leaf;
  return {[rule, options](merklize::block_hasher &h, library_input &in) {
            return merklize::to_hex(
                merklize::kary_tree_on_device(h, h.leaves_of(in.get(), rule), options).root);
          },
          [rule, options](library_input &in) {
            const merklize::host_leaves leaves = merklize::host_block_leaves(in.get(), rule);
            if (leaves.count == 0)
              throw merklize::error(in.get().name() +
                                    " is empty: a tree needs at least one data block");
            return merklize::to_hex(merklize::host_group_root(leaves.digests.data(), leaves.count,
                                                              merklize::group_rule_of(options)));
          },
          merklize::blocks_task(rule.hash, merklize::host_engine_hashes_blocks(rule)),
          "hashes blocks whose size divides 1 MiB"};
}

// Runs `job` over FILE on the engine pick_engine chooses and prints what it returns; what a
// device's start cost is kept for later choices.
int run_block_job(const root_arguments &args, const block_job &job) {
  phase_split times;
  library_input in(args.file, args.progress); // opened before the device: a bad FILE fails at once
  merklize::engine_task task = job.task;
  task.host_can_run = task.host_can_run && job.on_host;
  const engine_pick pick = pick_engine(args.device, task, in.get().size(), job.host_refusal);
  const double discovery_ms = times.done("device discovery and engine choice");
  times.note("engine: " + pick.why);
  std::string line;
  if (pick.host) {
    line = job.on_host(in);
    times.done("input read and hashed on " + std::to_string(merklize::host_engine_threads()) +
               " threads");
  } else {
    merklize::block_hasher h(pick.device);
    const double context_ms = times.done("context and queues");
    line = job.on_device(h, in);
    times.done("input read and hashed on the device");
    record_start(pick, discovery_ms + context_ms + merklize::program_builds_so_far().ms);
  }
  in.finish();
  // --json is refused with --format: a line here is a root's hex.
  write_stdout(args.json ? "{\"root\":\"" + line + "\"}\n" : line + "\n");
  times.report(args.verbose);
  return 0;
}

} // namespace

merklize::leaf_rule leaf_rule_of(const leaf_block_arguments &blocks, merklize::hash_kind tree_hash,
                                 const std::string &command) {
  merklize::leaf_rule rule;
  rule.block_bytes = *blocks.leaf_size;
  rule.hash = options_checked([&] { return merklize::leaf_hash_of(tree_hash); }, command);
  if (blocks.leaf_hash)
    rule.hash =
        options_checked([&] { return merklize::parse_leaf_hash(*blocks.leaf_hash); }, command);
  rule.prefix = salt_of(blocks.salt, command);
  if (blocks.leaf_domain)
    rule = options_checked([&] { return merklize::separated_leaves(rule); }, command);
  options_checked([&] { merklize::check_leaf_rule(rule); }, command);
  return rule;
}

merklize::kary_options kary_options_of(std::uint64_t arity, const merklize::tree_options &tree,
                                       const std::string &command) {
  if (tree.depth) throw usage_error("--depth has no use with --arity");
  const merklize::kary_options options{
      tree.hash, static_cast<unsigned>(std::min<std::uint64_t>(arity, 1u << 30)), tree.shape};
  options_checked([&] { merklize::check_kary(options); }, command);
  return options;
}

int data_format_root(const root_arguments &args, const tree_request &request) {
  return run_block_job(args, format_job(args.blocks, *request.row, args.file));
}

int kary_root(const root_arguments &args, const tree_request &request) {
  return run_block_job(args, kary_job(args, request.spec));
}

int blocks_root(const root_arguments &args, const tree_request &request) {
  return run_block_job(args, leaf_size_job(request.spec));
}

} // namespace cli
