// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize proof: the inclusion proof of one leaf of a file, as JSON. The leaves stream through the
// engine --device picks (engine.hpp): a device, where only the chunk holding the leaf comes back
// whole (merkleizer::prove(input, index)), or the host engine (host_prove). With
// --leaf-size, the leaves are hashed from the file's blocks: on the host engine, whose proof is
// then made from those leaves in memory (host_prove of leaves), or on the device, where the tree
// is built and the leaf's path gathered (block_tree_prove).
#include "cli.hpp"
#include "commands.hpp"
#include "dispatch.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "presets.hpp"
#include "proof_formats.hpp"
#include "quote.hpp"
#include "whole_tree.hpp"

#include <merklize/engine/block_tree.hpp>
#include <merklize/engine/host_blocks.hpp>
#include <merklize/engine/host_proof.hpp>
#include <merklize/merklize.hpp>
#include <merklize/proofs/ct_json.hpp>

namespace cli {

namespace {

// Multiproofs are of trees over FILE's leaves or a log's entries (merklize's JSON alone).
void check_multiproof(const proof_arguments &args, const char *refused) {
  if (args.indices.size() < 2) return;
  const std::string hint = "Try 'merklize proof --help' for the options.";
  if (refused)
    throw usage_error(std::string("-i with several indices is a multiproof, which ") + refused +
                          " has not here (FILE's leaves, --log and --format oz-standard have)",
                      hint);
  if (args.written.format != proof_format::merklize)
    throw usage_error("-i with several indices is a multiproof, which only merklize's JSON "
                      "holds (not --proof-format ct or tlog-proof)",
                      hint);
  if (args.preset.ssz_list || args.mix_in_length)
    throw usage_error("-i with several indices is a multiproof, which has no length mixed in "
                      "(--ssz-list, --mix-in-length)",
                      hint);
}

// The proof of leaf `index`, or the multiproof of -i's leaves, of a tree that keeps every level.
std::string proof_text(const proof_arguments &args, const merklize::tree &t) {
  if (args.indices.size() > 1) return merklize::to_json(merklize::prove_multi(t, args.indices));
  return inclusion_text(merklize::prove(t, args.index), args.written, t.root());
}

} // namespace

int blocks_proof(const proof_arguments &args, const tree_request &request) {
  check_multiproof(args, "--leaf-size");
  const merklize::leaf_rule &rule = *request.spec.leaf;
  const merklize::tree_options tree = merklize::tree_options_of(request.spec);
  library_input in(args.file, args.progress); // opened before the device: a bad FILE fails at once
  check_block_index_of_file(in.get(), args.index, rule);
  const bool host =
      merklize::host_engine_hashes_blocks(rule) && merklize::host_engine_supports(tree);
  const engine_pick pick =
      pick_engine(args.device, merklize::blocks_task(rule.hash, host), in.get().size(),
                  "proves --hash " + merklize::host_engine_hash_names() +
                      " trees over blocks whose size divides 1 MiB");
  merklize::inclusion_proof proof;
  if (pick.host) {
    const merklize::host_leaves leaves = merklize::host_block_leaves(in.get(), rule);
    merklize::check_block_index(in.get().name(), args.index, leaves.count, rule.block_bytes);
    proof = merklize::host_prove(leaves.digests.data(), leaves.digests.size(), tree, args.index);
  } else {
    merklize::block_hasher h(pick.device);
    proof = merklize::block_tree_prove(h, in.get(), rule, tree, args.index);
  }
  in.finish();
  write_proof(args, merklize::to_json(proof));
  return 0;
}

// --log: the audit path of entry I (RFC 9162 2.1.3), from the tree of FILE's entries' leaves: on
// the host engine where --device auto picks it or --device host asks for it, else on a device.
int log_proof(const proof_arguments &args, const tree_request &request) {
  check_multiproof(args, nullptr);
  const log_entries entries = read_log_entries(args.file, *request.spec.framing, args.progress);
  for (const std::uint64_t index : args.indices)
    if (index >= entries.spans.size())
      throw merklize::error("entry index " + std::to_string(index) + " out of range: " +
                            (args.file == "-" ? std::string("stdin") : quote(args.file)) +
                            " holds " + std::to_string(entries.spans.size()) + " entries");
  const merklize::tree_options options = merklize::tree_options_of(request.spec);
  const std::string building =
      "building the tree of " + std::to_string(entries.spans.size()) + " entries' leaves";
  if (args.indices.size() > 1) { // a multiproof, from the whole tree
    whole_tree_engine engine(args.device, options, entries.data.size(), true);
    write_proof(args, proof_text(args, engine.build(engine.log_leaves(entries), building)));
    return 0;
  }
  const engine_pick pick = pick_log_engine(args.device, entries.data.size(), options);
  if (pick.host) {
    const auto leaves = host_log_leaves(entries);
    const auto [proof, root] = while_doing(building, [&] {
      return merklize::host_prove_with_root(leaves.data(), leaves.size(), options, args.index);
    });
    write_proof(args, inclusion_text(proof, args.written, root));
    return 0;
  }
  merklize::merkleizer m(pick.device, merklize::config{options});
  const auto leaves = log_leaves(m.queue(), entries);
  const auto tree = while_doing(building, [&] { return m.build(leaves); });
  write_proof(args, proof_text(args, tree));
  return 0;
}

void check_block_index_of_file(const merklize::input &in, std::uint64_t index,
                               const merklize::leaf_rule &rule) {
  if (in.size())
    merklize::check_block_index(
        in.name(), index, merklize::block_count(*in.size(), rule.block_bytes), rule.block_bytes);
}

// A proof's text ends with one newline: JSON gets it here, a tlog-proof ends with its
// checkpoint's own.
void write_proof(const proof_arguments &args, const std::string &text) {
  const std::string line = !text.empty() && text.back() == '\n' ? text : text + "\n";
  if (args.output)
    write_file_replacing(*args.output, line);
  else
    write_stdout(line);
}

int proof_command(const proof_arguments &args) {
  const tree_request request = request_of(args);
  if (request.group == merklize::preset_group::tree) {
    if (request.row && request.row->kind == merklize::tree_kind::kary)
      check_multiproof(args, "--arity");
    check_proof_format(args.written, merklize::tree_options_of(request.spec), "proof");
  }
  return proof_runner_for(request).run(args, request);
}

namespace {

// A multiproof reads FILE whole and keeps every level of its tree, built on the engine --device
// picks.
int multiproof_of_leaves(const proof_arguments &args, const tree_request &request) {
  const auto leaves = read_leaves(args.file, args.progress);
  whole_tree_engine engine(args.device, merklize::tree_options_of(request.spec), leaves.size(),
                           false);
  write_proof(args, proof_text(args, engine.build(leaves, "building the tree of " +
                                                              std::to_string(leaves.size() /
                                                                             merklize::node_bytes) +
                                                              " leaves")));
  return 0;
}

} // namespace

// The leaves stream through the engine --device picks: only the block holding the leaf is kept
// whole.
int streamed_proof(const proof_arguments &args, const tree_request &request) {
  check_multiproof(args, nullptr);
  if (args.indices.size() > 1) return multiproof_of_leaves(args, request);
  merklize::config cfg;
  cfg.tree = merklize::tree_options_of(request.spec);
  if (args.chunk_log2) cfg.input_chunk_log2 = *args.chunk_log2;
  library_input in(args.file, args.progress); // opened first: a bad FILE fails at once
  const auto &limit = args.preset.ssz_list;
  if (limit && in.get().size()) // a file past the list's limit, before any work
    ssz_list_length(*limit, *in.get().size() / merklize::node_bytes, in.get().name());
  in.get().read_ahead(); // a stream is read while the driver starts (stream_prefetch.hpp)
  const engine_pick pick = pick_engine(args.device, cfg.tree, in.get().size());
  auto proof = within_list_limit(args.preset, in.get().name(), [&] {
    if (pick.host) return merklize::host_prove(in.get(), cfg.tree, args.index);
    merklize::merkleizer m(pick.device, cfg);
    return m.prove(in.get(), args.index);
  });
  if (limit) // SSZ's element proof: the length chunk is the last sibling
    proof =
        merklize::mix_in_length(proof, ssz_list_length(*limit, proof.leaf_count, in.get().name()));
  if (args.mix_in_length) proof = merklize::mix_in_length(proof, *args.mix_in_length);
  if (args.written.format == proof_format::tlog_proof)
    throw usage_error("--proof-format tlog-proof needs --log: the checkpoint is checked against "
                      "the log's root",
                      "Try 'merklize proof --help' for the options.");
  const std::string json = args.written.format == proof_format::ct ? merklize::to_ct_json(proof)
                                                                   : merklize::to_json(proof);
  in.finish();
  write_proof(args, json);
  return 0;
}

} // namespace cli
