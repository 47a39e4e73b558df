// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_bench: Merkle trees of 2^min .. 2^max leaves on one device, with Google Benchmark.
//
// Every time is measured by OpenCL event profiling (UseManualTime), apart from the end-to-end
// figures, which are the host's clock around a whole build. Families:
//   kernels/K       all kernels of the tree, leaves already on the device (enqueue_build)
//   pinned_copy/K   raw clEnqueueWrite/ReadBuffer of the leaves' bytes from page-locked memory:
//                   the bus's bandwidth, against which uploads and downloads are judged
//   host_all/K      std::vector leaves (pageable) in, every node out
//   pinned_nodes/K  leaves in library-pinned memory, every internal node into pinned memory
//   pinned_root/K   the same, root only
//   cpu_<name>/K    the CPU baselines (cpu_baselines.hpp): the same tree on all the host's cores
//                   by OpenSSL (sha256, rfc6962, sha3-256), BLAKE3's hash_many (blake3) or hashtree
//                   (sha256), where built; host clock, each root checked against the device's
// Every row's label names the node hash (--hash=NAME, default blake3). On CPU devices a host
// build that keeps every level runs in place in host memory, with no copies (config::zero_copy):
// its rows say "zero-copy" where transfer times would be, and the copy rows and bandwidth columns,
// which measure nothing there, are left out.
// Millisecond counters print as plain milliseconds (plain_ms_reporter.hpp).
// After the run: a summary table per size, and with --csv=FILE the rows for bench/plot.py.
// --variants[=K,K,...] times the kernels of one-level launches instead (kernel_variants.hpp),
// with --hash=NAME for nodes other than BLAKE3's (sha256, rfc6962, ...).
// --timeline=K prints where a pinned build of 2^K leaves, every node kept, spends its time:
// each queue's busy and idle time on the device's clock, against the host's wall time.
#include "cpu_baselines.hpp"
#include "kernel_variants.hpp"
#include "plain_ms_reporter.hpp"

#include <merklize/merklize.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

struct options {
  unsigned min_log2 = 10, max_log2 = 0; // 0: by device type
  std::string csv;
  std::string build_log; // extra build options: print the Merkle program's build log and exit
  bool sweep = false;    // kernels only, over work-group sizes and levels per launch
  bool variants = false; // kernel variants of the one-level launches, at variant_sizes
  merklize::hash_kind hash = merklize::hash_kind::blake3; // --hash=NAME: every tree's nodes
  unsigned lanes = 0; // --lanes=N: config::lanes of every tree (0: the tuning row's)
  std::vector<unsigned> variant_sizes; // log2 leaf counts; empty: by device type
  unsigned timeline = 0;               // log2 leaf count of --timeline; 0: none
  unsigned threads = std::max(1u, std::thread::hardware_concurrency()); // the CPU baselines'
  bool help = false;
};

std::vector<unsigned> parse_sizes(const std::string &list) {
  std::vector<unsigned> sizes;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    sizes.push_back(static_cast<unsigned>(std::stoul(list.substr(at, comma - at))));
    at = comma + 1;
  }
  return sizes;
}

// One size's measurements, for the summary table and the CSV.
struct row {
  double kernel_ms = 0, upload_ms = 0, download_ms = 0, host_e2e_ms = 0;
  double pinned_up_gbs = 0, pinned_down_gbs = 0, lib_up_gbs = 0, lib_down_gbs = 0;
  double pinned_e2e_ms = 0, root_e2e_ms = 0, levels_up_ms = 0, levels_down_ms = 0;
  std::map<std::string, double> baseline_ms; // by CPU baseline's name
  merklize::digest device_root{};            // the kernels' root, which every baseline must give
  // Zero-copy builds (no transfers) of host_all/K and pinned_nodes/K.
  bool host_zero_copy = false, pinned_zero_copy = false;
};

std::map<unsigned, row> rows;
cl::Device device;
std::string device_label;
merklize::hash_kind tree_hash = merklize::hash_kind::blake3; // --hash
unsigned tree_lanes = 0;                                     // --lanes
unsigned baseline_threads = 1;                               // --threads

// The node hash of every tree, in every row's label.
std::string hash_label() { return merklize::to_string(tree_hash); }

// The defaults but the node hash (and --lanes).
merklize::config hashed(merklize::config cfg = {}) {
  cfg.tree.hash = tree_hash;
  cfg.lanes = tree_lanes;
  return cfg;
}

std::vector<std::uint8_t> random_leaves(std::uint64_t n) {
  std::vector<std::uint8_t> leaves(n * merklize::node_bytes);
  std::mt19937_64 rng(n);
  for (std::size_t i = 0; i < leaves.size(); i += 8) {
    const std::uint64_t r = rng();
    std::memcpy(leaves.data() + i, &r, 8);
  }
  return leaves;
}

merklize::config with_output(merklize::output_levels out) {
  merklize::config cfg = hashed();
  cfg.output = out;
  return cfg;
}

double gbs(std::uint64_t bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0; }

void kernels(benchmark::State &state, unsigned log2, merklize::config cfg, bool record) {
  const std::uint64_t n = std::uint64_t(1) << log2;
  merklize::merkleizer m(device, cfg);
  const auto leaves = random_leaves(n);
  cl::Buffer in(m.context(), CL_MEM_READ_ONLY, leaves.size());
  m.queue().enqueueWriteBuffer(in, CL_TRUE, 0, leaves.size(), leaves.data());
  cl::Buffer out(m.context(), CL_MEM_READ_WRITE,
                 merklize::merkleizer::output_node_count(n) * merklize::node_bytes);
  m.enqueue_build(in, n, out).back().wait(); // warm-up: program build, first-touch allocation
  if (record) {                              // the root, which the CPU baselines must give too
    const std::size_t last = merklize::merkleizer::output_node_count(n) - 1;
    m.queue().enqueueReadBuffer(out, CL_TRUE, last * merklize::node_bytes, merklize::node_bytes,
                                rows[log2].device_root.data());
  }
  state.SetLabel(hash_label());
  double total = 0;
  for (auto _ : state) {
    const auto events = m.enqueue_build(in, n, out);
    events.back().wait();
    const double ms = merklize::events_ms(events);
    total += ms;
    state.SetIterationTime(ms / 1e3);
    state.counters["launches"] = static_cast<double>(events.size());
  }
  const double mean_ms = total / state.iterations();
  if (record) rows[log2].kernel_ms = mean_ms;
  state.counters["node_hashes_per_s"] = static_cast<double>(n - 1) / (mean_ms / 1e3);
}

void pinned_copy(benchmark::State &state, unsigned log2) {
  const std::uint64_t bytes = (std::uint64_t(1) << log2) * merklize::node_bytes;
  merklize::merkleizer m(device);
  const merklize::host_buffer host = m.allocate_host(bytes);
  std::memset(host.data(), 1, bytes);
  cl::Buffer dev(m.context(), CL_MEM_READ_WRITE, bytes);
  const cl::CommandQueue q(m.context(), m.device(), CL_QUEUE_PROFILING_ENABLE);
  q.enqueueWriteBuffer(dev, CL_TRUE, 0, bytes, host.data());
  double up = 0, down = 0;
  for (auto _ : state) {
    cl::Event w, r;
    q.enqueueWriteBuffer(dev, CL_FALSE, 0, bytes, host.data(), nullptr, &w);
    q.enqueueReadBuffer(dev, CL_FALSE, 0, bytes, host.data(), nullptr, &r);
    r.wait();
    const double wm = merklize::event_ms(w), rm = merklize::event_ms(r);
    up += wm;
    down += rm;
    state.SetIterationTime((wm + rm) / 1e3);
  }
  state.SetLabel("raw copies, no hash");
  rows[log2].pinned_up_gbs = gbs(bytes, up / state.iterations());
  rows[log2].pinned_down_gbs = gbs(bytes, down / state.iterations());
  state.counters["up_GBps"] = rows[log2].pinned_up_gbs;
  state.counters["down_GBps"] = rows[log2].pinned_down_gbs;
}

// Whether the last build issued no copy at all: a CPU device ran it in place in host memory.
bool ran_in_place(const merklize::merkleizer &m) {
  const auto spans = m.timeline();
  return std::all_of(spans.begin(), spans.end(), [](const merklize::command_span &span) {
    return span.what == merklize::command_span::kind::kernel;
  });
}

// Zero-copy builds have no transfer times to report: the label says so instead.
void report_times(benchmark::State &state, const merklize::build_times &sum, std::int64_t runs,
                  bool zero_copy) {
  state.counters["kernel_ms"] = sum.kernel_ms / runs;
  state.counters["chunks"] = static_cast<double>(sum.chunks);
  if (zero_copy) {
    state.SetLabel(hash_label() + ", zero-copy");
    return;
  }
  state.SetLabel(hash_label());
  state.counters["upload_ms"] = sum.upload_ms / runs;
  state.counters["download_ms"] = sum.download_ms / runs;
}

void accumulate(merklize::build_times &sum, const merklize::build_times &t) {
  sum.upload_ms += t.upload_ms;
  sum.kernel_ms += t.kernel_ms;
  sum.download_ms += t.download_ms;
  sum.wall_ms += t.wall_ms;
  sum.chunks = t.chunks;
}

void host_all(benchmark::State &state, unsigned log2) {
  const std::uint64_t n = std::uint64_t(1) << log2;
  merklize::merkleizer m(device, hashed());
  const auto leaves = random_leaves(n);
  m.build(leaves);
  merklize::build_times sum;
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.build(leaves));
    accumulate(sum, m.last_times());
    state.SetIterationTime(m.last_times().wall_ms / 1e3);
  }
  row &r = rows[log2];
  r.host_zero_copy = ran_in_place(m);
  report_times(state, sum, state.iterations(), r.host_zero_copy);
  r.upload_ms = sum.upload_ms / state.iterations();
  r.download_ms = sum.download_ms / state.iterations();
  r.host_e2e_ms = sum.wall_ms / state.iterations();
}

void pinned(benchmark::State &state, unsigned log2, merklize::config cfg) {
  const std::uint64_t n = std::uint64_t(1) << log2;
  const merklize::output_levels out = cfg.output;
  merklize::merkleizer m(device, cfg);
  merklize::host_buffer leaves = m.allocate_host(n * merklize::node_bytes);
  const auto random = random_leaves(n);
  std::memcpy(leaves.data(), random.data(), random.size());
  merklize::tree t = m.allocate_tree(n);
  m.build(leaves, t);
  merklize::build_times sum;
  for (auto _ : state) {
    m.build(leaves, t);
    accumulate(sum, m.last_times());
    state.SetIterationTime(m.last_times().wall_ms / 1e3);
  }
  const bool in_place = ran_in_place(m);
  report_times(state, sum, state.iterations(), in_place);
  row &r = rows[log2];
  const double wall = sum.wall_ms / state.iterations();
  if (out.first == 0 || out.first == 1) {
    r.pinned_zero_copy = in_place;
    r.pinned_e2e_ms = wall;
    r.levels_up_ms = sum.upload_ms / state.iterations();
    r.levels_down_ms = sum.download_ms / state.iterations();
    r.lib_up_gbs = gbs(n * merklize::node_bytes, r.levels_up_ms);
    r.lib_down_gbs = gbs(t.nodes_size(), r.levels_down_ms);
  } else {
    r.root_e2e_ms = wall;
  }
}

// A CPU baseline: the same tree on the host's cores (cpu_baselines.hpp), host clock. Its root
// must be the device's (the kernels row of the same size ran first, on the same leaves).
void cpu_tree(benchmark::State &state, unsigned log2, const bench::cpu_baseline &baseline) {
  const std::uint64_t n = std::uint64_t(1) << log2;
  const auto leaves = random_leaves(n);
  std::vector<std::uint8_t> a(n / 2 * merklize::node_bytes), b(a.size());
  const merklize::digest root =
      bench::baseline_root(baseline, leaves.data(), n, baseline_threads, a.data(), b.data());
  if (rows.count(log2) && rows[log2].kernel_ms > 0 && root != rows[log2].device_root) {
    state.SkipWithError((baseline.name + "'s root differs from the device's").c_str());
    return;
  }
  state.SetLabel(hash_label() + ", " + baseline.name + ", " + std::to_string(baseline_threads) +
                 " threads");
  double total = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(
        bench::baseline_root(baseline, leaves.data(), n, baseline_threads, a.data(), b.data()));
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    total += took.count();
    state.SetIterationTime(took.count() / 1e3);
  }
  rows[log2].baseline_ms[baseline.name] = total / state.iterations();
  state.counters["node_hashes_per_s"] =
      static_cast<double>(n - 1) / (total / state.iterations() / 1e3);
}

// merklize_bench's own flags, which --help shows before Google Benchmark's.
const char *own_flags =
    R"(merklize_bench: Merkle trees of 2^K leaves on one OpenCL device (MERKLIZE_DEVICE, else the
first GPU, else the first device), beside the same tree on the host's cores, in one run.

Rows (each row's label names the node hash):
  kernels/K        the tree's kernels, leaves already on the device (OpenCL event times)
  pinned_copy/K    raw copies of the leaves' bytes, page-locked memory <-> device (not on CPUs)
  host_all/K       a std::vector of leaves in, every node out (host clock)
  pinned_nodes/K   page-locked leaves in, every internal node into page-locked memory
  pinned_root/K    the same, root only
  cpu_<name>/K     the CPU baselines on --threads threads, each root checked against the device's:
                   OpenSSL SHA-256 (--hash=sha256, rfc6962) and SHA3-256 (--hash=sha3-256;
                   KECCAK-256 from OpenSSL 3.2), BLAKE3's hash_many (--hash=blake3,
                   where its C sources were found at configure time: -DMERKLIZE_BLAKE3_C_DIR=DIR
                   or Debian's librust-blake3-dev), hashtree (--hash=sha256, where installed)
Then a table per size, and which paths beat the best CPU baseline.

merklize_bench's flags:
  --min_log2=K --max_log2=K  sizes 2^K (default 2^10 to 2^25 on a GPU, 2^20 elsewhere)
  --hash=NAME                node hash of every tree: blake3 (default), blake3-parent, sha256,
                             rfc6962, keccak256, sha3-256
  --lanes=N                  nodes per work-item in vector lanes of every tree (1: the
                             one-node kernels; default: the tuning row's)
  --threads=N                threads of the CPU baselines (default: every core, here )";

const char *own_flags_end = R"()
  --device=SPEC              the device, as MERKLIZE_DEVICE takes it (merklize devices)
  --csv=FILE                 append node hashes per second by device, mode and size to FILE
                             (bench/plot.py plots it)
  --sweep                    the kernels over work-group sizes, lanes and chunk sizes
  --variants[=K,K]           every kernel variant of the one-level launches, at sizes 2^K
  --timeline=K               where a page-locked build of 2^K leaves spends its time, per queue
  --build_log=OPTIONS        NVIDIA's register report of the tree programs (e.g. -cl-nv-verbose),
                             their binaries written to *.bin
  --help                     this, then Google Benchmark's flags

"***WARNING*** Library was built as DEBUG. Timings may be affected." is printed by Debian's
libbenchmark package, which is built without NDEBUG: it is about Google Benchmark's own loop,
not merklize, whose build type is its CMake build's (the "merklize build" line of a run). The times
here are OpenCL event times and host clocks around merklize's and the baselines' own calls
(manual time), which that loop does not enter.

Google Benchmark's flags:)";

options parse(int &argc, char **argv) {
  options o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *name) -> const char * {
      const std::string prefix = std::string("--") + name + "=";
      return a.compare(0, prefix.size(), prefix) == 0 ? argv[i] + prefix.size() : nullptr;
    };
    if (const char *v = value("min_log2"))
      o.min_log2 = std::stoul(v);
    else if (const char *v = value("max_log2"))
      o.max_log2 = std::stoul(v);
    else if (const char *v = value("csv"))
      o.csv = v;
    else if (const char *v = value("build_log"))
      o.build_log = v;
    else if (a == "--sweep")
      o.sweep = true;
    else if (a == "--variants")
      o.variants = true;
    else if (const char *v = value("variants")) {
      o.variants = true;
      o.variant_sizes = parse_sizes(v);
    } else if (const char *v = value("hash"))
      o.hash = merklize::parse_hash_kind(v);
    else if (const char *v = value("lanes"))
      o.lanes = static_cast<unsigned>(std::stoul(v));
    else if (const char *v = value("timeline"))
      o.timeline = std::stoul(v);
    else if (const char *v = value("threads"))
      o.threads = std::max(1ul, std::stoul(v));
    else if (const char *v = value("device"))
      ::setenv("MERKLIZE_DEVICE", v, 1);
    else {
      o.help = o.help || a == "--help" || a == "-h";
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return o;
}

// A number of the summary, or "zero-copy" where the build made no transfer to time.
std::string cell(const char *format, double value, bool zero_copy = false) {
  if (zero_copy) return "zero-copy";
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// The CPU baselines' columns: each one's milliseconds at this size, or "-".
std::string baseline_cells(const row &r, const std::vector<bench::cpu_baseline> &baselines) {
  std::string cells;
  for (const auto &b : baselines) {
    const auto at = r.baseline_ms.find(b.name);
    cells += " " + (at == r.baseline_ms.end() ? std::string("-") : cell("%.3f", at->second)) + " |";
  }
  return cells;
}

// The table's header: copies and bandwidths only where there are copies (not on CPU devices).
std::string table_header(bool gpu, const std::vector<bench::cpu_baseline> &baselines) {
  std::string header = "| leaves | kernel ms | node hashes/s | ";
  header += gpu ? "upload ms | download ms | end-to-end ms (vector) | pinned: upload ms | "
                  "download ms | end-to-end ms | root only ms | raw pinned GB/s up / down | "
                  "library GB/s up / down |"
                : "end-to-end ms (vector) | pinned end-to-end ms | root only ms |";
  for (const auto &b : baselines)
    header += " " + b.name + ", " + std::to_string(baseline_threads) + " threads, ms |";
  std::string rule = "|";
  for (char c : header)
    if (c == '|') rule += "---|";
  return header + "\n" + rule.substr(0, rule.size() - 4) + "\n";
}

// One size's line of the table.
std::string table_line(unsigned log2, const row &r, bool gpu,
                       const std::vector<bench::cpu_baseline> &baselines) {
  const bool host = r.host_zero_copy, pinned = r.pinned_zero_copy;
  char start[96];
  std::snprintf(start, sizeof start, "| 2^%u | %.4f | %.3g |", log2, r.kernel_ms,
                ((std::uint64_t(1) << log2) - 1) / (r.kernel_ms / 1e3));
  std::string line = start;
  if (gpu)
    line +=
        " " + cell("%.3f", r.upload_ms, host) + " | " + cell("%.3f", r.download_ms, host) + " | " +
        cell("%.3f", r.host_e2e_ms) + " | " + cell("%.3f", r.levels_up_ms, pinned) + " | " +
        cell("%.3f", r.levels_down_ms, pinned) + " | " + cell("%.3f", r.pinned_e2e_ms) + " | " +
        cell("%.3f", r.root_e2e_ms) + " | " + cell("%.1f", r.pinned_up_gbs) + " / " +
        cell("%.1f", r.pinned_down_gbs) + " | " +
        (pinned ? "zero-copy" : cell("%.1f", r.lib_up_gbs) + " / " + cell("%.1f", r.lib_down_gbs)) +
        " |";
  else
    line += " " + cell("%.3f", r.host_e2e_ms) + " | " + cell("%.3f", r.pinned_e2e_ms) + " | " +
            cell("%.3f", r.root_e2e_ms) + " |";
  return line + baseline_cells(r, baselines) + "\n";
}

// Whether merklize pays at each size: its end-to-end time from a std::vector (what a program
// with leaves in memory calls) against the fastest CPU baseline.
void print_verdicts(const std::vector<bench::cpu_baseline> &baselines) {
  if (baselines.empty()) {
    std::printf("\nNo CPU baseline for %s nodes in this build. %s\n", hash_label().c_str(),
                bench::missing_baselines(tree_hash).c_str());
    return;
  }
  std::printf("\nAgainst the fastest CPU baseline, a std::vector to every node (host_all):\n");
  for (const auto &[log2, r] : rows) {
    if (r.baseline_ms.empty() || r.host_e2e_ms <= 0) continue;
    const auto best = std::min_element(r.baseline_ms.begin(), r.baseline_ms.end(),
                                       [](auto &x, auto &y) { return x.second < y.second; });
    const double ratio = best->second / r.host_e2e_ms;
    std::printf("  2^%u leaves: merklize %.3f ms, %s %.3f ms: merklize %.2fx %s\n", log2,
                r.host_e2e_ms, best->first.c_str(), best->second, ratio >= 1 ? ratio : 1 / ratio,
                ratio >= 1 ? "faster" : "slower");
  }
  const std::string missing = bench::missing_baselines(tree_hash);
  if (!missing.empty()) std::printf("Not compared: %s\n", missing.c_str());
}

// A line per size like the original's, then the table docs/BENCHMARKS.md quotes.
void print_summary(bool gpu) {
  const auto baselines = bench::cpu_baselines(tree_hash);
  std::printf("\nmerklize on %s, %s nodes\n", device_label.c_str(), hash_label().c_str());
  for (const auto &[log2, r] : rows)
    if (r.host_zero_copy)
      std::printf("merklized 2^%u leaves in %.3f ms, zero-copy: no host to device or device to "
                  "host tx, the device used the leaves and nodes in host memory\n",
                  log2, r.kernel_ms);
    else
      std::printf("merklized 2^%u leaves in %.3f ms, with host to device tx in %.3f ms, device to "
                  "host tx in %.3f ms\n",
                  log2, r.kernel_ms, r.upload_ms, r.download_ms);
  std::printf("\n%s", table_header(gpu, baselines).c_str());
  for (const auto &[log2, r] : rows)
    std::printf("%s", table_line(log2, r, gpu, baselines).c_str());
  print_verdicts(baselines);
}

// A CSV field, quoted where it holds a comma, a quote or a line break.
std::string csv_field(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// Node hashes per second by device, mode and size, for bench/plot.py. Runs append to the file
// (several devices in one plot); a new file starts with the header line. The CPU baselines are
// the device "host CPU", which the plot dashes.
void write_csv(const std::string &path) {
  std::error_code no_file;
  const bool fresh = std::filesystem::file_size(path, no_file) == 0 || no_file;
  std::ofstream csv(path, std::ios::app);
  if (!csv) throw std::runtime_error(path + ": cannot be opened for writing");
  if (fresh) csv << "device,mode,log2_leaves,node_hashes_per_s\n";
  const std::string device = csv_field(device_label);
  const std::string hash = " (" + hash_label() + ")";
  for (const auto &[log2, r] : rows) {
    const double hashes = static_cast<double>(std::uint64_t(1) << log2) - 1;
    const auto line = [&](const std::string &who, const std::string &mode, double ms) {
      if (ms > 0)
        csv << who << "," << csv_field(mode + hash) << "," << log2 << "," << hashes / (ms / 1e3)
            << "\n";
    };
    line(device, "kernels", r.kernel_ms);
    line(device, "host vector end-to-end", r.host_e2e_ms);
    line(device, "pinned end-to-end", r.pinned_e2e_ms);
    line(device, "pinned root only", r.root_e2e_ms);
    for (const auto &[name, ms] : r.baseline_ms)
      line("host CPU", name + " on " + std::to_string(baseline_threads) + " threads", ms);
  }
}

// One queue's commands in a timeline: busy time, span, and the idle gaps over 20 us.
void print_queue(const std::vector<merklize::command_span> &spans,
                 merklize::command_span::kind what, const char *name) {
  double busy = 0, first = -1, last = 0, idle = 0;
  std::size_t count = 0;
  std::string gaps;
  for (const auto &span : spans) {
    if (span.what != what) continue;
    const double gap = count ? span.start_ms - last : 0;
    if (gap > 0.02) {
      idle += gap;
      if (gaps.size() < 200)
        gaps += " " + std::to_string(gap).substr(0, 5) + "@" +
                std::to_string(span.start_ms).substr(0, 5);
    }
    if (first < 0) first = span.start_ms;
    busy += span.end_ms - span.start_ms;
    last = std::max(last, span.end_ms);
    ++count;
  }
  if (count == 0) first = 0;
  std::printf("  %-8s %4zu commands, busy %7.3f ms, from %7.3f to %7.3f ms, idle %.3f ms in gaps "
              "over 20 us (ms@ms):%s\n",
              name, count, busy, first, last, idle, gaps.c_str());
}

// Builds a tree program as the device's tuning row has it, with `extra` options (e.g.
// -cl-nv-verbose: registers and spills) appended, prints its build log and writes its binary (PTX
// on NVIDIA, for bench/sass.sh) to <name>.bin.
void write_build_log(const merklize::detail::program_spec &spec, const std::string &name,
                     const std::string &extra, const merklize::tuning &row) {
  const auto tuned = merklize::detail::tuned_spec(spec, row);
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::Program program = merklize::detail::build_program(
      context, device, merklize::detail::kernel_program_source(tuned.files),
      tuned.options + " " + extra);
  std::cout << "build log of " << name << " (" << tuned.options << " " << extra << "):\n"
            << merklize::detail::build_logs(program, context);
  const auto binary = merklize::detail::program_binary(program, device);
  std::ofstream(name + ".bin", std::ios::binary)
      .write(reinterpret_cast<const char *>(binary.data()),
             static_cast<std::streamsize>(binary.size()));
}

void print_timeline(unsigned log2, const merklize::config &cfg, const std::string &what,
                    bool detail = false) {
  const std::uint64_t n = std::uint64_t(1) << log2;
  merklize::merkleizer m(device, cfg);
  merklize::host_buffer leaves = m.allocate_host(n * merklize::node_bytes);
  const auto random = random_leaves(n);
  std::memcpy(leaves.data(), random.data(), random.size());
  merklize::tree t = m.allocate_tree(n);
  for (int warm = 0; warm < 3; ++warm)
    m.build(leaves, t);
  const auto spans = m.timeline();
  double end = 0;
  for (const auto &span : spans)
    end = std::max(end, span.end_ms);
  std::printf("timeline, 2^%u leaves pinned, every node, %s: wall %.3f ms, commands %.3f ms, "
              "%zu chunks\n",
              log2, what.c_str(), m.last_times().wall_ms, end, m.last_times().chunks);
  using kind = merklize::command_span::kind;
  print_queue(spans, kind::upload, "upload");
  print_queue(spans, kind::kernel, "kernels");
  print_queue(spans, kind::download, "download");
  if (!detail) return;
  std::printf("  the commands starting 4 to 8 ms in (u: upload, k: kernel, d: download):\n   ");
  for (const auto &span : spans)
    if (span.start_ms >= 4 && span.start_ms < 8)
      std::printf(" %c%.3f-%.3f", "ukd"[static_cast<int>(span.what)], span.start_ms, span.end_ms);
  std::printf("\n");
}

template <class... Args> void register_row(const std::string &name, Args &&...args) {
  benchmark::RegisterBenchmark(name.c_str(), std::forward<Args>(args)...)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

// The rows of every size: the kernels first, whose root the CPU baselines are checked against;
// no raw copies on a CPU device, where nothing is copied.
void register_rows(const options &o, bool gpu) {
  for (unsigned k = o.min_log2; k <= o.max_log2; ++k) {
    const std::string size = "/" + std::to_string(k);
    register_row("kernels" + size, kernels, k, hashed(), true);
    if (gpu) register_row("pinned_copy" + size, pinned_copy, k);
    register_row("host_all" + size, host_all, k);
    register_row("pinned_nodes" + size, pinned, k,
                 with_output(merklize::output_levels::from_level(1)));
    register_row("pinned_root" + size, pinned, k,
                 with_output(merklize::output_levels::root_only()));
    for (const bench::cpu_baseline &b : bench::cpu_baselines(tree_hash)) {
      std::string name = "cpu_" + b.name.substr(0, b.name.find(' '));
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      register_row(name + size, cpu_tree, k, b);
    }
  }
}

int run(options o, int argc, char **argv) {
  tree_hash = o.hash;
  tree_lanes = o.lanes;
  baseline_threads = o.threads;
  device = merklize::default_device();
  const bool gpu =
      merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(device) & CL_DEVICE_TYPE_GPU;
  if (o.variants) {
    if (o.variant_sizes.empty())
      o.variant_sizes = gpu ? std::vector<unsigned>{20, 25} : std::vector<unsigned>{12, 16};
    return bench::run_kernel_variants(device, o.variant_sizes, o.build_log, o.hash);
  }
  if (!o.build_log.empty()) { // e.g. --build_log=-cl-nv-verbose: registers and spills
    merklize::config cfg;
    cfg.tree.hash = o.hash;
    const merklize::merkleizer m(device, cfg);
    const auto &row = merklize::tuning_for(merklize::read_device_facts(device));
    write_build_log(m.level_program(), "merkle", o.build_log, row);
    write_build_log(m.merkle_level_program(), "merkle_level", o.build_log, row);
    write_build_log(m.merkle_levels_program(), "merkle_levels", o.build_log, row);
    return 0;
  }
  if (o.timeline) {
    std::printf("device: %s\n", merklize::device_name(device).c_str());
    print_timeline(o.timeline, with_output(merklize::output_levels::from_level(1)), "defaults",
                   true);
    for (unsigned chunk_log2 : {20u, 21u, 22u})
      for (unsigned in_flight : {3u, 4u, 6u}) {
        merklize::config cfg = with_output(merklize::output_levels::from_level(1));
        cfg.chunk_log2 = chunk_log2;
        cfg.chunks_in_flight = in_flight;
        print_timeline(o.timeline, cfg,
                       "chunks of 2^" + std::to_string(chunk_log2) + ", " +
                           std::to_string(in_flight) + " in flight");
      }
    return 0;
  }
  if (o.max_log2 == 0) o.max_log2 = gpu ? 25 : 20; // 2^20 keeps `make bench` near 2 min on 2 cores
  device_label = merklize::device_name(device);
  benchmark::AddCustomContext("device", device_label);
  benchmark::AddCustomContext("merklize build", MERKLIZE_BUILD_TYPE);
  benchmark::AddCustomContext("node hash", hash_label());
  benchmark::AddCustomContext(
      "libbenchmark", "a \"Library was built as DEBUG\" warning is about Debian's Google "
                      "Benchmark package, not merklize, and leaves these manual times alone "
                      "(merklize_bench --help)");
  if (o.sweep) {
    for (unsigned k = o.min_log2; k <= o.max_log2; ++k)
      for (std::size_t wg : {64, 128, 256})
        for (unsigned lanes : {1u, 2u, 4u})
          for (unsigned per_launch : {0u, 1u}) {
            if (lanes > 1 && per_launch == 0) continue; // lanes kernels do one level a launch
            merklize::config cfg;
            cfg.work_group_size = wg;
            cfg.levels_per_launch = per_launch;
            cfg.lanes = lanes;
            const std::string name = "kernels_wg" + std::to_string(wg) + "_lanes" +
                                     std::to_string(lanes) + "_levels" +
                                     (per_launch ? "1" : "max") + "/" + std::to_string(k);
            benchmark::RegisterBenchmark(name.c_str(), kernels, k, cfg, false)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
          }
    for (unsigned chunk_log2 : {18u, 19u, 20u, 21u, 22u}) {
      merklize::config cfg = with_output(merklize::output_levels::from_level(1));
      cfg.chunk_log2 = chunk_log2;
      const std::string name =
          "pinned_nodes_chunk" + std::to_string(chunk_log2) + "/" + std::to_string(o.max_log2);
      benchmark::RegisterBenchmark(name.c_str(), pinned, o.max_log2, cfg)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::Initialize(&argc, argv);
    bench::plain_ms_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
  }
  register_rows(o, gpu);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::plain_ms_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  print_summary(gpu);
  if (!o.csv.empty()) write_csv(o.csv);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    const options o = parse(argc, argv);
    if (o.help) { // ours, then Google Benchmark's, which prints them and exits
      std::printf("%s%u%s\n", own_flags, o.threads, own_flags_end);
      std::fflush(stdout);
      benchmark::Initialize(&argc, argv);
      return 0;
    }
    return run(o, argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "merklize_bench: " << e.what() << "\n";
    return 1;
  }
}
