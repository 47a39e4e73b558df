// merklize root: the root of a file of leaves.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "sizes.hpp"

#include <merklize/merklize.hpp>

namespace cli {

int root_command(const root_arguments &args) {
  merklize::config cfg;
  cfg.tree = args.tree;
  const auto leaves = read_leaves(args.file, args.progress);
  const std::string building = "building the tree of " +
                               std::to_string(leaves.size() / merklize::node_bytes) + " leaves (" +
                               size_text(leaves.size()) + ")";
  if (args.devices) { // the tree spread over several devices (multi.hpp)
    cfg.output = merklize::output_levels::root_only();
    if (args.shard_log2) cfg.shard_log2 = *args.shard_log2;
    merklize::multi_merkleizer m(merklize::select_devices(*args.devices), cfg);
    const auto root = while_doing(building, [&] { return m.build(leaves).root(); });
    write_stdout(merklize::to_hex(root) + "\n");
    return 0;
  }
  merklize::merkleizer m(chosen_device(args.device), cfg);
  const auto root = while_doing(building, [&] { return m.build(leaves).root(); });
  write_stdout(merklize::to_hex(root) + "\n");
  report_program(args.verbose, m);
  return 0;
}

} // namespace cli
