// Which kernel files and build options make each program. One place to add a node hash.
#pragma once

#include "../tree.hpp"
#include "program_cache.hpp"

#include <string>
#include <vector>

namespace merklize {
namespace detail {

// The program holding the Merkle kernels (merkle.cl) for one node hash.
inline program_spec merkle_program(hash_kind hash) {
  switch (hash) {
  case hash_kind::blake3:
    return {
        {"blake3.cl", "merkle.cl"}, "-cl-std=CL1.2 -DMERKLIZE_NODE=blake3_node", "merkle-blake3"};
  case hash_kind::blake3_parent:
    return {{"blake3.cl", "merkle.cl"},
            "-cl-std=CL1.2 -DMERKLIZE_NODE=blake3_parent_node",
            "merkle-blake3-parent"};
  }
  throw error("no kernels for this hash");
}

// Every program variant the library builds: `make aot` compiles each of these ahead of time
// (tools/aot.cpp), so a new program_spec belongs in this list, with a unique name.
inline std::vector<program_spec> all_program_specs() {
  return {merkle_program(hash_kind::blake3), merkle_program(hash_kind::blake3_parent)};
}

} // namespace detail
} // namespace merklize
