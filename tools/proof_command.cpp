// merklize proof: the inclusion proof of one leaf of a file, gathered on the device, as JSON.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "sizes.hpp"

#include <merklize/merklize.hpp>
#include <merklize/proof_device.hpp>

namespace cli {
namespace {

cl::Buffer device_buffer(const merklize::merkleizer &m, cl_mem_flags flags, std::uint64_t bytes,
                         const void *host) {
  cl_int err = CL_SUCCESS;
  cl::Buffer buffer(m.context(), flags, bytes, const_cast<void *>(host), &err);
  if (err != CL_SUCCESS) throw merklize::opencl_error(err, "clCreateBuffer");
  return buffer;
}

} // namespace

int proof_command(const proof_arguments &args) {
  merklize::config cfg;
  cfg.tree = args.tree;
  const auto leaves = read_leaves(args.file, args.progress);
  const std::uint64_t leaf_count = leaves.size() / merklize::node_bytes;
  if (args.index >= leaf_count) // before any device work
    throw merklize::error("leaf index " + std::to_string(args.index) +
                          " out of range: the tree has " + std::to_string(leaf_count) + " leaves");

  merklize::merkleizer m(chosen_device(args.device), cfg);
  const std::string json = while_doing(
      "proving leaf " + std::to_string(args.index) + " of " + std::to_string(leaf_count) + " (" +
          size_text(leaves.size()) + " of leaves)",
      [&] {
        const cl::Buffer leaf_buffer =
            device_buffer(m, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, leaves.size(), leaves.data());
        const cl::Buffer nodes = device_buffer(
            m, CL_MEM_READ_WRITE,
            merklize::merkleizer::output_node_count(leaf_count) * merklize::node_bytes, nullptr);
        const auto built = m.enqueue_build(leaf_buffer, leaf_count, nodes);
        merklize::device_prover prover(m);
        return merklize::to_json(
                   prover.gather(leaf_buffer, nodes, leaf_count, {args.index}, built)[0]) +
               "\n";
      });
  if (args.output)
    write_file_replacing(*args.output, json);
  else
    write_stdout(json);
  return 0;
}

} // namespace cli
