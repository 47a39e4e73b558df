// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees over data blocks on one OpenCL device: the leaves hashed from an input's blocks by a
// block_hasher (block_hasher.hpp) stay on the device, and the tree is built there from them,
// so the data crosses the bus once and only the tree (or its root) comes back.
//
//   merklize::block_hasher h(device);
//   merklize::input in("disk.img");
//   merklize::digest root = merklize::block_tree_root(h, in, rule, {merklize::hash_kind::sha256});
//   merklize::inclusion_proof p = merklize::block_tree_prove(h, in, rule, options, 7); // block 7's
//   merklize::verity_tree dm = merklize::dm_verity_tree(h, in, options);  // veritysetup's
//
// Each equals its host reference (block_leaves.hpp, formats/*.hpp) bit for bit.
#pragma once

#include "../formats/bao.hpp"
#include "../formats/dm_verity.hpp"
#include "../formats/dm_verity_superblock.hpp"
#include "../formats/fs_verity.hpp"
#include "block_hasher.hpp"
#include "device_tree.hpp"
#include "merkleizer.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

inline void read_blocking(const cl::CommandQueue &queue, const cl::Buffer &from,
                          std::uint64_t offset, std::uint64_t bytes, void *to,
                          const std::vector<cl::Event> &after = {}) {
  if (bytes == 0) return;
  call("clEnqueueReadBuffer",
       [&] { return queue.enqueueReadBuffer(from, CL_TRUE, offset, bytes, to, &after); });
}

} // namespace detail

// Refuses leaf `index` of an input (named `name`) of `blocks` data blocks of `block_bytes` bytes
// where it has no such block, or none at all.
inline void check_block_index(const std::string &name, std::uint64_t index, std::uint64_t blocks,
                              std::uint64_t block_bytes) {
  if (blocks == 0) throw error(name + " is empty: a tree needs at least one data block");
  if (index >= blocks)
    throw error("leaf index " + std::to_string(index) + " out of range: " + name + " has " +
                std::to_string(blocks) + " data blocks of " + std::to_string(block_bytes) +
                " bytes");
}

// The root of the binary tree of `options` (node hash, shape, fixed depth) over the leaves of an
// input's data blocks (at least one byte).
inline digest block_tree_root(block_hasher &h, input &in, const leaf_rule &rule,
                              const tree_options &options) {
  const device_leaves leaves = h.leaves_of(in, rule);
  if (leaves.count == 0) throw error(in.name() + " is empty: a tree needs at least one data block");
  return device_tree(h, leaves, config{options}, in.name()).root();
}

// The inclusion proof of leaf `index` of block_tree_root's tree over the leaves of an input's
// data blocks: the tree built as there, and only the leaf's path read back.
inline inclusion_proof block_tree_prove(block_hasher &h, input &in, const leaf_rule &rule,
                                        const tree_options &options, std::uint64_t index) {
  const device_leaves leaves = h.leaves_of(in, rule);
  check_block_index(in.name(), index, leaves.count, rule.block_bytes);
  return device_tree(h, leaves, config{options}, in.name()).prove_binary(index);
}

namespace detail {

// The stored layout (formats/verity_tree.hpp) of `tree`, a tree of verity_group_rule over hash
// blocks of `block` bytes, into `out` from byte `at` on, on h's queue: its verity_stored_bytes
// zero-filled, then each level below the root copied to its place, all on the device.
inline void enqueue_verity_layout(block_hasher &h, const device_tree &tree, std::uint64_t block,
                                  const cl::Buffer &out, std::uint64_t at) {
  const std::uint64_t bytes = verity_stored_bytes(tree.leaf_count(), block);
  if (bytes == 0) return; // one leaf: no hash block
  const auto offsets =
      verity_level_offsets(verity_level_blocks(tree.leaf_count(), block / node_bytes));
  call("clEnqueueFillBuffer",
       [&] { return h.queue().enqueueFillBuffer(out, cl_uchar(0), at, bytes); });
  for (unsigned level = 0; level < tree.top(); ++level)
    tree.enqueue_copy_level(level, out, at + offsets[level] * block);
}

// The tree of hash blocks as a device_tree of the hash blocks' group rule; with keep_levels its
// stored layout built on the device and read back once.
inline verity_tree verity_levels(block_hasher &h, const device_leaves &leaves,
                                 const leaf_rule &hash_rule, bool keep_levels) {
  const device_tree tree(h, leaves, verity_group_rule(hash_rule));
  verity_tree out{tree.root(), {}};
  const std::uint64_t bytes = verity_stored_bytes(leaves.count, hash_rule.block_bytes);
  if (!keep_levels || bytes == 0) return out;
  const cl::Buffer stored = h.device_buffer(bytes, "the hash blocks");
  enqueue_verity_layout(h, tree, hash_rule.block_bytes, stored, 0);
  out.levels.resize(static_cast<std::size_t>(bytes));
  read_blocking(h.queue(), stored, 0, bytes, out.levels.data());
  return out;
}

} // namespace detail

// The hash-block tree of dm-verity and fs-verity (formats/verity_tree.hpp) over leaves on the
// device, a device_tree of the hash blocks' group rule: the root, and with keep_levels the levels
// as stored, laid out on the device and read back.
inline verity_tree verity_tree_on_device(block_hasher &h, const device_leaves &leaves,
                                         const leaf_rule &hash_rule, bool keep_levels) {
  const detail::drain_on_unwind drained(h.queue()); // none of it runs on once this has failed
  const auto step = [&] {
    return "building the hash blocks over " + std::to_string(leaves.count) + " leaves on " +
           detail::name_in_message(h.device());
  };
  return detail::in_step(step,
                         [&] { return detail::verity_levels(h, leaves, hash_rule, keep_levels); });
}

// veritysetup format --no-superblock's root hash and (with keep_levels) hash device, of data
// (named `name`) of whole data blocks whose leaves, dm_verity_data_rule's, are on the device.
inline verity_tree dm_verity_tree(block_hasher &h, const device_leaves &leaves,
                                  const dm_verity_options &options, bool keep_levels,
                                  const std::string &name) {
  check_dm_verity(options, leaves.input_bytes, name); // a pipe's size is known only now
  return verity_tree_on_device(h, leaves, dm_verity_hash_rule(options), keep_levels);
}

// The same of an input.
inline verity_tree dm_verity_tree(block_hasher &h, input &in, const dm_verity_options &options,
                                  bool keep_levels = true) {
  if (in.size()) check_dm_verity(options, *in.size(), in.name());
  return dm_verity_tree(h, h.leaves_of(in, dm_verity_data_rule(options)), options, keep_levels,
                        in.name());
}

// fsverity digest's file digest and (with keep_levels) Merkle tree of data of any size whose
// leaves, fs_verity_rule's, are on the device.
inline fs_verity_result fs_verity_tree(block_hasher &h, const device_leaves &leaves,
                                       const fs_verity_options &options, bool keep_levels) {
  fs_verity_result result;
  if (leaves.count > 0)
    result.tree = verity_tree_on_device(h, leaves, fs_verity_rule(options), keep_levels);
  result.file_digest = fs_verity_file_digest(result.tree.root, leaves.input_bytes, options);
  return result;
}

// The same of an input.
inline fs_verity_result fs_verity_tree(block_hasher &h, input &in, const fs_verity_options &options,
                                       bool keep_levels = true) {
  check_fs_verity(options);
  return fs_verity_tree(h, h.leaves_of(in, fs_verity_rule(options)), options, keep_levels);
}

namespace detail {

// Bao's outboard pairs (formats/bao.hpp) laid out on the device from the chaining values of
// cvs.count > 1 chunks, one launch of bao_outboard_level a level from the chunks up
// (kernels/bao_outboard.cl): each node's chaining value goes straight to its slot, a parent's
// compressed from its own pair, so the outboard is the only tree kept. Complete on h's queue.
inline cl::Buffer bao_pairs_on_device(block_hasher &h, const device_leaves &cvs,
                                      const std::string &name) {
  const device_runtime runtime(h.context(), h.device());
  const std::size_t local = std::min<std::size_t>(64, runtime.facts().max_work_group_size);
  cl::Kernel level_kernel = runtime.kernel(bao_outboard_program(), "bao_outboard_level", local);
  const cl::Buffer pairs =
      h.device_buffer(2 * (cvs.count - 1) * node_bytes, "the Bao outboard of " + name);
  for (unsigned level = 0; (std::uint64_t(1) << level) < cvs.count; ++level) {
    const std::uint64_t count = ((cvs.count - 1) >> level) + 1; // the nodes of the level
    set_args(level_kernel, cvs.buffer, pairs, cl_ulong(cvs.count), cl_uint(level), cl_ulong(count));
    launch(h.queue(), level_kernel, count, local, {});
  }
  return pairs;
}

} // namespace detail

// Bao's outboard and the BLAKE3 root of data (named `name`) of any size whose chunks' chaining
// values are on the device (block_hasher::chunk_cvs_of): the outboard laid out there and read
// back in one read; the root is pair 0, the root's children, compressed as the root on the host.
inline bao_outboard bao_outboard_of(block_hasher &h, const device_leaves &cvs,
                                    const std::string &name) {
  bao_outboard out;
  const auto header = bao_length_header(cvs.input_bytes);
  if (cvs.count <= 1) { // one chunk: its root is the chunk finished as the root
    out.bytes.assign(header.begin(), header.end());
    out.root = blake3::hash(cvs.small_input.data(), cvs.small_input.size());
    return out;
  }
  out.bytes.resize(static_cast<std::size_t>(bao_outboard_bytes(cvs.input_bytes)));
  std::copy(header.begin(), header.end(), out.bytes.begin());
  const detail::drain_on_unwind drained(h.queue()); // none of it runs on once this has failed
  const auto step = [&] {
    return "laying out the Bao outboard of " + name + " on " + detail::name_in_message(h.device());
  };
  detail::in_step(step, [&] {
    const cl::Buffer pairs = detail::bao_pairs_on_device(h, cvs, name);
    detail::read_blocking(h.queue(), pairs, 0, out.bytes.size() - header.size(),
                          out.bytes.data() + header.size());
  });
  digest left, right;
  std::memcpy(left.data(), out.bytes.data() + header.size(), node_bytes);
  std::memcpy(right.data(), out.bytes.data() + header.size() + node_bytes, node_bytes);
  out.root = node_hash(hash_kind::blake3_parent, left, right, true);
  return out;
}

// The same of an input.
inline bao_outboard bao_outboard_of(block_hasher &h, input &in) {
  return bao_outboard_of(h, h.chunk_cvs_of(in), in.name());
}

} // namespace merklize
