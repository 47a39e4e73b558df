// SPDX-License-Identifier: Apache-2.0 OR MIT
// What the tests of trees kept on the device (test_resident_*.cpp) share: the tree checked
// against the host reference, and the batches they update with.
#pragma once

#include "proof_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/resident_tree.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace test {

// The tree on the device equal to the reference over `leaves`: root, every level, a proof.
// Returns the reference.
inline merklize::tree check_tree(const merklize::resident_tree &t,
                                 const std::vector<merklize::digest> &leaves,
                                 const merklize::digest &returned) {
  const merklize::tree expected =
      merklize::reference_tree(leaves.data(), leaves.size() * 32, t.options());
  CHECK(returned == expected.root());
  CHECK(t.root() == expected.root());
  const auto levels = t.levels();
  REQUIRE(levels.size() == expected.depth() + 1);
  for (unsigned level = 0; level <= expected.depth(); ++level)
    CHECK(levels[level] == expected.level(level));
  CHECK(t.prove(leaves.size() - 1) == merklize::prove(expected, leaves.size() - 1));
  return expected;
}

// Batches over n leaves: the first leaf, the last, every leaf shuffled, n / some_every + 1 random
// ones, repeats of the first three, none.
inline std::vector<std::vector<std::uint64_t>>
update_batches(std::uint64_t n, std::mt19937_64 &random, std::uint64_t some_every) {
  std::vector<std::uint64_t> every(n), some, repeats;
  for (std::uint64_t i = 0; i < n; ++i)
    every[i] = i;
  std::shuffle(every.begin(), every.end(), random);
  for (std::uint64_t k = 0; k < n / some_every + 1; ++k)
    some.push_back(random() % n);
  for (int k = 0; k < 12; ++k)
    repeats.push_back(random() % std::min<std::uint64_t>(n, 3));
  return {{0}, {n - 1}, every, some, repeats, {}};
}

// The options' configuration with updates from host memory applied by `engine` (the kernels,
// or the host's cores: host_updater.hpp), so that a test takes the path it means on any device.
inline merklize::config on_engine(const merklize::tree_options &options,
                                  merklize::resident_update engine) {
  merklize::config cfg{options};
  cfg.resident_updates = engine;
  return cfg;
}

} // namespace test
