// SPDX-License-Identifier: Apache-2.0 OR MIT
// Issue 31: a batch of updates to a tree kept on the device (resident_tree.hpp) against a full
// rebuild of the same leaves from host memory (merkleizer::build, the root only), interleaved in
// one run. Per round: PCT% of 2^LOG2 leaves at random indices (repeats possible) get new random
// values from host memory; the update is timed whole by the host's clock, its plan alone on the
// host, its kernels and transfers by profiled events; then the rebuild, whole and its kernels.
// After the last round the tree's root must equal the rebuild's. Peak device memory by
// arithmetic: the resident tree's leaves, levels and batch scratch (device_bytes()); the
// rebuild's leaves and levels. Prints a table.
//   update_bench [LOG2 [HASH [ROUNDS [PCT]]]]   (defaults 25 blake3 5 1; MERKLIZE_DEVICE)
#include "update_helpers.hpp"

#include <merklize/merklize.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace {

using bench::clock_type;
using bench::fill_random;
using bench::ms_since;

double mib(std::uint64_t bytes) { return double(bytes) / (1 << 20); }

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25;
  const std::string hash = argc > 2 ? argv[2] : "blake3";
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  const double pct = argc > 4 ? std::atof(argv[4]) : 1.0;
  try {
    const std::uint64_t n = std::uint64_t(1) << log2;
    const auto batch = static_cast<std::uint64_t>(double(n) * pct / 100);
    merklize::config cfg{{merklize::parse_hash_kind(hash)}};
    std::vector<merklize::digest> leaves(n), values(batch);
    std::vector<std::uint64_t> indices(batch);
    std::mt19937_64 rng(31);
    fill_random(leaves.data(), n * merklize::node_bytes, rng);
    merklize::config root_only = cfg;
    root_only.output = merklize::output_levels::root_only();
    merklize::merkleizer m(root_only);
    merklize::block_hasher h(m.device());
    const auto start = clock_type::now();
    merklize::resident_tree t(h, leaves, cfg);
    const double built = ms_since(start);
    std::printf("device: %s; %s, 2^%u leaves, batches of %llu (%.2f%%); tree built in %.1f ms\n\n",
                merklize::device_name(m.device()).c_str(), hash.c_str(), log2,
                static_cast<unsigned long long>(batch), pct, built);
    std::printf("| round | update ms | plan ms (host) | kernels ms | transfers ms | launches | "
                "nodes recomputed | rebuild ms | rebuild kernels ms |\n|---|---|---|---|---|---|"
                "---|---|---|\n");
    merklize::digest rebuilt{};
    for (int r = 0; r < rounds; ++r) {
      for (auto &index : indices)
        index = rng() % n;
      fill_random(values.data(), batch * merklize::node_bytes, rng);
      auto at = clock_type::now();
      const merklize::update_plan plan = merklize::plan_update(
          merklize::kary_part_sizes(n, 2, merklize::tree_layout(n).depth()), 2, indices);
      const double plan_ms = ms_since(at);
      at = clock_type::now();
      t.update(indices, values);
      const double update_ms = ms_since(at);
      const merklize::update_events &e = t.last_events();
      for (std::uint64_t k = 0; k < batch; ++k)
        leaves[indices[k]] = values[k];
      at = clock_type::now();
      rebuilt = m.build(leaves.data(), n * merklize::node_bytes).root();
      const double rebuild_ms = ms_since(at);
      std::printf("| %d | %.3f | %.3f | %.3f | %.3f | %zu | %llu | %.2f | %.3f |\n", r + 1,
                  update_ms, plan_ms, merklize::events_ms(e.kernels),
                  merklize::events_ms(e.transfers), e.kernels.size(),
                  static_cast<unsigned long long>(plan.recomputed()), rebuild_ms,
                  m.last_times().kernel_ms);
    }
    if (rebuilt != t.root()) {
      std::fprintf(stderr, "update_bench: the updated root differs from the rebuild's\n");
      return 1;
    }
    const std::uint64_t tree_bytes = (2 * n - 1) * merklize::node_bytes;
    std::printf("\nroots agree: %s\npeak device memory (arithmetic): resident tree %.1f MiB "
                "(leaves and levels %.1f, batch scratch %.1f); rebuild's leaves and levels "
                "%.1f MiB\n",
                merklize::to_hex(rebuilt).c_str(), mib(t.device_bytes()), mib(tree_bytes),
                mib(t.device_bytes() - tree_bytes), mib(tree_bytes));
    const merklize::update_plan &plan = t.last_plan();
    std::printf("host memory of an update (arithmetic): the batch %.1f MiB, its plan %.1f MiB\n",
                mib(batch * (merklize::node_bytes + 8)),
                mib((plan.nodes.size() + plan.sources.size()) * 8));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "update_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
