// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_user_calls: the library's host-memory builds timed as a program calls them, by the
// host's clock around the whole call (allocation, pinning, copies, kernels, transfers and the
// returned tree's release), not by OpenCL events.
//
//   build/bench/merklize_user_calls [--runs=R] [--device=SPEC] LOG2...
//
// For each size 2^LOG2 of random leaves in a std::vector: build(std::vector) keeping every node,
// then keeping the root only (config::output = root_only), each the first call on a fresh
// merkleizer and the median of R more; then the process's peak resident memory so far. The
// leaves' own bytes are printed beside it: a build that keeps every node needs twice those.
// Last, the floor of a build from pageable memory: the leaves copied into page-locked memory.
#include <merklize/merklize.hpp>

#include <merklize/pipeline/stream_memory.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace {

struct options {
  unsigned runs = 5;
  std::vector<unsigned> sizes;
};

options parse(int argc, char **argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--runs=", 0) == 0)
      o.runs = static_cast<unsigned>(std::stoul(a.substr(7)));
    else if (a.rfind("--device=", 0) == 0)
      ::setenv("MERKLIZE_DEVICE", a.c_str() + 9, 1);
    else
      o.sizes.push_back(static_cast<unsigned>(std::stoul(a)));
  }
  if (o.sizes.empty() || o.runs == 0)
    throw std::runtime_error("usage: merklize_user_calls [--runs=R] [--device=SPEC] LOG2...");
  return o;
}

std::vector<std::uint8_t> random_leaves(std::uint64_t n) {
  std::vector<std::uint8_t> leaves(n * merklize::node_bytes);
  std::mt19937_64 random(n);
  for (std::size_t i = 0; i + 8 <= leaves.size(); i += 8) {
    const std::uint64_t word = random();
    std::copy_n(reinterpret_cast<const std::uint8_t *>(&word), 8, leaves.data() + i);
  }
  return leaves;
}

double peak_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

// One call's milliseconds, the returned tree released inside the timing.
double time_call(merklize::merkleizer &m, const std::vector<std::uint8_t> &leaves,
                 merklize::digest &root) {
  const auto start = std::chrono::steady_clock::now();
  {
    const merklize::tree t = m.build(leaves);
    root = t.root();
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void time_output(const char *what, unsigned log2, merklize::output_levels out,
                 const std::vector<std::uint8_t> &leaves, unsigned runs) {
  merklize::config cfg;
  cfg.output = out;
  merklize::merkleizer m(merklize::default_device(), cfg);
  merklize::digest root{};
  const double first = time_call(m, leaves, root);
  std::vector<double> times;
  for (unsigned r = 0; r < runs; ++r)
    times.push_back(time_call(m, leaves, root));
  std::sort(times.begin(), times.end());
  std::printf("| 2^%u | %s | %.2f | %.2f | %.2f | %.0f | %s |\n", log2, what, first,
              times[times.size() / 2], times.front(), peak_mib(),
              merklize::to_hex(root).substr(0, 16).c_str());
}

// The floor of a build from pageable leaves: the device reads page-locked memory only, so the
// leaves cross host memory once, copied by the library's threads (detail::parallel_copy).
void time_copy_floor(unsigned log2, const std::vector<std::uint8_t> &leaves) {
  merklize::merkleizer m(merklize::default_device());
  merklize::host_buffer pinned = m.allocate_host(leaves.size());
  std::vector<double> times;
  for (int r = 0; r < 5; ++r) {
    const auto start = std::chrono::steady_clock::now();
    merklize::detail::parallel_copy(pinned.data(), leaves.data(), leaves.size());
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  std::printf("| 2^%u | (copy of the leaves into page-locked memory, %u threads) | - | %.2f | %.2f "
              "| %.0f | - |\n",
              log2, merklize::detail::host_threads(), times[2], times[0], peak_mib());
}

} // namespace

int main(int argc, char **argv) {
  try {
    const options o = parse(argc, argv);
    std::printf("build(std::vector) on %s, whole call by the host's clock, %u runs after the "
                "first\n\n",
                merklize::device_name(merklize::default_device()).c_str(), o.runs);
    std::printf("| leaves | kept | first call ms | median ms | best ms | peak RSS MiB so far | "
                "root (first 8 bytes) |\n|---|---|---|---|---|---|---|\n");
    for (unsigned log2 : o.sizes) {
      const auto leaves = random_leaves(std::uint64_t(1) << log2);
      time_output("every node", log2, merklize::output_levels::all_nodes(), leaves, o.runs);
      time_output("root only", log2, merklize::output_levels::root_only(), leaves, o.runs);
      time_copy_floor(log2, leaves);
    }
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "merklize_user_calls: %s\n", e.what());
    return 1;
  }
}
