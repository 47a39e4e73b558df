// merklize root: the root of a file of leaves.
#include "cli.hpp"

#include <iostream>

namespace cli {

int root_command(int argc, char **argv) {
  const arguments args(argc, argv, 2, {"hash", "pad", "depth", "device", "devices", "shard-log2"},
                       {verbose_flag});
  if (args.positional.size() != 1) throw usage_error("root takes one FILE (or -)");
  if (args.has("devices") && (args.has("device") || args.has(verbose_flag)))
    throw usage_error("--devices goes without --device and --verbose");
  if (args.has("shard-log2") && !args.has("devices"))
    throw usage_error("--shard-log2 goes with --devices");
  merklize::config cfg;
  cfg.tree = tree_options_of(args);
  const auto leaves = read_leaves(args.positional[0]);
  if (args.has("devices")) { // the tree spread over several devices (multi.hpp)
    cfg.output = merklize::output_levels::root_only();
    if (args.has("shard-log2"))
      cfg.shard_log2 =
          static_cast<unsigned>(std::min<std::uint64_t>(64, count_option(args, "shard-log2")));
    merklize::multi_merkleizer m(merklize::select_devices(args.get("devices", "")), cfg);
    std::cout << merklize::to_hex(m.build(leaves).root()) << "\n";
    return 0;
  }
  merklize::merkleizer m(chosen_device(args), cfg);
  std::cout << merklize::to_hex(m.build(leaves).root()) << "\n";
  report_program(args, m);
  return 0;
}

} // namespace cli
