// SPDX-License-Identifier: Apache-2.0 OR MIT
// multi_bench: one tree built on every device (multi_merkleizer) against one device, with
// Google Benchmark. Leaves are in page-locked memory (allocate_host) and the nodes go to a
// page-locked tree (allocate_tree), both reused from build to build, every internal node kept.
//   one/K   2^K leaves on the first device alone: a plain merkleizer build in the same context
//   all/K   2^K leaves over every device (multi_merkleizer::build)
// The manual time is the host's wall clock around a whole build. Counters: kernels_ms, the
// kernel time of one device, or for all devices the slowest device's kernel time plus the host's
// finish (the levels above the shards): the end-to-end time with free transfers; per device
// dev<i>_kernel_ms and dev<i>_share (its fraction of the leaves), and the busy time of each
// device's copies (upload_ms, download_ms; dev<i>_*) beside its part's wall time
// (dev<i>_wall_ms). Each size first checks that
// both builds give the same root. After the run: the devices and a table of speedups.
//
//   multi_bench [--min_log2=K] [--max_log2=K] [--output=nodes|root] [--chunk_log2=C]
//               [--shard_log2=S] [--raw=1] [benchmark flags]
// --raw=1 adds the raw copy bandwidth of one device and of all, each way and both ways at once:
// each build's floor and its share of it (print_floors).
// Devices: MERKLIZE_DEVICES (e.g. "nvidia", "0:0,0:1", or "pocl,pocl": two queues on PoCL),
// else every GPU of the default device's platform. Sizes: 2^22 .. 2^27 on GPUs, 2^14 .. 2^18
// elsewhere. Chunks (config::chunk_log2, both builds) and shards (config::shard_log2): the
// library's defaults (0), but chunks of 2^12 leaves on CPUs, whose default chunk of 2^22 would
// leave these sizes one shard.
#include <merklize/merklize.hpp>

#include "flags.hpp"
#include "plain_ms_reporter.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>

namespace {

struct options {
  unsigned min_log2 = 0, max_log2 = 0; // 0: by device type
  merklize::output_levels output = merklize::output_levels::from_level(1);
  unsigned chunk_log2 = 0, shard_log2 = 0;
  bool raw = false; // --raw=1: the raw copy bandwidth after the builds
};

struct row {
  double one_ms = 0, all_ms = 0, one_kernels_ms = 0, all_kernels_ms = 0;
  std::vector<double> shares;
};

struct raw_rates { // GB/s in all, by the host's clock
  double one_up = 0, one_both = 0, all_up = 0, all_both = 0;
};

std::map<unsigned, row> rows;
std::unique_ptr<merklize::multi_merkleizer> all_devices;
std::unique_ptr<merklize::merkleizer> one_device;

// The leaves of one size and the trees both builds reuse; one size at a time.
struct size_data {
  unsigned log2;
  merklize::host_buffer leaves;
  merklize::tree one_tree, all_tree;
};
std::unique_ptr<size_data> current;

size_data &data_for(unsigned log2) {
  if (current && current->log2 == log2) return *current;
  current.reset();
  const std::uint64_t n = std::uint64_t(1) << log2;
  merklize::host_buffer leaves = all_devices->allocate_host(n * merklize::node_bytes);
  std::mt19937_64 rng(n);
  for (std::uint64_t i = 0; i < n * merklize::node_bytes; i += 8) {
    const std::uint64_t r = rng();
    std::memcpy(leaves.data() + i, &r, 8);
  }
  current.reset(
      new size_data{log2, leaves, one_device->allocate_tree(n), all_devices->allocate_tree(n)});
  return *current;
}

void one(benchmark::State &state, unsigned log2) {
  size_data &d = data_for(log2);
  one_device->build(d.leaves, d.one_tree); // warm-up: program build, buffers
  double wall = 0, kernels = 0, upload = 0, download = 0;
  for (auto _ : state) {
    one_device->build(d.leaves, d.one_tree);
    const auto &t = one_device->last_times();
    state.SetIterationTime(t.wall_ms * 1e-3);
    wall += t.wall_ms;
    kernels += t.kernel_ms;
    upload += t.upload_ms;
    download += t.download_ms;
  }
  const double runs = double(state.iterations());
  rows[log2].one_ms = wall / runs;
  rows[log2].one_kernels_ms = kernels / runs;
  state.counters["kernels_ms"] = kernels / runs;
  state.counters["upload_ms"] = upload / runs;
  state.counters["download_ms"] = download / runs;
}

void all(benchmark::State &state, unsigned log2) {
  size_data &d = data_for(log2);
  all_devices->build(d.leaves, d.all_tree); // warm-up: calibration, program builds, buffers
  one_device->build(d.leaves, d.one_tree);
  if (d.all_tree.root() != d.one_tree.root())
    return state.SkipWithError("the devices' root differs from one device's");
  const std::size_t count = all_devices->devices().size();
  double wall = 0, kernels = 0;
  std::vector<double> device_kernels(count), shares(count);
  std::vector<merklize::build_times> device_sums(count);
  for (auto _ : state) {
    all_devices->build(d.leaves, d.all_tree);
    const auto &t = all_devices->last_times();
    state.SetIterationTime(t.wall_ms * 1e-3);
    wall += t.wall_ms;
    double slowest = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const merklize::build_times &times = t.devices[i].times;
      slowest = std::max(slowest, times.kernel_ms);
      device_kernels[i] += times.kernel_ms;
      device_sums[i].upload_ms += times.upload_ms;
      device_sums[i].download_ms += times.download_ms;
      device_sums[i].wall_ms += times.wall_ms;
      shares[i] += double(t.devices[i].leaves) / double(d.all_tree.leaf_count());
    }
    kernels += slowest + t.finish_ms;
  }
  const double runs = double(state.iterations());
  row &r = rows[log2];
  r.all_ms = wall / runs;
  r.all_kernels_ms = kernels / runs;
  r.shares.clear();
  state.counters["kernels_ms"] = kernels / runs;
  for (std::size_t i = 0; i < count; ++i) {
    r.shares.push_back(shares[i] / runs);
    state.counters["dev" + std::to_string(i) + "_kernel_ms"] = device_kernels[i] / runs;
    state.counters["dev" + std::to_string(i) + "_share"] = shares[i] / runs;
    // Each device's copies (summed busy time of its queues) against its part's wall time: where
    // the two devices slow each other down.
    state.counters["dev" + std::to_string(i) + "_upload_ms"] = device_sums[i].upload_ms / runs;
    state.counters["dev" + std::to_string(i) + "_download_ms"] = device_sums[i].download_ms / runs;
    state.counters["dev" + std::to_string(i) + "_wall_ms"] = device_sums[i].wall_ms / runs;
  }
  state.counters["shard_log2"] = all_devices->last_times().shard_log2;
}

// With the raw rates: each build's floor, the bytes it must copy (the leaves up; with every node
// kept, as many bytes of nodes down) at the raw rate of its devices, and the build's share of
// it. A drop in that share is a regression of ours; a speedup under 2x with the share high is the
// host's limit (docs/BENCHMARKS.md, "Several devices").
void print_floors(const raw_rates &raw, bool every_node) {
  std::printf("\n%-6s %14s %10s %14s %10s %16s\n", "leaves", "1 dev floor ms", "of floor",
              "all floor ms", "of floor", "floor speedup");
  for (const auto &[log2, r] : rows) {
    const double gb =
        double(std::uint64_t(1) << log2) * merklize::node_bytes * (every_node ? 2 : 1) / 1e9;
    const double one = gb / (every_node ? raw.one_both : raw.one_up) * 1e3;
    const double all = gb / (every_node ? raw.all_both : raw.all_up) * 1e3;
    std::printf("2^%-4u %14.3f %9.0f%% %14.3f %9.0f%% %15.2fx\n", log2, one,
                r.one_ms > 0 ? 100 * one / r.one_ms : 0.0, all,
                r.all_ms > 0 ? 100 * all / r.all_ms : 0.0, one / all);
  }
}

void print_summary() {
  const std::size_t count = all_devices->devices().size();
  std::printf("\n%-6s %12s %12s %8s %14s %14s %8s  %s\n", "leaves", "1 dev ms", "all ms", "x",
              "1 dev kern ms", "all kern ms", "x", "shares");
  for (const auto &[log2, r] : rows) {
    std::string shares;
    for (double s : r.shares)
      shares += (shares.empty() ? "" : " ") + std::to_string(s).substr(0, 5);
    std::printf("2^%-4u %12.3f %12.3f %8.2f %14.3f %14.3f %8.2f  %s\n", log2, r.one_ms, r.all_ms,
                r.all_ms > 0 ? r.one_ms / r.all_ms : 0.0, r.one_kernels_ms, r.all_kernels_ms,
                r.all_kernels_ms > 0 ? r.one_kernels_ms / r.all_kernels_ms : 0.0, shares.c_str());
  }
  std::printf("(x: speedup of %zu devices over one; kern: kernels only, for all devices the "
              "slowest device's plus the host's finish)\n",
              count);
}

// The floor under builds on several devices: raw copies between page-locked host
// memory and each device, 1 GiB a stream, all streams of a case at once (one queue each), by the
// host's clock; best of 5. Every-node builds move their leaves up and as many bytes of nodes
// down, so "all devices, both ways" bounds what several devices can reach.
raw_rates measure_raw_bandwidth(const std::vector<cl::Device> &devices) {
  const std::size_t bytes = std::size_t(1) << 30;
  const cl::Context &context = all_devices->context();
  struct stream {
    cl::CommandQueue queue;
    cl::Buffer buffer;
    merklize::host_buffer host;
  };
  std::vector<stream> up, down; // by device
  for (const auto &device : devices)
    for (auto *streams : {&up, &down})
      streams->push_back({cl::CommandQueue(context, device),
                          cl::Buffer(context, CL_MEM_READ_WRITE, bytes),
                          all_devices->allocate_host(bytes)});
  const auto run = [&](std::size_t device_count, bool upload, bool download) -> double {
    double best = 1e300;
    for (int round = 0; round < 6; ++round) { // the first warms up (first touch, migrations)
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t d = 0; d < device_count; ++d) {
        if (upload)
          up[d].queue.enqueueWriteBuffer(up[d].buffer, CL_FALSE, 0, bytes, up[d].host.data());
        if (download)
          down[d].queue.enqueueReadBuffer(down[d].buffer, CL_FALSE, 0, bytes, down[d].host.data());
      }
      for (std::size_t d = 0; d < device_count; ++d) {
        up[d].queue.finish();
        down[d].queue.finish();
      }
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (round > 0) best = std::min(best, ms);
    }
    const double streams = double(device_count) * (int(upload) + int(download));
    std::printf("raw copies, %zu device(s), %-9s %8.3f ms for %.0f GiB: %6.1f GB/s in all\n",
                device_count,
                upload && download ? "both ways"
                : upload           ? "up"
                                   : "down",
                best, streams, streams * double(bytes) / (best * 1e6));
    return streams * double(bytes) / (best * 1e6);
  };
  raw_rates rates;
  rates.one_up = run(1, true, false);
  run(1, false, true);
  rates.one_both = run(1, true, true);
  rates.all_up = devices.size() > 1 ? run(devices.size(), true, false) : rates.one_up;
  if (devices.size() > 1) run(devices.size(), false, true);
  rates.all_both = devices.size() > 1 ? run(devices.size(), true, true) : rates.one_both;
  return rates;
}

options parse(int &argc, char **argv, bool gpu) {
  options o;
  std::string min = gpu ? "22" : "14", max = gpu ? "27" : "18", output = "nodes";
  std::string chunk = gpu ? "0" : "12", shard = "0";
  bench::take_flag(argc, argv, "min_log2", min);
  bench::take_flag(argc, argv, "max_log2", max);
  bench::take_flag(argc, argv, "output", output);
  bench::take_flag(argc, argv, "chunk_log2", chunk);
  bench::take_flag(argc, argv, "shard_log2", shard);
  std::string raw = "0";
  bench::take_flag(argc, argv, "raw", raw);
  o.raw = raw == "1";
  o.min_log2 = static_cast<unsigned>(std::stoul(min));
  o.max_log2 = static_cast<unsigned>(std::stoul(max));
  o.chunk_log2 = static_cast<unsigned>(std::stoul(chunk));
  o.shard_log2 = static_cast<unsigned>(std::stoul(shard));
  if (o.min_log2 < 2 || o.max_log2 > 32 || o.min_log2 > o.max_log2)
    throw merklize::error("need 2 <= --min_log2 <= --max_log2 <= 32");
  if (output == "root")
    o.output = merklize::output_levels::root_only();
  else if (output != "nodes")
    throw merklize::error("--output is nodes or root, not " + output);
  return o;
}

} // namespace

int main(int argc, char **argv) {
  try {
    const auto devices = merklize::default_devices();
    const bool gpu =
        merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(devices.front()) &
        CL_DEVICE_TYPE_GPU;
    const options o = parse(argc, argv, gpu);
    merklize::config cfg;
    cfg.output = o.output;
    cfg.chunk_log2 = o.chunk_log2;
    cfg.shard_log2 = o.shard_log2;
    all_devices = std::make_unique<merklize::multi_merkleizer>(devices, cfg);
    one_device =
        std::make_unique<merklize::merkleizer>(all_devices->context(), devices.front(), cfg);
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const std::string name = merklize::device_name(devices[i]);
      std::cout << "device " << i << ": " << name << "\n";
      benchmark::AddCustomContext("device " + std::to_string(i), name);
    }
    for (unsigned k = o.min_log2; k <= o.max_log2; ++k)
      for (auto [label, fn] : {std::pair{"one", one}, std::pair{"all", all}})
        benchmark::RegisterBenchmark((label + std::string("/") + std::to_string(k)).c_str(), fn, k)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    bench::plain_ms_reporter reporter; // *_ms counters in plain milliseconds
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    print_summary();
    if (o.raw)
      print_floors(measure_raw_bandwidth(devices),
                   o.output.first != merklize::output_levels::root_only().first);
    current.reset();
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "multi_bench: " << e.what() << "\n";
    return 1;
  }
}
