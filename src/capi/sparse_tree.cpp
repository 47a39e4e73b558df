// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_sparse_tree: the C ABI of sparse_tree (engine/sparse_tree.hpp), a sparse Merkle tree
// on the device changed by batches, and merklize_sparse_verify, core/sparse.hpp's rule on the
// host. As merklize_device_tree, the handle owns a block_hasher of its own on the device's state
// (so it outlives the device) and a mutex that serialises its calls. sparse_tree refuses a bad
// batch (a key past the depth) before anything changes; the C arguments are checked before it.
#include "capi.hpp"
#include "handles.hpp"

#include <merklize/engine/sparse_tree.hpp>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

struct merklize_sparse_tree : merklize_capi::tagged<merklize_sparse_tree> {
  merklize_sparse_tree(std::shared_ptr<const merklize_capi::device_state> d,
                       const merklize::sparse_options &options)
      : device(std::move(d)),
        hasher(std::make_unique<merklize::block_hasher>(device->context, device->device)),
        tree(*hasher, options) {}

  std::shared_ptr<const merklize_capi::device_state> device;
  std::unique_ptr<merklize::block_hasher> hasher; // before `tree`: the tree is made with it
  merklize::sparse_tree tree;
  mutable std::mutex mutex; // held by every call on the tree
};

using namespace merklize_capi;

namespace {

// The options of a hash name (NULL: blake3) and a depth, checked, naming the argument.
merklize::sparse_options sparse_options_of(const char *hash, uint32_t depth) {
  merklize::sparse_options options;
  options.hash = for_field("hash", [&] { return parse_hash_kind(hash ? hash : "blake3"); });
  options.depth = depth;
  for_field("depth", [&] { check_sparse_options(options); });
  return options;
}

// The tree under its mutex, for `body`, which throws on failure.
template <class Body>
merklize_status locked(merklize_sparse_tree *tree, const char *function, Body &&body) {
  return guarded([&] {
    merklize_sparse_tree &t = required(tree, function, "tree");
    const std::lock_guard<std::mutex> lock(t.mutex);
    body(t.tree);
  });
}

} // namespace

extern "C" {

merklize_status merklize_sparse_tree_create(merklize_device *device, const char *hash,
                                            uint32_t depth, merklize_sparse_tree **tree) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_sparse_tree_create", "device");
    required(tree, "merklize_sparse_tree_create", "tree");
    const merklize::sparse_options options = sparse_options_of(hash, depth);
    *tree = new merklize_sparse_tree(d.state, options);
  });
}

void merklize_sparse_tree_free(merklize_sparse_tree *tree) {
  free_handle(tree, "merklize_sparse_tree_free", "tree");
}

merklize_status merklize_sparse_tree_root(merklize_sparse_tree *tree,
                                          uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  return locked(tree, "merklize_sparse_tree_root", [&](const sparse_tree &t) {
    std::memcpy(&required(root, "merklize_sparse_tree_root", "root"), t.root().data(), node_bytes);
  });
}

uint64_t merklize_sparse_tree_size(const merklize_sparse_tree *tree) {
  const auto *t = live_or_null(tree, "merklize_sparse_tree_size", "tree");
  if (!t) return 0;
  const std::lock_guard<std::mutex> lock(t->mutex);
  return t->tree.size();
}

merklize_status merklize_sparse_tree_update(merklize_sparse_tree *tree, const uint8_t *keys,
                                            const uint8_t *values, uint64_t count,
                                            uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  const char *function = "merklize_sparse_tree_update";
  return locked(tree, function, [&](sparse_tree &t) {
    if (count > 0) {
      required(keys, function, "keys");
      required(values, function, "values");
    }
    check_field_leaves(t.options().hash, values, count, "values"); // a value is a leaf
    const digest new_root = t.update(digests_of(keys, count), digests_of(values, count));
    if (root) std::memcpy(root, new_root.data(), node_bytes);
  });
}

merklize_status merklize_sparse_tree_value(merklize_sparse_tree *tree,
                                           const uint8_t key[MERKLIZE_DIGEST_SIZE],
                                           uint8_t value[MERKLIZE_DIGEST_SIZE]) {
  const char *function = "merklize_sparse_tree_value";
  return locked(tree, function, [&](const sparse_tree &t) {
    const digest found = t.value(digest_of(&required(key, function, "key")));
    std::memcpy(&required(value, function, "value"), found.data(), node_bytes);
  });
}

merklize_status merklize_sparse_tree_prove(merklize_sparse_tree *tree,
                                           const uint8_t key[MERKLIZE_DIGEST_SIZE],
                                           uint8_t value[MERKLIZE_DIGEST_SIZE],
                                           merklize_bytes **siblings) {
  const char *function = "merklize_sparse_tree_prove";
  return locked(tree, function, [&](const sparse_tree &t) {
    required(value, function, "value");
    required(siblings, function, "siblings");
    const sparse_proof proof = t.prove(digest_of(&required(key, function, "key")));
    auto out = std::make_unique<merklize_bytes>();
    out->data.resize(proof.siblings.size() * node_bytes);
    std::memcpy(out->data.data(), proof.siblings.data(), out->data.size());
    std::memcpy(value, proof.value.data(), node_bytes);
    *siblings = out.release();
  });
}

merklize_status merklize_sparse_verify(const char *hash, uint32_t depth,
                                       const uint8_t root[MERKLIZE_DIGEST_SIZE],
                                       const uint8_t key[MERKLIZE_DIGEST_SIZE],
                                       const uint8_t value[MERKLIZE_DIGEST_SIZE],
                                       const uint8_t *siblings, size_t siblings_size, int *valid) {
  const char *function = "merklize_sparse_verify";
  return guarded([&] {
    const merklize::sparse_options options = sparse_options_of(hash, depth);
    required(valid, function, "valid");
    if (siblings_size != std::size_t(depth) * node_bytes)
      throw argument_error(std::string(function) + ": siblings_size is " +
                           std::to_string(siblings_size) + " bytes: a proof of depth " +
                           std::to_string(depth) + " has " + std::to_string(depth) +
                           " siblings of 32 bytes (" + std::to_string(depth * node_bytes) + ")");
    sparse_proof proof{digest_of(&required(key, function, "key")),
                       digest_of(&required(value, function, "value")),
                       digests_of(&required(siblings, function, "siblings"), depth)};
    const digest expected = digest_of(&required(root, function, "root"));
    try {
      *valid = merklize::sparse_verify(options, expected, proof) ? 1 : 0;
    } catch (const merklize::error &e) { // a key past the depth: a proof of nothing here
      set_last_error(e.what());
      *valid = 0;
      return;
    }
    if (!*valid) set_last_error("the sparse proof leads to another root: invalid proof");
  });
}

} // extern "C"
