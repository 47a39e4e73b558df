// SPDX-License-Identifier: Apache-2.0 OR MIT
// SHA-256 on the device against OpenSSL on one host thread, in the same run:
//   layer/<k>: the hashtree layer primitive (hash_layer) over the 2^(k-1) blocks of 2^k leaves;
//   tree/<k>:  a whole sha256 tree (shape zero, SSZ) of 2^k leaves through enqueue_build;
//   rfc6962_tree/<k>: the same leaves as an rfc6962 tree (RFC 6962's SHA-256(0x01 || l || r),
//              shape promote), whose 65-byte nodes take a second block that depends on the data:
//              its kernel time beside tree/<k>'s is the prefix's cost (x_sha256_tree);
//   rfc6962_layer/<k>: the prefixed layer primitive (hash_layer_prefixed, 0x01).
// Device times are the kernels' own, from OpenCL event profiling (UseManualTime). Each row
// reports node hashes per second in kernels (hashes/s), OpenSSL's rate on the same work and the
// ratio (x_openssl); tree rows add the rate over the span from the first kernel's start to the
// last one's end (span_hashes/s), launch gaps included. Every row checks its device result
// against OpenSSL's and fails if they differ.
//
//   sha256_bench [--log2_min=K] [--log2_max=K] [benchmark flags]
//   sha256_bench --log2_min=25 --log2_max=25 --benchmark_filter='tree'   both trees at 2^25
// Default range: 2^16 .. 2^25 leaves on a GPU, 2^16 .. 2^18 elsewhere (a CPU through PoCL).
// The device is MERKLIZE_DEVICE, else the first GPU, else the first device.

// The one-call SHA256() of OpenSSL 3 looks the algorithm up on every call, which costs more than
// hashing 64 bytes; SHA256_Init/Update/Final, deprecated but present, are its fastest path.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <merklize/merklize.hpp>

#include "cpu_baselines.hpp"
#include "flags.hpp"
#include "tree_timing.hpp"

#include <benchmark/benchmark.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

cl::Device &bench_device() {
  static cl::Device device = merklize::default_device();
  return device;
}

using bench::openssl_layer; // cpu_baselines.hpp
using bench::random_input;  // tree_timing.hpp

// The root of 2^k leaves, one layer at a time (a power of two: no lone node, either shape).
merklize::digest openssl_tree_root(const std::uint8_t *leaves, std::uint64_t leaf_count,
                                   int prefix = -1) {
  std::vector<std::uint8_t> level(leaves, leaves + leaf_count * 32);
  for (std::uint64_t size = leaf_count; size > 1; size /= 2)
    openssl_layer(level.data(), level.data(), size / 2, prefix);
  merklize::digest root;
  std::memcpy(root.data(), level.data(), 32);
  return root;
}

// What OpenSSL did on one row's work: its rate and its result, measured once per row.
struct openssl_run {
  double hashes_per_s = 0;
  std::vector<std::uint8_t> result;
};

template <class F>
const openssl_run &openssl_once(const std::string &key, std::uint64_t hashes, F f) {
  static std::map<std::string, openssl_run> runs;
  auto found = runs.find(key);
  if (found != runs.end()) return found->second;
  openssl_run run;
  const auto start = std::chrono::steady_clock::now();
  run.result = f();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  run.hashes_per_s = static_cast<double>(hashes) / took.count();
  return runs.emplace(key, std::move(run)).first->second;
}

struct device_session {
  cl::Context context = merklize::detail::shared_context(bench_device());
  cl::CommandQueue queue{context, bench_device(), CL_QUEUE_PROFILING_ENABLE};

  cl::Buffer upload(const std::uint8_t *data, std::size_t bytes) {
    cl::Buffer buffer(context, CL_MEM_READ_ONLY, bytes);
    queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, data);
    return buffer;
  }
  std::vector<std::uint8_t> download(const cl::Buffer &buffer, std::size_t offset,
                                     std::size_t bytes) {
    std::vector<std::uint8_t> host(bytes);
    queue.enqueueReadBuffer(buffer, CL_TRUE, offset, bytes, host.data());
    return host;
  }
};

void report(benchmark::State &state, std::uint64_t hashes, double kernel_s,
            const openssl_run &openssl) {
  const double rate =
      static_cast<double>(hashes) * static_cast<double>(state.iterations()) / kernel_s;
  state.counters["hashes/s"] = rate;
  state.counters["openssl_hashes/s"] = openssl.hashes_per_s;
  state.counters["x_openssl"] = rate / openssl.hashes_per_s;
}

// The layer rows: sha256_layer, or with `prefix` >= 0 sha256_layer_prefixed.
void layer_of(benchmark::State &state, int prefix) {
  const unsigned k = static_cast<unsigned>(state.range(0));
  const std::uint64_t count = std::uint64_t(1) << (k - 1); // the blocks of 2^k leaves
  const std::uint8_t *blocks = random_input(count * 64);
  device_session d;
  const cl::Buffer in = d.upload(blocks, count * 64);
  const cl::Buffer out(d.context, CL_MEM_WRITE_ONLY, count * 32);
  double kernel_s = 0;
  for (auto _ : state) {
    cl::Event done = prefix < 0 ? merklize::hash_layer(d.queue, out, in, count)
                                : merklize::hash_layer_prefixed(d.queue, out, in, count,
                                                                static_cast<std::uint8_t>(prefix));
    done.wait();
    const double s = merklize::event_ms(done) * 1e-3;
    state.SetIterationTime(s);
    kernel_s += s;
  }
  const auto &openssl =
      openssl_once("layer" + std::to_string(k) + "/" + std::to_string(prefix), count, [&] {
        std::vector<std::uint8_t> digests(count * 32);
        openssl_layer(digests.data(), blocks, count, prefix);
        return digests;
      });
  if (d.download(out, 0, count * 32) != openssl.result)
    return state.SkipWithError("device digests differ from OpenSSL's");
  report(state, count, kernel_s, openssl);
}

void layer(benchmark::State &state) { layer_of(state, -1); }
void rfc6962_layer(benchmark::State &state) { layer_of(state, merklize::rfc6962_node_prefix); }

// Kernel seconds per build of the sha256 tree of 2^k leaves, for rfc6962_tree's ratio.
std::map<unsigned, double> sha256_tree_s;

// The tree rows: sha256 of shape zero, or rfc6962 (shape promote, the same for 2^k leaves).
void tree_of(benchmark::State &state, merklize::hash_kind hash) {
  const bool rfc6962 = hash == merklize::hash_kind::rfc6962;
  const int prefix = rfc6962 ? merklize::rfc6962_node_prefix : -1;
  const unsigned k = static_cast<unsigned>(state.range(0));
  const std::uint64_t n = std::uint64_t(1) << k;
  const std::uint8_t *leaves = random_input(n * 32);
  device_session d;
  merklize::merkleizer m(d.context, bench_device(),
                         {{hash, rfc6962 ? merklize::shape::promote : merklize::shape::zero}});
  const cl::Buffer in = d.upload(leaves, n * 32);
  const std::uint64_t out_nodes = merklize::merkleizer::output_node_count(n);
  const cl::Buffer out(d.context, CL_MEM_READ_WRITE, out_nodes * 32);
  const auto [kernel_s, span_s] = bench::time_builds(state, m, in, n, out);
  const auto &openssl =
      openssl_once(std::string(merklize::to_string(hash)) + std::to_string(k), n - 1, [&] {
        const auto root = openssl_tree_root(leaves, n, prefix);
        return std::vector<std::uint8_t>(root.begin(), root.end());
      });
  if (d.download(out, (out_nodes - 1) * 32, 32) != openssl.result)
    return state.SkipWithError("device root differs from OpenSSL's");
  report(state, n - 1, kernel_s, openssl);
  state.counters["span_hashes/s"] =
      static_cast<double>(n - 1) * static_cast<double>(state.iterations()) / span_s;
  const double per_build_s = kernel_s / static_cast<double>(state.iterations());
  if (!rfc6962)
    sha256_tree_s[k] = per_build_s;
  else if (sha256_tree_s.count(k)) // after tree/<k> in the same run
    state.counters["x_sha256_tree"] = per_build_s / sha256_tree_s[k];
}

void tree(benchmark::State &state) { tree_of(state, merklize::hash_kind::sha256); }
void rfc6962_tree(benchmark::State &state) { tree_of(state, merklize::hash_kind::rfc6962); }

} // namespace

int main(int argc, char **argv) {
  try {
    const std::string name = merklize::device_name(bench_device());
    const bool gpu = merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(bench_device()) &
                     CL_DEVICE_TYPE_GPU;
    int log2_min = 16, log2_max = gpu ? 25 : 18;
    bench::take_flag(argc, argv, "log2_min", log2_min);
    bench::take_flag(argc, argv, "log2_max", log2_max);
    if (log2_min < 1 || log2_max > 40 || log2_min > log2_max) {
      std::cerr << "sha256_bench: need 1 <= --log2_min <= --log2_max <= 40\n";
      return 2;
    }
    std::cout << "device: " << name << "\n"
              << "OpenSSL: " << OpenSSL_version(OPENSSL_VERSION) << " (one thread)\n";
    benchmark::AddCustomContext("device", name);
    benchmark::AddCustomContext("openssl", OpenSSL_version(OPENSSL_VERSION));
    for (auto [label, fn] : {std::pair{"layer", layer}, std::pair{"rfc6962_layer", rfc6962_layer},
                             std::pair{"tree", tree}, std::pair{"rfc6962_tree", rfc6962_tree}})
      benchmark::RegisterBenchmark(label, fn)
          ->DenseRange(log2_min, log2_max)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "sha256_bench: " << e.what() << "\n";
    return 1;
  }
}
