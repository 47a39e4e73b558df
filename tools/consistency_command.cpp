// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize consistency: the consistency proof (RFC 9162 2.1.4) that the tree of a file's first M
// leaves is a prefix of the tree of all of them, as JSON. The leaves are read whole and the tree
// is built on the device; the proof's nodes are read from it on the host.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "quote.hpp"
#include "sizes.hpp"

#include <merklize/merklize.hpp>

namespace cli {

int consistency_command(const consistency_arguments &args) {
  const merklize::tree_options options{args.hash};
  if (auto reason = merklize::why_no_consistency_proofs(options)) throw usage_error(*reason);
  const auto leaves = read_input(args.file, args.progress);
  if (leaves.size() % merklize::node_bytes != 0 ||
      (leaves.empty() && !merklize::empty_tree_root(options)))
    check_leaves(args.file, leaves.size());
  const std::uint64_t n = leaves.size() / merklize::node_bytes;
  if (args.old_size > n)
    throw merklize::error("--old-size " + std::to_string(args.old_size) + " is more than " +
                          (args.file == "-" ? "stdin" : quote(args.file)) + "'s " +
                          std::to_string(n) + " leaves");
  merklize::consistency_proof proof{options, args.old_size, n, {}};
  if (args.old_size != 0 && args.old_size != n) { // else the proof is empty: no tree needed
    merklize::merkleizer m(chosen_device(args.device), merklize::config{options});
    const auto t = while_doing("building the tree of " + std::to_string(n) + " leaves (" +
                                   size_text(leaves.size()) + ")",
                               [&] { return m.build(leaves); });
    proof = merklize::prove_consistency(t, args.old_size);
  }
  const std::string json = merklize::to_json(proof) + "\n";
  if (args.output)
    write_file_replacing(*args.output, json);
  else
    write_stdout(json);
  return 0;
}

} // namespace cli
