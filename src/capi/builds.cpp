// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "builds.hpp"

#include <merklize/core/ssz.hpp>
#include <merklize/engine/block_tree.hpp>
#include <merklize/engine/device_tree.hpp>
#include <merklize/engine/merkleizer.hpp>

#include <algorithm>

namespace merklize_capi {
namespace {

digest mixed(const tree_settings &s, const digest &root) {
  return s.spec.mix_in_length ? mix_in_length(root, s.length) : root;
}

// A tree of no leaves has a root only where its rules give one (rfc6962; shape zero with a fixed
// depth, an empty SSZ list's); k-ary trees have none.
digest empty_root(const tree_settings &s, const std::string &name) {
  const auto root = s.kary() ? std::nullopt : empty_tree_root(s.tree());
  if (!root)
    throw argument_error(name + " is empty: a tree of hash " + to_string(s.tree().hash) +
                         " and shape " + to_string(s.tree().shape) +
                         " needs at least one leaf (only rfc6962, and shape zero with a fixed "
                         "depth, have a root of no leaves)");
  return *root;
}

// A tree that keeps its root alone: at level `depth`, where the root is the top stored node
// (not above it at a fixed depth), else no level at all.
std::unique_ptr<merklize_tree> root_only_tree(const tree_settings &s, std::uint64_t leaf_count,
                                              unsigned depth, bool root_stored,
                                              const digest &tree_root) {
  auto t = std::make_unique<merklize_tree>();
  t->settings = s;
  t->leaf_count = leaf_count;
  t->depth = depth;
  t->first_level = root_stored ? depth : depth + 1;
  t->tree_root = tree_root;
  t->root = mixed(s, tree_root);
  return t;
}

std::unique_ptr<merklize_tree> empty_tree(const tree_settings &s, const std::string &name) {
  return root_only_tree(s, 0, 0, false, empty_root(s, name));
}

std::unique_ptr<merklize_tree> binary_tree(const tree_settings &s, tree built) {
  auto t = std::make_unique<merklize_tree>();
  t->settings = s;
  t->leaf_count = built.leaf_count();
  t->depth = built.depth();
  t->first_level = built.first_level();
  t->tree_root = built.root();
  t->root = mixed(s, t->tree_root);
  t->binary = std::move(built);
  return t;
}

// Refuses bytes that are not whole 32-byte leaves, naming the source.
std::uint64_t leaves_in(std::uint64_t bytes, const std::string &name) {
  try {
    return leaf_count_of(bytes);
  } catch (const error &e) {
    throw argument_error(name + ": " + e.what());
  }
}

// The binary tree of the settings over leaves on the device, built there with the builder's
// configuration, and the levels it keeps read back into host memory.
std::unique_ptr<merklize_tree> tree_on_device(merklize_builder &b, const device_leaves &leaves,
                                              const std::string &name) {
  const tree_settings &s = b.settings;
  const device_tree built(b.blocks(), leaves, config{s.tree()}, name);
  tree t(leaves.count, s.tree(), s.keep);
  if (t.first_level() == 0) built.read_levels(0, 0, t.level_data(0));
  if (t.nodes_size() > 0) built.read_levels(t.first_node_level(), built.top(), t.nodes_data());
  return binary_tree(s, std::move(t));
}

// A k-ary tree's leaves on the device: as given, or hashed from the source's blocks.
device_leaves kary_leaves(merklize_builder &b, opened_source &source) {
  const tree_settings &s = b.settings;
  device_leaves leaves =
      s.blocks() ? leaves_of(b.blocks(), source, *s.blocks()) : leaves_as_given(b.blocks(), source);
  if (leaves.count == 0) empty_root(s, source.name()); // refused: k-ary trees have no such root
  return leaves;
}

std::unique_ptr<merklize_tree> kary_tree_of(merklize_builder &b, opened_source &source) {
  const tree_settings &s = b.settings;
  block_hasher &h = b.blocks();
  const device_leaves leaves = kary_leaves(b, source);
  const unsigned height = kary_height(leaves.count, s.spec.arity);
  if (s.root_only())
    return root_only_tree(s, leaves.count, height, true,
                          kary_tree_on_device(h, leaves, s.kary_tree()).root);
  kary_tree built = kary_tree_on_device(h, leaves, s.kary_tree(), true);
  auto t = root_only_tree(s, leaves.count, height, true, built.root);
  t->first_level = std::min(s.keep.first, height);
  for (unsigned level = 0; level < t->first_level; ++level)
    std::vector<digest>().swap(built.levels[level]); // not kept: freed
  t->kary = std::move(built.levels);
  return t;
}

std::unique_ptr<merklize_tree> block_tree_of(merklize_builder &b, opened_source &source) {
  const device_leaves leaves = leaves_of(b.blocks(), source, *b.settings.blocks());
  if (leaves.count == 0) return empty_tree(b.settings, source.name());
  return tree_on_device(b, leaves, source.name());
}

// A file or a descriptor streamed for its root: its leaf count is what its reads gave.
std::unique_ptr<merklize_tree> streamed_tree(merklize_builder &b, opened_source &source) {
  const tree_settings &s = b.settings;
  const digest root = b.root_only().root(source.input());
  const std::uint64_t count = source.bytes_read() / node_bytes;
  if (count == 0) return root_only_tree(s, 0, 0, false, root);
  const tree_layout layout(count);
  return root_only_tree(s, count, layout.depth(), root_depth(s.tree(), layout) == layout.depth(),
                        root);
}

// A hash over field elements takes canonical ones only: its leaves are read whole (a path or a
// descriptor is not streamed: the source is then in memory) and each is checked first.
void check_source_leaves(const tree_settings &s, opened_source &source) {
  if (s.kary() || s.blocks() || !row_of(s.tree().hash).non_canonical) return;
  const byte_view bytes = source.whole();
  check_field_leaves(s.tree().hash, bytes.data, bytes.size / node_bytes, source.name());
}

} // namespace

std::unique_ptr<merklize_tree> build_tree(merklize_builder &b, opened_source &source) {
  const tree_settings &s = b.settings;
  check_source_leaves(s, source);
  if (s.kary()) return kary_tree_of(b, source);
  if (s.blocks()) return block_tree_of(b, source);
  if (!source.in_memory() && s.root_only()) return streamed_tree(b, source);
  const byte_view bytes = source.whole();
  if (bytes.size == 0) return empty_tree(s, source.name());
  leaves_in(bytes.size, source.name());
  return binary_tree(s, b.kept().build(bytes.data, bytes.size));
}

digest root_of(merklize_builder &b, opened_source &source) {
  const tree_settings &s = b.settings;
  check_source_leaves(s, source);
  if (s.kary()) return kary_tree_on_device(b.blocks(), kary_leaves(b, source), s.kary_tree()).root;
  if (s.blocks()) {
    const device_leaves leaves = leaves_of(b.blocks(), source, *s.blocks());
    if (leaves.count == 0) return mixed(s, empty_root(s, source.name()));
    return mixed(s, device_tree(b.blocks(), leaves, config{s.tree()}, source.name()).root());
  }
  if (!source.in_memory()) return mixed(s, b.root_only().root(source.input()));
  if (source.size() == 0) return mixed(s, empty_root(s, source.name()));
  leaves_in(source.size(), source.name());
  return mixed(s, b.root_only().build(source.data(), source.size()).root());
}

merklize_proof::value_type prove_in(merklize_builder &b, opened_source &source,
                                    std::uint64_t index) {
  const tree_settings &s = b.settings;
  check_source_leaves(s, source);
  if (s.kary()) {
    const device_leaves leaves = kary_leaves(b, source);
    check_kary_index(index, leaves.count);
    return device_tree(b.blocks(), leaves, s.kary_tree()).prove(index);
  }
  inclusion_proof proof;
  if (s.blocks()) {
    const device_leaves leaves = leaves_of(b.blocks(), source, *s.blocks());
    check_block_index(source.name(), index, leaves.count, s.blocks()->block_bytes);
    proof = device_tree(b.blocks(), leaves, config{s.tree()}, source.name()).prove_binary(index);
  } else if (!source.in_memory()) {
    proof = b.kept().prove(source.input(), index);
  } else { // host memory: uploaded, built on the device, and only the leaf's path read back
    detail::check_leaf_index(index, leaves_in(source.size(), source.name()));
    const device_leaves leaves = leaves_as_given(b.blocks(), source);
    proof = device_tree(b.blocks(), leaves, config{s.tree()}, source.name()).prove_binary(index);
  }
  return s.spec.mix_in_length ? mix_in_length(proof, s.length) : proof;
}

} // namespace merklize_capi
