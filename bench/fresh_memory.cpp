// SPDX-License-Identifier: Apache-2.0 OR MIT
// The first build of a process: the floor that fresh host memory sets under it, no OpenCL. A first
// build(std::vector) of 2^LOG2 leaves returns a tree holding the leaves and every level
// (2 x 2^LOG2 x 32 bytes) that the process has never touched; whatever the upload path, those
// pages are faulted in and written once. Timed by the host's clock, on THREADS threads (default
// every core), each in a fresh mapping: the pages faulted in by writing zeros (4 KiB pages, then
// with MADV_HUGEPAGE), and the leaves copied into fresh memory as a build copies them into its
// tree. Then the same writes into memory already touched: what a later build pays.
//   fresh_memory [LOG2 [THREADS]]
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// `bytes` of fresh anonymous memory, with transparent huge pages asked for or not.
std::uint8_t *fresh(std::size_t bytes, bool huge) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("fresh_memory: mmap");
    std::exit(1);
  }
  if (huge) madvise(p, bytes, MADV_HUGEPAGE);
  return static_cast<std::uint8_t *>(p);
}

// Runs part(first, bytes) over `bytes` split evenly across `threads` threads; milliseconds.
template <class Part> double on_threads(std::size_t bytes, unsigned threads, const Part &part) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  const std::size_t share = (bytes / threads + 4095) / 4096 * 4096;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t first = std::min(bytes, t * share);
    pool.emplace_back([&, first] { part(first, std::min(share, bytes - first)); });
  }
  for (std::thread &t : pool)
    t.join();
  return ms_since(start);
}

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25;
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2]))
                                    : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t leaves = std::size_t(32) << log2, tree = 2 * leaves;
  std::vector<std::uint8_t> source(leaves, 7); // the caller's leaves, touched
  std::printf("| 2^%u leaves, %u threads | ms |\n|---|---|\n", log2, threads);
  for (bool huge : {false, true}) {
    std::uint8_t *to = fresh(tree, huge);
    const double ms = on_threads(
        tree, threads, [&](std::size_t at, std::size_t n) { std::memset(to + at, 0, n); });
    std::printf("| fault in the tree's %zu MiB, %s pages | %.1f |\n", tree >> 20,
                huge ? "huge" : "4 KiB", ms);
    const double again = on_threads(
        tree, threads, [&](std::size_t at, std::size_t n) { std::memset(to + at, 1, n); });
    std::printf("| write them again (touched) | %.1f |\n", again);
    munmap(to, tree);
    to = fresh(leaves, huge);
    const double copy = on_threads(leaves, threads, [&](std::size_t at, std::size_t n) {
      std::memcpy(to + at, source.data() + at, n);
    });
    const double copy_again = on_threads(leaves, threads, [&](std::size_t at, std::size_t n) {
      std::memcpy(to + at, source.data() + at, n);
    });
    std::printf("| copy the leaves into fresh memory, %s pages | %.1f |\n| the same copy again "
                "(touched) | %.1f |\n",
                huge ? "huge" : "4 KiB", copy, copy_again);
    munmap(to, leaves);
  }
  return 0;
}
