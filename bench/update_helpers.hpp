// SPDX-License-Identifier: Apache-2.0 OR MIT
// What the benches of trees updated in place share (update_bench, device_tree_capi_bench): the
// host's clock in milliseconds and random bytes for leaves and batches.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>

namespace bench {

using clock_type = std::chrono::steady_clock;

inline double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

inline void fill_random(void *data, std::size_t bytes, std::mt19937_64 &rng) {
  auto *out = static_cast<std::uint8_t *>(data);
  for (std::size_t i = 0; i < bytes; i += 8) {
    const std::uint64_t word = rng();
    std::memcpy(out + i, &word, std::min<std::size_t>(8, bytes - i));
  }
}

} // namespace bench
