// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_bench --variants (kernel_variants.hpp). Every variant builds the same trees from the
// same leaves, already on the device. Before a variant's first build of a size the node buffer
// is poisoned, and the root it then computes must equal the reference root (the host's up to
// 2^20 leaves, else the device default's), so a variant that skips or miscomputes a node is
// reported rather than timed. Times are medians of the summed kernel profiling times of a build.
#include "kernel_variants.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <regex>

namespace bench {
namespace {

struct variant {
  std::string name;
  merklize::config cfg;
};

merklize::config one_lane(std::size_t wg, merklize::level_kernel_kind kind) {
  merklize::config cfg;
  cfg.lanes = 1; // one node per lane on CPUs too
  cfg.work_group_size = wg;
  cfg.level_kernel = kind;
  return cfg;
}

// The device's defaults; merkle_subtree; merkle_level x 1, 2, 4 nodes per work-item;
// merkle_levels x 2, 3 levels per work-item; each at work-groups of 128 and 256; on CPUs also
// the lanes kernels, 8 and 16 lanes x work-groups of 4, 8 and 16.
std::vector<variant> variants_for(const cl::Device &device) {
  std::vector<variant> all{{"default", merklize::config{}}};
  if (merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(device) & CL_DEVICE_TYPE_CPU)
    for (unsigned lanes : {8u, 16u})
      for (std::size_t wg : {4, 8, 16}) {
        merklize::config cfg;
        cfg.lanes = lanes;
        cfg.work_group_size = wg;
        all.push_back({"lanes" + std::to_string(lanes) + " wg" + std::to_string(wg), cfg});
      }
  using kind = merklize::level_kernel_kind;
  for (std::size_t wg : {128, 256}) {
    const std::string at = " wg" + std::to_string(wg);
    all.push_back({"subtree" + at, one_lane(wg, kind::subtree)});
    for (unsigned nodes : {1u, 2u, 4u}) {
      merklize::config cfg = one_lane(wg, kind::level);
      cfg.nodes_per_item = nodes;
      all.push_back({"level x" + std::to_string(nodes) + at, cfg});
    }
    for (unsigned levels : {2u, 3u}) {
      merklize::config cfg = one_lane(wg, kind::levels);
      cfg.levels_per_item = levels;
      all.push_back({"levels x" + std::to_string(levels) + at, cfg});
    }
  }
  return all;
}

// 2^log2 random leaves on the device, a node buffer for them, and the root they must give.
struct sized_tree {
  unsigned log2;
  std::uint64_t n;
  cl::Buffer leaves, nodes;
  std::optional<merklize::digest> root;
};

sized_tree make_tree(const cl::Context &context, const cl::CommandQueue &queue, unsigned log2,
                     merklize::hash_kind hash) {
  const std::uint64_t n = std::uint64_t(1) << log2;
  std::vector<std::uint8_t> leaves(n * merklize::node_bytes);
  std::mt19937_64 rng(n);
  for (std::size_t i = 0; i < leaves.size(); i += 8) {
    const std::uint64_t r = rng();
    std::memcpy(leaves.data() + i, &r, 8);
  }
  sized_tree t{log2, n, cl::Buffer(context, CL_MEM_READ_ONLY, leaves.size()),
               cl::Buffer(context, CL_MEM_READ_WRITE,
                          merklize::merkleizer::output_node_count(n) * merklize::node_bytes),
               std::nullopt};
  queue.enqueueWriteBuffer(t.leaves, CL_TRUE, 0, leaves.size(), leaves.data());
  merklize::tree_options options;
  options.hash = hash;
  if (log2 <= 20) t.root = merklize::reference_tree(leaves.data(), leaves.size(), options).root();
  return t;
}

// One build into the poisoned node buffer: its root.
merklize::digest checked_build(merklize::merkleizer &m, const cl::CommandQueue &queue,
                               const sized_tree &t) {
  const std::uint64_t nodes = merklize::merkleizer::output_node_count(t.n);
  queue.enqueueFillBuffer(t.nodes, cl_uint(0xA5A5A5A5), 0, nodes * merklize::node_bytes);
  queue.finish();
  m.enqueue_build(t.leaves, t.n, t.nodes).back().wait();
  merklize::digest root;
  queue.enqueueReadBuffer(t.nodes, CL_TRUE, (nodes - 1) * merklize::node_bytes,
                          merklize::node_bytes, root.data());
  return root;
}

double build_ms(merklize::merkleizer &m, const sized_tree &t) {
  const auto events = m.enqueue_build(t.leaves, t.n, t.nodes);
  events.back().wait();
  return merklize::events_ms(events);
}

// Each launch of one build, in ms, and the idle time before it (its start less the previous
// launch's end): where a small tree's time goes.
std::string launch_report(merklize::merkleizer &m, const sized_tree &t) {
  const auto events = m.enqueue_build(t.leaves, t.n, t.nodes);
  events.back().wait();
  std::string report;
  cl_ulong previous_end = 0;
  for (const auto &e : events) {
    const auto [start, end] = merklize::detail::event_ns(e);
    char item[64];
    std::snprintf(item, sizeof item, " %.4f", (end - start) * 1e-6);
    if (previous_end)
      report +=
          "(+" + std::to_string((static_cast<long long>(start - previous_end)) / 1000) + "us)";
    report += item;
    previous_end = end;
  }
  return report;
}

// The median of enough builds to take about 0.1 s (5 to 200).
double median_ms(merklize::merkleizer &m, const sized_tree &t) {
  const double first = build_ms(m, t);
  const auto runs = static_cast<std::size_t>(std::clamp(100.0 / std::max(first, 1e-3), 5.0, 200.0));
  std::vector<double> ms;
  for (std::size_t i = 0; i < runs; ++i)
    ms.push_back(build_ms(m, t));
  std::nth_element(ms.begin(), ms.begin() + runs / 2, ms.end());
  return ms[runs / 2];
}

// "registers spill-stores/spill-loads" of `kernel` from NVIDIA's -cl-nv-verbose build log.
std::string register_report(const std::string &log, const std::string &kernel) {
  const auto at = log.find("'" + kernel + "'");
  const std::string rest = at == std::string::npos ? log : log.substr(at);
  std::smatch used, spill;
  if (!std::regex_search(rest, used, std::regex("Used ([0-9]+) registers"))) return "-";
  std::string report = used[1];
  if (std::regex_search(rest, spill,
                        std::regex("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads")))
    report += " " + spill[1].str() + "/" + spill[2].str();
  return report;
}

// The build log of the program that runs a variant's one-level launches.
std::string level_build_log(const merklize::merkleizer &m) {
  using kind = merklize::level_kernel_kind;
  const kind k = m.configuration().level_kernel;
  const auto spec = k == kind::level    ? m.merkle_level_program()
                    : k == kind::levels ? m.merkle_levels_program()
                                        : m.level_program();
  const cl::Program program = merklize::detail::tuned_program(m.context(), m.device(), spec);
  return register_report(merklize::detail::build_logs(program, m.context()),
                         k == kind::level    ? "merkle_level"
                         : k == kind::levels ? "merkle_levels"
                                             : "merkle_subtree");
}

struct result {
  std::map<unsigned, double> ms;            // by log2 size
  std::map<unsigned, std::size_t> launches; // by log2 size
  std::string registers, error;
};

} // namespace

int run_kernel_variants(const cl::Device &device, const std::vector<unsigned> &log2_sizes,
                        const std::string &build_log, merklize::hash_kind hash) {
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  std::vector<sized_tree> trees;
  for (unsigned log2 : log2_sizes)
    trees.push_back(make_tree(context, queue, log2, hash));
  const auto variants = variants_for(device);
  std::vector<result> results(variants.size());
  for (std::size_t v = 0; v < variants.size(); ++v) {
    merklize::config cfg = variants[v].cfg;
    cfg.tree.hash = hash;
    if (!build_log.empty()) cfg.level_options += " " + build_log;
    try {
      merklize::merkleizer m(device, cfg);
      for (auto &t : trees) {
        const merklize::digest root = checked_build(m, queue, t);
        if (!t.root) t.root = root; // the first variant, the device's defaults
        if (root != *t.root) {
          results[v].error = "WRONG ROOT at 2^" + std::to_string(t.log2);
          break;
        }
        results[v].ms[t.log2] = median_ms(m, t);
        results[v].launches[t.log2] = m.enqueue_build(t.leaves, t.n, t.nodes).size();
        if (v == 0)
          std::printf("default at 2^%u, launch ms (+idle before):%s\n", t.log2,
                      launch_report(m, t).c_str());
      }
      if (!build_log.empty()) results[v].registers = level_build_log(m);
    } catch (const std::exception &e) {
      results[v].error = e.what();
      results[v].error = results[v].error.substr(0, results[v].error.find('\n'));
    }
    std::fprintf(stderr, "%s done\n", variants[v].name.c_str());
  }
  // Sorted by the time at the largest size, failed variants last.
  const unsigned largest = *std::max_element(log2_sizes.begin(), log2_sizes.end());
  std::vector<std::size_t> order(variants.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  const auto key = [&](std::size_t i) {
    const auto found = results[i].ms.find(largest);
    return results[i].error.empty() && found != results[i].ms.end() ? found->second : 1e300;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  std::printf("\nkernel variants on %s: median kernel ms of a whole tree / launches, sorted by "
              "2^%u\n",
              merklize::device_name(device).c_str(), largest);
  std::printf("%-44s", "variant");
  for (const auto &t : trees)
    std::printf(" %10s", ("2^" + std::to_string(t.log2) + " ms").c_str());
  std::printf(" %11s%s\n", "G nodes/s", build_log.empty() ? "" : "  registers spills");
  int status = 0;
  for (std::size_t i : order) {
    const result &r = results[i];
    std::printf("%-44s", variants[i].name.c_str());
    for (const auto &t : trees) {
      const auto found = r.ms.find(t.log2);
      if (found == r.ms.end())
        std::printf(" %10s", "-");
      else
        std::printf(" %6.4f/%-3zu", found->second, r.launches.at(t.log2));
    }
    const auto at_largest = r.ms.find(largest);
    if (at_largest != r.ms.end())
      std::printf(" %11.3g", ((std::uint64_t(1) << largest) - 1) / (at_largest->second * 1e6));
    if (!build_log.empty()) std::printf("  %s", r.registers.c_str());
    if (!r.error.empty()) {
      std::printf("  %s", r.error.c_str());
      status = 1;
    }
    std::printf("\n");
  }
  return status;
}

} // namespace bench
