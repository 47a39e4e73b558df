// merklize root: the root of a file of leaves.
#include "cli.hpp"

#include <iostream>

namespace cli {

int root_command(int argc, char **argv) {
  const arguments args(argc, argv, 2, {"hash", "pad", "device"}, {verbose_flag});
  if (args.positional.size() != 1) throw usage_error("root takes one FILE (or -)");
  merklize::config cfg;
  cfg.tree = tree_options_of(args);
  const auto leaves = read_input(args.positional[0]);
  try {
    merklize::leaf_count_of(leaves.size());
  } catch (const merklize::error &e) {
    throw merklize::error((args.positional[0] == "-" ? "stdin" : args.positional[0]) + ": " +
                          e.what());
  }
  merklize::merkleizer m(chosen_device(args), cfg);
  std::cout << merklize::to_hex(m.build(leaves).root()) << "\n";
  report_program(args, m);
  return 0;
}

} // namespace cli
