// SPDX-License-Identifier: Apache-2.0 OR MIT
// The SHA-256 lanes kernel (include/merklize/kernels/sha256_lanes.cl through merkle_lanes.cl):
// sha256 trees with 2, 4, 8 and 16 nodes per work-item, work-groups of the CPU row's 16 and 16 +-
// 1, at awkward leaf counts, every node written into a poisoned buffer compared with OpenSSL's
// levels (shape promote) and with the host reference (shapes promote and zero, a fixed depth); and
// the tuning table's choice of it on CPU devices.
#include "helpers.hpp"

#include <merklize/plan/launch_plan.hpp>
#include <merklize/runtime/runtime.hpp>

#include <catch2/catch.hpp>

#include <openssl/sha.h>

namespace {

// Levels 1..depth of a promote-shaped sha256 tree, by OpenSSL: what enqueue_build writes.
std::vector<std::uint8_t> openssl_levels(const std::vector<std::uint8_t> &leaves) {
  std::vector<std::uint8_t> all, level = leaves;
  while (level.size() > 32) {
    std::vector<std::uint8_t> up((level.size() / 32 + 1) / 2 * 32);
    for (std::size_t i = 0; 64 * i + 64 <= level.size(); ++i)
      SHA256(level.data() + 64 * i, 64, up.data() + 32 * i);
    if (level.size() % 64) // a lone last node moves up
      std::copy(level.end() - 32, level.end(), up.end() - 32);
    all.insert(all.end(), up.begin(), up.end());
    level = up;
  }
  return all.empty() ? leaves : all;
}

} // namespace

TEST_CASE("sha256 trees in vector lanes equal OpenSSL's and the host reference's",
          "[sha256][lanes]") {
  struct variant {
    unsigned lanes;
    std::size_t work_group_size;
  };
  for (const variant v : {variant{16, 15}, variant{16, 16}, variant{16, 17}, variant{8, 3},
                          variant{4, 4}, variant{2, 32}}) {
    merklize::config cfg{{merklize::hash_kind::sha256}};
    cfg.lanes = v.lanes;
    cfg.work_group_size = v.work_group_size;
    merklize::merkleizer promote(test::test_device(), cfg);
    cfg.tree.shape = merklize::shape::zero;
    merklize::merkleizer zero(test::test_device(), cfg);
    for (const std::uint64_t n : test::awkward_sizes(12)) {
      INFO("lanes " << v.lanes << ", work-group " << v.work_group_size << ", " << n << " leaves");
      const auto leaves = test::random_bytes(n * 32);
      const auto nodes = test::device_tree(promote, leaves);
      REQUIRE(nodes == openssl_levels(leaves));
      REQUIRE(nodes == test::device_nodes_of(merklize::reference_tree(
                           leaves.data(), leaves.size(), promote.configuration().tree)));
      const auto expected_zero =
          merklize::reference_tree(leaves.data(), leaves.size(), zero.configuration().tree);
      REQUIRE(test::device_tree(zero, leaves) == test::device_nodes_of(expected_zero));
      REQUIRE(zero.build(leaves) == expected_zero);
    }
  }
}

TEST_CASE("the tuning table gives CPU devices SHA-256 in lanes, GPUs one node per work-item",
          "[sha256][lanes]") {
  const merklize::config sha256{{merklize::hash_kind::sha256}};
  const auto settings = [&](const merklize::device_facts &facts) {
    return merklize::detail::resolve_launch_settings(facts, merklize::tuning_for(facts), sha256);
  };
  merklize::device_facts cpu;
  cpu.type = merklize::device_type::cpu;
  cpu.preferred_int_vector_width = 16;
  cpu.max_work_group_size = 4096;
  CHECK(settings(cpu).lanes == 16);
  merklize::device_facts gpu;
  gpu.vendor = "NVIDIA Corporation";
  CHECK(settings(gpu).lanes == 1);
  // The device the tests run on, as it is: PoCL's lanes where it is a CPU.
  const auto here = merklize::read_device_facts(test::test_device());
  CHECK((settings(here).lanes > 1) == here.is_cpu());
}
