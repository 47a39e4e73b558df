// SPDX-License-Identifier: Apache-2.0 OR MIT
// The launch planner and the tuning table, without a device: which kernel computes which levels
// for a GPU like the H200, for PoCL on a CPU, and under each configuration knob. Built without
// OpenCL (tests/CMakeLists.txt: merklize_core_tests).
#include <merklize/plan/launch_plan.hpp>

#include "facts_helpers.hpp"

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "the planners and tuning.hpp must not pull in the OpenCL headers"
#endif

using merklize::detail::kernel_kind;
using merklize::detail::planned_launch;

namespace {

using test::h200;
using test::pocl_cpu;

merklize::detail::launch_settings settings(const merklize::device_facts &device,
                                           const merklize::config &cfg) {
  return merklize::detail::resolve_launch_settings(device, merklize::tuning_for(device), cfg);
}

std::vector<planned_launch> plan(const merklize::device_facts &device, const merklize::config &cfg,
                                 std::uint64_t leaves) {
  return merklize::detail::plan_launches(settings(device, cfg), leaves,
                                         merklize::tree_layout(leaves).depth());
}

// Every plan computes exactly the levels asked, each launch reading the level the one before
// wrote, with a work-item for every node it owns.
void check_consistent(const std::vector<planned_launch> &launches,
                      const merklize::detail::launch_settings &s, std::uint64_t count,
                      unsigned levels) {
  unsigned done = 0;
  for (const auto &l : launches) {
    REQUIRE(l.in_count == count);
    REQUIRE(l.levels >= 1);
    const std::uint64_t pairs = (count + 1) / 2;
    const unsigned per_item = l.kernel == kernel_kind::lanes   ? s.lanes
                              : l.kernel == kernel_kind::level ? s.nodes_per_item
                                                               : 1;
    if (l.kernel == kernel_kind::levels)
      CHECK(l.items == merklize::detail::ceil_shift(count, l.levels));
    else
      CHECK(l.items * per_item >= pairs);
    CHECK(l.wide_index == (count > merklize::detail::narrow_index_limit &&
                           (l.kernel == kernel_kind::level || l.kernel == kernel_kind::levels)));
    count = merklize::detail::ceil_shift(count, l.levels);
    done += l.levels;
  }
  CHECK(done == levels);
  CHECK(count == 1);
}

} // namespace

TEST_CASE("the tuning table gives each device its row, and the last row to any other", "[tuning]") {
  CHECK(std::string(merklize::tuning_for(h200()).row) == "NVIDIA GPU");
  CHECK(std::string(merklize::tuning_for(pocl_cpu(16)).row) == "CPU (PoCL)");
  merklize::device_facts amd = h200();
  amd.vendor = "Advanced Micro Devices, Inc.";
  amd.platform = "AMD Accelerated Parallel Processing";
  CHECK(&merklize::tuning_for(amd) == &merklize::tuning_table().back());
  for (const auto &row : merklize::tuning_table()) {
    INFO(row.row);
    CHECK(std::string(row.measured_by).size() > 20); // every row says where its numbers come from
    CHECK(row.work_group_size > 0);
    CHECK(row.chunk_log2 > 0);
  }
  CHECK(merklize::resolved_lanes(0, pocl_cpu(16)) == 16);
  CHECK(merklize::resolved_lanes(0, pocl_cpu(8)) == 8);
  CHECK(merklize::resolved_lanes(0, pocl_cpu(1)) == 4);
  CHECK(merklize::resolved_lanes(2, pocl_cpu(16)) == 2);
}

TEST_CASE("an H200 builds BLAKE3 trees with merkle_levels, then fused launches at the top",
          "[launch-plan]") {
  const auto launches = plan(h200(), {}, std::uint64_t(1) << 25);
  // Two levels a launch while a level has more pairs than 2 waves of 132 x 128 work-items
  // (33,792), then work-groups of 128 reduce 256 nodes to one: 8 levels, then the last 7.
  const std::vector<planned_launch> expected{
      {kernel_kind::levels, 2, 1u << 25, 1u << 23, false},
      {kernel_kind::levels, 2, 1u << 23, 1u << 21, false},
      {kernel_kind::levels, 2, 1u << 21, 1u << 19, false},
      {kernel_kind::levels, 2, 1u << 19, 1u << 17, false},
      {kernel_kind::levels, 2, 1u << 17, 1u << 15, false},
      {kernel_kind::subtree, 8, 1u << 15, 1u << 14, false},
      {kernel_kind::subtree, 7, 1u << 7, 1u << 6, false},
  };
  CHECK(launches == expected);
}

TEST_CASE("an H200 builds SHA-256 trees one level a launch, then fused", "[launch-plan]") {
  merklize::config cfg{{merklize::hash_kind::sha256}};
  // merkle_level with one node per work-item (BLAKE3's row value is 2) on the levels of 16 waves
  // of work-groups or more (132 x 128 x 16 = 270,336 nodes), merkle_subtree one level a launch
  // below that, then fused.
  CHECK(settings(h200(), cfg).nodes_per_item == 1);
  CHECK(settings(h200(), {}).nodes_per_item == 2);
  const auto launches = plan(h200(), cfg, std::uint64_t(1) << 25);
  REQUIRE(launches.size() == 11);
  for (std::size_t i = 0; i < 9; ++i) {
    CHECK(launches[i].kernel == (i < 6 ? kernel_kind::level : kernel_kind::subtree));
    CHECK(launches[i].levels == 1);
    CHECK(launches[i].items == launches[i].in_count / 2);
  }
  CHECK(launches[9] == planned_launch{kernel_kind::subtree, 8, 1u << 16, 1u << 15, false});
  CHECK(launches[10] == planned_launch{kernel_kind::subtree, 8, 1u << 8, 1u << 7, false});
}

TEST_CASE("rfc6962 trees get the SHA-256 kernel choice and no lanes", "[launch-plan]") {
  const merklize::config sha256{{merklize::hash_kind::sha256}};
  const merklize::config rfc6962{{merklize::hash_kind::rfc6962}};
  CHECK(plan(h200(), rfc6962, std::uint64_t(1) << 25) ==
        plan(h200(), sha256, std::uint64_t(1) << 25));
  CHECK(settings(pocl_cpu(16), rfc6962).lanes == 1);
}

TEST_CASE("Keccak trees get SHA-256's kernel choice, not BLAKE3's, and no lanes",
          "[launch-plan][keccak]") {
  const merklize::config sha256{{merklize::hash_kind::sha256}};
  for (const auto hash : {merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256}) {
    const merklize::config keccak{{hash}};
    CHECK(plan(h200(), keccak, std::uint64_t(1) << 25) ==
          plan(h200(), sha256, std::uint64_t(1) << 25));
    CHECK(plan(h200(), keccak, 1000) == plan(h200(), sha256, 1000));
    CHECK(settings(pocl_cpu(16), keccak).lanes == 1);
  }
}

TEST_CASE("PoCL hashes BLAKE3 and sha256 nodes in vector lanes, one level a launch",
          "[launch-plan]") {
  for (unsigned width : {4u, 8u, 16u}) {
    const auto s = settings(pocl_cpu(width), {});
    CHECK(s.lanes == width);
    CHECK(s.local_size == 16);
    const auto launches = plan(pocl_cpu(width), {}, 1000);
    CHECK(launches.size() == merklize::tree_layout(1000).depth());
    for (const auto &l : launches)
      CHECK(l.kernel == kernel_kind::lanes);
    check_consistent(launches, s, 1000, 10);
  }
  // sha256 nodes too (the row's sha256_lanes), in work-groups of 16; rfc6962's 65-byte node has
  // no lanes kernel: one node per work-item, work-groups of 256.
  const merklize::config sha{{merklize::hash_kind::sha256}};
  const auto s = settings(pocl_cpu(16), sha);
  CHECK(s.lanes == 16);
  CHECK(s.local_size == 16);
  const auto r = settings(pocl_cpu(16), merklize::config{{merklize::hash_kind::rfc6962}});
  CHECK(r.lanes == 1);
  CHECK(r.local_size == 256);
  CHECK(settings(h200(), sha).lanes == 1);
}

TEST_CASE("configuration knobs override the tuning row", "[launch-plan]") {
  const std::uint64_t n = 70000;
  const unsigned depth = merklize::tree_layout(n).depth();
  SECTION("levels_per_launch = 1: a launch per level") {
    merklize::config cfg;
    cfg.levels_per_launch = 1;
    CHECK(plan(h200(), cfg, n).size() == depth);
  }
  SECTION("level_kernel = level: merkle_level wherever a launch is not fused") {
    merklize::config cfg;
    cfg.level_kernel = merklize::level_kernel_kind::level;
    cfg.nodes_per_item = 4;
    cfg.work_group_size = 8;
    const auto s = settings(h200(), cfg);
    const auto launches = merklize::detail::plan_launches(s, n, depth);
    check_consistent(launches, s, n, depth);
    CHECK(launches.front().kernel == kernel_kind::level);
    for (const auto &l : launches)
      CHECK(l.kernel != kernel_kind::levels);
  }
  SECTION("level_kernel = levels with 3 levels per item") {
    merklize::config cfg;
    cfg.level_kernel = merklize::level_kernel_kind::levels;
    cfg.levels_per_item = 3;
    cfg.work_group_size = 4;
    const auto launches = plan(h200(), cfg, n);
    CHECK(launches.front() == planned_launch{kernel_kind::levels, 3, n, (n + 7) / 8, false});
  }
  SECTION("level_kernel = subtree: the fused kernel for every launch") {
    merklize::config cfg;
    cfg.level_kernel = merklize::level_kernel_kind::subtree;
    for (const auto &l : plan(h200(), cfg, n))
      CHECK(l.kernel == kernel_kind::subtree);
  }
  SECTION("a work-group size that is not a power of two fuses nothing") {
    merklize::config cfg;
    cfg.work_group_size = 3;
    cfg.level_kernel = merklize::level_kernel_kind::subtree;
    CHECK(plan(h200(), cfg, n).size() == depth);
  }
}

TEST_CASE("levels of more than 2^30 nodes get 64-bit indices", "[launch-plan]") {
  merklize::config cfg;
  cfg.level_kernel = merklize::level_kernel_kind::level;
  const std::uint64_t n = (std::uint64_t(1) << 31) + 5;
  const auto s = settings(h200(), cfg);
  const auto launches = merklize::detail::plan_launches(s, n, merklize::tree_layout(n).depth());
  check_consistent(launches, s, n, merklize::tree_layout(n).depth());
  CHECK(launches[0].wide_index);
  CHECK_FALSE(launches[2].wide_index); // 2^29 + 2 nodes
}

TEST_CASE("every plan computes every level, for any size and knob", "[launch-plan]") {
  std::vector<merklize::config> configs(6);
  configs[1].level_kernel = merklize::level_kernel_kind::level;
  configs[2].levels_per_launch = 3;
  configs[3].work_group_size = 4;
  configs[4].tree.hash = merklize::hash_kind::sha256;
  configs[5].lanes = 8;
  for (const auto &device : {h200(), pocl_cpu(16), pocl_cpu(4)})
    for (const auto &cfg : configs) {
      const auto s = settings(device, cfg);
      for (std::uint64_t n :
           {2ull, 3ull, 5ull, 255ull, 256ull, 257ull, 4097ull, 1000000ull, (1ull << 25) + 1}) {
        INFO(device.name << " n=" << n);
        const unsigned depth = merklize::tree_layout(n).depth();
        check_consistent(merklize::detail::plan_launches(s, n, depth), s, n, depth);
      }
    }
}
