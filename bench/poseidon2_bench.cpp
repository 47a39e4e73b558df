// SPDX-License-Identifier: Apache-2.0 OR MIT
// Poseidon2 on the device against its own bound, in one run:
//   permutations_<field>/<k>:  poseidon2_permute over 2^k states in device memory, each
//                              permuted --perm_count times in registers between one read and one
//                              write (memory traffic amortised away): the permutation rate of
//                              the compression's instance (BabyBear and KoalaBear width 16,
//                              Goldilocks width 8, BN254 width 3), the bound of its tree;
//   poseidon2_<field>/<k>:     the poseidon2-<field> compression tree of 2^k leaves through
//                              enqueue_build (kernels; 2^k leaves: every shape agrees).
// Device times are the kernels' own, from OpenCL event profiling (UseManualTime). Permutation rows
// report permutations per second (perms/s); tree rows node hashes per second (hashes/s, one
// permutation each) and their share of the permutation rate of the same run (x_perms: 0.90 or more
// for BabyBear at 2^24 means the tree runs at the permutation's rate). Every permutation row checks
// a sample of its states against the host permutation, every tree row a sample of its first level's
// nodes against the host compression and its root's level against the nodes below it
// (core/poseidon2.hpp, written for clarity, too slow to recompute 2^24 leaves), and fails if they
// differ. MERKLIZE_KERNEL_OPTIONS reaches every program here.
//
//   poseidon2_bench [--log2_min=K] [--log2_max=K] [--perm_log2=K] [--perm_count=C] [flags]
// Default: trees of 2^20 .. 2^24 leaves on a GPU (2^10 .. 2^14 elsewhere, a CPU through PoCL),
// 2^20 states (2^10) of 16 permutations each. The device is MERKLIZE_DEVICE, else the first GPU,
// else the first device.
#include <merklize/merklize.hpp>

#include "flags.hpp"
#include "tree_timing.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

namespace p2 = merklize::poseidon2;

cl::Device &bench_device() {
  static cl::Device device = merklize::default_device();
  return device;
}

int perm_log2 = 20, perm_count = 16;
std::map<std::string, double> perms_per_s;  // by field: the permutation row's rate
std::map<std::string, std::string> summary; // by row, printed after the table

struct field_case {
  const char *field;
  merklize::hash_kind hash;
  const p2::instance *instance; // nullptr: BN254 (core/poseidon2_bn254.hpp)
  unsigned width, state_bytes;  // a permutation's state
};

const field_case field_cases[] = {
    {"babybear", merklize::hash_kind::poseidon2_babybear, &p2::babybear_16, 16, 64},
    {"koalabear", merklize::hash_kind::poseidon2_koalabear, &p2::koalabear_16, 16, 64},
    {"goldilocks", merklize::hash_kind::poseidon2_goldilocks, &p2::goldilocks_8, 8, 64},
    {"bn254", merklize::hash_kind::poseidon2_bn254, nullptr, 3, 96},
};

// `bytes` of canonical elements of the field: random bytes, each limb taken mod p (BN254's
// 32-byte elements below 2^253 < p).
std::vector<std::uint8_t> canonical_bytes(const field_case &c, std::size_t bytes) {
  const std::uint8_t *noise = bench::random_input(bytes);
  std::vector<std::uint8_t> out(noise, noise + bytes);
  if (!c.instance) {
    for (std::size_t at = 31; at < bytes; at += 32)
      out[at] &= 0x1f;
    return out;
  }
  const p2::instance &in = *c.instance;
  const unsigned limb = p2::limb_bytes(in);
  for (std::size_t at = 0; at < bytes; at += limb) {
    const std::uint64_t v = p2::limb_value(out.data() + at, in, 0) % in.prime;
    for (unsigned b = 0; b < limb; ++b)
      out[at + b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  return out;
}

// BN254: state s's 3 elements of 32 bytes permuted perm_count times on the host.
bool bn254_agrees(const std::vector<std::uint8_t> &before, const std::vector<std::uint8_t> &after,
                  std::uint64_t s) {
  namespace bn = p2::bn254;
  merklize::digest e;
  bn::state x;
  for (unsigned i = 0; i < 3; ++i) {
    std::memcpy(e.data(), before.data() + s * 96 + 32 * i, 32);
    x[i] = bn::value_of(e);
  }
  for (int r = 0; r < perm_count; ++r)
    bn::permute(x);
  for (unsigned i = 0; i < 3; ++i)
    if (std::memcmp(bn::digest_of(x[i]).data(), after.data() + s * 96 + 32 * i, 32)) return false;
  return true;
}

bool permutations_agree(const field_case &c, const std::vector<std::uint8_t> &before,
                        const std::vector<std::uint8_t> &after, std::uint64_t items) {
  if (!c.instance) {
    for (const std::uint64_t s : {std::uint64_t(0), items / 2, items - 1})
      if (!bn254_agrees(before, after, s)) return false;
    return true;
  }
  const p2::instance &in = *c.instance;
  const unsigned w = in.width, limb = p2::limb_bytes(in);
  for (const std::uint64_t s : {std::uint64_t(0), items / 2, items - 1}) {
    p2::state x{};
    for (unsigned i = 0; i < w; ++i)
      x[i] = p2::limb_value(before.data() + s * w * limb, in, i);
    for (int r = 0; r < perm_count; ++r)
      p2::permute(x, in);
    for (unsigned i = 0; i < w; ++i)
      if (x[i] != p2::limb_value(after.data() + s * w * limb, in, i)) return false;
  }
  return true;
}

void permutations(benchmark::State &state, const field_case &c) {
  const std::uint64_t items = std::uint64_t(1) << state.range(0);
  const std::size_t bytes = items * c.state_bytes;
  const cl::Context context = merklize::detail::shared_context(bench_device());
  const cl::CommandQueue queue(context, bench_device(), CL_QUEUE_PROFILING_ENABLE);
  const cl::Program program = merklize::detail::tuned_program(
      context, bench_device(), merklize::detail::poseidon2_program(c.field, c.width));
  cl::Kernel kernel(program, "poseidon2_permute");
  const std::vector<std::uint8_t> states = canonical_bytes(c, bytes);
  const cl::Buffer buffer(context, CL_MEM_READ_WRITE, bytes);
  kernel.setArg(0, buffer);
  kernel.setArg(1, cl_ulong(items));
  kernel.setArg(2, cl_uint(perm_count));
  double kernel_s = 0;
  for (auto _ : state) {
    state.PauseTiming();
    queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, states.data());
    state.ResumeTiming();
    cl::Event done;
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NullRange, nullptr,
                               &done);
    done.wait();
    const double s = merklize::event_ms(done) * 1e-3;
    state.SetIterationTime(s);
    kernel_s += s;
  }
  std::vector<std::uint8_t> after(bytes);
  queue.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, after.data());
  if (!permutations_agree(c, states, after, items))
    return state.SkipWithError("device permutations differ from the host's");
  const double rate =
      static_cast<double>(items) * perm_count * static_cast<double>(state.iterations()) / kernel_s;
  perms_per_s[c.field] = rate;
  state.counters["perms/s"] = rate;
  state.SetLabel(std::string(c.instance ? c.instance->name : "bn254-w3") + ", " +
                 std::to_string(perm_count) + " permutations a state");
}

// A sample of level 1 (the first nodes out) against the host compression, and the root against
// its two children: what the kernels wrote is the tree of these leaves.
bool tree_agrees(const field_case &c, const std::vector<std::uint8_t> &leaves,
                 const std::vector<std::uint8_t> &nodes, std::uint64_t n) {
  merklize::digest l, r, got;
  for (const std::uint64_t i : {std::uint64_t(0), n / 4, n / 2 - 1}) {
    std::memcpy(l.data(), leaves.data() + 64 * i, 32);
    std::memcpy(r.data(), leaves.data() + 64 * i + 32, 32);
    std::memcpy(got.data(), nodes.data() + 32 * i, 32);
    if (merklize::node_hash(c.hash, l, r, false) != got) return false;
  }
  if (n < 4) return true;
  const std::size_t top = nodes.size() - 32; // the root after its two children
  std::memcpy(l.data(), nodes.data() + top - 64, 32);
  std::memcpy(r.data(), nodes.data() + top - 32, 32);
  std::memcpy(got.data(), nodes.data() + top, 32);
  return merklize::node_hash(c.hash, l, r, false) == got;
}

void tree_of(benchmark::State &state, const field_case &c) {
  const unsigned k = static_cast<unsigned>(state.range(0));
  const std::uint64_t n = std::uint64_t(1) << k;
  const std::vector<std::uint8_t> leaves = canonical_bytes(c, n * merklize::node_bytes);
  const cl::Context context = merklize::detail::shared_context(bench_device());
  const cl::CommandQueue queue(context, bench_device(), CL_QUEUE_PROFILING_ENABLE);
  merklize::merkleizer m(context, bench_device(), merklize::config{{c.hash}});
  const cl::Buffer in(context, CL_MEM_READ_ONLY, n * merklize::node_bytes);
  queue.enqueueWriteBuffer(in, CL_TRUE, 0, n * merklize::node_bytes, leaves.data());
  const std::uint64_t out_nodes = merklize::merkleizer::output_node_count(n);
  const cl::Buffer out(context, CL_MEM_READ_WRITE, out_nodes * merklize::node_bytes);
  const auto [kernel_s, span_s] = bench::time_builds(state, m, in, n, out);
  std::vector<std::uint8_t> nodes(out_nodes * merklize::node_bytes);
  queue.enqueueReadBuffer(out, CL_TRUE, 0, nodes.size(), nodes.data());
  if (!tree_agrees(c, leaves, nodes, n))
    return state.SkipWithError("device nodes differ from the host compression's");
  const double rate = static_cast<double>(n - 1) * static_cast<double>(state.iterations());
  const double limit = perms_per_s.count(c.field) ? perms_per_s[c.field] : 0;
  state.counters["hashes/s"] = rate / kernel_s;
  state.counters["span_hashes/s"] = rate / span_s;
  if (limit > 0) state.counters["x_perms"] = rate / kernel_s / limit;
  state.SetLabel(merklize::to_string(c.hash));
  char line[220];
  std::snprintf(line, sizeof line,
                "ratio %s 2^%u: %.3f ms kernels, %.4f G hashes/s, %.3f of the permutation rate "
                "(%.4f G perms/s)",
                merklize::to_string(c.hash), k,
                kernel_s * 1e3 / static_cast<double>(state.iterations()), rate / kernel_s * 1e-9,
                limit > 0 ? rate / kernel_s / limit : 0.0, limit * 1e-9);
  summary[std::string(c.field) + std::to_string(100 + k)] = line;
}

} // namespace

int main(int argc, char **argv) {
  try {
    const std::string name = merklize::device_name(bench_device());
    const bool gpu = merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(bench_device()) &
                     CL_DEVICE_TYPE_GPU;
    int log2_min = gpu ? 20 : 10, log2_max = gpu ? 24 : 14;
    perm_log2 = gpu ? 20 : 10;
    bench::take_flag(argc, argv, "log2_min", log2_min);
    bench::take_flag(argc, argv, "log2_max", log2_max);
    bench::take_flag(argc, argv, "perm_log2", perm_log2);
    bench::take_flag(argc, argv, "perm_count", perm_count);
    if (log2_min < 2 || log2_max > 30 || log2_min > log2_max || perm_log2 < 1 || perm_log2 > 28 ||
        perm_count < 1) {
      std::cerr << "poseidon2_bench: need 2 <= --log2_min <= --log2_max <= 30, 1 <= --perm_log2 "
                   "<= 28 and --perm_count >= 1\n";
      return 2;
    }
    const char *options = std::getenv("MERKLIZE_KERNEL_OPTIONS");
    std::cout << "device: " << name
              << "\nkernel options: " << (options ? options : "the tuning row's") << "\n";
    benchmark::AddCustomContext("device", name);
    for (const field_case &c : field_cases) { // each field's permutations before its trees
      benchmark::RegisterBenchmark((std::string("permutations_") + c.field).c_str(),
                                   [&c](benchmark::State &s) { permutations(s, c); })
          ->Arg(perm_log2)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark((std::string("poseidon2_") + c.field).c_str(),
                                   [&c](benchmark::State &s) { tree_of(s, c); })
          ->DenseRange(log2_min, log2_max)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    for (const auto &row : summary)
      std::cout << row.second << "\n";
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "poseidon2_bench: " << e.what() << "\n";
    return 1;
  }
}
