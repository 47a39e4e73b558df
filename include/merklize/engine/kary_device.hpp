// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees (kary.hpp) built on the device from leaves there (block_hasher.hpp): each level's
// groups of k children are hashed as blocks of k * 32 bytes by the block-leaf kernels, one launch
// a level, the short last group apart (promoted, hashed alone, or padded with zero-subtree roots
// in a small scratch buffer, as the shape says). The tree stays on the device, where proofs are
// read from it a group of children at a time.
//
//   merklize::device_leaves leaves = h.leaves_as_given(in);          // or h.leaves_of(in, rule)
//   merklize::kary_device_tree t(h, leaves, {hash_kind::sha256, 16});
//   merklize::digest root = t.root();
//   merklize::kary_proof p = t.prove(7);                              // kary_prove's, bit for bit
#pragma once

#include "../core/kary.hpp"
#include "../runtime/queue_drain.hpp"
#include "block_hasher.hpp"

#include <map>
#include <utility>
#include <vector>

namespace merklize {

struct kary_tree {
  digest root{};
  std::vector<std::vector<digest>> levels; // leaves first, with keep_levels; else empty
};

namespace detail {

// Level `level` + 1 from level `level` of the levels laid back to back in `nodes` (offsets in
// nodes), on the block_hasher's queue.
inline void enqueue_kary_level(block_hasher &h, const kary_options &o, const cl::Buffer &nodes,
                               const std::vector<std::uint64_t> &offsets,
                               const std::vector<std::uint64_t> &sizes, std::size_t level,
                               const cl::Buffer &scratch, const std::vector<digest> &zeros) {
  const leaf_rule rule{
      leaf_hash_of(o.hash), std::uint64_t(o.arity) * node_bytes, {}, false, std::nullopt};
  const std::uint64_t full = sizes[level] / o.arity, left = sizes[level] % o.arity;
  const std::uint64_t from = offsets[level], to = offsets[level + 1];
  if (full > 0)
    h.enqueue_leaves(rule, nodes, from * node_bytes, full * o.arity * node_bytes, nodes, to);
  if (left == 0) return;
  const std::uint64_t last = (from + full * o.arity) * node_bytes;
  const cl::CommandQueue &queue = h.queue();
  if (o.pad == shape::promote && left == 1) {
    call("clEnqueueCopyBuffer", [&] {
      return queue.enqueueCopyBuffer(nodes, nodes, last, (to + full) * node_bytes, node_bytes);
    });
  } else if (o.pad == shape::promote) {
    h.enqueue_leaves(rule, nodes, last, left * node_bytes, nodes, to + full);
  } else {
    const std::vector<digest> padding(o.arity - left, zeros[level]);
    call("clEnqueueCopyBuffer",
         [&] { return queue.enqueueCopyBuffer(nodes, scratch, last, 0, left * node_bytes); });
    call("clEnqueueWriteBuffer", [&] { // blocking: `padding` goes at the end of this call
      return queue.enqueueWriteBuffer(scratch, CL_TRUE, left * node_bytes,
                                      padding.size() * node_bytes, padding.data());
    });
    h.enqueue_leaves(rule, scratch, 0, o.arity * node_bytes, nodes, to + full);
  }
}

} // namespace detail

// The sizes of levels 0..top of a part of a k-ary tree over `count` leaves: ceil(count / k^l).
// Above a short part's own top its lone node moves up level by level (kary_device_tree).
inline std::vector<std::uint64_t> kary_part_sizes(std::uint64_t count, unsigned arity,
                                                  unsigned top) {
  if (count == 0) throw error("no leaves: a k-ary tree or part needs at least one leaf");
  std::vector<std::uint64_t> sizes = {count};
  for (unsigned level = 0; level < top; ++level)
    sizes.push_back((sizes.back() + arity - 1) / arity);
  return sizes;
}

// A k-ary tree built on the device and kept there: every level, leaves first, back to back in
// one device buffer. Its root is read once built; its levels or proofs are read on demand.
//
// Or a part of a larger tree (kary_multi.hpp): its levels up to `top` over leaves of the tree
// that start at a multiple of k^top and are a multiple of k^top in number, unless the part ends
// the tree. Its nodes of level `top` are then the tree's: each group of a level lies in the part
// whole, and only the part that ends the tree has a short group, the tree's own. A part smaller
// than k^(top-1) leaves rises to `top` as the tree's last node does, by the shape's rule for a
// lone child (promote: moved up; zero: hashed with zero-subtree roots).
class kary_device_tree {
public:
  // Builds the tree over `leaves` (on h's device, at least one) on h's queue and waits for it.
  // The leaves are copied into the tree: `leaves` may go once this returns.
  kary_device_tree(block_hasher &h, const device_leaves &leaves, const kary_options &options)
      : kary_device_tree(h, leaves, options, kary_height(leaves.count, options.arity)) {}

  // The part of levels 0..top over `leaves`.
  kary_device_tree(block_hasher &h, const device_leaves &leaves, const kary_options &options,
                   unsigned top)
      : queue_(h.queue()), options_(checked(options)),
        sizes_(kary_part_sizes(leaves.count, options.arity, top)), offsets_(offsets_of(sizes_)),
        zeros_(kary_zero_roots(options, top)),
        nodes_(h.device_buffer(offsets_.back() * node_bytes, "the k-ary tree")) {
    const cl::Buffer scratch = h.device_buffer(options.arity * node_bytes, "a group of children");
    const detail::drain_on_unwind drained(queue_); // none of it runs on once this has failed
    const auto step = [&] {
      return "building the " + std::to_string(options.arity) + "-ary tree of " +
             std::to_string(leaves.count) + " leaves on " + detail::name_in_message(h.device());
    };
    detail::in_step(step, [&] {
      detail::call("clEnqueueCopyBuffer", [&] {
        return queue_.enqueueCopyBuffer(leaves.buffer, nodes_, 0, 0, leaves.count * node_bytes);
      });
      for (std::size_t level = 0; level + 1 < sizes_.size(); ++level)
        detail::enqueue_kary_level(h, options, nodes_, offsets_, sizes_, level, scratch, zeros_);
      top_nodes_.resize(static_cast<std::size_t>(sizes_.back()));
      read(offsets_[top], top_nodes_.size(), top_nodes_.data(), CL_TRUE);
    });
  }

  const kary_options &options() const { return options_; }
  std::uint64_t leaf_count() const { return sizes_.front(); }
  // The levels above the leaves: the tree's height, or a part's `top`.
  unsigned top() const { return static_cast<unsigned>(sizes_.size() - 1); }
  // The nodes of level top(): the root alone for a whole tree.
  const std::vector<digest> &top_nodes() const { return top_nodes_; }
  const digest &root() const { return top_nodes_.front(); }

  // Every level, leaves first, the top level last: the whole tree read back.
  std::vector<std::vector<digest>> levels() const {
    std::vector<digest> all(static_cast<std::size_t>(offsets_.back()));
    read(0, all.size(), all.data(), CL_TRUE);
    std::vector<std::vector<digest>> levels;
    for (std::size_t level = 0; level < sizes_.size(); ++level)
      levels.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(offsets_[level]),
                          all.begin() + static_cast<std::ptrdiff_t>(offsets_[level + 1]));
    return levels;
  }

  // The proof of leaf `index`, equal to kary_prove's over levels().
  kary_proof prove(std::uint64_t index) const {
    return prove(std::vector<std::uint64_t>{index}).front();
  }

  // The proofs of `indices` (each below leaf_count(), else refused before the device is asked
  // anything), equal to kary_prove's.
  std::vector<kary_proof> prove(const std::vector<std::uint64_t> &indices) const {
    std::vector<kary_proof> proofs;
    auto siblings = path_siblings(indices);
    for (std::size_t i = 0; i < indices.size(); ++i)
      proofs.push_back({options_, leaf_count(), indices[i], std::move(siblings[i])});
    return proofs;
  }

  // For each of `indices` (leaves of this tree or part, each below leaf_count(), else refused
  // before the device is asked anything), the siblings on its path of each level below top().
  // Only the groups on the leaves' paths come back: per level, each group of children is one
  // read of at most k * 32 bytes (its children are contiguous), read once however many of the
  // paths share it.
  //
  // Reads, not a gather kernel: a proof has one group a level, at most 64 levels (k = 2 over
  // 2^64 leaves; 20 over 2^20), each already contiguous on the device, so its reads are enqueued
  // without blocking and waited for once: one command a level and nothing else. A kernel
  // gathering the groups into one buffer would need their positions uploaded, a launch and a
  // read (three commands, one of them a launch, where a proof of a tree of 2^20 leaves of
  // arity 16 needs five reads) and a program built on first use: dearer for the few proofs a
  // command asks for; it would pay only for thousands of proofs at once.
  std::vector<std::vector<std::vector<digest>>>
  path_siblings(const std::vector<std::uint64_t> &indices) const {
    for (const std::uint64_t index : indices)
      check_kary_index(index, leaf_count());
    const auto groups = read_groups(indices);
    std::vector<std::vector<std::vector<digest>>> paths;
    for (const std::uint64_t index : indices) {
      std::vector<std::vector<digest>> path;
      for (const path_group &g : on_path(index)) {
        const std::vector<digest> &group = groups.at({g.level, g.first});
        const auto node = [&](std::uint64_t i) {
          return group[static_cast<std::size_t>(i - g.first)];
        };
        path.push_back(group_siblings(g, node, zeros_[g.level]));
      }
      paths.push_back(std::move(path));
    }
    return paths;
  }

private:
  // (level, first child) -> the children of that group present in the tree.
  using group_map = std::map<std::pair<unsigned, std::uint64_t>, std::vector<digest>>;

  // The groups on leaf `index`'s path, a level each below top() (core/path_plan.hpp): kary_prove's
  // plan, over this tree or part.
  std::vector<path_group> on_path(std::uint64_t index) const {
    return plan_path(kary_path_shape(options_), leaf_count(), index, top());
  }

  // The groups on the paths of `indices`, every read enqueued before any is waited for.
  group_map read_groups(const std::vector<std::uint64_t> &indices) const {
    group_map groups;
    const detail::drain_on_unwind drained(queue_); // no read may still be writing into the groups
    detail::in_step([&] { return std::string("reading the k-ary tree's proof paths"); },
                    [&] {
                      for (const std::uint64_t index : indices)
                        for (const path_group &g : on_path(index)) {
                          std::vector<digest> &group = groups[{g.level, g.first}];
                          if (!group.empty())
                            continue; // a group the map holds never moves or grows again
                          group.resize(static_cast<std::size_t>(g.present));
                          read(offsets_[g.level] + g.first, group.size(), group.data(), CL_FALSE);
                        }
                      detail::call("clFinish", [&] { return queue_.finish(); });
                    });
    return groups;
  }

  static const kary_options &checked(const kary_options &options) {
    check_kary(options);
    return options;
  }

  static std::vector<std::uint64_t> offsets_of(const std::vector<std::uint64_t> &sizes) {
    std::vector<std::uint64_t> offsets = {0};
    for (const std::uint64_t size : sizes)
      offsets.push_back(offsets.back() + size);
    return offsets;
  }

  void read(std::uint64_t first, std::size_t count, digest *to, cl_bool blocking) const {
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(nodes_, blocking, first * node_bytes, count * node_bytes, to);
    });
  }

  cl::CommandQueue queue_; // the block_hasher's: in order, after the leaves
  kary_options options_;
  std::vector<std::uint64_t> sizes_, offsets_; // of the levels in nodes_, in nodes
  std::vector<digest> zeros_;
  cl::Buffer nodes_;
  std::vector<digest> top_nodes_;
};

// The k-ary tree over `leaves` (on the device): its root, and with keep_levels every level.
inline kary_tree kary_tree_on_device(block_hasher &h, const device_leaves &leaves,
                                     const kary_options &options, bool keep_levels = false) {
  const kary_device_tree tree(h, leaves, options);
  return {tree.root(), keep_levels ? tree.levels() : std::vector<std::vector<digest>>{}};
}

} // namespace merklize
