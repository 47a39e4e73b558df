// SPDX-License-Identifier: Apache-2.0 OR MIT
// Appends of 2^16 leaves to a log of 2^30 leaves held on the device, against building it again. The
// log's 2^LOG2 leaves are made on the device (a small kernel, splitmix64 of the leaf's index: no
// upload of them); a full build of their tree from there (device_tree, the level kernels; twice,
// the first building the programs) is the baseline, its root kept. Then the log adopts the leaves'
// buffers (no second copy) and must have the same root: one resident_tree whose levels are laid out
// for exactly the rounds' appends (so none moves anything), or with PART_LOG2 < LOG2 a resident_log
// in parts of 2^PART_LOG2 leaves, a buffer each (for a device whose buffers are smaller than the
// log's leaves: an H100's OpenCL may allow a quarter of its memory a buffer, and 2^30 leaves are 32
// GiB). Each round appends COUNT leaves from host memory (uploaded through page-locked staging),
// then COUNT from a device buffer (filled by the same kernel beforehand, copied on the device): the
// call whole by the host's clock, its kernels, its upload or copy and its root read by profiled
// events. Peak device memory by arithmetic. Up to 2^22 leaves the leaves are made on the host as
// well and the final root checked against the host reference (RFC 6962's tree for rfc6962). Prints
// a table.
//   log_bench [LOG2 [HASH [ROUNDS [COUNT [PART_LOG2]]]]]   (defaults 30 rfc6962 5 65536 LOG2;
//                                                            the device: MERKLIZE_DEVICE)
// CL_DEVICE_MAX_MEM_ALLOC_SIZE is printed first: one tree of 2^30 leaves needs 32 GiB buffers
// (an H200); on an H100, `log_bench 30 rfc6962 5 65536 29` (two parts of 16 GiB buffers).
#include "update_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/resident_log.hpp>
#include <merklize/merklize.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using bench::clock_type;
using bench::ms_since;

double gib(std::uint64_t bytes) { return double(bytes) / (1ull << 30); }

// Leaf `index` of the log: four splitmix64 words of index and seed, on the device and the host.
const char *fill_source = R"(
ulong mix(ulong z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
  return z ^ (z >> 31);
}
__kernel void fill_leaves(__global ulong *leaves, ulong first, ulong seed) {
  const ulong i = get_global_id(0);
  for (int w = 0; w < 4; ++w)
    leaves[i * 4 + w] = mix((first + i) * 4 + w + seed * 0x9E3779B97F4A7C15UL);
}
)";

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

merklize::digest host_leaf(std::uint64_t index, std::uint64_t seed) {
  merklize::digest leaf;
  for (int w = 0; w < 4; ++w) {
    const std::uint64_t word = mix(index * 4 + w + seed * 0x9E3779B97F4A7C15ull);
    for (int b = 0; b < 8; ++b) // little-endian, as the devices store a ulong
      leaf[static_cast<std::size_t>(w * 8 + b)] = static_cast<std::uint8_t>(word >> (8 * b));
  }
  return leaf;
}

struct filler {
  cl::Kernel kernel;
  explicit filler(const merklize::block_hasher &h) {
    cl::Program program(h.context(), fill_source);
    program.build({h.device()});
    kernel = cl::Kernel(program, "fill_leaves");
  }
  // `count` leaves from leaf `first` of the log into `to` (from its start); waits for them.
  void fill(const merklize::block_hasher &h, const cl::Buffer &to, std::uint64_t first,
            std::uint64_t count, std::uint64_t seed) {
    kernel.setArg(0, to);
    kernel.setArg(1, cl_ulong(first));
    kernel.setArg(2, cl_ulong(seed));
    h.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(count));
    h.queue().finish();
  }
};

struct setup {
  unsigned log2;
  merklize::tree_options tree;
  int rounds;
  std::uint64_t count;
  unsigned part_log2; // below log2: a resident_log in parts of 2^part_log2 leaves
};

// The log's leaves made on the device: a buffer a part (one part, with room for the rounds'
// appends, where the log is one tree).
std::vector<cl::Buffer> made_leaves(merklize::block_hasher &h, filler &fill, const setup &s,
                                    std::uint64_t room) {
  const std::uint64_t n = std::uint64_t(1) << s.log2, part = std::uint64_t(1) << s.part_log2;
  std::vector<cl::Buffer> parts;
  const auto at = clock_type::now();
  for (std::uint64_t first = 0; first < n; first += part) {
    const std::uint64_t bytes = (part == n ? room : part) * merklize::node_bytes;
    parts.push_back(h.device_buffer(bytes, "the log's leaves"));
    fill.fill(h, parts.back(), first, part, 0);
  }
  std::printf("leaves made on the device: %.3f ms, %zu buffer(s)\n", ms_since(at), parts.size());
  return parts;
}

// The full build of the log's leaves on the device, a tree a part (device_tree, the level
// kernels; twice, the first building the programs) and the parts' roots combined: its root.
merklize::digest baseline(merklize::block_hasher &h, const std::vector<cl::Buffer> &parts,
                          const setup &s) {
  const std::uint64_t part = std::uint64_t(1) << s.part_log2;
  merklize::digest root{};
  for (int run = 1; run <= 2; ++run) {
    double ms = 0, kernels = 0;
    std::vector<merklize::digest> roots;
    for (const cl::Buffer &leaves : parts) {
      const auto at = clock_type::now();
      const merklize::device_tree full(h, {leaves, part, part * merklize::node_bytes, {}},
                                       merklize::config{s.tree});
      ms += ms_since(at);
      kernels += merklize::events_ms(full.level_kernels());
      roots.push_back(full.root());
    }
    std::printf("full build from the device's leaves, run %d%s: %.3f ms, kernels %.3f ms\n", run,
                run == 1 ? " (programs built)" : "", ms, kernels);
    root = merklize::resident_log::promote_root(s.tree.hash, roots);
  }
  std::uint64_t leaves = 0; // the buffers, and one part's levels at a time
  for (const cl::Buffer &buffer : parts)
    leaves += buffer.getInfo<CL_MEM_SIZE>();
  std::printf("peak device memory of the full build (arithmetic): %.3f GiB\n",
              gib(leaves + (part - 1) * merklize::node_bytes));
  return root;
}

// The last call's commands: the tree's, or the last part's of a log (a part an append started
// was built, not appended to: its build's commands are not these).
const merklize::update_events &events_of(const merklize::resident_tree &t) {
  return t.last_events();
}
const merklize::update_events &events_of(const merklize::resident_log &log) {
  return log.parts().back()->last_events();
}

template <class Log> void row(int round, const char *from, double whole, const Log &log) {
  const merklize::update_events &e = events_of(log);
  double moved = 0, read = 0; // the transfers but the last (the root read), and the last
  if (!e.transfers.empty()) {
    moved = merklize::events_ms({e.transfers.begin(), e.transfers.end() - 1});
    read = merklize::events_ms({e.transfers.back()});
  }
  std::printf("| %d | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %zu |\n", round, from, whole,
              merklize::events_ms(e.kernels), moved, read, whole - moved, e.kernels.size());
}

// The rounds of appends onto `log`, then its memory and, up to 2^22 leaves, the host check.
template <class Log>
int append_rounds(Log &log, merklize::block_hasher &h, filler &fill, const setup &s) {
  const std::uint64_t n = log.leaf_count();
  const bool check = s.log2 <= 22;
  std::vector<merklize::digest> host(static_cast<std::size_t>(check ? n : 0));
  for (std::uint64_t i = 0; i < host.size(); ++i)
    host[i] = host_leaf(i, 0);
  const cl::Buffer source = h.device_buffer(s.count * merklize::node_bytes, "a device batch");
  std::vector<merklize::digest> batch(static_cast<std::size_t>(s.count));
  std::printf("| round | from | append ms | kernels ms | upload/copy ms | root read ms | append "
              "less upload ms | launches |\n|---|---|---|---|---|---|---|---|\n");
  for (int r = 1; r <= s.rounds; ++r) {
    std::uint64_t next = log.leaf_count();
    for (std::uint64_t k = 0; k < s.count; ++k)
      batch[k] = host_leaf(next + k, 1);
    auto at = clock_type::now();
    log.append(batch);
    row(r, "host", ms_since(at), log);
    if (check) host.insert(host.end(), batch.begin(), batch.end());
    next = log.leaf_count();
    fill.fill(h, source, next, s.count, 2);
    at = clock_type::now();
    log.append(source, s.count);
    row(r, "device", ms_since(at), log);
    for (std::uint64_t k = 0; check && k < s.count; ++k)
      host.push_back(host_leaf(next + k, 2));
  }
  std::printf("\npeak device memory (arithmetic): the log %.3f GiB (leaves and levels with their "
              "room, scratch) and the device batch %.3f GiB\n",
              gib(log.device_bytes()), gib(s.count * merklize::node_bytes));
  if (!check) return 0;
  const merklize::digest expected =
      merklize::reference_tree(host.data(), host.size() * merklize::node_bytes, s.tree).root();
  std::printf("host reference over %zu leaves: the log's root %s\n", host.size(),
              expected == log.root() ? "equals it" : "DIFFERS");
  return expected == log.root() ? 0 : 1;
}

int run(const setup &s) {
  const cl::Device device = merklize::default_device();
  merklize::block_hasher h(device);
  const std::uint64_t n = std::uint64_t(1) << s.log2, room = n + 2 * s.count * s.rounds;
  const bool in_parts = s.part_log2 < s.log2;
  std::printf(
      "device: %s, %.1f GiB, buffers of at most %.1f GiB; %s, 2^%u leaves, %d rounds of "
      "%llu from the host and %llu from a device buffer; %s\n\n",
      merklize::device_name(device).c_str(), gib(device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>()),
      gib(device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>()), merklize::to_string(s.tree.hash), s.log2,
      s.rounds, static_cast<unsigned long long>(s.count), static_cast<unsigned long long>(s.count),
      (in_parts ? "a log in parts of 2^" + std::to_string(s.part_log2) +
                      " leaves (the first append starts a part: built, not appended)"
                : "one tree with room for " + std::to_string(room) + " leaves")
          .c_str());
  filler fill(h);
  const std::vector<cl::Buffer> parts = made_leaves(h, fill, s, room);
  const merklize::digest full_root = baseline(h, parts, s);
  const merklize::config cfg{s.tree};
  const auto at = clock_type::now();
  if (in_parts) {
    merklize::resident_log log(h, cfg, s.part_log2);
    for (const cl::Buffer &part : parts)
      log.adopt({part, std::uint64_t(1) << s.part_log2, std::uint64_t(1) << s.part_log2});
    std::printf("resident log over the adopted parts: %.3f ms; root %s the full build's\n\n",
                ms_since(at), log.root() == full_root ? "equals" : "DIFFERS FROM");
    return log.root() == full_root ? append_rounds(log, h, fill, s) : 1;
  }
  merklize::resident_tree t(h, {parts.front(), n, room}, cfg);
  std::printf("resident tree over the adopted leaves: %.3f ms, kernels %.3f ms; root %s the "
              "full build's\n\n",
              ms_since(at), merklize::events_ms(t.last_events().kernels),
              t.root() == full_root ? "equals" : "DIFFERS FROM");
  if (t.root() != full_root || append_rounds(t, h, fill, s) != 0) return 1;
  std::printf("room kept: %s (capacity %llu leaves)\n",
              t.capacity() == room ? "yes, nothing moved" : "NO",
              static_cast<unsigned long long>(t.capacity()));
  return t.capacity() == room ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  try {
    setup s{argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 30u,
            {merklize::parse_hash_kind(argc > 2 ? argv[2] : "rfc6962")},
            argc > 3 ? std::atoi(argv[3]) : 5,
            argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 65536,
            0};
    s.part_log2 = argc > 5 ? static_cast<unsigned>(std::atoi(argv[5])) : s.log2;
    if (s.log2 > 31 || s.rounds < 1 || s.count < 1 || s.part_log2 < 1 || s.part_log2 > s.log2) {
      std::fprintf(stderr, "log_bench: LOG2 at most 31, ROUNDS and COUNT at least 1, 1 <= "
                           "PART_LOG2 <= LOG2\n");
      return 2;
    }
    return run(s);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "log_bench: %s\n", e.what());
    return 1;
  }
}
