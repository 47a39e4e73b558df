// SPDX-License-Identifier: Apache-2.0 OR MIT
// Leaves hashed from data blocks on the device against the SHA-256 layer primitive, all
// device-resident (no transfers timed): the same bytes hashed by
//   layer:        hash_layer over bytes / 64 blocks of 64 bytes (hashtree's contract);
//   leaves:       block_hasher::enqueue_leaves, SHA-256 of each L-byte block (dm-verity's and
//                 fs-verity's data blocks), without and with a 32-byte salt;
//   leaves+tree:  the leaves, then the sha256 tree over them (merkleizer::enqueue_build), timed
//                 from the leaves kernel's start to the tree's last kernel's end.
// Each row prints the best of --reps runs as GB/s of data and its ratio to the layer's rate. The
// leaves are checked against the host reference on the first and last blocks.
//
//   merklize_block_bench [--bytes=N] [--block=L] [--reps=R]     (default 1 GiB, 4096, 5)
// The device is MERKLIZE_DEVICE, else the first GPU, else the first device.
#include <merklize/engine/block_tree.hpp>
#include <merklize/engine/layer.hpp>

#include "flags.hpp"

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

double span_ms(const cl::Event &first, const cl::Event &last) {
  return static_cast<double>(merklize::detail::event_ns(last).second -
                             merklize::detail::event_ns(first).first) *
         1e-6;
}

template <class Run> double best_ms(int reps, Run run) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r)
    best = std::min(best, run());
  return best;
}

void row(const char *name, std::uint64_t bytes, double ms, double layer_ms) {
  std::printf("%-24s %10.3f ms %9.2f GB/s %7.3f x layer\n", name, ms, bytes / ms * 1e-6,
              layer_ms / ms);
}

void check_leaves(merklize::block_hasher &h, const cl::Buffer &leaves,
                  const std::vector<std::uint8_t> &data, const merklize::leaf_rule &rule) {
  const std::uint64_t count = data.size() / rule.block_bytes;
  for (std::uint64_t i : {std::uint64_t(0), count / 2, count - 1}) {
    merklize::digest got;
    h.queue().enqueueReadBuffer(leaves, CL_TRUE, i * 32, 32, got.data());
    const auto want =
        merklize::hash_block(rule, data.data() + i * rule.block_bytes, rule.block_bytes);
    if (got != want)
      throw merklize::error("leaf " + std::to_string(i) + " differs from the host's");
  }
}

} // namespace

int main(int argc, char **argv) try {
  std::string bytes_text = std::to_string(std::uint64_t(1) << 30);
  int block = 4096, reps = 5;
  bench::take_flag(argc, argv, "bytes", bytes_text);
  bench::take_flag(argc, argv, "block", block);
  bench::take_flag(argc, argv, "reps", reps);
  const std::uint64_t bytes = std::stoull(bytes_text) / block * block;
  const cl::Device device = merklize::default_device();
  merklize::block_hasher h(device);
  std::printf("%s: %llu bytes in %d-byte blocks, best of %d\n",
              merklize::device_name(device).c_str(), static_cast<unsigned long long>(bytes), block,
              reps);

  std::vector<std::uint8_t> data(bytes);
  std::mt19937_64 engine(42);
  for (std::uint64_t i = 0; i + 8 <= bytes; i += 8) {
    const std::uint64_t word = engine();
    std::memcpy(data.data() + i, &word, 8);
  }
  const cl::Buffer in = h.device_buffer(bytes, "the data");
  h.queue().enqueueWriteBuffer(in, CL_TRUE, 0, bytes, data.data());
  const cl::Buffer layer_out = h.device_buffer(bytes / 2, "the layer's digests");
  const double layer_ms = best_ms(reps, [&] {
    const cl::Event done = merklize::hash_layer(h.queue(), layer_out, in, bytes / 64);
    done.wait();
    return merklize::event_ms(done);
  });
  row("layer (64-byte blocks)", bytes, layer_ms, layer_ms);

  const std::uint64_t count = bytes / block;
  const cl::Buffer leaves = h.device_buffer(count * 32, "the leaves");
  merklize::config cfg;
  cfg.tree = {merklize::hash_kind::sha256, merklize::shape::promote};
  merklize::merkleizer m(h.context(), h.device(), cfg);
  const cl::Buffer nodes =
      h.device_buffer(merklize::merkleizer::output_node_count(count) * 32, "the tree");
  for (std::size_t salt : {0u, 32u}) {
    const merklize::leaf_rule rule{merklize::leaf_hash::sha256, std::uint64_t(block),
                                   std::vector<std::uint8_t>(salt, 0x5a), false, std::nullopt};
    const double leaves_ms = best_ms(reps, [&] {
      const cl::Event done = h.enqueue_leaves(rule, in, 0, bytes, leaves, 0);
      done.wait();
      return merklize::event_ms(done);
    });
    check_leaves(h, leaves, data, rule);
    row(salt ? "leaves, 32-byte salt" : "leaves", bytes, leaves_ms, layer_ms);
    const double tree_ms = best_ms(reps, [&] {
      const cl::Event first = h.enqueue_leaves(rule, in, 0, bytes, leaves, 0);
      const auto built = m.enqueue_build(leaves, count, nodes, {first});
      built.back().wait();
      return span_ms(first, built.back());
    });
    row(salt ? "leaves+tree, 32-byte salt" : "leaves+tree", bytes, tree_ms, layer_ms);
  }
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "merklize_block_bench: %s\n", e.what());
  return 1;
}
