// SPDX-License-Identifier: Apache-2.0 OR MIT
// The Poseidon2 compression trees (--hash poseidon2-babybear, poseidon2-koalabear,
// poseidon2-goldilocks, poseidon2-bn254) on the test device against the host reference tree
// (core/reference.hpp over core/poseidon2.hpp's compressions) at awkward sizes: 1, 2, 3, 2^k - 1,
// 2^k, 2^k + 1 and a work-group's size - 1, + 0 and + 1 of leaves (and of pairs), over canonical
// leaves, outputs poisoned. tests/poseidon2_model.py checks the same trees through the CLI against
// an independent Python model and the known answers.
#include "helpers.hpp"

#include <merklize/core/poseidon2.hpp>
#include <merklize/merklize.hpp>

#include <catch2/catch.hpp>

namespace {

const merklize::hash_kind poseidon2_hashes[] = {
    merklize::hash_kind::poseidon2_babybear, merklize::hash_kind::poseidon2_koalabear,
    merklize::hash_kind::poseidon2_goldilocks, merklize::hash_kind::poseidon2_bn254};

// n leaves of random canonical elements of the hash's field (limbs mod p, little-endian; BN254's
// one element below 2^253, and p - 1 at leaf 1).
std::vector<std::uint8_t> canonical_leaves(merklize::hash_kind hash, std::uint64_t n) {
  std::vector<std::uint8_t> leaves = test::random_bytes(n * 32);
  if (hash == merklize::hash_kind::poseidon2_bn254) {
    for (std::size_t at = 31; at < leaves.size(); at += 32)
      leaves[at] &= 0x1f;
    merklize::poseidon2::bn254::limbs p1 = merklize::poseidon2::bn254::prime;
    p1[0] -= 1; // p's low limb is odd
    const merklize::digest top = merklize::poseidon2::bn254::digest_of(p1);
    if (n > 1) std::copy(top.begin(), top.end(), leaves.begin() + 32);
    return leaves;
  }
  namespace p2 = merklize::poseidon2;
  const p2::instance &field = hash == merklize::hash_kind::poseidon2_babybear    ? p2::babybear_16
                              : hash == merklize::hash_kind::poseidon2_koalabear ? p2::koalabear_16
                                                                                 : p2::goldilocks_8;
  const unsigned limb = merklize::poseidon2::limb_bytes(field);
  for (std::size_t at = 0; at < leaves.size(); at += limb) {
    std::uint64_t v = merklize::poseidon2::limb_value(leaves.data() + at, field, 0) % field.prime;
    for (unsigned b = 0; b < limb; ++b)
      leaves[at + b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  return leaves;
}

struct variant {
  merklize::level_kernel_kind kernel;
  unsigned levels_per_launch;
  std::size_t work_group_size;
};

} // namespace

TEST_CASE("poseidon2 trees: every kernel against the host reference at awkward sizes",
          "[poseidon2][device]") {
  using k = merklize::level_kernel_kind;
  // tests/test_hashes.cpp runs every kernel and both shapes over the table's rows, these among
  // them, on random (non-canonical) leaves; here canonical leaves at each work-group's edges.
  const variant variants[] = {{k::subtree, 0, 32}, {k::level, 0, 3}};
  for (const merklize::hash_kind hash : poseidon2_hashes)
    for (const auto pad : {merklize::shape::promote})
      for (const variant v : variants) {
        const merklize::tree_options tree{hash, pad};
        merklize::config cfg{tree};
        cfg.level_kernel = v.kernel;
        cfg.levels_per_launch = v.levels_per_launch;
        cfg.work_group_size = v.work_group_size;
        merklize::merkleizer m(test::test_device(), cfg);
        const std::uint64_t wg = v.work_group_size, pairs = 2 * wg;
        for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3),
                                      std::uint64_t(15), std::uint64_t(16), std::uint64_t(17),
                                      wg - 1, wg, wg + 1, pairs - 1, pairs, pairs + 1}) {
          if (n == 0) continue;
          INFO(merklize::to_string(hash)
               << " " << merklize::to_string(pad) << " kernel " << static_cast<int>(v.kernel)
               << " wg " << wg << " n=" << n);
          const auto leaves = canonical_leaves(hash, n);
          const auto want = merklize::reference_tree(leaves.data(), leaves.size(), tree);
          REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(want));
        }
      }
}

TEST_CASE("poseidon2 trees hash no data blocks", "[poseidon2]") {
  for (const merklize::hash_kind hash : poseidon2_hashes) {
    CHECK_THROWS_WITH(merklize::leaf_hash_of(hash),
                      Catch::Contains("leaves are digests of field elements"));
    CHECK(merklize::row_of(hash).not_kary != nullptr);
  }
}
