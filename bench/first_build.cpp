// SPDX-License-Identifier: Apache-2.0 OR MIT
// The first call in a process: the first merkleizer::build(std::vector) of 2^LOG2 leaves
// (default 25, 1 GiB) against the next ones, in one process, each by the host's clock, the
// merkleizer made before the first (its context and queues) timed apart; every root checked
// against the first; then the allocation of fresh page-locked memory of a build's size, and the
// programs' loads, the parts of the first build the later ones do not pay. Prints a table.
//   first_build [LOG2 [BUILDS]]      (MERKLIZE_DEVICE picks the device)
#include <merklize/merklize.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25;
  const int builds = argc > 2 ? std::atoi(argv[2]) : 4;
  std::vector<std::uint8_t> leaves(merklize::node_bytes << log2);
  std::mt19937_64 rng(29);
  for (std::size_t i = 0; i < leaves.size(); i += 8) {
    const std::uint64_t word = rng();
    std::memcpy(leaves.data() + i, &word, 8);
  }
  try {
    auto start = std::chrono::steady_clock::now();
    merklize::merkleizer m;
    const double made = ms_since(start);
    std::printf("| call | 2^%u leaves, ms |\n|---|---|\n| merkleizer (device, context) | %.1f |\n",
                log2, made);
    merklize::digest first{};
    for (int b = 0; b < builds; ++b) {
      start = std::chrono::steady_clock::now();
      const merklize::digest root = m.build(leaves).root();
      const double ms = ms_since(start);
      if (b == 0) first = root;
      if (root != first) {
        std::fprintf(stderr, "build %d: root differs from the first\n", b + 1);
        return 1;
      }
      std::printf("| build %d | %.1f |\n", b + 1, ms);
    }
    // Where the first build's excess goes: page-locked memory of its size (the leaves' level and
    // the nodes, as the pool gave the first build), allocated fresh now, and the programs.
    start = std::chrono::steady_clock::now();
    {
      const merklize::host_buffer level0 = m.allocate_host(leaves.size());
      const merklize::tree nodes = m.allocate_tree(leaves.size() / merklize::node_bytes);
    }
    std::printf("| page-locked memory of a build's size, fresh (not part of a build) | %.1f |\n",
                ms_since(start));
    const merklize::program_builds programs = merklize::program_builds_so_far();
    std::printf("\ndevice: %s; programs built: %zu in %.1f ms; root %s\n",
                merklize::device_name(m.device()).c_str(), programs.count, programs.ms,
                merklize::to_hex(first).c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "first_build: %s\n", e.what());
    return 1;
  }
  return 0;
}
