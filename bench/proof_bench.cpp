// Proofs on the device, for a tree that enqueue_build left there:
//   gather/<log2 N>/<P>:     the sibling paths of P random leaves, one enqueue_gather launch;
//   multiproof/<log2 N>/<P>: the nodes of one multiproof of P random leaves (gather_multiproof:
//                            positions on the host, one gather launch);
//   verify/<log2 N>/<P>:     P inclusion proofs checked in one enqueue_verify launch, beside the
//                            host verifier on one thread on the same proofs (host_proofs/s, and
//                            the ratio x_host).
// Device times are the kernels' own, from OpenCL event profiling (UseManualTime); rates are per
// second of kernel time. Every row checks its device results against the host prover and
// verifier first and fails if they differ.
//
//   proof_bench [--device=SPEC] [--log2_min=K] [--log2_max=K] [--proofs=P,P,...] [--hash=H]
//               [--pad=P] [benchmark flags]
// Default: 2^16 leaves and 4096 proofs on a CPU (PoCL: seconds), 2^16 .. 2^24 leaves (every
// other power) and 2^10, 2^16 proofs on a GPU. The device is --device, else MERKLIZE_DEVICE,
// else the first GPU, else the first device.
#include <merklize/merklize.hpp>

#include "flags.hpp"
#include "plain_ms_reporter.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

merklize::tree_options bench_options;
std::string device_spec; // --device, else the default device

cl::Device &bench_device() {
  static cl::Device device =
      device_spec.empty() ? merklize::default_device() : merklize::select_device(device_spec);
  return device;
}

merklize::merkleizer &bench_merkleizer() {
  static merklize::merkleizer m = [] {
    merklize::config cfg;
    cfg.tree = bench_options;
    return merklize::merkleizer(bench_device(), cfg);
  }();
  return m;
}

merklize::device_prover &bench_prover() {
  static merklize::device_prover prover(bench_merkleizer());
  return prover;
}

cl::Buffer device_buffer(std::uint64_t bytes, const void *data = nullptr) {
  auto &m = bench_merkleizer();
  cl::Buffer b(m.context(), CL_MEM_READ_WRITE, bytes);
  if (data) m.queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, data);
  return b;
}

// A tree of 2^log2 random leaves, on the device (as enqueue_build writes it) and on the host (to
// check results against), built once per size.
struct bench_tree {
  std::uint64_t leaf_count;
  cl::Buffer leaves, nodes;
  merklize::tree host;
};

const bench_tree &tree_of(unsigned log2) {
  static std::map<unsigned, std::unique_ptr<bench_tree>> trees;
  auto &slot = trees[log2];
  if (slot) return *slot;
  trees.clear(); // one size at a time: large trees fill the device
  const std::uint64_t n = std::uint64_t(1) << log2;
  std::vector<std::uint8_t> leaves(n * merklize::node_bytes);
  std::mt19937_64 engine(log2);
  for (std::size_t i = 0; i + 8 <= leaves.size(); i += 8) {
    const std::uint64_t word = engine();
    std::memcpy(&leaves[i], &word, 8);
  }
  auto &m = bench_merkleizer();
  const cl::Buffer leaf_buffer = device_buffer(leaves.size(), leaves.data());
  const cl::Buffer nodes =
      device_buffer(merklize::merkleizer::output_node_count(n) * merklize::node_bytes);
  m.enqueue_build(leaf_buffer, n, nodes).back().wait();
  trees[log2].reset(new bench_tree{n, leaf_buffer, nodes, m.build(leaves)});
  return *trees[log2];
}

std::vector<std::uint64_t> random_indices(std::uint64_t n, std::uint64_t count) {
  std::mt19937_64 engine(count);
  std::vector<std::uint64_t> indices(count);
  for (auto &i : indices)
    i = engine() % n;
  return indices;
}

// The device proofs of `indices` must be the host prover's.
bool gathered_correctly(const bench_tree &t, const std::vector<std::uint64_t> &indices) {
  const auto proofs = bench_prover().gather(t.leaves, t.nodes, t.leaf_count, indices);
  for (std::size_t p = 0; p < proofs.size(); p += 1 + proofs.size() / 256)
    if (!(proofs[p] == merklize::prove(t.host, indices[p]))) return false;
  return true;
}

void gather(benchmark::State &state) {
  const bench_tree &t = tree_of(static_cast<unsigned>(state.range(0)));
  const auto count = static_cast<std::uint64_t>(state.range(1));
  const auto indices = random_indices(t.leaf_count, count);
  if (!gathered_correctly(t, indices)) return state.SkipWithError("device proofs differ");
  auto &prover = bench_prover();
  const cl::Buffer index_buffer = device_buffer(count * 8, indices.data());
  const cl::Buffer paths =
      device_buffer(count * prover.path_slots(t.leaf_count) * merklize::node_bytes);
  const cl::Buffer lengths = device_buffer(count * 4);
  for (auto _ : state) {
    const auto events =
        prover.enqueue_gather(t.leaves, t.nodes, t.leaf_count, index_buffer, count, paths, lengths);
    events.back().wait();
    state.SetIterationTime(merklize::events_ms(events) * 1e-3);
  }
  state.counters["proofs/s"] =
      benchmark::Counter(double(count), benchmark::Counter::kIsIterationInvariantRate);
}

void multiproof(benchmark::State &state) {
  const bench_tree &t = tree_of(static_cast<unsigned>(state.range(0)));
  const auto indices = random_indices(t.leaf_count, static_cast<std::uint64_t>(state.range(1)));
  auto &prover = bench_prover();
  const auto proof = prover.gather_multiproof(t.leaves, t.nodes, t.leaf_count, indices);
  if (!(proof == merklize::prove_multi(t.host, indices)))
    return state.SkipWithError("device multiproof differs");
  double wall_ms = 0;
  for (auto _ : state) {
    prover.gather_multiproof(t.leaves, t.nodes, t.leaf_count, indices);
    state.SetIterationTime(prover.last_times().kernel_ms * 1e-3);
    wall_ms += prover.last_times().wall_ms;
  }
  state.counters["nodes"] = double(proof.nodes.size());
  state.counters["nodes/s"] =
      benchmark::Counter(double(proof.nodes.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["wall_ms"] = wall_ms / double(state.iterations());
}

void verify(benchmark::State &state) {
  const bench_tree &t = tree_of(static_cast<unsigned>(state.range(0)));
  const auto count = static_cast<std::uint64_t>(state.range(1));
  const auto indices = random_indices(t.leaf_count, count);
  auto &prover = bench_prover();
  const auto proofs = prover.gather(t.leaves, t.nodes, t.leaf_count, indices);
  const std::uint64_t slots = prover.path_slots(t.leaf_count);
  std::vector<merklize::digest> leaves, paths(count * slots);
  std::vector<cl_uint> lengths;
  std::uint64_t hashes = 0;
  for (std::uint64_t p = 0; p < count; ++p) {
    leaves.push_back(t.host.node(0, indices[p]));
    lengths.push_back(static_cast<cl_uint>(proofs[p].siblings.size()));
    std::copy(proofs[p].siblings.begin(), proofs[p].siblings.end(), paths.begin() + p * slots);
    hashes += proofs[p].siblings.size();
  }
  const auto root = t.host.root();
  const auto host_start = std::chrono::steady_clock::now();
  for (std::uint64_t p = 0; p < count; ++p)
    if (!merklize::verify(proofs[p], leaves[p], root))
      return state.SkipWithError("the host verifier rejects a device proof");
  const double host_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
  const auto valid = prover.verify(proofs, leaves, root, t.leaf_count);
  if (std::find(valid.begin(), valid.end(), false) != valid.end())
    return state.SkipWithError("the device verifier rejects a valid proof");

  const cl::Buffer leaf_buffer = device_buffer(count * merklize::node_bytes, leaves.data());
  const cl::Buffer index_buffer = device_buffer(count * 8, indices.data());
  const cl::Buffer path_buffer = device_buffer(count * slots * merklize::node_bytes, paths.data());
  const cl::Buffer length_buffer = device_buffer(count * 4, lengths.data());
  const cl::Buffer results = device_buffer(count * 4);
  double kernel_s = 0;
  for (auto _ : state) {
    const auto events = prover.enqueue_verify(leaf_buffer, index_buffer, path_buffer, length_buffer,
                                              count, t.leaf_count, root, results);
    events.back().wait();
    const double s = merklize::events_ms(events) * 1e-3;
    state.SetIterationTime(s);
    kernel_s += s;
  }
  state.counters["proofs/s"] =
      benchmark::Counter(double(count), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["hashes/s"] =
      benchmark::Counter(double(hashes), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["host_proofs/s"] = double(count) / host_s;
  state.counters["x_host"] = host_s / (kernel_s / double(state.iterations()));
}

std::vector<std::int64_t> numbers(const std::string &list) {
  std::vector<std::int64_t> values;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    values.push_back(std::stoll(item));
  return values;
}

} // namespace

int main(int argc, char **argv) {
  try {
    bench::take_flag(argc, argv, "device", device_spec);
    const bool gpu = merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(bench_device()) &
                     CL_DEVICE_TYPE_GPU;
    std::string log2_min = "16", log2_max = gpu ? "24" : "16", proofs = gpu ? "1024,65536" : "4096";
    std::string hash = "blake3", pad = "promote";
    bench::take_flag(argc, argv, "log2_min", log2_min);
    bench::take_flag(argc, argv, "log2_max", log2_max);
    bench::take_flag(argc, argv, "proofs", proofs);
    bench::take_flag(argc, argv, "hash", hash);
    bench::take_flag(argc, argv, "pad", pad);
    bench_options = {merklize::parse_hash_kind(hash), merklize::parse_shape(pad)};
    const int low = std::stoi(log2_min), high = std::stoi(log2_max);
    if (low < 1 || high > 30 || low > high) {
      std::cerr << "proof_bench: need 1 <= --log2_min <= --log2_max <= 30\n";
      return 2;
    }
    std::vector<std::int64_t> sizes;
    for (int k = low; k <= high; k += 2)
      sizes.push_back(k);
    const std::string name = merklize::device_name(bench_device());
    std::cout << "device: " << name << "\ntree: " << hash << " " << pad << "\n";
    benchmark::AddCustomContext("device", name);
    benchmark::AddCustomContext("tree", hash + " " + pad);
    for (auto [label, fn] : {std::pair{"gather", gather}, std::pair{"multiproof", multiproof},
                             std::pair{"verify", verify}})
      benchmark::RegisterBenchmark(label, fn)
          ->ArgsProduct({sizes, numbers(proofs)})
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    bench::plain_ms_reporter reporter; // *_ms counters in plain milliseconds
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "proof_bench: " << e.what() << "\n";
    return 1;
  }
}
