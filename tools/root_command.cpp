// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root: the root of a file of leaves.
#include "cli.hpp"
#include "commands.hpp"
#include "dispatch.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "presets.hpp"
#include "quote.hpp"
#include "sizes.hpp"

#include <merklize/engine/host_tree.hpp>
#include <merklize/merklize.hpp>
#include <merklize/runtime/program_stats.hpp>

#include <cstdio>
#include <memory>
#include <vector>

namespace cli {

namespace {

// A root and the leaves it is over.
struct root_of_leaves {
  merklize::digest root;
  std::uint64_t leaves = 0;
};

// The configuration of a root's build: the tree, only its root kept.
merklize::config root_config(const merklize::tree_spec &spec) {
  merklize::config cfg;
  cfg.tree = merklize::tree_options_of(spec);
  cfg.output = merklize::output_levels::root_only();
  return cfg;
}

// Several devices (multi.hpp) build from leaves in memory: the file is read whole first.
root_of_leaves root_on_devices(const root_arguments &args, merklize::config cfg) {
  const auto leaves = read_input(args.file, args.progress);
  const auto empty = merklize::empty_tree_root(cfg.tree);
  if (leaves.empty() && empty) return {*empty, 0}; // N = 0
  check_leaves(args.file, leaves.size());
  check_field_leaves(args.file, leaves, cfg.tree.hash);
  if (args.shard_log2) cfg.shard_log2 = *args.shard_log2;
  merklize::multi_merkleizer m(merklize::select_devices(*args.devices), cfg);
  const std::uint64_t n = leaves.size() / merklize::node_bytes;
  return {while_doing("building the tree of " + std::to_string(n) + " leaves (" +
                          size_text(leaves.size()) + ")",
                      [&] { return m.build(leaves).root(); }),
          n};
}

// A tree over field elements (--hash poseidon2-*): FILE is read whole and every leaf checked to be
// canonical limbs before any is hashed (a streamed build could not take a leaf back), then built
// on one device from memory.
root_of_leaves field_root(const root_arguments &args, const merklize::config &cfg) {
  const auto leaves = read_input(args.file, args.progress);
  const auto empty = merklize::empty_tree_root(cfg.tree);
  if (leaves.empty() && empty) return {*empty, 0}; // N = 0 with --depth
  check_leaves(args.file, leaves.size());
  check_field_leaves(args.file, leaves, cfg.tree.hash);
  const engine_pick pick = pick_engine(args.device, cfg.tree, leaves.size());
  merklize::merkleizer m(pick.device, cfg);
  const std::uint64_t n = leaves.size() / merklize::node_bytes;
  return {while_doing("building the tree of " + std::to_string(n) + " leaves (" +
                          size_text(leaves.size()) + ")",
                      [&] { return m.build(leaves).root(); }),
          n};
}

// Several devices over FILE's data blocks (multi_blocks.hpp): a regular file is read by each
// device at its own offsets, a few pieces at a time; stdin or a pipe is read whole first.
merklize::digest block_root_on_devices(const root_arguments &args, merklize::config cfg,
                                       const merklize::leaf_rule &rule) {
  if (args.shard_log2) cfg.shard_log2 = *args.shard_log2;
  library_input in(args.file, args.progress); // opened before the devices: a bad FILE fails at once
  merklize::multi_block_merkleizer m(merklize::select_devices(*args.devices), cfg);
  const auto root = while_doing("building the tree of the blocks of " + in.get().name(),
                                [&] { return m.build(in.get(), rule).root(); });
  in.finish();
  return root;
}

// --shard-log2 S with --arity K: shards of 2^S leaves are subtrees of S / log2 K levels.
unsigned kary_shard_levels(const std::optional<unsigned> &shard_log2, unsigned arity) {
  if (!shard_log2) return 0;
  unsigned per_level = 0; // ceil(log2 K): the binary levels one k-ary level spans
  while ((1u << per_level) < arity)
    ++per_level;
  if (*shard_log2 % per_level != 0)
    throw usage_error("--shard-log2 " + std::to_string(*shard_log2) + " with --arity " +
                      std::to_string(arity) + ": a shard of a k-ary tree is a power of K leaves " +
                      "(S a multiple of " + std::to_string(per_level) + ")");
  return *shard_log2 / per_level;
}

// A k-ary tree over several devices (kary_multi.hpp): over FILE's leaves, or with --leaf-size its
// blocks'; a regular file is read by each device at its own offsets, stdin or a pipe whole first.
merklize::digest kary_root_over_devices(const root_arguments &args,
                                        const merklize::tree_spec &spec) {
  const merklize::kary_options options = merklize::kary_options_of(spec);
  if (args.blocks.salt && !spec.leaf) throw usage_error("--salt needs --leaf-size or --format");
  const std::optional<merklize::leaf_rule> &rule = spec.leaf;
  const merklize::multi_kary_config cfg{
      options, {}, kary_shard_levels(args.shard_log2, options.arity)};
  library_input in(args.file, args.progress); // opened before the devices: a bad FILE fails at once
  merklize::multi_kary_merkleizer m(merklize::select_devices(*args.devices), cfg);
  const auto root = while_doing("building the tree of " + in.get().name(), [&] {
    return rule ? m.build(in.get(), *rule).root() : m.build(in.get()).root();
  });
  in.finish();
  return root;
}

// The root's line: its hex, or with --json {"root":"HEX"}.
std::string root_line(const root_arguments &args, const merklize::digest &root) {
  const std::string hex = merklize::to_hex(root);
  return args.json ? "{\"root\":\"" + hex + "\"}\n" : hex + "\n";
}

// The root as printed: with --mix-in-length N, the SSZ list's root; with --ssz-list, the same
// with N the `chunks` FILE held.
std::string root_text(const root_arguments &args, const merklize::digest &root,
                      std::uint64_t chunks = 0) {
  std::optional<std::uint64_t> length = args.mix_in_length;
  if (args.preset.ssz_list)
    length = ssz_list_length(*args.preset.ssz_list, chunks,
                             args.file == "-" ? "stdin" : quote(args.file));
  return root_line(args, length ? merklize::mix_in_length(root, *length) : root);
}

// --log: FILE's entries hashed into the log's leaves, then their tree, on the host engine or a
// device (--device; auto: the one expected to finish first).
int log_root_command(const root_arguments &args, const merklize::tree_spec &spec) {
  const log_entries entries = read_log_entries(args.file, *spec.framing, args.progress);
  const merklize::config cfg = root_config(spec);
  const engine_pick pick = pick_log_engine(args.device, entries.data.size(), cfg.tree);
  const std::string building =
      "building the tree of " + std::to_string(entries.spans.size()) + " entries' leaves";
  merklize::digest root;
  if (entries.spans.empty()) {
    root = *merklize::empty_tree_root(cfg.tree);
  } else if (pick.host) {
    const auto leaves = host_log_leaves(entries);
    root = while_doing(building,
                       [&] { return merklize::host_root(leaves.data(), leaves.size(), cfg.tree); });
  } else {
    merklize::merkleizer m(pick.device, cfg);
    const auto leaves = log_leaves(m.queue(), entries);
    root = while_doing(building, [&] { return m.build(leaves).root(); });
  }
  write_stdout(root_line(args, root));
  return 0;
}

// The streamed root on the host engine (host_tree.hpp): its threads read and hash.
merklize::digest root_on_host(const root_arguments &args, const merklize::tree_options &tree,
                              library_input &in, phase_split &times) {
  // Its threads read a stream a block (1 MiB) each: no more is held ahead of them.
  in.get().read_ahead(std::uint64_t(merklize::host_engine_threads()) << 20);
  const auto root = within_list_limit(args.preset, in.get().name(),
                                      [&] { return merklize::host_root(in.get(), tree); });
  times.done("input read and hashed on " + std::to_string(merklize::host_engine_threads()) +
             " threads");
  return root;
}

// The streamed root on a device; what the device's start cost is kept for later choices.
merklize::digest root_on_device(const root_arguments &args, const merklize::config &cfg,
                                library_input &in, const engine_pick &pick, phase_split &times,
                                double discovery_ms) {
  // Left to the process's end, as the context is (merklize leaves with _Exit): freeing a large
  // tree's page-locked staging took 44 ms of the H100 machine's 1 GiB run after the root was known.
  static std::vector<std::unique_ptr<merklize::merkleizer>> kept_until_exit;
  merklize::merkleizer &m =
      *kept_until_exit.emplace_back(std::make_unique<merklize::merkleizer>(pick.device, cfg));
  const double context_ms = times.done("context and queues (merkleizer)");
  if (const std::uint64_t ahead = in.get().read_ahead_bytes())
    times.note("input read ahead while the device started: " + size_text(ahead));
  merklize::digest root;
  try {
    root = within_list_limit(args.preset, in.get().name(), [&] { return m.root(in.get()); });
  } catch (...) {
    kept_until_exit.pop_back(); // joins its program warm-up: no cache file half-written at exit
    throw;
  }
  const merklize::build_times t = m.last_times();
  const merklize::program_builds builds = merklize::program_builds_so_far();
  char line[160];
  std::snprintf(line, sizeof line,
                "input, allocations and kernels (of which programs %.1f ms; by events uploads "
                "%.1f ms, kernels %.1f ms, downloads %.1f ms)",
                builds.ms, t.upload_ms, t.kernel_ms, t.download_ms);
  times.done(line);
  times.note(program_line(m));
  record_start(pick, discovery_ms + context_ms + builds.ms);
  return root;
}

} // namespace

void check_tree_arguments(const merklize::tree_options &tree,
                          const std::optional<std::uint64_t> &mix_in_length,
                          const std::string &command) {
  const std::string hint = "Try 'merklize " + command + " --help' for the options.";
  try {
    merklize::check_tree_options(tree);
  } catch (const merklize::error &e) {
    throw usage_error(std::string("--hash ") + merklize::to_string(tree.hash) + " --pad " +
                          merklize::to_string(tree.shape) + ": " + e.what(),
                      hint);
  }
  if (tree.depth && tree.shape != merklize::shape::zero)
    throw usage_error("--depth " + std::to_string(*tree.depth) +
                          " needs --pad zero: shape promote never pads with zero leaves",
                      hint);
  if (mix_in_length && (tree.hash != merklize::hash_kind::sha256 ||
                        tree.shape != merklize::shape::zero || !tree.depth))
    throw usage_error("--mix-in-length is SSZ's list root: it needs --hash sha256 --pad zero "
                      "--depth D, D = ceil(log2 of the list's limit), else it is the root of "
                      "another SSZ type (or say --ssz-list LIMIT, which sets all four)",
                      hint);
}

int root_command(const root_arguments &args) {
  const tree_request request = request_of(args);
  return root_runner_for(request).run(args, request);
}

int log_root(const root_arguments &args, const tree_request &request) {
  return log_root_command(args, request.spec);
}

int kary_root_on_devices(const root_arguments &args, const tree_request &request) {
  write_stdout(root_text(args, kary_root_over_devices(args, request.spec)));
  return 0;
}

int blocks_root_on_devices(const root_arguments &args, const tree_request &request) {
  write_stdout(
      root_text(args, block_root_on_devices(args, root_config(request.spec), *request.spec.leaf)));
  return 0;
}

int leaves_root_on_devices(const root_arguments &args, const tree_request &request) {
  const root_of_leaves built = root_on_devices(args, root_config(request.spec));
  write_stdout(root_text(args, built.root, built.leaves));
  return 0;
}

// The streamed root: only the chunks in flight are held, on the host engine or a device.
int streamed_root(const root_arguments &args, const tree_request &request) {
  merklize::config cfg = root_config(request.spec);
  if (merklize::row_of(cfg.tree.hash).non_canonical) { // its leaves are checked first: read whole
    const root_of_leaves built = field_root(args, cfg);
    write_stdout(root_text(args, built.root, built.leaves));
    return 0;
  }
  if (args.chunk_log2) cfg.input_chunk_log2 = *args.chunk_log2;
  phase_split times;
  times.done("process start (loader, static initialisation)");
  library_input in(args.file, args.progress);
  if (args.preset.ssz_list && in.get().size()) // a file past the limit, before any work
    ssz_list_length(*args.preset.ssz_list, *in.get().size() / merklize::node_bytes,
                    in.get().name());
  in.get().read_ahead(); // a stream is read while the driver starts (stream_prefetch.hpp)
  times.done("input opened");
  const engine_pick pick = pick_engine(args.device, cfg.tree, in.get().size());
  const double discovery_ms = times.done("device discovery and engine choice");
  times.note("engine: " + pick.why);
  const auto root = pick.host ? root_on_host(args, cfg.tree, in, times)
                              : root_on_device(args, cfg, in, pick, times, discovery_ms);
  in.finish();
  write_stdout(root_text(args, root, in.bytes_read() / merklize::node_bytes));
  times.done("output written");
  times.report(args.verbose);
  return 0;
}

} // namespace cli
