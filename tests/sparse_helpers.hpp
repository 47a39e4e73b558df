// SPDX-License-Identifier: Apache-2.0 OR MIT
// Keys and values for the sparse-tree tests (test_sparse*.cpp): no OpenCL, so the core tests can
// use them too.
#pragma once

#include <merklize/core/digest.hpp>

#include <random>

namespace test {

inline merklize::digest random_digest(std::mt19937_64 &rng) {
  merklize::digest d;
  for (auto &byte : d)
    byte = static_cast<std::uint8_t>(rng());
  return d;
}

// `key` with its bits from `depth` up cleared: a key of a tree of that depth.
inline merklize::digest below_depth(merklize::digest key, unsigned depth) {
  for (unsigned bit = depth; bit < 256; ++bit)
    key[31 - bit / 8] &= static_cast<std::uint8_t>(~(1u << (bit % 8)));
  return key;
}

// One of `pool` keys of a tree of `depth`, drawn at random, so that keys repeat and come back.
inline merklize::digest pooled_key(unsigned depth, std::uint64_t pool, std::mt19937_64 &rng) {
  std::mt19937_64 pick(rng() % pool);
  return below_depth(random_digest(pick), depth);
}

} // namespace test
