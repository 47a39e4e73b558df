// merklize proof: the inclusion proof of one leaf of a file, gathered on the device, as JSON.
#include "cli.hpp"

#include <merklize/proof_device.hpp>

#include <iostream>

namespace cli {

int proof_command(int argc, char **argv) {
  const arguments args(argc, argv, 2, {"index", "hash", "pad", "depth", "device"});
  if (args.positional.size() != 1) throw usage_error("proof takes one FILE (or -)");
  if (!args.has("index")) throw usage_error("proof needs --index I, the leaf to prove");
  const std::uint64_t index = count_option(args, "index");
  merklize::config cfg;
  cfg.tree = tree_options_of(args);
  const auto leaves = read_leaves(args.positional[0]);
  const std::uint64_t leaf_count = leaves.size() / merklize::node_bytes;
  merklize::detail::check_leaf_index(index, leaf_count); // before any device work

  merklize::merkleizer m(chosen_device(args), cfg);
  const cl::Buffer leaf_buffer = merklize::detail::create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(m.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, leaves.size(),
                      const_cast<std::uint8_t *>(leaves.data()), err);
  });
  const cl::Buffer nodes = merklize::detail::create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(m.context(), CL_MEM_READ_WRITE,
                      merklize::merkleizer::output_node_count(leaf_count) * merklize::node_bytes,
                      nullptr, err);
  });
  const auto built = m.enqueue_build(leaf_buffer, leaf_count, nodes);
  merklize::device_prover prover(m);
  std::cout << merklize::to_json(prover.gather(leaf_buffer, nodes, leaf_count, {index}, built)[0])
            << "\n";
  return 0;
}

} // namespace cli
