// SPDX-License-Identifier: Apache-2.0 OR MIT
// Shared by the tests of leaves from data blocks and of k-ary trees on the device.
#pragma once

#include "helpers.hpp"

#include <merklize/engine/block_tree.hpp>

#include <cstring>
#include <vector>

namespace test {

// One block hasher on the test device for the whole test program (its programs built once).
inline merklize::block_hasher &hasher() {
  static merklize::block_hasher h(test_device());
  return h;
}

// 32-byte leaves as digests.
inline std::vector<merklize::digest> as_digests(const std::vector<std::uint8_t> &bytes) {
  std::vector<merklize::digest> digests(bytes.size() / merklize::node_bytes);
  std::memcpy(digests.data(), bytes.data(), digests.size() * merklize::node_bytes);
  return digests;
}

} // namespace test
