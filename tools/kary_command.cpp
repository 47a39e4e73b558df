// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize proof --arity K and merklize verify of a k-ary proof: over FILE's leaves on the host
// engine where --device auto picks it or --device host asks for it (host_groups.hpp: only the
// proven leaf's subtree kept), else the tree built and kept on the device (device_tree.hpp: only
// the proof's groups of children read back) where they fit (kary_fits_on_device), else streamed
// through it (kary_stream.hpp: only its chunks' tops and the proven leaf's chunk come back); with
// --leaf-size over the leaves hashed from its blocks by either engine (host_blocks.hpp where the
// block size divides 1 MiB); printed as JSON (kary_proof_encoding.hpp); verified on the host.
#include "cli.hpp"
#include "commands.hpp"
#include "dispatch.hpp"
#include "engine.hpp"
#include "input.hpp"
#include "output.hpp"

#include <merklize/engine/block_tree.hpp>
#include <merklize/engine/device_tree.hpp>
#include <merklize/engine/host_blocks.hpp>
#include <merklize/engine/host_groups.hpp>
#include <merklize/engine/kary_stream.hpp>
#include <merklize/proofs/kary_proof_encoding.hpp>
#include <merklize/proofs/kary_verify.hpp>

namespace cli {
namespace {

merklize::digest digest_argument(const char *name, const std::string &hex) {
  try {
    return merklize::digest_from_hex(hex);
  } catch (const merklize::error &e) {
    throw merklize::error(std::string(name) + ": " + e.what());
  }
}

// A file's leaf count is known from its size: a bad index is refused before the device is asked
// anything (a pipe's once its leaves are read, before the tree is built).
void check_index_of_file(merklize::input &in, std::uint64_t index,
                         const std::optional<merklize::leaf_rule> &rule) {
  if (rule) return check_block_index_of_file(in, index, *rule);
  if (!in.size()) return;
  std::uint64_t leaves = 0;
  try {
    leaves = merklize::leaf_count_of(*in.size());
  } catch (const merklize::error &e) {
    throw merklize::error(in.name() + ": " + e.what());
  }
  merklize::check_kary_index(index, leaves);
}

// The proof over FILE's leaves as given, kept on the device where they fit (device_tree.hpp) and
// else streamed through it (kary_stream.hpp), or with `rule` over its blocks' leaves, kept.
merklize::kary_proof proof_on_device(merklize::block_hasher &h, merklize::input &in,
                                     const std::optional<merklize::leaf_rule> &rule,
                                     const merklize::kary_options &options, std::uint64_t index) {
  if (!rule && !merklize::kary_fits_on_device(h, in, options))
    return merklize::kary_prove(h, in, options, index);
  merklize::device_leaves leaves = rule ? h.leaves_of(in, *rule) : h.leaves_as_given(in);
  if (rule)
    merklize::check_block_index(in.name(), index, leaves.count, rule->block_bytes);
  else
    merklize::check_kary_index(index, leaves.count);
  // The leaves' buffer goes once the tree is built: the tree holds its own copy.
  const merklize::device_tree tree(h, std::move(leaves), options);
  return tree.prove(index);
}

} // namespace

int kary_proof(const proof_arguments &args, const tree_request &request) {
  const merklize::kary_options options = merklize::kary_options_of(request.spec);
  const std::optional<merklize::leaf_rule> &rule = request.spec.leaf; // --leaf-size: FILE's blocks
  library_input in(args.file, args.progress); // opened before the device: a bad FILE fails at once
  check_index_of_file(in.get(), args.index, rule);
  const merklize::engine_task task =
      merklize::blocks_task(rule ? rule->hash : merklize::row_of(options.hash).leaf,
                            !rule || merklize::host_engine_hashes_blocks(*rule));
  const engine_pick pick =
      pick_engine(args.device, task, in.get().size(), "hashes blocks whose size divides 1 MiB");
  merklize::kary_proof proof;
  if (pick.host && rule) {
    const merklize::host_leaves leaves = merklize::host_block_leaves(in.get(), *rule);
    merklize::check_block_index(in.get().name(), args.index, leaves.count, rule->block_bytes);
    proof = merklize::host_prove(leaves.digests.data(), leaves.count, options, args.index);
  } else if (pick.host) {
    proof = merklize::host_prove(in.get(), options, args.index);
  } else {
    merklize::block_hasher h(pick.device);
    proof = proof_on_device(h, in.get(), rule, options, args.index);
  }
  in.finish();
  write_proof(args, merklize::to_json(proof));
  return 0;
}

int kary_verify_command(const verify_arguments &args, const std::string &text) {
  const merklize::kary_proof proof = merklize::kary_proof_from_json(text);
  const auto leaf = digest_argument("LEAFHEX", args.leaf);
  const auto root = digest_argument("ROOTHEX", args.root);
  const merklize::verification result = merklize::verify(proof, leaf, root, args.expect);
  if (!result) throw merklize::error("invalid proof: " + result.reason);
  write_stdout("valid: leaf " + std::to_string(proof.index) + " of " +
               std::to_string(proof.leaf_count) + " (" + merklize::to_string(proof.options.hash) +
               ", " + merklize::to_string(proof.options.shape) + ", arity " +
               std::to_string(proof.options.arity) + ")\n");
  return 0;
}

} // namespace cli
