// SPDX-License-Identifier: Apache-2.0 OR MIT
#include <merklize/merklize.hpp>

#include <iostream>
#include <vector>

int main() {
  // 1000 leaves of 32 bytes each; any N >= 1 works.
  std::vector<std::uint8_t> leaves(1000 * 32);
  for (std::size_t i = 0; i < leaves.size(); ++i)
    leaves[i] = static_cast<std::uint8_t>(i * 7);

  merklize::merkleizer m; // MERKLIZE_DEVICE, else the first GPU, else the first device
  merklize::tree tree = m.build(leaves);

  std::cout << "device: " << merklize::device_name(m.device()) << "\n"
            << "root:   " << merklize::to_hex(tree.root()) << "\n"
            << "levels: " << tree.depth() + 1 << ", level 1 has " << tree.layout().level_size(1)
            << " nodes, its first is " << merklize::to_hex(tree.node(1, 0)) << "\n"
            << "kernels took " << m.last_times().kernel_ms << " ms\n";

  // The host reference computes the same tree without OpenCL.
  const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {});
  return tree.root() == expected.root() ? 0 : 1;
}
