// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize consistency: the consistency proof (RFC 9162 2.1.4) that the tree of a file's first M
// leaves is a prefix of the tree of all of them, as JSON, and both trees' heads (size and root),
// so that the old head needs no second run on a cut file. The leaves (with --log, the leaves of
// the file's entries) are read whole and the tree is built on the engine --device picks
// (whole_tree.hpp); the proof's nodes and the old root are read from it.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "presets.hpp"
#include "proof_formats.hpp"
#include "quote.hpp"
#include "sizes.hpp"
#include "whole_tree.hpp"

#include <merklize/merklize.hpp>
#include <merklize/proofs/subtree_proofs.hpp>

namespace cli {
namespace {

// "old tree head: 2 leaves, root e360..." (or "no root", for a tree of no leaves that has none).
std::string head_line(const char *which, std::uint64_t size,
                      const std::optional<merklize::digest> &root) {
  return std::string(which) + " tree head: " + std::to_string(size) + " leaves, " +
         (root ? "root " + merklize::to_hex(*root) : "no root") + "\n";
}

} // namespace

int consistency_command(const consistency_arguments &args) {
  check_preset(args.preset, "consistency");
  const merklize::tree_options options =
      args.preset.log ? preset_tree(args.preset, {}) : merklize::tree_options{args.hash};
  if (auto reason = merklize::why_no_consistency_proofs(options)) throw usage_error(*reason);
  if (args.format == proof_format::tlog_proof) consistency_text({}, args.format); // refused
  check_proof_format({args.format, {}}, options, "consistency");
  // FILE is read before the device is opened: a bad FILE fails at once.
  std::optional<log_entries> entries; // --log: the leaves are its entries'
  std::vector<std::uint8_t> leaves;
  if (args.preset.log)
    entries = read_log_entries(args.file, *args.preset.entries, args.progress);
  else
    leaves = read_input(args.file, args.progress);
  whole_tree_engine engine(args.device, options, entries ? entries->data.size() : leaves.size(),
                           entries.has_value());
  if (entries) leaves = engine.log_leaves(*entries);
  if (leaves.size() % merklize::node_bytes != 0 ||
      (leaves.empty() && !merklize::empty_tree_root(options)))
    check_leaves(args.file, leaves.size());
  const std::uint64_t n = leaves.size() / merklize::node_bytes;
  if (args.old_size > n)
    throw merklize::error("--old-size " + std::to_string(args.old_size) + " is more than " +
                          (args.file == "-" ? "stdin" : quote(args.file)) + "'s " +
                          std::to_string(n) + (entries ? " entries" : " leaves"));
  merklize::consistency_proof proof{options, args.old_size, n, {}};
  std::optional<merklize::digest> old_root, new_root = merklize::empty_tree_root(options);
  if (args.old_size == 0) old_root = merklize::empty_tree_root(options);
  if (n != 0) {
    const auto t = engine.build(leaves, "building the tree of " + std::to_string(n) + " leaves (" +
                                            size_text(leaves.size()) + ")");
    proof = merklize::prove_consistency(t, args.old_size);
    new_root = t.root();
    // MTH(D[0:M]) (RFC 9162 2.1.1) from the tree's nodes: every part of it is an aligned subtree.
    const auto node = [&](unsigned level, std::uint64_t index) { return t.node(level, index); };
    if (args.old_size != 0)
      old_root = merklize::subtree_root(node, {0, args.old_size}, options.hash);
  }
  const std::string json = consistency_text(proof, args.format) + "\n";
  write_stdout(head_line("old", args.old_size, old_root) + head_line("new", n, new_root));
  if (args.output)
    write_file_replacing(*args.output, json);
  else
    write_stdout(json);
  return 0;
}

} // namespace cli
