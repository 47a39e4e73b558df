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

// `leaves` uploaded as a block hasher's leaves are.
inline merklize::device_leaves uploaded(const std::vector<std::uint8_t> &leaves) {
  return {cl::Buffer(hasher().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, leaves.size(),
                     const_cast<std::uint8_t *>(leaves.data())),
          leaves.size() / merklize::node_bytes,
          leaves.size(),
          {}};
}

} // namespace test
