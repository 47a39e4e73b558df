// SPDX-License-Identifier: Apache-2.0 OR MIT
// The cost of the C ABI: merklize_build and merklize_root (include/merklize.h) against the C++
// calls behind them, merkleizer::build on the same device, in one run, the two interleaved so
// that both see the same machine. Each is timed whole by the host's clock, as a program calls
// it: the tree built and back in host memory (every level, or the root alone), its handle freed.
//
//   capi_bench [--leaves-log2 20] [--repetitions 15] [--hash blake3]
//
// Prints the median and the fastest of each, and the C call's overhead over the C++ one.
#include <merklize.h>

#include <merklize/merklize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

double ms_of(const std::function<void()> &call) {
  const auto start = std::chrono::steady_clock::now();
  call();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

struct stats {
  double median, fastest;
};

stats stats_of(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.front()};
}

void check(merklize_status status, const char *what) {
  if (status == MERKLIZE_OK) return;
  std::fprintf(stderr, "capi_bench: %s: %s\n", what, merklize_last_error());
  std::exit(1);
}

// One C++ build and one C build of the same leaves, `repetitions` times each, interleaved.
void compare(const char *what, merklize::merkleizer &cpp, merklize_builder *c,
             const std::vector<std::uint8_t> &leaves, int repetitions, bool root_only) {
  const merklize_source source = merklize_source_memory(leaves.data(), leaves.size());
  std::vector<double> cpp_ms, c_ms;
  merklize::digest cpp_root{};
  std::uint8_t c_root[MERKLIZE_DIGEST_SIZE];
  for (int r = 0; r < repetitions + 1; ++r) { // the first of each warms up, untimed
    const double a = ms_of([&] { cpp_root = cpp.build(leaves).root(); });
    const double b = ms_of([&] {
      if (root_only) {
        check(merklize_root(c, &source, c_root), "merklize_root");
        return;
      }
      merklize_tree *tree = nullptr;
      check(merklize_build(c, &source, &tree), "merklize_build");
      check(merklize_tree_root(tree, c_root), "merklize_tree_root");
      merklize_tree_free(tree);
    });
    if (r == 0) continue;
    cpp_ms.push_back(a);
    c_ms.push_back(b);
  }
  if (std::memcmp(cpp_root.data(), c_root, sizeof c_root) != 0) {
    std::fprintf(stderr, "capi_bench: the C and C++ roots differ\n");
    std::exit(1);
  }
  const stats x = stats_of(cpp_ms), y = stats_of(c_ms);
  std::printf("%-34s C++ %9.2f ms (fastest %9.2f)  C %9.2f ms (fastest %9.2f)  C/C++ %+.1f%% "
              "(fastest %+.1f%%)\n",
              what, x.median, x.fastest, y.median, y.fastest, 100 * (y.median / x.median - 1),
              100 * (y.fastest / x.fastest - 1));
}

} // namespace

int main(int argc, char **argv) {
  unsigned log2 = 20;
  int repetitions = 15;
  std::string hash = "blake3";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--leaves-log2")
      log2 = static_cast<unsigned>(std::atoi(argv[i + 1]));
    else if (option == "--repetitions")
      repetitions = std::max(1, std::atoi(argv[i + 1]));
    else if (option == "--hash")
      hash = argv[i + 1];
  }
  std::vector<std::uint8_t> leaves((std::size_t(1) << log2) * MERKLIZE_DIGEST_SIZE);
  for (std::size_t i = 0; i < leaves.size(); ++i)
    leaves[i] = static_cast<std::uint8_t>(i * 7 + (i >> 12));

  merklize_device *device = nullptr;
  check(merklize_device_open(nullptr, &device), "merklize_device_open");
  merklize_device_info info;
  info.size = sizeof info;
  check(merklize_device_describe(device, &info), "merklize_device_describe");
  std::printf("capi_bench: 2^%u leaves, hash %s, %d repetitions, on %s [%s]\n", log2, hash.c_str(),
              repetitions, info.name, info.platform);

  const merklize::tree_options tree{merklize::parse_hash_kind(hash)};
  for (const bool root_only : {false, true}) {
    merklize_tree_config config;
    merklize_tree_config_init(&config);
    config.hash = hash.c_str();
    config.keep = root_only ? MERKLIZE_KEEP_ROOT_ONLY : MERKLIZE_KEEP_ALL;
    merklize_builder *builder = nullptr;
    check(merklize_builder_create(device, &config, &builder), "merklize_builder_create");
    merklize::merkleizer cpp(merklize::select_device(info.spec),
                             merklize::config{tree, root_only
                                                        ? merklize::output_levels::root_only()
                                                        : merklize::output_levels::all_nodes()});
    compare(root_only ? "root (merklize_root)" : "every level (merklize_build)", cpp, builder,
            leaves, repetitions, root_only);
    merklize_builder_free(builder);
  }
  merklize_device_free(device);
  return 0;
}
