// Random leaves against the host reference at awkward sizes: 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 for
// k up to 20, and around the work-group size. Every output is poisoned before the run, and every
// node is compared, so a node the device failed to write shows up.
#include "helpers.hpp"

#include <catch2/catch.hpp>

namespace {

// Builds through the device-buffer API into a poisoned buffer and returns every node, leaves
// first, in the tree layout.
std::vector<std::uint8_t> device_tree(merklize::merkleizer &m,
                                      const std::vector<std::uint8_t> &leaves) {
  const std::uint64_t n = leaves.size() / 32;
  cl::Buffer in(m.context(), CL_MEM_READ_ONLY, leaves.size());
  m.queue().enqueueWriteBuffer(in, CL_TRUE, 0, leaves.size(), leaves.data());
  const std::size_t out_bytes = merklize::merkleizer::output_node_count(n) * 32;
  cl::Buffer out = test::poisoned_buffer(m.context(), m.queue(), out_bytes);
  m.enqueue_build(in, n, out).back().wait();
  auto all = leaves;
  const auto nodes = test::read_buffer(m.queue(), out, out_bytes);
  if (n > 1) all.insert(all.end(), nodes.begin(), nodes.end());
  return all;
}

} // namespace

TEST_CASE("random leaves at awkward sizes match the host reference", "[random]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  merklize::merkleizer m(test::test_device(), {{hash, pad}});
  for (std::uint64_t n : test::awkward_sizes(20)) {
    INFO(merklize::to_string(hash) << " " << merklize::to_string(pad) << " n=" << n);
    const auto leaves = test::random_bytes(n * 32);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
    const auto built = m.build(leaves);
    REQUIRE(built.bytes() == expected.bytes());
    if (n <= 4097) REQUIRE(device_tree(m, leaves) == expected.bytes());
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
        REQUIRE(device_tree(m, leaves) == expected.bytes());
      }
  }
}
