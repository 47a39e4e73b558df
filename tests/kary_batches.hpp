// SPDX-License-Identifier: Apache-2.0 OR MIT
// The batches the k-ary multiproof tests prove (test_kary_multiproof.cpp on the host,
// test_resident_kary_proved.cpp on the device): one leaf, the last leaf, every leaf, random with
// repeats in any order, none.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace test {

inline std::vector<std::vector<std::uint64_t>> kary_batches(std::uint64_t n, std::mt19937_64 &rng) {
  std::vector<std::uint64_t> every(n), random;
  for (std::uint64_t i = 0; i < n; ++i)
    every[i] = i;
  for (std::uint64_t i = 0; i < n / 2 + 2; ++i)
    random.push_back(rng() % n);
  return {{rng() % n}, {n - 1}, every, random, {}};
}

} // namespace test
