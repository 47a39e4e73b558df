// SPDX-License-Identifier: Apache-2.0 OR MIT
// Issue 31: "append 2^16 leaves to a 2^30-leaf log held on the device: <= 0.5 ms plus the
// upload". The log's 2^LOG2 leaves are made on the device (a small kernel, splitmix64 of the
// leaf's index: no upload of them), in one buffer with room for the rounds' appends; a full build
// of their tree from that buffer (device_tree, the level kernels; twice, the first building the
// programs) is the baseline, its root kept; then a resident_tree adopts the buffer (no second
// copy of the leaves; its levels laid out for the room, so no append moves them) and must have
// the same root. Each round appends COUNT leaves from host memory (uploaded through page-locked
// staging), then COUNT from a device buffer (filled by the same kernel beforehand, copied on the
// device): the call whole by the host's clock, its kernels, its upload or copy and its root read
// by profiled events. Peak device memory by arithmetic: the buffers each phase holds. Up to
// 2^22 leaves the leaves are made on the host as well and every root is checked against the
// host reference (RFC 6962's tree for rfc6962). Prints a table.
//   log_bench [LOG2 [HASH [ROUNDS [COUNT]]]]     (defaults 30 rfc6962 5 65536; MERKLIZE_DEVICE)
// 2^30 leaves take 64 GiB and buffers of 32 GiB: an H100's OpenCL may allow smaller ones
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE, printed first); then the largest LOG2 that fits is 29.
#include "update_helpers.hpp"

#include <merklize/core/reference.hpp>
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
};

// The full build of the first n leaves of `leaves` on the device: ms whole and of its kernels.
merklize::digest baseline(merklize::block_hasher &h, const cl::Buffer &leaves, std::uint64_t n,
                          const setup &s) {
  merklize::digest root{};
  for (int run = 1; run <= 2; ++run) {
    const auto at = clock_type::now();
    const merklize::device_tree full(h, {leaves, n, n * merklize::node_bytes, {}},
                                     merklize::config{s.tree});
    const double ms = ms_since(at);
    std::printf("full build from the device's leaves, run %d%s: %.3f ms, kernels %.3f ms\n", run,
                run == 1 ? " (programs built)" : "", ms, merklize::events_ms(full.level_kernels()));
    root = full.root();
  }
  return root;
}

// Milliseconds of a call's transfers but the last (its root read), and of the last.
std::pair<double, double> split_transfers(const merklize::update_events &e) {
  const std::vector<cl::Event> moved(e.transfers.begin(), e.transfers.end() - 1);
  return {merklize::events_ms(moved), merklize::events_ms({e.transfers.back()})};
}

void row(int round, const char *from, double whole, const merklize::resident_tree &t) {
  const auto [moved, read] = split_transfers(t.last_events());
  std::printf("| %d | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %zu |\n", round, from, whole,
              merklize::events_ms(t.last_events().kernels), moved, read, whole - moved,
              t.last_events().kernels.size());
}

int run(const setup &s) {
  const cl::Device device = merklize::default_device();
  merklize::block_hasher h(device);
  const std::uint64_t n = std::uint64_t(1) << s.log2, appended = 2 * s.count * s.rounds;
  const std::uint64_t room = n + appended;
  const bool check = s.log2 <= 22;
  std::printf("device: %s, %.1f GiB, buffers of at most %.1f GiB; %s, 2^%u leaves, %d rounds of "
              "%llu from the host and %llu from a device buffer; room for %llu leaves\n\n",
              merklize::device_name(device).c_str(),
              gib(device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>()),
              gib(device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>()), merklize::to_string(s.tree.hash),
              s.log2, s.rounds, static_cast<unsigned long long>(s.count),
              static_cast<unsigned long long>(s.count), static_cast<unsigned long long>(room));
  filler fill(h);
  const cl::Buffer leaves = h.device_buffer(room * merklize::node_bytes, "the log's leaves");
  auto at = clock_type::now();
  fill.fill(h, leaves, 0, n, 0);
  std::printf("leaves made on the device: %.3f ms\n", ms_since(at));
  const merklize::digest full_root = baseline(h, leaves, n, s);
  const std::uint64_t full_bytes = (room + n) * merklize::node_bytes; // leaves, levels ~ n

  at = clock_type::now();
  merklize::resident_tree t(h, {leaves, n, room}, merklize::config{s.tree});
  std::printf("resident tree over the adopted leaves: %.3f ms, kernels %.3f ms; root %s the "
              "full build's\n\n",
              ms_since(at), merklize::events_ms(t.last_events().kernels),
              t.root() == full_root ? "equals" : "DIFFERS FROM");
  if (t.root() != full_root) return 1;

  std::vector<merklize::digest> host(static_cast<std::size_t>(check ? n : 0));
  for (std::uint64_t i = 0; i < host.size(); ++i)
    host[i] = host_leaf(i, 0);
  const cl::Buffer source = h.device_buffer(s.count * merklize::node_bytes, "a device batch");
  std::vector<merklize::digest> batch(static_cast<std::size_t>(s.count));
  std::printf("| round | from | append ms | kernels ms | upload/copy ms | root read ms | append "
              "less upload ms | launches |\n|---|---|---|---|---|---|---|---|\n");
  for (int r = 1; r <= s.rounds; ++r) {
    std::uint64_t next = t.leaf_count();
    for (std::uint64_t k = 0; k < s.count; ++k)
      batch[k] = host_leaf(next + k, 1);
    at = clock_type::now();
    t.append(batch);
    row(r, "host", ms_since(at), t);
    if (check) host.insert(host.end(), batch.begin(), batch.end());
    next = t.leaf_count();
    fill.fill(h, source, next, s.count, 2);
    at = clock_type::now();
    t.append(source, s.count);
    row(r, "device", ms_since(at), t);
    for (std::uint64_t k = 0; check && k < s.count; ++k)
      host.push_back(host_leaf(next + k, 2));
  }
  const std::uint64_t resident_bytes = t.device_bytes() + s.count * merklize::node_bytes;
  std::printf("\nroom kept: %s (capacity %llu leaves)\npeak device memory (arithmetic): full "
              "build %.3f GiB (leaves with room, its levels), resident log %.3f GiB (leaves and "
              "levels for the room, scratch, the device batch)\n",
              t.capacity() == room ? "yes, nothing moved" : "NO",
              static_cast<unsigned long long>(t.capacity()), gib(full_bytes), gib(resident_bytes));
  if (check) {
    const merklize::digest expected =
        merklize::reference_tree(host.data(), host.size() * merklize::node_bytes, s.tree).root();
    std::printf("host reference over %zu leaves: the log's root %s\n", host.size(),
                expected == t.root() ? "equals it" : "DIFFERS");
    if (expected != t.root()) return 1;
  }
  return t.capacity() == room ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  try {
    const setup s{argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 30u,
                  {merklize::parse_hash_kind(argc > 2 ? argv[2] : "rfc6962")},
                  argc > 3 ? std::atoi(argv[3]) : 5,
                  argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 65536};
    if (s.log2 > 31 || s.rounds < 1 || s.count < 1) {
      std::fprintf(stderr, "log_bench: LOG2 at most 31, ROUNDS and COUNT at least 1\n");
      return 2;
    }
    return run(s);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "log_bench: %s\n", e.what());
    return 1;
  }
}
