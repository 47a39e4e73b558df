// SPDX-License-Identifier: Apache-2.0 OR MIT
// The library's OpenCL C, each kernel file kept once: kernels/<name>.cl is its source as one raw
// string literal (R"merklize_cl( ... )merklize_cl", CLBlast's way), which this table includes,
// so that adding include/ to a project is all that JIT-compiling the kernels needs. A new kernel
// file is a file here and a row below; tests/test_embedded.cpp checks that no file is left out.
#pragma once

namespace merklize {
namespace detail {

struct embedded_kernel {
  const char *name;
  const char *source; // the file between its delimiters, byte for byte
};

// clang-format off
inline constexpr embedded_kernel embedded_kernels[] = {
    {"bao_outboard.cl",
#include "bao_outboard.cl"
    },
    {"blake3.cl",
#include "blake3.cl"
    },
    {"blake3_block_leaves.cl",
#include "blake3_block_leaves.cl"
    },
    {"blake3_chunks.cl",
#include "blake3_chunks.cl"
    },
    {"fr32.cl",
#include "fr32.cl"
    },
    {"kary_listed.cl",
#include "kary_listed.cl"
    },
    {"keccak.cl",
#include "keccak.cl"
    },
    {"merkle.cl",
#include "merkle.cl"
    },
    {"merkle_indexed.cl",
#include "merkle_indexed.cl"
    },
    {"merkle_lanes.cl",
#include "merkle_lanes.cl"
    },
    {"merkle_level.cl",
#include "merkle_level.cl"
    },
    {"merkle_levels.cl",
#include "merkle_levels.cl"
    },
    {"merkle_many.cl",
#include "merkle_many.cl"
    },
    {"pair_levels.cl",
#include "pair_levels.cl"
    },
    {"pair_nodes.cl",
#include "pair_nodes.cl"
    },
    {"poseidon2.cl",
#include "poseidon2.cl"
    },
    {"poseidon2_31.cl",
#include "poseidon2_31.cl"
    },
    {"poseidon2_bn254.cl",
#include "poseidon2_bn254.cl"
    },
    {"poseidon2_goldilocks.cl",
#include "poseidon2_goldilocks.cl"
    },
    {"proof.cl",
#include "proof.cl"
    },
    {"self_test.cl",
#include "self_test.cl"
    },
    {"sha256.cl",
#include "sha256.cl"
    },
    {"sha256_block_leaves.cl",
#include "sha256_block_leaves.cl"
    },
    {"sha256_entries.cl",
#include "sha256_entries.cl"
    },
    {"sha256_lanes.cl",
#include "sha256_lanes.cl"
    },
    {"sha256_layer.cl",
#include "sha256_layer.cl"
    },
    {"sorted_pairs.cl",
#include "sorted_pairs.cl"
    },
    {"sparse.cl",
#include "sparse.cl"
    },
    {"update_elect.cl",
#include "update_elect.cl"
    },
};
// clang-format on

} // namespace detail
} // namespace merklize
