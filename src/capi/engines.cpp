// SPDX-License-Identifier: Apache-2.0 OR MIT
// The engines behind devices and builders, each made on the first call that needs it (under the
// handle's mutex, which the caller holds) and kept for the next: programs, queues and memory
// pools are then paid once per handle, not once per call.
#include "handles.hpp"

#include <merklize/engine/blake3_device.hpp>
#include <merklize/engine/block_hasher.hpp>
#include <merklize/engine/merkleizer.hpp>
#include <merklize/engine/pair_tree.hpp>

merklize_device::merklize_device(std::shared_ptr<const merklize_capi::device_state> s)
    : state(std::move(s)) {}

merklize_device::~merklize_device() = default;

merklize::blake3_device &merklize_device::blake3() {
  if (!blake3_) blake3_ = std::make_unique<merklize::blake3_device>(state->context, state->device);
  return *blake3_;
}

merklize::block_hasher &merklize_device::blocks() {
  if (!blocks_) blocks_ = std::make_unique<merklize::block_hasher>(state->context, state->device);
  return *blocks_;
}

merklize::pair_tree_device &merklize_device::pairs() {
  if (!pairs_) pairs_ = std::make_unique<merklize::pair_tree_device>(state->context, state->device);
  return *pairs_;
}

const cl::CommandQueue &merklize_device::queue() {
  if (!queue_)
    queue_ = merklize::detail::create("clCreateCommandQueue", [&](cl_int *err) {
      return cl::CommandQueue(state->context, state->device, 0, err);
    });
  return *queue_;
}

merklize_builder::merklize_builder(std::shared_ptr<const merklize_capi::device_state> d,
                                   merklize_capi::tree_settings s)
    : device(std::move(d)), settings(std::move(s)) {}

merklize_builder::~merklize_builder() = default;

merklize::merkleizer &merklize_builder::kept() {
  if (!kept_)
    kept_ = std::make_unique<merklize::merkleizer>(
        device->context, device->device, merklize::config{settings.tree(), settings.keep});
  return *kept_;
}

merklize::merkleizer &merklize_builder::root_only() {
  if (settings.root_only()) return kept();
  if (!root_only_)
    root_only_ = std::make_unique<merklize::merkleizer>(
        device->context, device->device,
        merklize::config{settings.tree(), merklize::output_levels::root_only()});
  return *root_only_;
}

merklize::block_hasher &merklize_builder::blocks() {
  if (!blocks_) blocks_ = std::make_unique<merklize::block_hasher>(device->context, device->device);
  return *blocks_;
}
