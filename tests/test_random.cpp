// SPDX-License-Identifier: Apache-2.0 OR MIT
// Random leaves against the host reference at awkward sizes: 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 for
// k up to 20, and around the work-group size. Every output is poisoned before the run, and every
// node is compared, so a node the device failed to write shows up.
#include "helpers.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

TEST_CASE("random leaves at awkward sizes match the host reference", "[random]") {
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  const auto hash = options.hash;
  const auto pad = options.shape;
  merklize::merkleizer m(test::test_device(), {{hash, pad}});
  for (std::uint64_t n : test::awkward_sizes(20)) {
    INFO(merklize::to_string(hash) << " " << merklize::to_string(pad) << " n=" << n);
    const auto leaves = test::random_bytes(n * 32);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
    const auto built = m.build(leaves);
    REQUIRE(built == expected);
    if (n <= 4097) REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
  }
}

TEST_CASE("sizes around the work-group size match the host reference", "[random][work-group]") {
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  for (std::size_t wg : {1, 3, 32, 64}) {
    merklize::config cfg{{merklize::hash_kind::blake3, pad}};
    cfg.work_group_size = wg;
    merklize::merkleizer m(test::test_device(), cfg);
    for (std::uint64_t base : {wg, 2 * wg, 4 * wg})
      for (std::uint64_t n : {base - 1, base, base + 1}) {
        if (n == 0) continue;
        INFO("work-group " << wg << " n=" << n << " " << merklize::to_string(pad));
        const auto leaves = test::random_bytes(n * 32);
        const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
        REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
      }
  }
}

TEST_CASE("every kernel variant matches the host reference", "[random][variants]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  struct variant {
    unsigned lanes, levels_per_launch;
    std::size_t work_group_size;
  };
  for (const variant v :
       {variant{1, 0, 64}, variant{1, 1, 64}, variant{1, 0, 256}, variant{2, 0, 32},
        variant{4, 0, 4}, variant{8, 0, 3}, variant{16, 0, 16}}) {
    merklize::config cfg;
    cfg.tree = {hash, pad};
    cfg.lanes = v.lanes;
    cfg.levels_per_launch = v.levels_per_launch;
    cfg.work_group_size = v.work_group_size;
    merklize::merkleizer m(test::test_device(), cfg);
    for (std::uint64_t n : {1ull, 2ull, 3ull, 15ull, 16ull, 17ull, 255ull, 256ull, 257ull, 4095ull,
                            4096ull, 4097ull}) {
      INFO("lanes " << v.lanes << " levels/launch " << v.levels_per_launch << " wg "
                    << v.work_group_size << " " << merklize::to_string(hash) << " "
                    << merklize::to_string(pad) << " n=" << n);
      const auto leaves = test::random_bytes(n * 32);
      const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
      REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
      REQUIRE(m.build(leaves) == expected);
    }
  }
}

TEST_CASE("Keccak trees around the work-group size match the host reference in every level kernel",
          "[random][work-group][keccak]") {
  const auto hash = GENERATE(merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  // Keccak has no lanes kernel: merkle_subtree (fused), merkle_level and merkle_levels serve it.
  for (const auto kind : {merklize::level_kernel_kind::subtree, merklize::level_kernel_kind::level,
                          merklize::level_kernel_kind::levels})
    for (std::size_t wg : {3, 32}) {
      merklize::config cfg{{hash, pad}};
      cfg.level_kernel = kind;
      cfg.lanes = 1;
      cfg.work_group_size = wg;
      merklize::merkleizer m(test::test_device(), cfg);
      for (std::uint64_t base : {wg, 2 * wg, 8 * wg})
        for (std::uint64_t n : {base - 1, base, base + 1}) {
          INFO(merklize::to_string(hash) << " " << merklize::to_string(pad) << " kernel "
                                         << int(kind) << " work-group " << wg << " n=" << n);
          const auto leaves = test::random_bytes(n * 32);
          const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
          REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
          REQUIRE(m.build(leaves) == expected);
        }
    }
}
