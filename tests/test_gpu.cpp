// SPDX-License-Identifier: Apache-2.0 OR MIT
// Needs a GPU: the first GPU of any platform builds the same trees as the host reference, with
// the default kernels, merkle_level at each number of nodes per work-item, merkle_levels at each
// number of levels per work-item, work-groups of 256, and streamed in small chunks.
// Exits with 77 (ctest: skipped) where no GPU is present.
#include "helpers.hpp"

#include <iostream>

namespace {

// The configurations checked, each with a name for the report.
std::vector<std::pair<std::string, merklize::config>> configs(merklize::tree_options tree) {
  std::vector<std::pair<std::string, merklize::config>> all{{"defaults", merklize::config{tree}}};
  for (unsigned nodes_per_item : {1u, 2u, 4u}) {
    merklize::config cfg{tree};
    cfg.level_kernel = merklize::level_kernel_kind::level;
    cfg.nodes_per_item = nodes_per_item;
    all.emplace_back("merkle_level x" + std::to_string(nodes_per_item), cfg);
  }
  for (unsigned levels_per_item : {2u, 3u}) {
    merklize::config cfg{tree};
    cfg.level_kernel = merklize::level_kernel_kind::levels;
    cfg.levels_per_item = levels_per_item;
    all.emplace_back("merkle_levels x" + std::to_string(levels_per_item), cfg);
  }
  merklize::config wide{tree};
  wide.work_group_size = 256;
  all.emplace_back("work-groups of 256", wide);
  merklize::config streamed{tree};
  streamed.chunk_log2 = 16; // 2^20 leaves in 18 chunks, the first and last ones smaller
  all.emplace_back("chunks of 2^16", streamed);
  return all;
}

} // namespace

int main() {
  const cl::Device gpu = test::first_gpu();
  if (!gpu()) {
    std::cout << "SKIPPED: no OpenCL GPU on this machine\n";
    return 77;
  }
  std::cout << "GPU: " << merklize::device_name(gpu) << "\n";
  int failures = 0;
  for (auto pad : {merklize::shape::promote, merklize::shape::zero})
    for (auto hash : {merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent,
                      merklize::hash_kind::sha256, merklize::hash_kind::keccak256,
                      merklize::hash_kind::sha3_256}) {
      std::vector<std::pair<std::string, merklize::merkleizer>> merkleizers;
      for (const auto &[name, cfg] : configs({hash, pad}))
        merkleizers.emplace_back(name, merklize::merkleizer(gpu, cfg));
      for (std::uint64_t n : {1ull, 2ull, 3ull, 255ull, 256ull, 257ull, 1023ull, 1024ull, 1025ull,
                              (1ull << 20) - 1, 1ull << 20, (1ull << 20) + 1}) {
        const auto leaves = test::random_bytes(n * 32);
        const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
        for (auto &[name, m] : merkleizers) {
          const std::string what = std::string(merklize::to_string(hash)) + " " +
                                   merklize::to_string(pad) + " n=" + std::to_string(n) + " " +
                                   name;
          try {
            if (m.build(leaves) == expected &&
                test::device_tree(m, leaves) == test::device_nodes_of(expected))
              continue;
            std::cout << "MISMATCH " << what << "\n";
          } catch (const std::exception &e) {
            std::cout << "ERROR " << what << ": " << e.what() << "\n";
          }
          ++failures;
        }
      }
    }
  std::cout << (failures ? "FAILED" : "all GPU trees match the reference") << "\n";
  return failures ? 1 : 0;
}
