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

// The program holding the Merkle kernels (merkle.cl) for one node hash.
inline program_spec merkle_program(hash_kind hash) {
  switch (hash) {
  case hash_kind::blake3:
    return {{"blake3.cl", "merkle.cl"}, "-cl-std=CL1.2 -DMERKLIZE_NODE=blake3_node"};
  case hash_kind::blake3_parent:
    return {{"blake3.cl", "merkle.cl"}, "-cl-std=CL1.2 -DMERKLIZE_NODE=blake3_parent_node"};
  case hash_kind::sha256:
    return {{"sha256.cl", "merkle.cl"}, "-cl-std=CL1.2 -DMERKLIZE_NODE=sha256_node"};
  }
  throw error("no kernels for this hash");
}

// The program holding the SHA-256 layer kernel (sha256_layer) of layer.hpp.
inline program_spec sha256_layer_program() { return {{"sha256.cl"}, "-cl-std=CL1.2"}; }

inline cl::Program get_program(const cl::Context &context, const cl::Device &device,
                               const program_spec &spec) {
  return program_cache::instance().get(context, device, kernel_program_source(spec.files),
                                       spec.options);
}

} // namespace detail
} // namespace merklize
