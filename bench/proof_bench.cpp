// SPDX-License-Identifier: Apache-2.0 OR MIT
// Proofs on the device, for a tree that enqueue_build left there:
//   gather/<log2 N>/<P>:     the sibling paths of P random leaves, one enqueue_gather launch;
//   multiproof/<log2 N>/<P>: the nodes of one multiproof of P random leaves (gather_multiproof:
//                            positions on the host, one gather launch);
//   verify/<log2 N>/<P>:     P inclusion proofs checked in one enqueue_verify launch, beside the
//                            host verifier on one thread on the same proofs (host_proofs/s, and
//                            the ratio x_host);
//   consistency/<log2 N>:    the consistency proof from old size 2^(log2 N - 1) + 2^(log2 N - 3)
//                            + 1 (the most nodes a size that large has) to the tree of N leaves
//                            (gather_consistency: positions on the host, one gather launch), on
//                            a tree that lives on the device alone (its leaves filled there), so
//                            that 2^30 leaves need 64 GiB of device memory and none of the host;
//                            each row checks the gathered nodes against reads of their offsets.
// Device times are the kernels' own, from OpenCL event profiling (UseManualTime); rates are per
// second of kernel time. Every row checks its device results against the host prover and
// verifier first and fails if they differ.
//
//   proof_bench [--device=SPEC] [--log2_min=K] [--log2_max=K] [--proofs=P,P,...] [--hash=H]
//               [--pad=P] [--consistency_log2_min=K] [--consistency_log2_max=K]
//               [benchmark flags]
//   proof_bench --hash=rfc6962 --benchmark_filter=consistency --consistency_log2_min=24
//               --consistency_log2_max=30                 consistency proofs, 2^24 .. 2^30 leaves
// Default: 2^16 leaves and 4096 proofs on a CPU (PoCL: seconds), 2^16 .. 2^24 leaves (every
// other power) and 2^10, 2^16 proofs on a GPU; consistency rows at 2^16 on a CPU, 2^24 .. 2^28
// on a GPU (2^30 needs a device that allocates 32 GiB buffers, as an H200). The device is --device,
// else MERKLIZE_DEVICE, else the first GPU, else the first device.
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

// A tree of 2^log2 leaves on the device only: its leaves filled there with copies of one digest
// (the nodes' values do not change a gather's time), its nodes built by enqueue_build.
struct device_only_tree {
  std::uint64_t leaf_count;
  cl::Buffer leaves, nodes;
};

const device_only_tree &device_only_tree_of(unsigned log2) {
  static std::unique_ptr<device_only_tree> held;
  if (held && held->leaf_count == std::uint64_t(1) << log2) return *held;
  held.reset(); // one size at a time
  auto &m = bench_merkleizer();
  const std::uint64_t n = std::uint64_t(1) << log2;
  const cl::Buffer leaves = device_buffer(n * merklize::node_bytes);
  const cl::Buffer nodes =
      device_buffer(merklize::merkleizer::output_node_count(n) * merklize::node_bytes);
  const merklize::digest pattern = merklize::sha256::hash("merklize", 8);
  m.queue().enqueueFillBuffer(leaves, pattern, 0, n * merklize::node_bytes);
  m.enqueue_build(leaves, n, nodes).back().wait();
  held.reset(new device_only_tree{n, leaves, nodes});
  return *held;
}

// The gathered nodes must be those at the proof's positions, each read from the device apart.
bool consistency_gathered_correctly(const device_only_tree &t,
                                    const merklize::consistency_proof &proof) {
  const merklize::tree_layout layout(t.leaf_count);
  const auto positions = merklize::consistency_positions(proof.old_size, t.leaf_count);
  if (positions.size() != proof.nodes.size()) return false;
  auto &queue = bench_merkleizer().queue();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const std::uint64_t at = layout.level_offset(positions[i].level) + positions[i].index;
    merklize::digest node;
    queue.enqueueReadBuffer(at < t.leaf_count ? t.leaves : t.nodes, CL_TRUE,
                            (at < t.leaf_count ? at : at - t.leaf_count) * merklize::node_bytes,
                            merklize::node_bytes, node.data());
    if (node != proof.nodes[i]) return false;
  }
  return true;
}

void consistency(benchmark::State &state) {
  if (auto reason = merklize::why_no_consistency_proofs(bench_options))
    return state.SkipWithError(reason->c_str());
  const unsigned log2 = static_cast<unsigned>(state.range(0));
  const device_only_tree *t = nullptr;
  try {
    t = &device_only_tree_of(log2);
  } catch (const std::exception &e) {
    return state.SkipWithError((std::string("no room for the tree: ") + e.what()).c_str());
  }
  // Alternating halves below the top give a node on nearly every level of the proof.
  const std::uint64_t old_size = (t->leaf_count >> 1) + (log2 >= 3 ? t->leaf_count >> 3 : 0) + 1;
  auto &prover = bench_prover();
  const auto proof = prover.gather_consistency(t->leaves, t->nodes, t->leaf_count, old_size);
  if (!consistency_gathered_correctly(*t, proof))
    return state.SkipWithError("gathered nodes differ from the tree's");
  double wall_ms = 0;
  for (auto _ : state) {
    prover.gather_consistency(t->leaves, t->nodes, t->leaf_count, old_size);
    state.SetIterationTime(prover.last_times().kernel_ms * 1e-3);
    wall_ms += prover.last_times().wall_ms;
  }
  state.counters["nodes"] = double(proof.nodes.size());
  state.counters["old_size"] = double(old_size);
  state.counters["wall_ms"] = wall_ms / double(state.iterations());
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
    std::string consistency_min = gpu ? "24" : "16", consistency_max = gpu ? "28" : "16";
    bench::take_flag(argc, argv, "consistency_log2_min", consistency_min);
    bench::take_flag(argc, argv, "consistency_log2_max", consistency_max);
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
    const int consistency_low = std::stoi(consistency_min),
              consistency_high = std::stoi(consistency_max);
    if (consistency_low < 1 || consistency_high > 32 || consistency_low > consistency_high) {
      std::cerr << "proof_bench: need 1 <= --consistency_log2_min <= --consistency_log2_max <= "
                   "32\n";
      return 2;
    }
    benchmark::RegisterBenchmark("consistency", consistency)
        ->DenseRange(consistency_low, consistency_high)
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
