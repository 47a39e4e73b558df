// SPDX-License-Identifier: Apache-2.0 OR MIT
#include <merklize/merklize.hpp>

#include <iostream>
#include <vector>

int main() {
  merklize::block_hasher h(merklize::default_device());
  const merklize::config sha256{merklize::tree_options{merklize::hash_kind::sha256}};
  std::vector<merklize::digest> leaves(1000);
  for (std::size_t i = 0; i < leaves.size(); ++i)
    leaves[i][0] = static_cast<std::uint8_t>(i);

  // A tree kept in the device's memory: updates recompute only the paths they touch.
  merklize::resident_tree t(h, leaves, sha256);
  merklize::digest changed{};
  changed.fill(0xab);
  t.update({3, 999, 3}, {changed, changed, changed}); // a repeated index takes its last value
  leaves[3] = leaves[999] = changed;
  const bool same =
      t.root() == merklize::reference_tree(leaves.data(), leaves.size() * 32, sha256.tree).root();

  // A log that grows: the tree of the first 1000 leaves is a prefix of the new one.
  const merklize::digest old_root = t.root();
  t.append(std::vector<merklize::digest>(24, changed));
  const merklize::consistency_proof c = t.prove_consistency(1000);
  const bool prefix = bool(merklize::verify_consistency(1000, 1024, old_root, t.root(), c));

  // Many small trees at once: the roots of 125 trees of 8 leaves each.
  const std::vector<merklize::digest> roots =
      merklize::roots_many(h, leaves.data(), leaves.size() * 32, 8, sha256);

  // A sparse tree of 2^256 leaves keyed by 32-byte keys; absent keys are proved absent.
  merklize::sparse_tree s(h, {merklize::hash_kind::sha256, 256});
  s.update({changed}, {leaves[0]});
  const merklize::sparse_proof absent = s.prove(merklize::digest{});
  const bool proved = merklize::sparse_verify(s.options(), s.root(), absent);

  const bool first =
      roots[0] == merklize::reference_tree(leaves.data(), 8 * 32, sha256.tree).root();

  std::cout << "log root " << merklize::to_hex(t.root()) << "\n"
            << "125 roots, the first " << merklize::to_hex(roots[0]) << "\n"
            << "sparse root " << merklize::to_hex(s.root()) << "\n";
  return same && prefix && first && proved ? 0 : 1;
}
