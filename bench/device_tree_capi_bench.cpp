// SPDX-License-Identifier: Apache-2.0 OR MIT
// The cost of the C ABI's tree kept on the device. merklize_device_tree_update
// (include/merklize.h) against resident_tree::update, the C++ call behind it, on two trees of
// the same leaves on the same device, interleaved round by round so that both see the same
// machine: PCT% of 2^LOG2 leaves at random indices (repeats possible), new random values from
// host memory, each call timed whole by the host's clock. The two roots must agree after every
// round, after a warm-up round that is not counted. Prints a table, then the medians and the C
// call's overhead.
//   device_tree_capi_bench [LOG2 [HASH [ROUNDS [PCT]]]]   (defaults 25 blake3 9 1; MERKLIZE_DEVICE)
#include <merklize.h>

#include "update_helpers.hpp"

#include <merklize/merklize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bench::clock_type;
using bench::fill_random;
using bench::ms_since;

void check(merklize_status status, const char *call) {
  if (status != MERKLIZE_OK)
    throw std::runtime_error(std::string(call) + ": " + merklize_last_error());
}

double median(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// The C ABI's tree of `leaves` on the default device, `hash`'s binary tree.
merklize_device_tree *c_tree(const std::vector<merklize::digest> &leaves, const std::string &hash) {
  merklize_device *device = nullptr;
  check(merklize_device_open(nullptr, &device), "merklize_device_open");
  merklize_tree_config config;
  merklize_tree_config_init(&config);
  config.hash = hash.c_str();
  merklize_builder *builder = nullptr;
  check(merklize_builder_create(device, &config, &builder), "merklize_builder_create");
  merklize_device_tree *tree = nullptr;
  check(merklize_device_tree_create(builder, leaves.data(), leaves.size() * merklize::node_bytes,
                                    &tree),
        "merklize_device_tree_create");
  merklize_builder_free(builder); // the tree outlives both
  merklize_device_free(device);
  return tree;
}

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25;
  const std::string hash = argc > 2 ? argv[2] : "blake3";
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 9;
  const double pct = argc > 4 ? std::atof(argv[4]) : 1.0;
  merklize_device_tree *c = nullptr;
  try {
    const std::uint64_t n = std::uint64_t(1) << log2;
    const auto batch =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(double(n) * pct / 100));
    std::vector<merklize::digest> leaves(n), values(batch);
    std::vector<std::uint64_t> indices(batch);
    std::mt19937_64 rng(31);
    fill_random(leaves.data(), n * merklize::node_bytes, rng);
    merklize::block_hasher h(merklize::default_device());
    merklize::resident_tree cpp(h, leaves, merklize::config{{merklize::parse_hash_kind(hash)}});
    c = c_tree(leaves, hash);
    std::printf("device: %s; %s, 2^%u leaves, batches of %llu (%.2f%%)\n\n",
                merklize::device_name(h.device()).c_str(), hash.c_str(), log2,
                static_cast<unsigned long long>(batch), pct);
    std::printf("| round | C++ update ms | C update ms |\n|---|---|---|\n");
    std::vector<double> cpp_ms, c_ms;
    for (int r = -1; r < rounds; ++r) { // round 0: a warm-up (the first update builds kernels)
      for (auto &index : indices)
        index = rng() % n;
      fill_random(values.data(), batch * merklize::node_bytes, rng);
      auto at = clock_type::now();
      const merklize::digest cpp_root = cpp.update(indices, values);
      cpp_ms.push_back(ms_since(at));
      merklize::digest c_root{};
      at = clock_type::now();
      check(merklize_device_tree_update(c, indices.data(), values.data(), batch, c_root.data()),
            "merklize_device_tree_update");
      c_ms.push_back(ms_since(at));
      if (c_root != cpp_root)
        throw std::runtime_error("round " + std::to_string(r + 1) +
                                 ": the C root differs from the C++ root");
      if (r < 0) {
        cpp_ms.clear();
        c_ms.clear();
        continue;
      }
      std::printf("| %d | %.3f | %.3f |\n", r + 1, cpp_ms.back(), c_ms.back());
    }
    const double a = median(cpp_ms), b = median(c_ms);
    std::printf("\nroots agree: %s\nmedian: C++ %.3f ms, C %.3f ms: the C call's overhead %+.3f ms "
                "(%+.1f%%)\n",
                merklize::to_hex(cpp.root()).c_str(), a, b, b - a, 100 * (b - a) / a);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "device_tree_capi_bench: %s\n", e.what());
    merklize_device_tree_free(c);
    return 1;
  }
  merklize_device_tree_free(c);
  return 0;
}
