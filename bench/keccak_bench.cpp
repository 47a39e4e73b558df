// SPDX-License-Identifier: Apache-2.0 OR MIT
// Keccak on the device against its own bound, in one run:
//   permutations/<k>:  keccak.cl's permutation-only kernel, 2^k work-items each permuting a state
//                      of its own --perm_count times in registers (no memory traffic at all): the
//                      rate of Keccak-f[1600] on this device, the bound of every Keccak tree;
//   keccak256/<k>:     the keccak256 tree of 2^k leaves through enqueue_build (kernels), shape
//                      promote (2^k leaves: every shape agrees);
//   sha3_256/<k>:      the same as a sha3-256 tree.
// Device times are the kernels' own, from OpenCL event profiling (UseManualTime). The permutation
// rows report permutations per second (perms/s); the tree rows node hashes per second (hashes/s,
// one permutation each) and their share of the permutation rate of the same run (x_perms: at 0.90
// or more the tree runs at the permutation's rate). Every tree row checks its root against the host
// reference (keccak.hpp, on every host thread) and every permutation row a sample of its work-items
// against the host permutation, and fails if they differ. Build options from the environment's
// MERKLIZE_KERNEL_OPTIONS reach every program here, the permutation kernel's too, so
// bench/keccak_run.sh times kernel variants with it.
//   keccak_bench [--log2_min=K] [--log2_max=K] [--perm_log2=K] [--perm_count=C] [benchmark flags]
//   keccak_bench --build_log=OPTIONS   keccak.cl's program as the device's tuning row (or
//                                      MERKLIZE_KERNEL_OPTIONS) has it, OPTIONS appended (e.g.
//                                      -cl-nv-verbose): its build log, its binary in keccak.bin
//                                      (PTX on NVIDIA, for bench/sass.sh)
// Default: trees of 2^20 .. 2^25 leaves on a GPU (2^12 .. 2^16 elsewhere, a CPU through PoCL),
// 2^20 work-items (2^12) of 32 permutations each. The device is MERKLIZE_DEVICE, else the first
// GPU, else the first device.
#include <merklize/merklize.hpp>

#include "flags.hpp"
#include "tree_timing.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

cl::Device &bench_device() {
  static cl::Device device = merklize::default_device();
  return device;
}

int perm_log2 = 20, perm_count = 32;
double perms_per_s = 0; // the last permutations row's rate, for the trees' share
// One line per tree row, printed after the table: the share of the permutation rate,
// in plain numbers (the table's counters print 0.93 as "930m"). Keyed by row: the library runs a
// row's function more than once, finding its iteration count, and the last run is the row's.
std::map<std::pair<merklize::hash_kind, unsigned>, std::string> summary;

// The root of `count` (a power of two) leaves on the host, each level's nodes shared out over
// the host's threads.
merklize::digest host_root(merklize::hash_kind hash, const std::uint8_t *leaves,
                           std::uint64_t count) {
  std::vector<merklize::digest> level(count);
  std::memcpy(level.data(), leaves, count * merklize::node_bytes);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  while (level.size() > 1) {
    std::vector<merklize::digest> up(level.size() / 2);
    const std::size_t per = (up.size() + threads - 1) / threads;
    std::vector<std::thread> workers;
    for (std::size_t first = 0; first < up.size(); first += per)
      workers.emplace_back([&, first] {
        for (std::size_t i = first; i < std::min(up.size(), first + per); ++i)
          up[i] = merklize::node_hash(hash, level[2 * i], level[2 * i + 1], false);
      });
    for (auto &w : workers)
      w.join();
    level.swap(up);
  }
  return level.front();
}

void permutations(benchmark::State &state) {
  const std::uint64_t items = std::uint64_t(1) << state.range(0);
  const cl::Context context = merklize::detail::shared_context(bench_device());
  const cl::CommandQueue queue(context, bench_device(), CL_QUEUE_PROFILING_ENABLE);
  const cl::Program program =
      merklize::detail::tuned_program(context, bench_device(), merklize::detail::keccak_program());
  cl::Kernel kernel(program, "keccak_permutations");
  const cl::Buffer out(context, CL_MEM_WRITE_ONLY, items * 8);
  kernel.setArg(0, out);
  kernel.setArg(1, cl_uint(perm_count));
  const std::size_t local = static_cast<std::size_t>(std::min<std::uint64_t>(
      {128, items, merklize::detail::work_group_limit(kernel, bench_device())}));
  double kernel_s = 0;
  for (auto _ : state) {
    cl::Event done;
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(local),
                               nullptr, &done);
    done.wait();
    const double s = merklize::event_ms(done) * 1e-3;
    state.SetIterationTime(s);
    kernel_s += s;
  }
  std::vector<std::uint64_t> folds(items);
  queue.enqueueReadBuffer(out, CL_TRUE, 0, items * 8, folds.data());
  for (const std::uint64_t i : {std::uint64_t(0), items / 2, items - 1}) {
    merklize::keccak::state a;
    for (std::size_t k = 0; k < a.size(); ++k)
      a[k] = i * 0x9E3779B97F4A7C15u + k;
    for (int n = 0; n < perm_count; ++n)
      merklize::keccak::permute(a);
    std::uint64_t fold = 0;
    for (const std::uint64_t lane : a)
      fold ^= lane;
    if (fold != folds[i]) return state.SkipWithError("device permutations differ from the host's");
  }
  perms_per_s =
      static_cast<double>(items) * perm_count * static_cast<double>(state.iterations()) / kernel_s;
  state.counters["perms/s"] = perms_per_s;
  state.SetLabel(std::to_string(perm_count) + " permutations a work-item");
}

void tree_of(benchmark::State &state, merklize::hash_kind hash) {
  const unsigned k = static_cast<unsigned>(state.range(0));
  const std::uint64_t n = std::uint64_t(1) << k;
  const std::uint8_t *leaves = bench::random_input(n * merklize::node_bytes);
  const cl::Context context = merklize::detail::shared_context(bench_device());
  const cl::CommandQueue queue(context, bench_device(), CL_QUEUE_PROFILING_ENABLE);
  merklize::merkleizer m(context, bench_device(), merklize::config{{hash}});
  const cl::Buffer in(context, CL_MEM_READ_ONLY, n * merklize::node_bytes);
  queue.enqueueWriteBuffer(in, CL_TRUE, 0, n * merklize::node_bytes, leaves);
  const std::uint64_t out_nodes = merklize::merkleizer::output_node_count(n);
  const cl::Buffer out(context, CL_MEM_READ_WRITE, out_nodes * merklize::node_bytes);
  const auto [kernel_s, span_s] = bench::time_builds(state, m, in, n, out);
  merklize::digest root;
  queue.enqueueReadBuffer(out, CL_TRUE, (out_nodes - 1) * merklize::node_bytes, root.size(),
                          root.data());
  static std::map<std::pair<merklize::hash_kind, unsigned>, merklize::digest> expected;
  const auto key = std::make_pair(hash, k);
  if (!expected.count(key)) expected[key] = host_root(hash, leaves, n);
  if (root != expected[key]) return state.SkipWithError("device root differs from the host's");
  const double rate = static_cast<double>(n - 1) * static_cast<double>(state.iterations());
  state.counters["hashes/s"] = rate / kernel_s;
  state.counters["span_hashes/s"] = rate / span_s;
  if (perms_per_s > 0) state.counters["x_perms"] = rate / kernel_s / perms_per_s;
  state.SetLabel(merklize::to_string(hash));
  char line[200];
  std::snprintf(line, sizeof line,
                "ratio %s 2^%u: %.3f ms kernels, %.3f G hashes/s, %.3f of the permutation rate "
                "(%.3f G/s)",
                merklize::to_string(hash), k,
                kernel_s * 1e3 / static_cast<double>(state.iterations()), rate / kernel_s * 1e-9,
                perms_per_s > 0 ? rate / kernel_s / perms_per_s : 0.0, perms_per_s * 1e-9);
  summary[key] = line;
}

int write_build_log(const std::string &extra) {
  const auto spec = merklize::detail::tuned_spec(
      merklize::detail::keccak_program(),
      merklize::tuning_for(merklize::read_device_facts(bench_device())));
  const cl::Context context = merklize::detail::shared_context(bench_device());
  const cl::Program program = merklize::detail::build_program(
      context, bench_device(), merklize::detail::kernel_program_source(spec.files),
      spec.options + " " + extra);
  std::cout << "build log of keccak.cl (" << spec.options << " " << extra << "):\n"
            << merklize::detail::build_logs(program, context);
  const auto binary = merklize::detail::program_binary(program, bench_device());
  std::ofstream("keccak.bin", std::ios::binary)
      .write(reinterpret_cast<const char *>(binary.data()),
             static_cast<std::streamsize>(binary.size()));
  return 0;
}

void keccak256(benchmark::State &state) { tree_of(state, merklize::hash_kind::keccak256); }
void sha3_256(benchmark::State &state) { tree_of(state, merklize::hash_kind::sha3_256); }

} // namespace

int main(int argc, char **argv) {
  try {
    const std::string name = merklize::device_name(bench_device());
    const bool gpu = merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(bench_device()) &
                     CL_DEVICE_TYPE_GPU;
    int log2_min = gpu ? 20 : 12, log2_max = gpu ? 25 : 16;
    perm_log2 = gpu ? 20 : 12;
    bench::take_flag(argc, argv, "log2_min", log2_min);
    bench::take_flag(argc, argv, "log2_max", log2_max);
    bench::take_flag(argc, argv, "perm_log2", perm_log2);
    bench::take_flag(argc, argv, "perm_count", perm_count);
    std::string build_log;
    if (bench::take_flag(argc, argv, "build_log", build_log)) return write_build_log(build_log);
    if (log2_min < 1 || log2_max > 32 || log2_min > log2_max || perm_log2 < 0 || perm_log2 > 30 ||
        perm_count < 1) {
      std::cerr << "keccak_bench: need 1 <= --log2_min <= --log2_max <= 32, 0 <= --perm_log2 <= "
                   "30 and --perm_count >= 1\n";
      return 2;
    }
    const char *options = std::getenv("MERKLIZE_KERNEL_OPTIONS");
    std::cout << "device: " << name
              << "\nkernel options: " << (options ? options : "the tuning row's") << "\n";
    benchmark::AddCustomContext("device", name);
    // The permutations first: the trees after them report their share of its rate.
    benchmark::RegisterBenchmark("permutations", permutations)
        ->Arg(perm_log2)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    for (auto [label, fn] : {std::pair{"keccak256", keccak256}, std::pair{"sha3_256", sha3_256}})
      benchmark::RegisterBenchmark(label, fn)
          ->DenseRange(log2_min, log2_max)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    for (const auto &row : summary)
      std::cout << row.second << "\n";
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "keccak_bench: " << e.what() << "\n";
    return 1;
  }
}
