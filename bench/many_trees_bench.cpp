// SPDX-License-Identifier: Apache-2.0 OR MIT
// Many small trees at once (many_trees.hpp) beside one tree over all their
// leaves (device_tree, the throughput limit) and the CPU baselines over the same leaves, in one
// run. For each shape B x n given (default 2^16 x 2^8 and 2^10 x 2^14): roots_many from host
// memory (whole call: upload, kernels, roots read back) and from a device buffer (kernels, whole
// call); device_tree over the B n leaves on the device (kernels, whole); and each CPU baseline
// (cpu_baselines.hpp: OpenSSL or BLAKE3's hash_many, on every thread) and merklize's host engine
// (host_tree.hpp: BLAKE3 in AVX lanes, SHA-256 with the SHA extensions) over the B n leaves as
// one tree (the same number of compressions as the B trees, but one). Best of ROUNDS each, after a
// warm-up. Roots of a sample of trees checked against the host reference; peak device memory by
// arithmetic. Prints a table.
//   many_trees_bench [HASH [ROUNDS [LOG2_B:LOG2_N ...]]]   (defaults blake3 5 16:8 10:14)
#include "cpu_baselines.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/host_tree.hpp>
#include <merklize/engine/many_trees.hpp>
#include <merklize/merklize.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

double mib(std::uint64_t bytes) { return double(bytes) / (1 << 20); }

struct timing {
  double whole = 1e300, kernels = 1e300;
  void keep(double w, double k) {
    whole = std::min(whole, w);
    kernels = std::min(kernels, k);
  }
};

void row(const char *what, const timing &t, std::uint64_t leaves) {
  char kernels[32] = "-";
  if (t.kernels < 1e300) std::snprintf(kernels, sizeof kernels, "%.3f", t.kernels);
  std::printf("| %s | %.3f | %s | %.0f |\n", what, t.whole, kernels,
              double(leaves) * merklize::node_bytes / t.whole / 1e3);
}

int run_shape(merklize::block_hasher &h, const merklize::config &cfg, unsigned log2_b,
              unsigned log2_n, int rounds) {
  const std::uint64_t trees = std::uint64_t(1) << log2_b, n = std::uint64_t(1) << log2_n;
  const std::uint64_t count = trees * n, bytes = count * merklize::node_bytes;
  std::vector<merklize::digest> leaves(count);
  std::mt19937_64 rng(31);
  for (auto &leaf : leaves)
    for (auto &byte : leaf)
      byte = static_cast<std::uint8_t>(rng());
  const cl::Buffer on_device = h.device_buffer(bytes, "the leaves");
  h.queue().enqueueWriteBuffer(on_device, CL_TRUE, 0, bytes, leaves.data());
  merklize::many_trees_builder many(h, cfg);
  timing from_host, from_device, one_tree;
  std::vector<merklize::digest> roots;
  for (int r = 0; r <= rounds; ++r) { // round 0 warms up (programs, buffers)
    auto at = clock_type::now();
    roots = many.roots(leaves.data(), bytes, n);
    const double host_ms = ms_since(at);
    if (r > 0) from_host.keep(host_ms, merklize::events_ms(many.last_events().kernels));
    at = clock_type::now();
    const auto device_roots = many.roots(on_device, count, n);
    const double device_ms = ms_since(at);
    if (r > 0) from_device.keep(device_ms, merklize::events_ms(many.last_events().kernels));
    if (device_roots != roots) throw merklize::error("roots from the device buffer differ");
    at = clock_type::now();
    const merklize::device_tree t(h, {on_device, count, bytes, {}}, cfg);
    const double tree_ms = ms_since(at);
    if (r > 0) one_tree.keep(tree_ms, merklize::events_ms(t.level_kernels()));
  }
  for (const std::uint64_t k : {std::uint64_t(0), trees / 2, trees - 1}) {
    const auto expected = merklize::reference_tree(leaves.data() + k * n, n * 32, cfg.tree).root();
    if (roots[k] != expected) throw merklize::error("root " + std::to_string(k) + " is wrong");
  }
  std::printf("\n2^%u trees of 2^%u leaves (%.0f MiB), %s; sample roots equal the host "
              "reference\n\n| build | whole ms | kernels ms | MB/s of leaves (whole) |\n"
              "|---|---|---|---|\n",
              log2_b, log2_n, mib(bytes), merklize::to_string(cfg.tree.hash));
  row("roots_many from host memory", from_host, count);
  row("roots_many from a device buffer", from_device, count);
  row("one device_tree over all leaves", one_tree, count);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::uint8_t> a(bytes / 2), b(bytes / 2);
  for (const bench::cpu_baseline &baseline : bench::cpu_baselines(cfg.tree.hash)) {
    timing cpu;
    for (int r = 0; r < std::max(1, rounds / 2); ++r) {
      const auto at = clock_type::now();
      bench::baseline_root(baseline, reinterpret_cast<const std::uint8_t *>(leaves.data()), count,
                           threads, a.data(), b.data());
      cpu.keep(ms_since(at), 1e300);
    }
    row((baseline.name + " on " + std::to_string(threads) + " threads, one tree").c_str(), cpu,
        count);
  }
  if (merklize::host_engine_supports(cfg.tree)) { // merklize's host engine (AVX lanes, SHA-NI)
    timing host;
    for (int r = 0; r < std::max(1, rounds / 2); ++r) {
      const auto at = clock_type::now();
      merklize::host_root(leaves.data(), bytes, cfg.tree, threads);
      host.keep(ms_since(at), 1e300);
    }
    row(("host engine on " + std::to_string(threads) + " threads, one tree").c_str(), host, count);
  }
  std::printf("\nkernels of roots_many / device_tree: %.2fx; launches %zu; device memory "
              "(arithmetic): leaves %.1f MiB, levels and the leaves' copy %.1f MiB\n",
              from_device.kernels / one_tree.kernels, many.last_events().kernels.size(), mib(bytes),
              mib(many.device_bytes()));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const std::string hash = argc > 1 ? argv[1] : "blake3";
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  std::vector<std::pair<unsigned, unsigned>> shapes;
  for (int i = 3; i < argc; ++i) {
    unsigned b = 0, n = 0;
    if (std::sscanf(argv[i], "%u:%u", &b, &n) != 2 || b + n > 32) {
      std::fprintf(stderr, "many_trees_bench: %s: give LOG2_B:LOG2_N, B N <= 2^32\n", argv[i]);
      return 2;
    }
    shapes.emplace_back(b, n);
  }
  if (shapes.empty()) shapes = {{16, 8}, {10, 14}};
  try {
    const merklize::config cfg{{merklize::parse_hash_kind(hash)}};
    merklize::block_hasher h(merklize::default_device());
    std::printf("device: %s; %s; best of %d rounds\n", merklize::device_name(h.device()).c_str(),
                hash.c_str(), rounds);
    for (const auto &[log2_b, log2_n] : shapes)
      run_shape(h, cfg, log2_b, log2_n, rounds);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "many_trees_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
