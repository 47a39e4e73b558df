// SPDX-License-Identifier: Apache-2.0 OR MIT
// The objects behind the opaque handles of include/merklize.h. A device and a builder each hold
// a mutex that their calls take, so that calls from several threads (Python releasing the GIL,
// Go's goroutines) are serialised; trees, proofs and byte runs are never changed once made, so
// they are read concurrently without one. A builder shares the device's state (a shared_ptr),
// so a device may be freed before its builders, and a tree owns its memory (page-locked memory
// of a builder's pool returns to the pool if the pool still exists, host_pool.hpp).
//
// The engines (merkleizer, block_hasher, blake3_device, pair_tree_device) are made on first use, so
// that a device opened for BLAKE3 compiles no tree kernel and a builder of binary trees no block
// kernel.
#pragma once

#include "settings.hpp"

#include <merklize/proofs/consistency.hpp>
#include <merklize/proofs/kary_multiproof.hpp>
#include <merklize/proofs/proof_model.hpp>
#include <merklize/runtime/opencl.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace merklize {
class merkleizer;
class block_hasher;
class blake3_device;
class pair_tree_device;
} // namespace merklize

namespace merklize_capi {

// A device and the context it is used in: the library's shared context for the device, or the
// caller's own (merklize_device_open_cl). Never changed once made.
struct device_state {
  cl::Context context;
  cl::Device device;
  merklize_device_info info{}; // what merklize_device_describe gives
};

} // namespace merklize_capi

struct merklize_device : merklize_capi::tagged<merklize_device> {
  explicit merklize_device(std::shared_ptr<const merklize_capi::device_state> s);
  ~merklize_device();

  merklize::blake3_device &blake3();
  merklize::block_hasher &blocks();
  merklize::pair_tree_device &pairs(); // the commitments of other systems (pair_tree.hpp)
  const cl::CommandQueue &queue();

  std::shared_ptr<const merklize_capi::device_state> state;
  std::mutex mutex; // held by every call on the device

private:
  std::unique_ptr<merklize::blake3_device> blake3_;
  std::unique_ptr<merklize::block_hasher> blocks_;
  std::unique_ptr<merklize::pair_tree_device> pairs_;
  std::optional<cl::CommandQueue> queue_;
};

struct merklize_builder : merklize_capi::tagged<merklize_builder> {
  merklize_builder(std::shared_ptr<const merklize_capi::device_state> d,
                   merklize_capi::tree_settings s);
  ~merklize_builder();

  // The merkleizer of binary trees over 32-byte leaves keeping settings.keep's levels, or only
  // the root; and the block hasher of trees over data blocks and of k-ary trees.
  merklize::merkleizer &kept();
  merklize::merkleizer &root_only();
  merklize::block_hasher &blocks();

  std::shared_ptr<const merklize_capi::device_state> device;
  merklize_capi::tree_settings settings;
  std::mutex mutex; // held by every call on the builder

private:
  std::unique_ptr<merklize::merkleizer> kept_, root_only_;
  std::unique_ptr<merklize::block_hasher> blocks_;
};

// A built tree: a binary tree's kept levels (merklize::tree), a k-ary tree's (leaves first, the
// levels below first_level empty), or for a tree streamed for its root the root alone.
struct merklize_tree : merklize_capi::tagged<merklize_tree> {
  std::optional<merklize::tree> binary;
  std::vector<std::vector<merklize::digest>> kary;
  merklize_capi::tree_settings settings;
  std::uint64_t leaf_count = 0;
  unsigned depth = 0;           // the top stored level
  unsigned first_level = 0;     // above depth where no level is kept
  merklize::digest tree_root{}; // the tree's root, at its fixed depth where it has one
  merklize::digest root{};      // merklize_tree_root's: tree_root, with the length mixed in
};

struct merklize_proof : merklize_capi::tagged<merklize_proof> {
  using value_type =
      std::variant<merklize::inclusion_proof, merklize::multiproof, merklize::consistency_proof,
                   merklize::kary_proof, merklize::kary_multiproof>;
  value_type value;
  std::vector<std::uint64_t> indices;  // merklize_proof_indices'
  std::vector<merklize::digest> nodes; // merklize_proof_nodes'
};

struct merklize_bytes : merklize_capi::tagged<merklize_bytes> {
  std::vector<std::uint8_t> data;
};

namespace merklize_capi {

// The handle of a proof, with its indices and nodes laid out for the accessors.
std::unique_ptr<merklize_proof> proof_handle(merklize_proof::value_type proof);

} // namespace merklize_capi
