// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_update_batch: resident_tree's and resident_kary_tree's update batches
// (engine/resident_batch.hpp), page-locked memory the caller fills in place and an update writes to
// the device straight from. The batch holds its memory by itself (a host_buffer keeps its context
// and queue), so it may outlive the tree that made it. The checks here of the C arguments, and
// resident_tree's of the batch, come before the device is asked anything; an index outside the tree
// is found on the device before the tree is written.
#include "device_tree.hpp"

#include <cstring>
#include <string>

struct merklize_update_batch : merklize_capi::tagged<merklize_update_batch> {
  merklize::resident_batch batch;
};

using namespace merklize_capi;

extern "C" {

merklize_status merklize_device_tree_batch_create(merklize_device_tree *tree, uint64_t capacity,
                                                  merklize_update_batch **batch) {
  const char *function = "merklize_device_tree_batch_create";
  return guarded([&] {
    merklize_device_tree &t = required(tree, function, "tree");
    required(batch, function, "batch");
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.check_usable(function);
    *batch = new merklize_update_batch{
        {}, t.either([&](const auto &either) { return either.make_update_batch(capacity); })};
  });
}

void merklize_update_batch_free(merklize_update_batch *batch) {
  free_handle(batch, "merklize_update_batch_free", "batch");
}

uint64_t merklize_update_batch_capacity(const merklize_update_batch *batch) {
  const auto *b = live_or_null(batch, "merklize_update_batch_capacity", "batch");
  return b ? b->batch.capacity() : 0;
}

uint64_t *merklize_update_batch_indices(merklize_update_batch *batch) {
  auto *b = live_or_null(batch, "merklize_update_batch_indices", "batch");
  return b ? b->batch.indices() : nullptr;
}

uint8_t *merklize_update_batch_leaves(merklize_update_batch *batch) {
  auto *b = live_or_null(batch, "merklize_update_batch_leaves", "batch");
  return b ? b->batch.leaves()->data() : nullptr;
}

merklize_status merklize_device_tree_update_batch(merklize_device_tree *tree,
                                                  const merklize_update_batch *batch,
                                                  uint64_t count,
                                                  uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  const char *function = "merklize_device_tree_update_batch";
  return guarded([&] {
    merklize_device_tree &t = required(tree, function, "tree");
    const resident_batch &b = required(batch, function, "batch").batch;
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.check_usable(function);
    if (count > b.capacity())
      throw argument_error(std::string(function) + ": " + std::to_string(count) +
                           " updates from a batch of room for " + std::to_string(b.capacity()));
    const digest new_root = t.either([&](auto &either) {
      check_field_leaves(either.options().hash, b.leaves(), count, "the batch's leaves");
      return either.update(b, count);
    });
    if (root) std::memcpy(root, new_root.data(), new_root.size());
  });
}

} // extern "C"
