// SPDX-License-Identifier: Apache-2.0 OR MIT
// Many small trees at once through the C ABI (merklize_roots_many): the builder's binary tree
// (node hash, shape, fixed depth) over consecutive runs of tree_size leaves, built by
// many_trees.hpp on the builder's device. Kept apart from the other builds so that this entry
// point and its checks stay in one file.
#include "capi.hpp"
#include "handles.hpp"

#include <merklize/engine/many_trees.hpp>

#include <cstring>
#include <mutex>
#include <string>

using namespace merklize_capi;

namespace {

// Refuses a builder whose trees are not binary trees over 32-byte leaves.
void check_binary_leaves(const tree_settings &s, const char *function) {
  const std::string where = std::string(function) + ": the builder's configuration: ";
  if (s.kary())
    throw argument_error(where + "arity " + std::to_string(s.spec.arity) +
                         ": many trees at once are binary trees (arity 2)");
  if (s.blocks())
    throw argument_error(where + "leaf_size is set: many trees at once take 32-byte leaves "
                                 "(leaf_size 0)");
  if (s.spec.mix_in_length)
    throw argument_error(where + "mix_in_length is set: many trees at once give the trees' "
                                 "roots, with no length mixed in");
}

} // namespace

merklize_status merklize_roots_many(merklize_builder *builder, const void *leaves,
                                    uint64_t leaves_size, uint64_t tree_size, uint8_t *roots,
                                    uint64_t roots_size) {
  static const char *const function = "merklize_roots_many";
  return guarded([&] {
    merklize_builder &b = required(builder, function, "builder");
    if (leaves_size > 0) required(leaves, function, "leaves");
    check_binary_leaves(b.settings, function);
    // Before `roots`: a call of no whole tree is told so, whatever its roots pointer.
    const std::uint64_t trees = detail::many_tree_count(leaves_size, tree_size, function);
    check_field_leaves(b.settings.tree().hash, leaves, leaves_size / node_bytes, "leaves");
    required(roots, function, "roots");
    if (roots_size < trees * node_bytes)
      throw argument_error(std::string(function) + ": roots_size is " + std::to_string(roots_size) +
                           " bytes, too small for " + std::to_string(trees) +
                           " roots of 32 bytes (" + std::to_string(trees * node_bytes) + " bytes)");
    const std::lock_guard<std::mutex> lock(b.mutex);
    many_trees_builder many(b.blocks(), config{b.settings.tree()});
    const std::vector<digest> built = many.roots(leaves, leaves_size, tree_size);
    std::memcpy(roots, built.data(), built.size() * node_bytes); // only once all is done
  });
}
