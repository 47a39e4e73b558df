// SPDX-License-Identifier: Apache-2.0 OR MIT
// BLAKE3 of large inputs on the device (merklize::blake3_device), per chunk strategy.
//
//   kernel/<strategy>/<MiB>  input already on the device: kernel time only (event profiling)
//   host/<MiB>               input in host memory: upload + kernels + download, apart
//   file/<read+upload|hash>/<MiB>/<warm|cold>
//                            a file on disk, wall time: the baseline moves it to the device
//                            exactly as hash_file does (the same threads reading into the same
//                            page-locked staging, two pieces ahead of the upload) and hashes
//                            nothing; hash is blake3_device::hash_file, as `merklize b3sum` runs
//                            it, and its row gives x_read+upload, its time over the baseline's.
//                            Cold evicts the file from the page cache first (posix_fadvise)
//
// Flags (besides Google Benchmark's): --device=SPEC, --sizes=64M,256M,1G (K, M, G suffixes),
// --strategies=one-chunk,lanes2,lanes4,lanes8,lanes16 (or automatic), --work_group=N,
// --file_size=SIZE, --file_dir=DIR (where the test file is written), --read_threads=N (threads
// reading the file; default min(8, hardware threads)), --max_device_bytes=SIZE (hash_config's:
// file pieces of at most half of it, else 64 MiB), --build_log=OPTIONS (build each strategy's
// program with these extra options, print the logs and exit). Defaults: 64M,256M,1G
// and a 1G file on a GPU; 1M,4M and a 4M file elsewhere, so a CPU run takes seconds.
#include "plain_ms_reporter.hpp"

#include <merklize/merklize.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <unistd.h>

namespace {

struct options {
  cl::Device device;
  std::vector<std::uint64_t> sizes;
  std::vector<merklize::chunk_strategy> strategies;
  std::size_t work_group = 0;
  std::uint64_t file_size = 0;
  std::string file_dir;
  unsigned read_threads = 0;
  std::uint64_t max_device_bytes = 0;
  std::string build_log; // extra build options: print each strategy's build log and exit
};

std::uint64_t parse_size(const std::string &text) {
  std::size_t used = 0;
  std::uint64_t value = std::stoull(text, &used);
  const std::string suffix = text.substr(used);
  if (suffix == "K") value <<= 10;
  if (suffix == "M") value <<= 20;
  if (suffix == "G") value <<= 30;
  if (!suffix.empty() && suffix != "K" && suffix != "M" && suffix != "G")
    throw merklize::error("bad size \"" + text + "\" (a number with K, M or G)");
  return value;
}

std::vector<std::string> split(const std::string &list) {
  std::vector<std::string> items;
  std::size_t at = 0;
  for (std::size_t comma; (comma = list.find(',', at)) != std::string::npos; at = comma + 1)
    items.push_back(list.substr(at, comma - at));
  items.push_back(list.substr(at));
  return items;
}

// Takes our flags out of argv, leaving Google Benchmark's.
options parse_options(int &argc, char **argv) {
  std::map<std::string, std::string> flags;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    if (eq != std::string::npos &&
        (name == "--device" || name == "--sizes" || name == "--strategies" ||
         name == "--work_group" || name == "--file_size" || name == "--file_dir" ||
         name == "--read_threads" || name == "--max_device_bytes" || name == "--build_log"))
      flags[name.substr(2)] = arg.substr(eq + 1);
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  options o;
  o.device =
      flags.count("device") ? merklize::select_device(flags["device"]) : merklize::default_device();
  const bool gpu =
      merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(o.device) & CL_DEVICE_TYPE_GPU;
  for (const auto &s : split(flags.count("sizes") ? flags["sizes"] : gpu ? "64M,256M,1G" : "1M,4M"))
    o.sizes.push_back(parse_size(s));
  if (flags.count("strategies"))
    for (const auto &s : split(flags["strategies"]))
      o.strategies.push_back(merklize::parse_chunk_strategy(s));
  else
    o.strategies.assign(std::begin(merklize::all_chunk_strategies),
                        std::end(merklize::all_chunk_strategies));
  o.work_group = flags.count("work_group") ? std::stoul(flags["work_group"]) : 0;
  o.file_size = parse_size(flags.count("file_size") ? flags["file_size"] : gpu ? "1G" : "4M");
  o.file_dir =
      flags.count("file_dir") ? flags["file_dir"] : std::filesystem::temp_directory_path().string();
  o.read_threads = flags.count("read_threads") ? std::stoul(flags["read_threads"]) : 0;
  o.max_device_bytes = flags.count("max_device_bytes") ? parse_size(flags["max_device_bytes"]) : 0;
  o.build_log = flags.count("build_log") ? flags["build_log"] : "";
  return o;
}

// The build log of each strategy's program as the device's tuning row has it, built with extra
// options (with -cl-nv-verbose, NVIDIA's registers, spills and stack per kernel), and its binary
// (PTX on NVIDIA, for bench/sass.sh) in hash-<strategy>.bin.
void print_build_logs(const options &o) {
  const cl::Context context = merklize::detail::shared_context(o.device);
  const auto &row = merklize::tuning_for(merklize::read_device_facts(o.device));
  for (auto strategy : o.strategies) {
    const auto spec = merklize::detail::tuned_spec(
        merklize::detail::hash_program(merklize::chunks_per_work_item(strategy)), row);
    const cl::Program program = merklize::detail::build_program(
        context, o.device, merklize::detail::kernel_program_source(spec.files),
        spec.options + " " + o.build_log);
    std::cout << "build log of " << merklize::to_string(strategy) << " (" << spec.options << " "
              << o.build_log << "):\n"
              << merklize::detail::build_logs(program, context);
    const auto binary = merklize::detail::program_binary(program, o.device);
    std::ofstream("hash-" + std::string(merklize::to_string(strategy)) + ".bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(binary.data()),
               static_cast<std::streamsize>(binary.size()));
  }
}

std::vector<std::uint8_t> random_input(std::uint64_t size) {
  std::vector<std::uint8_t> data(size);
  std::mt19937_64 rng(size);
  for (std::uint64_t i = 0; i + 8 <= size; i += 8) {
    const std::uint64_t word = rng();
    std::memcpy(data.data() + i, &word, 8);
  }
  return data;
}

// The host BLAKE3 of random_input(size), computed once per size: the host reference is slow.
const merklize::digest &expected_digest(std::uint64_t size) {
  static std::map<std::uint64_t, merklize::digest> digests;
  auto found = digests.find(size);
  if (found == digests.end()) {
    const auto data = random_input(size);
    found = digests.emplace(size, merklize::blake3::hash(data.data(), data.size())).first;
  }
  return found->second;
}

void check_digest(benchmark::State &state, const merklize::digest &d, std::uint64_t size) {
  if (d != expected_digest(size)) state.SkipWithError("device digest differs from the host BLAKE3");
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + "MiB"; }

merklize::blake3_device &hasher(const options &o, merklize::chunk_strategy strategy) {
  static std::map<merklize::chunk_strategy, std::unique_ptr<merklize::blake3_device>> devices;
  auto &slot = devices[strategy];
  if (!slot) {
    merklize::hash_config cfg;
    cfg.strategy = strategy;
    cfg.work_group_size = o.work_group;
    cfg.file_read_threads = o.read_threads;
    cfg.max_device_bytes = o.max_device_bytes;
    slot = std::make_unique<merklize::blake3_device>(o.device, cfg);
  }
  return *slot;
}

void set_rate(benchmark::State &state, std::uint64_t bytes, double total_ms) {
  state.counters["GB/s"] = total_ms > 0 ? bytes * double(state.iterations()) / total_ms / 1e6 : 0;
}

void kernel_bench(benchmark::State &state, const options &o, merklize::chunk_strategy strategy,
                  std::uint64_t size) {
  auto &b3 = hasher(o, strategy);
  const auto data = random_input(size);
  cl::Buffer input(b3.context(), CL_MEM_READ_ONLY, size);
  b3.queue().enqueueWriteBuffer(input, CL_TRUE, 0, size, data.data());
  cl::Buffer output(b3.context(), CL_MEM_WRITE_ONLY, merklize::node_bytes);
  merklize::digest d;
  double total_ms = 0;
  for (auto _ : state) {
    const auto events =
        b3.enqueue_hash(merklize::blake3_mode::hash(), input, size, output, d.size());
    events.back().wait();
    const double ms = merklize::events_ms(events);
    total_ms += ms;
    state.SetIterationTime(ms * 1e-3);
    state.counters["launches"] = double(events.size());
  }
  b3.queue().enqueueReadBuffer(output, CL_TRUE, 0, d.size(), d.data());
  check_digest(state, d, size);
  set_rate(state, size, total_ms);
}

void host_bench(benchmark::State &state, const options &o, std::uint64_t size) {
  auto &b3 = hasher(o, merklize::chunk_strategy::automatic);
  const auto data = random_input(size);
  double upload = 0, kernel = 0, download = 0;
  merklize::digest d{};
  for (auto _ : state) {
    d = b3.hash(data.data(), data.size());
    const auto &t = b3.last_times();
    upload += t.upload_ms;
    kernel += t.kernel_ms;
    download += t.download_ms;
    state.SetIterationTime((t.upload_ms + t.kernel_ms + t.download_ms) * 1e-3);
  }
  const double n = double(state.iterations());
  state.counters["upload_ms"] = upload / n;
  state.counters["kernel_ms"] = kernel / n;
  state.counters["download_ms"] = download / n;
  state.counters["kernel_GB/s"] = size / (kernel / n) / 1e6;
  set_rate(state, size, upload + kernel + download);
  state.SetLabel(merklize::to_string(b3.strategy()));
  check_digest(state, d, size);
}

// The test file, written once.
const std::string &test_file(const options &o) {
  static const std::string path = [&] {
    const std::string p = o.file_dir + "/merklize-hash-bench-" + mib(o.file_size);
    const auto data = random_input(o.file_size);
    // Written back to disk before any run, so that evicting it from the page cache works.
    std::FILE *f = std::fopen(p.c_str(), "wb");
    if (!f || std::fwrite(data.data(), 1, data.size(), f) != data.size() || std::fflush(f) != 0 ||
        ::fsync(fileno(f)) != 0 || std::fclose(f) != 0)
      throw merklize::error("cannot write " + p);
    return p;
  }();
  return path;
}

// Evicts the file's clean pages from the page cache: the next read comes from the disk.
void evict(const std::string &path) {
  const merklize::detail::file_descriptor file(path);
  ::posix_fadvise(file.get(), 0, 0, POSIX_FADV_DONTNEED);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The baseline's mean time, warm (false) and cold (true), for the ratio in the hash rows.
std::map<bool, double> &baseline_ms() {
  static std::map<bool, double> means;
  return means;
}

// Times `run` (after one run that allocates what later ones reuse), the file evicted before
// each run if cold; returns the mean time in ms.
template <class Run>
double time_file_runs(benchmark::State &state, const options &o, bool cold, Run &&run) {
  const std::string &path = test_file(o);
  run(path);
  double total_ms = 0;
  for (auto _ : state) {
    if (cold) evict(path);
    const auto start = std::chrono::steady_clock::now();
    run(path);
    const double seconds = seconds_since(start);
    total_ms += seconds * 1e3;
    state.SetIterationTime(seconds);
  }
  set_rate(state, o.file_size, total_ms);
  return total_ms / double(state.iterations());
}

// The baseline: the file moved to the device as hash_file moves it, nothing hashed.
void file_read_upload_bench(benchmark::State &state, const options &o, bool cold) {
  auto &b3 = hasher(o, merklize::chunk_strategy::automatic);
  const cl::CommandQueue transfer(b3.context(), b3.device(), CL_QUEUE_PROFILING_ENABLE);
  const bool in_place =
      merklize::detail::device_runtime(b3.context(), b3.device()).shares_host_memory();
  merklize::detail::piece_pipeline pipeline(b3.context(), transfer, in_place);
  std::uint64_t pieces = 0;
  double upload_ms = 0;
  baseline_ms()[cold] = time_file_runs(state, o, cold, [&](const std::string &path) {
    const merklize::detail::file_descriptor file(path);
    merklize::detail::file_pieces source(
        file.get(), path, o.file_size, b3.stream_piece_bytes(o.file_size),
        merklize::detail::file_read_threads(o.file_size, o.read_threads));
    std::vector<cl::Event> uploads;
    pieces = pipeline.run(source, uploads, [](auto &&...) { return cl::Event(); });
    transfer.finish();
    upload_ms = merklize::events_ms(uploads);
  });
  state.counters["pieces"] = double(pieces);
  state.counters["upload_ms"] = upload_ms; // of the last run
  state.counters["threads"] = merklize::detail::file_read_threads(o.file_size, o.read_threads);
}

// What `merklize b3sum FILE` does.
void file_hash_bench(benchmark::State &state, const options &o, bool cold) {
  auto &b3 = hasher(o, merklize::chunk_strategy::automatic);
  merklize::digest d{};
  const double mean_ms =
      time_file_runs(state, o, cold, [&](const std::string &path) { d = b3.hash_file(path); });
  state.counters["pieces"] = double(b3.last_times().pieces);
  state.counters["upload_ms"] = b3.last_times().upload_ms; // of the last run
  state.counters["kernel_ms"] = b3.last_times().kernel_ms;
  if (baseline_ms().count(cold)) state.counters["x_read+upload"] = mean_ms / baseline_ms()[cold];
  state.SetLabel(merklize::to_string(b3.strategy()));
  check_digest(state, d, o.file_size);
}

} // namespace

int main(int argc, char **argv) {
  try {
    const options o = parse_options(argc, argv);
    if (!o.build_log.empty()) {
      print_build_logs(o);
      return 0;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::AddCustomContext("device", merklize::device_name(o.device));
    benchmark::AddCustomContext("automatic strategy",
                                merklize::to_string(merklize::default_chunk_strategy(o.device)));
    for (auto size : o.sizes)
      for (auto strategy : o.strategies)
        benchmark::RegisterBenchmark(
            ("kernel/" + merklize::to_string(strategy) + "/" + mib(size)).c_str(),
            [&o, strategy, size](benchmark::State &s) { kernel_bench(s, o, strategy, size); })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    for (auto size : o.sizes)
      benchmark::RegisterBenchmark(("host/" + mib(size)).c_str(),
                                   [&o, size](benchmark::State &s) { host_bench(s, o, size); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    for (bool cold : {false, true}) {
      const std::string suffix = "/" + mib(o.file_size) + (cold ? "/cold" : "/warm");
      benchmark::RegisterBenchmark(
          ("file/read+upload" + suffix).c_str(),
          [&o, cold](benchmark::State &s) { file_read_upload_bench(s, o, cold); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("file/hash" + suffix).c_str(),
                                   [&o, cold](benchmark::State &s) { file_hash_bench(s, o, cold); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
    bench::plain_ms_reporter reporter; // *_ms counters in plain milliseconds
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    if (!o.file_dir.empty()) std::remove(test_file(o).c_str());
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "hash_bench: " << e.what() << "\n";
    return 1;
  }
}
