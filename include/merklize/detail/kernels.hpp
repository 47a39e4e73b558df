// Which kernel files and build options make each program. One place to add a node hash.
#pragma once

#include "../tree.hpp"
#include "program_cache.hpp"

#include <string>
#include <vector>

namespace merklize {
namespace detail {

struct program_spec {
  std::vector<std::string> files; // kernels/*.cl, concatenated in this order
  std::string options;
};

// The program holding the Merkle kernels (merkle.cl) for one node hash and work-group size.
// lanes > 1 adds the kernel that hashes that many nodes per work-item in vector lanes
// (merkle_lanes.cl), which only the BLAKE3 node hashes have (lanes_supported()).
inline program_spec merkle_program(hash_kind hash, std::size_t work_group_size,
                                   unsigned lanes = 1) {
  const std::string node = hash == hash_kind::blake3 ? "blake3_node" : "blake3_parent_node";
  program_spec spec{{"blake3.cl", "merkle.cl"},
                    "-cl-std=CL1.2 -DMERKLIZE_NODE=" + node +
                        " -DMERKLIZE_WG=" + std::to_string(work_group_size)};
  if (lanes > 1) {
    spec.files.push_back("merkle_lanes.cl");
    spec.options +=
        " -DMERKLIZE_LANES=" + std::to_string(lanes) + " -DMERKLIZE_NODE_FLAGS=" + node + "_flags";
  }
  return spec;
}

inline bool lanes_supported(hash_kind hash) {
  return hash == hash_kind::blake3 || hash == hash_kind::blake3_parent;
}

inline cl::Program get_program(const cl::Context &context, const cl::Device &device,
                               const program_spec &spec) {
  return program_cache::instance().get(context, device, kernel_program_source(spec.files),
                                       spec.options);
}

} // namespace detail
} // namespace merklize
