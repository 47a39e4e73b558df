// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees built on the device from leaves there (block_hasher.hpp) and kept there, at any arity:
// binary trees (arity 2, every node hash, shapes promote and zero, fixed depths) by merkleizer's
// level kernels (level_runner.hpp: fused subtree launches), k-ary trees (kary.hpp) by the
// block-leaf kernels, each level's groups of k children hashed as blocks of k * 32 bytes, one
// launch a level (group_level.hpp). The kernels are chosen by the arity, the
// tree is the same: its leaves, its levels back to back, proofs read from it a group of children
// at a time. For k = 2 and the hashes k-ary trees take, both kernels give the same tree.
// A group rule (kary.hpp) generalizes the k-ary node: a salt before the children, zero bytes
// after a short group, arities beyond 128: dm-verity's and fs-verity's trees of hash blocks
// (block_tree.hpp lays them out as stored from this tree's levels).
//
//   merklize::device_leaves leaves = h.leaves_as_given(in);          // or h.leaves_of(in, rule)
//   merklize::device_tree t(h, leaves, {hash_kind::sha256, 16});
//   merklize::digest root = t.root();
//   merklize::kary_proof p = t.prove(7);                              // kary_prove's, bit for bit
//   merklize::device_tree b(h, leaves, merklize::config{{hash_kind::blake3_parent}});
//   merklize::inclusion_proof q = b.prove_binary(7);                  // prove's, bit for bit
#pragma once

#include "../pipeline/level_runner.hpp"
#include "../proofs/proof_model.hpp"
#include "../runtime/queue_drain.hpp"
#include "group_level.hpp"

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

struct kary_tree {
  digest root{};
  std::vector<std::vector<digest>> levels; // leaves first, with keep_levels; else empty
};

// A tree built on the device and kept there: its leaves (the buffer given, read from, never
// written), its levels above them back to back in one device buffer. Its root is read once built;
// its levels or proofs are read on demand.
//
// Or a part of a larger k-ary tree (kary_multi.hpp): its levels up to `top` over leaves of the
// tree that start at a multiple of k^top and are a multiple of k^top in number, unless the part
// ends the tree. Its nodes of level `top` are then the tree's: each group of a level lies in the
// part whole, and only the part that ends the tree has a short group, the tree's own. A part
// smaller than k^(top-1) leaves rises to `top` as the tree's last node does, by the shape's rule
// for a lone child (promote: moved up; zero: hashed with zero-subtree roots).
class device_tree {
public:
  // Builds the k-ary tree over `leaves` (on h's device, at least one) on h's queue and waits for
  // it. The tree reads its leaves from `leaves.buffer`, which must not be written while it lives.
  device_tree(block_hasher &h, const device_leaves &leaves, const kary_options &options)
      : device_tree(h, leaves, options, kary_height(leaves.count, options.arity)) {}

  // The part of levels 0..top over `leaves`.
  device_tree(block_hasher &h, const device_leaves &leaves, const kary_options &options,
              unsigned top)
      : device_tree(h, leaves, checked(options), std::nullopt, std::nullopt, top) {
    // k-ary hashes have no ROOT flag: no level is marked the root's.
    build(h, config{{options.hash, options.shape}}, no_root_level, [&] {
      return "building the " + std::to_string(options.arity) + "-ary tree of " +
             std::to_string(leaves.count) + " leaves on " + detail::name_in_message(h.device());
    });
  }

  // The binary tree of cfg.tree (every node hash, shapes promote and zero, a fixed depth) over
  // `leaves`, by merkleizer's level kernels with cfg's knobs: the tree merkleizer builds.
  // `name`, if any, names the data in errors.
  device_tree(block_hasher &h, const device_leaves &leaves, const config &cfg,
              const std::string &name = {})
      : device_tree(h, leaves, binary_options(cfg, leaves.count), std::nullopt, cfg.tree,
                    kary_height(leaves.count, 2)) {
    build(h, cfg, root_depth(cfg.tree, tree_layout(leaves.count)), binary_step(h, name));
  }

  // Levels 0..top (at most the leaves' own height) of the part of a binary tree (cfg.tree) over
  // `leaves` (at least one), the node of `root_level` being the tree's root (blake3-parent's
  // ROOT flag): what merkleizer::build_part computes on the device, for parts of trees of several
  // devices (multi_blocks.hpp).
  device_tree(block_hasher &h, const device_leaves &leaves, const config &cfg, unsigned top,
              unsigned root_level, const std::string &name)
      : device_tree(h, leaves, part_options(cfg, leaves.count, top), std::nullopt, std::nullopt,
                    top) {
    build(h, cfg, root_level, binary_step(h, name));
  }

  // The same by `runner`, level kernels made for cfg on h's device: a builder of many parts
  // (block_part_builder) makes them once instead of once a part.
  device_tree(block_hasher &h, const device_leaves &leaves, const config &cfg, unsigned top,
              unsigned root_level, const std::string &name, detail::level_runner &runner)
      : device_tree(h, leaves, part_options(cfg, leaves.count, top), std::nullopt, std::nullopt,
                    top) {
    build(h, cfg, root_level, binary_step(h, name), &runner);
  }

  // The tree whose groups of children are hashed by `rule` (kary.hpp's group_levels_above's tree):
  // a launch of the block-leaf kernels a level, at any arity the rule has, never the binary level
  // kernels. Its nodes are read as any tree's; its proofs are no kary_proof (prove refuses).
  device_tree(block_hasher &h, const device_leaves &leaves, const group_rule &rule)
      : device_tree(h, leaves, std::nullopt, rule, std::nullopt,
                    kary_height(leaves.count, checked(rule).arity())) {
    build(h, config{}, no_root_level, [&] {
      return "building the tree of " + std::to_string(rule.arity()) + "-child groups over " +
             std::to_string(leaves.count) + " leaves on " + detail::name_in_message(h.device());
    });
  }

  // A k-ary or binary tree's options (a group rule's tree has none: refused).
  const kary_options &options() const {
    if (!options_) throw error("a tree of a group rule has no k-ary options");
    return *options_;
  }
  std::uint64_t leaf_count() const { return sizes_.front(); }
  // The levels above the leaves: the tree's height, or a part's `top`.
  unsigned top() const { return static_cast<unsigned>(sizes_.size() - 1); }
  // The nodes of level top(): the root alone for a whole tree.
  const std::vector<digest> &top_nodes() const { return top_nodes_; }
  // A whole tree's root: its top node, raised by zero-subtree roots to a binary tree's fixed depth.
  const digest &root() const { return root_; }

  // Every level, leaves first, the top level last: the whole tree read back.
  std::vector<std::vector<digest>> levels() const {
    std::vector<std::vector<digest>> levels;
    const detail::drain_on_unwind drained(queue_); // no read may still be writing into levels
    for (std::size_t level = 0; level < sizes_.size(); ++level) {
      levels.emplace_back(static_cast<std::size_t>(sizes_[level]));
      read(offsets_[level], levels.back().size(), levels.back().data(), CL_FALSE);
    }
    detail::call("clFinish", [&] { return queue_.finish(); });
    return levels;
  }

  // Where level `level` lives, for a tree that changes its nodes in place (resident_tree.hpp):
  // level 0 in the leaves' buffer from node 0, the levels above in one buffer back to back.
  // Changing them leaves top_nodes() and root() as built.
  const cl::Buffer &level_buffer(unsigned level) const { return level_span(level).buffer; }
  std::uint64_t level_first(unsigned level) const { return level_span(level).first; }
  const std::vector<std::uint64_t> &level_sizes() const { return sizes_; }

  // The launches of the binary level kernels (none at arity k, whose block-leaf kernels the
  // block_hasher's times count).
  const std::vector<cl::Event> &level_kernels() const { return level_kernels_; }

  // Enqueues a copy of level `level`'s nodes (at most top()) into `to` from byte `at` on, on the
  // tree's queue: a layout of the tree (block_tree.hpp's stored verity levels) built on the device.
  void enqueue_copy_level(unsigned level, const cl::Buffer &to, std::uint64_t at) const {
    const detail::node_span from = level_span(level);
    detail::call("clEnqueueCopyBuffer", [&] {
      return queue_.enqueueCopyBuffer(from.buffer, to, from.first * node_bytes, at,
                                      from.count * node_bytes);
    });
  }

  // Levels from..to (to <= top()) read back to back into `into`, once the device has them.
  void read_levels(unsigned from, unsigned to, void *into) const {
    auto *at = static_cast<digest *>(into);
    const detail::drain_on_unwind drained(queue_); // no read may outlive the caller's memory
    for (unsigned level = from; level <= to; ++level) {
      read(offsets_.at(level), static_cast<std::size_t>(sizes_[level]), at, CL_FALSE);
      at += sizes_[level];
    }
    detail::call("clFinish", [&] { return queue_.finish(); });
  }

  // A tree grown by appends (resident_tree.hpp, resident_kary_tree.hpp): its `count` leaves
  // now in `leaves`, its levels in `nodes` laid out for `capacity` leaves (level l from the node
  // where levels 1..l-1 of a tree of `capacity` leaves would end), where its owner has put them.
  // Nothing is computed: the owner writes the nodes; top_nodes() and root() stay as built.
  void adopt_layout(const cl::Buffer &leaves, const cl::Buffer &nodes, std::uint64_t count,
                    std::uint64_t capacity) {
    const unsigned k = rule_.arity(), top = kary_height(count, k);
    sizes_ = kary_part_sizes(count, k, top);
    offsets_ = offsets_of(kary_part_sizes(capacity, k, top));
    zeros_ = zero_roots(options_, rule_, top);
    leaves_ = leaves;
    nodes_ = nodes;
  }

  // The tree moved, on the device, into `leaves` and `nodes` (its owner's new buffers: room for
  // `capacity` leaves, at least leaf_count(), and for the levels above them, laid out as
  // adopt_layout lays them), then adopted there.
  void move_into(const cl::Buffer &leaves, const cl::Buffer &nodes, std::uint64_t capacity) {
    const unsigned k = rule_.arity();
    const std::vector<std::uint64_t> room = kary_part_sizes(capacity, k, top());
    std::uint64_t at = 0; // where level `level` starts in the new nodes
    for (unsigned level = 0; level <= top(); ++level) {
      enqueue_copy_level(level, level == 0 ? leaves : nodes, at * node_bytes);
      if (level > 0) at += room[level];
    }
    adopt_layout(leaves, nodes, leaf_count(), capacity);
  }

  // The nodes at `positions` (levels and indices in them), a read each, waited for once: a
  // consistency proof's few.
  std::vector<digest> read_nodes(const std::vector<node_position> &positions) const {
    std::vector<digest> nodes(positions.size());
    const detail::drain_on_unwind drained(queue_); // no read may still be writing into nodes
    for (std::size_t k = 0; k < positions.size(); ++k)
      read(offsets_.at(positions[k].level) + positions[k].index, 1, &nodes[k], CL_FALSE);
    detail::call("clFinish", [&] { return queue_.finish(); });
    return nodes;
  }

  // A binary tree's proof of leaf `index` (below leaf_count(), else refused before the device is
  // asked anything), equal to prove()'s of merkleizer's tree over the same leaves: the sibling
  // of each level read back, and above the stored tree a fixed depth's zero-subtree roots.
  inclusion_proof prove_binary(std::uint64_t index) const {
    if (!binary_) throw error("prove_binary: a k-ary tree's proof is prove()'s kary_proof");
    detail::check_leaf_index(index, leaf_count());
    inclusion_proof proof{*binary_, leaf_count(), index, {}};
    const auto paths = path_siblings({index}); // kept: the loop reads its first path
    for (const auto &group : paths.front())
      proof.siblings.insert(proof.siblings.end(), group.begin(), group.end());
    const unsigned depth = root_depth(*binary_, tree_layout(leaf_count()));
    const auto zeros = zero_subtree_roots(binary_->hash, depth);
    for (unsigned level = top(); level < depth; ++level)
      proof.siblings.push_back(zeros[level]);
    return proof;
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
      proofs.push_back({options(), leaf_count(), indices[i], std::move(siblings[i])});
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
    if (!options_) throw error("a tree of a group rule has no k-ary proofs");
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
    return plan_path(kary_path_shape(*options_), leaf_count(), index, top());
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

  static constexpr unsigned no_root_level = std::numeric_limits<unsigned>::max();

  // The members every tree sets; the constructors' bodies build its levels. A k-ary or binary
  // tree has `options` (its rule, unless given, theirs); a group rule's tree `rule` alone.
  device_tree(block_hasher &h, const device_leaves &leaves,
              const std::optional<kary_options> &options, const std::optional<group_rule> &rule,
              const std::optional<tree_options> &binary, unsigned top)
      : queue_(h.queue()), options_(options), rule_(rule_of(options, rule, binary)),
        binary_(binary), sizes_(kary_part_sizes(leaves.count, rule_.arity(), top)),
        offsets_(offsets_of(sizes_)), zeros_(zero_roots(options, rule_, top)),
        leaves_(leaves.buffer), nodes_(node_buffer(h, offsets_.back() - sizes_.front())) {}

  // The rule a tree's levels are hashed by. A binary tree's come from the level kernels, which
  // take the node hash itself: its rule gives only the arity, so a hash with no block-leaf form
  // (Poseidon2's) builds binary trees too, where group_rule_of would refuse it.
  static group_rule rule_of(const std::optional<kary_options> &options,
                            const std::optional<group_rule> &rule,
                            const std::optional<tree_options> &binary) {
    if (rule) return *rule;
    if (binary) return {{leaf_hash{}, 2 * node_bytes, {}, false, std::nullopt}, options->shape};
    return group_rule_of(*options);
  }

  static const kary_options &checked(const kary_options &options) {
    check_kary(options);
    return options;
  }

  static const group_rule &checked(const group_rule &rule) {
    check_group_rule(rule);
    return rule;
  }

  // A binary tree as a tree of arity 2, checked as merkleizer checks its configuration (a bad
  // fixed depth refused before anything is allocated).
  static kary_options binary_options(const config &cfg, std::uint64_t leaf_count) {
    check_config(cfg);
    if (leaf_count == 0) throw error("no leaves: a tree needs at least one leaf (N = 0)");
    root_depth(cfg.tree, tree_layout(leaf_count));
    return {cfg.tree.hash, 2, cfg.tree.shape};
  }

  static kary_options part_options(const config &cfg, std::uint64_t leaf_count, unsigned top) {
    check_config(cfg);
    if (top > kary_height(leaf_count, 2))
      throw error("a part of " + std::to_string(leaf_count) + " leaves has no level " +
                  std::to_string(top) + ": its lone top node rises on the host (lift_lone_node)");
    return {cfg.tree.hash, 2, cfg.tree.shape};
  }

  // What a binary build is doing, for its errors.
  std::function<std::string()> binary_step(const block_hasher &h, const std::string &name) const {
    return [this, &h, name] {
      return "building the tree of " + std::to_string(leaf_count()) + " leaves" +
             (name.empty() ? "" : " of " + name) + " on " + detail::name_in_message(h.device());
    };
  }

  // zeros[h]: the root of an all-zero subtree of height h, what shape zero pads a group with.
  static std::vector<digest> zero_roots(const std::optional<kary_options> &options,
                                        const group_rule &rule, unsigned top) {
    if (options && options->arity == 2)
      return zero_subtree_roots(options->hash, top); // every binary hash
    return group_zero_roots(rule, top);
  }

  static cl::Buffer node_buffer(block_hasher &h, std::uint64_t nodes) {
    if (nodes == 0) return {}; // one leaf, or a part of no level above its leaves
    return h.device_buffer(nodes * node_bytes, "the tree's levels");
  }

  // Offsets of levels 0..top, leaves first, as if back to back: the leaves are leaves_, the
  // levels above them nodes_ from its start.
  static std::vector<std::uint64_t> offsets_of(const std::vector<std::uint64_t> &sizes) {
    std::vector<std::uint64_t> offsets = {0};
    for (const std::uint64_t size : sizes)
      offsets.push_back(offsets.back() + size);
    return offsets;
  }

  // Level `level`'s nodes in their buffer.
  detail::node_span level_span(std::size_t level) const {
    const std::uint64_t above_leaves = offsets_[level] - (level == 0 ? 0 : offsets_[1]);
    return {level == 0 ? leaves_ : nodes_, above_leaves, sizes_[level]};
  }

  // Levels 1..top(): at arity 2 by merkleizer's level kernels (`runner`, else made here for
  // `cfg`; the node of `root_level` getting blake3-parent's ROOT flag) up to the leaves' own
  // height, at arity k, by a group rule (and above a short part's own height) a launch of the
  // block-leaf kernels a level. Waits for the top nodes.
  template <class Step>
  void build(block_hasher &h, const config &cfg, unsigned root_level, const Step &step,
             detail::level_runner *runner = nullptr) {
    const detail::drain_on_unwind drained(queue_); // none of it runs on once this has failed
    detail::in_step(step, [&] {
      unsigned level = 0;
      if (options_ && options_->arity == 2 && top() > 0) {
        level = std::min(top(), kary_height(leaf_count(), 2));
        std::optional<detail::level_runner> own;
        if (!runner) runner = &own.emplace(level_runner_for(h, cfg));
        runner->enqueue(queue_, {leaves_, 0, leaf_count(), 0}, {nodes_, 0, sizes_[1], 0, level},
                        root_level, {}, level_kernels_);
      }
      if (level < top()) {
        const cl::Buffer scratch =
            rule_.block.zero_pad // pads in its kernels: no scratch
                ? cl::Buffer()
                : h.device_buffer(rule_.block.block_bytes, "a group of children");
        for (; level < top(); ++level)
          detail::enqueue_group_level(h, rule_, level_span(level), level_span(level + 1), scratch,
                                      zeros_[level]);
      }
      top_nodes_.resize(static_cast<std::size_t>(sizes_.back()));
      read(offsets_[top()], top_nodes_.size(), top_nodes_.data(), CL_TRUE);
    });
    root_ = top_nodes_.front();
    if (binary_)
      root_ =
          extend_root(binary_->hash, root_, top(), root_depth(*binary_, tree_layout(leaf_count())));
  }

  static detail::level_runner level_runner_for(const block_hasher &h, const config &cfg) {
    const detail::device_runtime runtime(h.context(), h.device());
    return {runtime, cfg,
            detail::resolve_launch_settings(runtime.facts(), runtime.tuning_row(), cfg)};
  }

  // Nodes [first, first + count) of the levels as if back to back (offsets_): from the leaves'
  // buffer, the levels' or both.
  void read(std::uint64_t first, std::size_t count, digest *to, cl_bool blocking) const {
    const std::uint64_t leaves = offsets_[1]; // the leaves' room: more than them, once grown
    const auto read_from = [&](const cl::Buffer &buffer, std::uint64_t at, std::uint64_t n) {
      detail::call("clEnqueueReadBuffer", [&] {
        return queue_.enqueueReadBuffer(buffer, blocking, at * node_bytes, n * node_bytes, to);
      });
      to += n;
    };
    if (first < leaves) {
      const std::uint64_t n = std::min<std::uint64_t>(count, leaves - first);
      read_from(leaves_, first, n);
      first += n;
      count -= static_cast<std::size_t>(n);
    }
    if (count > 0) read_from(nodes_, first - leaves, count);
  }

  cl::CommandQueue queue_;              // the block_hasher's: in order, after the leaves
  std::optional<kary_options> options_; // none: a group rule's tree
  group_rule rule_;                     // what the block-leaf kernels hash each group by
  std::optional<tree_options> binary_;  // a binary tree's options (any node hash, depth)
  // Of levels 0..top, in nodes: their sizes, and where each starts as if back to back (with
  // room for more nodes a level after adopt_layout).
  std::vector<std::uint64_t> sizes_, offsets_;
  std::vector<digest> zeros_;
  cl::Buffer leaves_, nodes_; // level 0; levels 1..top back to back
  std::vector<digest> top_nodes_;
  digest root_{};
  std::vector<cl::Event> level_kernels_; // the binary level kernels' launches
};

// The k-ary tree over `leaves` (on the device): its root, and with keep_levels every level.
inline kary_tree kary_tree_on_device(block_hasher &h, const device_leaves &leaves,
                                     const kary_options &options, bool keep_levels = false) {
  const device_tree tree(h, leaves, options);
  return {tree.root(), keep_levels ? tree.levels() : std::vector<std::vector<digest>>{}};
}

} // namespace merklize
