// SPDX-License-Identifier: Apache-2.0 OR MIT
// Batches of updates to a sparse Merkle tree on the device (sparse_tree.hpp) against
// building the same tree again from all its keys in one batch, interleaved in one run. The tree
// starts with 2^LOG2 random keys of DEPTH bits (one batch, timed); each round then changes PCT%
// of its keys' values and inserts as many new keys, timed whole by the host's clock (the trie's
// work on the host included) and its kernels and transfers by profiled events; then a fresh tree
// is built from every key. The roots must agree. Peak device memory from device_bytes(); the
// host's trie by arithmetic. Prints a table.
//   sparse_bench [LOG2 [HASH [ROUNDS [PCT [DEPTH]]]]]   (defaults 20 sha256 5 1 256;
//   MERKLIZE_DEVICE)
#include <merklize/merklize.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

merklize::digest random_digest(std::mt19937_64 &rng, unsigned depth) {
  merklize::digest d;
  for (auto &byte : d)
    byte = static_cast<std::uint8_t>(rng());
  for (unsigned bit = depth; bit < 256; ++bit)
    d[31 - bit / 8] &= static_cast<std::uint8_t>(~(1u << (bit % 8)));
  return d;
}

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 20;
  const std::string hash = argc > 2 ? argv[2] : "sha256";
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  const double pct = argc > 4 ? std::atof(argv[4]) : 1.0;
  const unsigned depth = argc > 5 ? static_cast<unsigned>(std::atoi(argv[5])) : 256;
  try {
    const merklize::sparse_options options{merklize::parse_hash_kind(hash), depth};
    const std::size_t n = std::size_t(1) << log2;
    const auto batch = static_cast<std::size_t>(double(n) * pct / 100);
    std::mt19937_64 rng(31);
    std::vector<merklize::digest> keys(n), values(n);
    for (std::size_t k = 0; k < n; ++k) {
      keys[k] = random_digest(rng, depth);
      values[k] = random_digest(rng, 256);
    }
    merklize::merkleizer m;
    merklize::block_hasher h(m.device());
    merklize::sparse_tree t(h, options);
    auto start = clock_type::now();
    t.update(keys, values);
    std::printf("device: %s; %s depth %u, 2^%u keys built in %.1f ms (kernels %.2f ms); "
                "batches of %zu changes + %zu inserts\n\n",
                merklize::device_name(m.device()).c_str(), hash.c_str(), depth, log2,
                ms_since(start), merklize::events_ms(t.last_events().kernels), batch, batch);
    std::printf("| round | update ms | kernels ms | transfers ms | launches | rebuild ms | "
                "rebuild kernels ms |\n|---|---|---|---|---|---|---|\n");
    for (int r = 0; r < rounds; ++r) {
      std::vector<merklize::digest> bkeys, bvalues;
      for (std::size_t k = 0; k < batch; ++k) {
        const std::size_t changed = rng() % keys.size();
        values[changed] = random_digest(rng, 256);
        bkeys.push_back(keys[changed]);
        bvalues.push_back(values[changed]);
        keys.push_back(random_digest(rng, depth));
        values.push_back(random_digest(rng, 256));
        bkeys.push_back(keys.back());
        bvalues.push_back(values.back());
      }
      start = clock_type::now();
      t.update(bkeys, bvalues);
      const double update_ms = ms_since(start);
      const merklize::sparse_events e = t.last_events();
      merklize::sparse_tree fresh(h, options);
      start = clock_type::now();
      fresh.update(keys, values);
      const double rebuild_ms = ms_since(start);
      std::printf("| %d | %.3f | %.3f | %.3f | %zu | %.1f | %.2f |\n", r + 1, update_ms,
                  merklize::events_ms(e.kernels), merklize::events_ms(e.transfers),
                  e.kernels.size(), rebuild_ms, merklize::events_ms(fresh.last_events().kernels));
      if (fresh.root() != t.root()) {
        std::fprintf(stderr, "sparse_bench: the updated root differs from the rebuild's\n");
        return 1;
      }
    }
    std::printf("\nroots agree: %s; %zu keys; device memory %.1f MiB; the host's trie about "
                "%.1f MiB (arithmetic: %zu bytes a leaf, %zu a branch)\n",
                merklize::to_hex(t.root()).c_str(), t.size(), double(t.device_bytes()) / (1 << 20),
                double(t.size()) * (68 + 48) / (1 << 20), std::size_t(68), std::size_t(48));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "sparse_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
