// SPDX-License-Identifier: Apache-2.0 OR MIT
// Issue 29's "first call in a process": the first merkleizer::build(std::vector) of 2^LOG2 leaves
// (default 25, 1 GiB) against the next ones, in one process, each by the host's clock, the
// merkleizer made before the first (its context and queues) timed apart; every root checked
// against the first. Each build's row splits it: the tree's memory (ordinary memory through the
// staging ring while the pool has no page-locked buffers, then the pool's pinned ones, which it
// pins on a thread after the second build of a size), the time before the streaming starts (the
// tree's memory, the program's load), and the device's profiled sums of uploads, kernels and
// downloads. One more build follows a pause long enough for the pool's pinning. Then the
// allocation of fresh page-locked memory of a build's size (what the pool pins off the builds'
// path) and of the staging ring's (what the first build pins), and the programs' loads.
//   first_build [LOG2 [BUILDS [PAUSE_MS [stream]]]]      (MERKLIZE_DEVICE picks the device)
// `stream` turns off a CPU device's zero copy, so that PoCL streams as a GPU does.
#include <merklize/merklize.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25;
  const int builds = argc > 2 ? std::atoi(argv[2]) : 4;
  const int pause_ms = argc > 3 ? std::atoi(argv[3]) : 3000;
  std::vector<std::uint8_t> leaves(merklize::node_bytes << log2);
  std::mt19937_64 rng(29);
  for (std::size_t i = 0; i < leaves.size(); i += 8) {
    const std::uint64_t word = rng();
    std::memcpy(leaves.data() + i, &word, 8);
  }
  try {
    auto start = std::chrono::steady_clock::now();
    merklize::config cfg;
    cfg.zero_copy = !(argc > 4 && std::string(argv[4]) == "stream");
    merklize::merkleizer m(cfg);
    const double made = ms_since(start);
    std::printf("merkleizer (device, context): %.1f ms\n\n", made);
    std::printf("| 2^%u leaves | ms | tree memory | before streaming, ms | uploads | kernels | "
                "downloads | chunks |\n|---|---|---|---|---|---|---|---|\n",
                log2);
    merklize::digest first{};
    for (int b = 0; b <= builds; ++b) {
      const bool paused = b == builds;
      if (paused) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
      start = std::chrono::steady_clock::now();
      const merklize::tree t = m.build(leaves);
      const double ms = ms_since(start);
      const merklize::digest root = t.root();
      if (b == 0) first = root;
      if (root != first) {
        std::fprintf(stderr, "build %d: root differs from the first\n", b + 1);
        return 1;
      }
      const merklize::build_times times = m.last_times();
      const bool pinned = merklize::is_page_locked(m.context(), t.level_data(0), t.leaves_size());
      std::printf("| build %d%s | %.1f | %s | %.1f | %.1f | %.1f | %.1f | %zu |\n", b + 1,
                  paused ? " (after the pause)" : "", ms, pinned ? "pool, pinned" : "ordinary",
                  ms - times.wall_ms, times.upload_ms, times.kernel_ms, times.download_ms,
                  times.chunks);
    }
    // What a first build would pay to pin its tree (the leaves' level and the nodes) and what it
    // pins instead (the staging ring), allocated fresh now; and the programs' loads.
    start = std::chrono::steady_clock::now();
    {
      const merklize::host_buffer level0 = m.allocate_host(leaves.size());
      const merklize::tree nodes = m.allocate_tree(leaves.size() / merklize::node_bytes);
    }
    std::printf("\npage-locked memory of a build's size, fresh (the pool's, off the builds' path): "
                "%.1f ms\n",
                ms_since(start));
    // Three chunks of 2^17 leaves each way (merkleizer::ring_plan_for), about.
    start = std::chrono::steady_clock::now();
    { const merklize::host_buffer ring = m.allocate_host(std::size_t(24) << 20); }
    std::printf("page-locked memory of 24 MiB, fresh (about the first build's staging ring): "
                "%.1f ms\n",
                ms_since(start));
    const merklize::program_builds programs = merklize::program_builds_so_far();
    std::printf("device: %s; programs built: %zu in %.1f ms; root %s\n",
                merklize::device_name(m.device()).c_str(), programs.count, programs.ms,
                merklize::to_hex(first).c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "first_build: %s\n", e.what());
    return 1;
  }
  return 0;
}
