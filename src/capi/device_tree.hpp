// SPDX-License-Identifier: Apache-2.0 OR MIT
// The object behind merklize_device_tree (device_tree.cpp; its update batches and snapshots in
// device_tree_batch.cpp): a resident_tree with a block_hasher of its own, its calls serialised.
#pragma once

#include "handles.hpp"

#include <merklize/engine/resident_tree.hpp>

#include <memory>
#include <mutex>

struct merklize_device_tree {
  merklize_device_tree(std::shared_ptr<const merklize_capi::device_state> d,
                       const merklize_capi::tree_settings &s, const void *leaves,
                       std::uint64_t size)
      : device(std::move(d)),
        hasher(std::make_unique<merklize::block_hasher>(device->context, device->device)),
        tree(*hasher, leaves, size, merklize::config{s.tree()}) {}

  std::shared_ptr<const merklize_capi::device_state> device;
  std::unique_ptr<merklize::block_hasher> hasher; // before `tree`: the tree is built with it
  merklize::resident_tree tree;
  mutable std::mutex mutex; // held by every call on the tree (an append changes its size)
};
