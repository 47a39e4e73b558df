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
  }
  throw error("no kernels for this hash");
}

// The program hashing whole inputs with BLAKE3 (blake3_chunks.cl), `lanes` chunks per work-item.
inline program_spec hash_program(unsigned lanes) {
  return {{"blake3.cl", "blake3_chunks.cl"},
          "-cl-std=CL1.2 -DMERKLIZE_LANES=" + std::to_string(lanes)};
}

inline cl::Program get_program(const cl::Context &context, const cl::Device &device,
                               const program_spec &spec) {
  return program_cache::instance().get(context, device, kernel_program_source(spec.files),
                                       spec.options);
}

} // namespace detail
} // namespace merklize
