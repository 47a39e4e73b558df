// Needs a GPU: the first GPU of any platform builds the same trees as the host reference.
// Exits with 77 (ctest: skipped) where no GPU is present.
#include "helpers.hpp"

#include <iostream>

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
      merklize::merkleizer m(gpu, {{hash, pad}});
      for (std::uint64_t n : {1ull, 2ull, 3ull, 255ull, 256ull, 257ull, (1ull << 20) - 1,
                              1ull << 20, (1ull << 20) + 1}) {
        const auto leaves = test::random_bytes(n * 32);
        const bool ok =
            m.build(leaves) == merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
        if (!ok) {
          ++failures;
          std::cout << "MISMATCH " << merklize::to_string(hash) << " " << merklize::to_string(pad)
                    << " n=" << n << "\n";
        }
      }
    }
  std::cout << (failures ? "FAILED" : "all GPU trees match the reference") << "\n";
  return failures ? 1 : 0;
}
