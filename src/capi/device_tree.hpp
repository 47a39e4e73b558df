// SPDX-License-Identifier: Apache-2.0 OR MIT
// The object behind merklize_device_tree (device_tree.cpp; its update batches and snapshots in
// device_tree_batch.cpp): a resident_tree (arity 2) or resident_kary_tree (arity k) with a
// block_hasher of its own, its calls serialised, each all or nothing: a tree that a failed call
// left unusable (tree_health.hpp: the tree's own calls, and the handle's work after them) refuses
// every later one.
#pragma once

#include "handles.hpp"

#include <merklize/engine/resident_kary_tree.hpp>
#include <merklize/engine/resident_tree.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>

struct merklize_device_tree : merklize_capi::tagged<merklize_device_tree> {
  merklize_device_tree(std::shared_ptr<const merklize_capi::device_state> d,
                       const merklize_capi::tree_settings &s, const void *leaves,
                       std::uint64_t size)
      : device(std::move(d)),
        hasher(std::make_unique<merklize::block_hasher>(device->context, device->device)) {
    if (s.kary())
      kary.emplace(*hasher, leaves, size / merklize::node_bytes, s.kary_tree());
    else
      tree.emplace(*hasher, leaves, size, merklize::config{s.tree()});
  }

  std::shared_ptr<const merklize_capi::device_state> device;
  std::unique_ptr<merklize::block_hasher> hasher;   // before the trees: they are built with it
  std::optional<merklize::resident_tree> tree;      // arity 2
  std::optional<merklize::resident_kary_tree> kary; // arity k: updates, appends, reads, proofs
  mutable std::mutex mutex; // held by every call on the tree (an append changes its size)
  // The handle's own work after a call changed the tree (a marker, a proof's handle): where it
  // fails, the call failed but the tree changed, so the tree is unusable.
  merklize::detail::tree_health health;

  // Refuses `function` (MERKLIZE_ERROR_UNUSABLE) on a tree that a failed call left unusable.
  void check_usable(const char *function) const {
    health.check(function);
    if (kary)
      kary->check_usable(function);
    else
      tree->check_usable(function);
  }

  // The binary tree, for what only binary trees do; a k-ary one refused, naming `function`.
  merklize::resident_tree &binary(const char *function) {
    if (kary)
      throw merklize_capi::argument_error(
          std::string(function) + ": the tree has arity " + std::to_string(kary->options().arity) +
          "; trees of arity k kept on the device take every merklize_device_tree call but "
          "_prove_consistency (RFC 6962's proofs, of binary trees)");
    return *tree;
  }

  // `body` on whichever tree this is (both have root, leaf_count, on_device, options().hash,
  // update (from host memory, device buffers or a batch), update_proved, make_update_batch,
  // append, prove, snapshot and rollback).
  template <class Body> decltype(auto) either(Body &&body) {
    return kary ? body(*kary) : body(*tree);
  }
  template <class Body> decltype(auto) either(Body &&body) const {
    return kary ? body(*kary) : body(*tree);
  }
};
