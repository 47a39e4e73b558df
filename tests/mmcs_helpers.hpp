// SPDX-License-Identifier: Apache-2.0 OR MIT
// The matrices of the MMCS tests (test_mmcs_host.cpp, test_mmcs_device.cpp): random canonical
// elements as the files hold them (little-endian, 4 or 8 bytes), with p - 1 at every fifth place
// (a reduction's corner), and the awkward shapes both run. No OpenCL.
#pragma once

#include <merklize/core/mmcs.hpp>

#include <random>
#include <utility>
#include <vector>

namespace test {

struct owned_matrix {
  std::vector<std::uint8_t> bytes;
  std::size_t height, width;
};

inline owned_matrix random_matrix(std::size_t height, std::size_t width,
                                  const merklize::poseidon2::instance &in, std::mt19937_64 &rng) {
  const unsigned size = merklize::poseidon2::limb_bytes(in);
  owned_matrix m{std::vector<std::uint8_t>(height * width * size), height, width};
  for (std::size_t i = 0; i < height * width; ++i) {
    const std::uint64_t e = i % 5 == 0 ? in.prime - 1 : rng() % in.prime;
    for (unsigned b = 0; b < size; ++b)
      m.bytes[i * size + b] = static_cast<std::uint8_t>(e >> (8 * b));
  }
  return m;
}

inline std::vector<merklize::mmcs::matrix_view> views(const std::vector<owned_matrix> &ms) {
  std::vector<merklize::mmcs::matrix_view> out;
  for (const owned_matrix &m : ms)
    out.push_back({m.bytes.data(), m.height, m.width});
  return out;
}

// Shapes as (height, width), in the order given to the commitment: one row, widths 0, 1, 7, 8,
// 9, 24, 25, heights that are not powers of two, several matrices sharing a height, unsorted.
inline const std::vector<std::vector<std::pair<std::size_t, std::size_t>>> mmcs_shapes = {
    {{1, 1}},
    {{1, 25}},
    {{2, 8}},
    {{7, 7}},
    {{9, 24}},
    {{3, 1}, {2, 25}},
    {{4, 1}, {7, 8}, {1, 7}, {2, 24}},
    {{5, 9}, {3, 1}, {5, 25}, {1, 8}, {3, 0}},
    {{16, 1}, {2, 9}, {8, 7}, {8, 8}, {16, 5}},
    {{6, 2}, {6, 3}, {3, 9}, {2, 1}, {1, 1}, {6, 7}},
    {{33, 9}, {17, 1}, {3, 2}},
};

} // namespace test
