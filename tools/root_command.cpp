// merklize root: the root of a file of leaves.
#include "cli.hpp"

#include <iostream>

namespace cli {

int root_command(int argc, char **argv) {
  const arguments args(argc, argv, 2, {"hash", "pad", "depth", "device"}, {verbose_flag});
  if (args.positional.size() != 1) throw usage_error("root takes one FILE (or -)");
  merklize::config cfg;
  cfg.tree = tree_options_of(args);
  const auto leaves = read_leaves(args.positional[0]);
  merklize::merkleizer m(chosen_device(args), cfg);
  std::cout << merklize::to_hex(m.build(leaves).root()) << "\n";
  report_program(args, m);
  return 0;
}

} // namespace cli
