// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_tree_snapshot: resident_tree's and resident_kary_tree's snapshots
// (engine/resident_snapshot.hpp), copies of a device tree's buffers on its device, and
// rollbacks to them. A snapshot holds its buffers by
// itself (they keep their context), so it may outlive its tree; either tree refuses another
// tree's snapshot before anything is written.
#include "device_tree.hpp"

#include <cstring>

struct merklize_tree_snapshot : merklize_capi::tagged<merklize_tree_snapshot> {
  merklize::resident_snapshot snapshot;
};

using namespace merklize_capi;

extern "C" {

merklize_status merklize_device_tree_snapshot(merklize_device_tree *tree,
                                              merklize_tree_snapshot **snapshot) {
  const char *function = "merklize_device_tree_snapshot";
  return guarded([&] {
    merklize_device_tree &t = required(tree, function, "tree");
    required(snapshot, function, "snapshot");
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.check_usable(function);
    *snapshot = new merklize_tree_snapshot{
        {}, t.either([](const auto &either) { return either.snapshot(); })};
  });
}

void merklize_tree_snapshot_free(merklize_tree_snapshot *snapshot) {
  free_handle(snapshot, "merklize_tree_snapshot_free", "snapshot");
}

uint64_t merklize_tree_snapshot_leaf_count(const merklize_tree_snapshot *snapshot) {
  const auto *s = live_or_null(snapshot, "merklize_tree_snapshot_leaf_count", "snapshot");
  return s ? s->snapshot.leaf_count() : 0;
}

merklize_status merklize_device_tree_rollback(merklize_device_tree *tree,
                                              const merklize_tree_snapshot *snapshot,
                                              uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  const char *function = "merklize_device_tree_rollback";
  return guarded([&] {
    merklize_device_tree &t = required(tree, function, "tree");
    const resident_snapshot &s = required(snapshot, function, "snapshot").snapshot;
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.check_usable(function);
    t.either([&](auto &either) {
      either.rollback(s);
      if (root) std::memcpy(root, either.root().data(), either.root().size());
    });
  });
}

} // extern "C"
