// Random leaves against the host reference at awkward sizes: 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 for
// k up to 20, and around the work-group size. Every output is poisoned before the run, and every
// node is compared, so a node the device failed to write shows up.
#include "helpers.hpp"

#include <catch2/catch.hpp>

namespace {

std::vector<std::uint64_t> awkward_sizes() {
  std::vector<std::uint64_t> sizes{1, 2, 3};
  for (unsigned k = 2; k <= 20; ++k)
    for (std::uint64_t n : {(1ull << k) - 1, 1ull << k, (1ull << k) + 1})
      sizes.push_back(n);
  return sizes;
}

} // namespace

TEST_CASE("random leaves at awkward sizes match the host reference", "[random]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent,
                             merklize::hash_kind::sha256);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  merklize::merkleizer m(test::test_device(), {{hash, pad}});
  for (std::uint64_t n : awkward_sizes()) {
    INFO(merklize::to_string(hash) << " " << merklize::to_string(pad) << " n=" << n);
    const auto leaves = test::random_bytes(n * 32);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
    const auto built = m.build(leaves);
    REQUIRE(built.bytes() == expected.bytes());
    if (n <= 4097) REQUIRE(test::device_tree(m, leaves) == expected.bytes());
  }
}

TEST_CASE("sizes around the work-group size match the host reference", "[random][work-group]") {
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  for (std::size_t wg : {1, 3, 32, 64}) {
    merklize::config cfg{{merklize::hash_kind::blake3, pad}, wg};
    merklize::merkleizer m(test::test_device(), cfg);
    for (std::uint64_t base : {wg, 2 * wg, 4 * wg})
      for (std::uint64_t n : {base - 1, base, base + 1}) {
        if (n == 0) continue;
        INFO("work-group " << wg << " n=" << n << " " << merklize::to_string(pad));
        const auto leaves = test::random_bytes(n * 32);
        const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
        REQUIRE(test::device_tree(m, leaves) == expected.bytes());
      }
  }
}
