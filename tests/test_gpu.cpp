// Needs a GPU: the first GPU of any platform builds the same trees as the host reference, with
// the default kernels and with merkle_level at each number of nodes per work-item.
// Exits with 77 (ctest: skipped) where no GPU is present.
#include "helpers.hpp"

#include <iostream>

namespace {

// The configurations checked: the defaults, then merkle_level for the one-level launches.
std::vector<merklize::config> configs(merklize::tree_options tree) {
  std::vector<merklize::config> all{merklize::config{tree}};
  for (unsigned nodes_per_item : {1u, 2u, 4u}) {
    merklize::config cfg{tree};
    cfg.level_kernel = merklize::level_kernel_kind::level;
    cfg.nodes_per_item = nodes_per_item;
    all.push_back(cfg);
  }
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
                      merklize::hash_kind::sha256}) {
      std::vector<merklize::merkleizer> merkleizers;
      for (const auto &cfg : configs({hash, pad}))
        merkleizers.emplace_back(gpu, cfg);
      for (std::uint64_t n : {1ull, 2ull, 3ull, 255ull, 256ull, 257ull, (1ull << 20) - 1,
                              1ull << 20, (1ull << 20) + 1}) {
        const auto leaves = test::random_bytes(n * 32);
        const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
        for (auto &m : merkleizers) {
          const auto &cfg = m.configuration();
          if (m.build(leaves) == expected &&
              test::device_tree(m, leaves) == test::device_nodes_of(expected))
            continue;
          ++failures;
          std::cout << "MISMATCH " << merklize::to_string(hash) << " " << merklize::to_string(pad)
                    << " n=" << n << " level kernel "
                    << (cfg.level_kernel == merklize::level_kernel_kind::level ? "level"
                                                                               : "subtree")
                    << " nodes/item " << cfg.nodes_per_item << "\n";
        }
      }
    }
  std::cout << (failures ? "FAILED" : "all GPU trees match the reference") << "\n";
  return failures ? 1 : 0;
}
