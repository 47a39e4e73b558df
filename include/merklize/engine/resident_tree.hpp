// SPDX-License-Identifier: Apache-2.0 OR MIT
// A binary tree that lives on the device and changes in place (issue 31): built once, as
// device_tree builds it (every node hash, shapes promote and zero, a fixed depth), over leaves
// that the tree owns, since it writes them. Each batch of updates is sorted once on the host
// (plan/update_batch.hpp, O(batch)), its leaves written by one launch and the nodes above them
// recomputed by one launch a level, each level's dirty nodes found on the device from the sorted
// leaves (merkle_indexed.cl). Appends add leaves after the last (a log: the old tree a prefix),
// recomputing their paths, the device memory growing geometrically; consistency proofs read
// their nodes from the device. The caller's data is copied, never written.
//
//   merklize::block_hasher h(device);
//   merklize::resident_tree t(h, leaves, merklize::config{{hash_kind::sha256}});
//   merklize::digest root = t.update({7, 9000}, {new_leaf_7, new_leaf_9000}); // == t.root()
//   merklize::inclusion_proof p = t.prove(7);                                // prove()'s
//   t.append(more_leaves);
//   merklize::consistency_proof c = t.prove_consistency(old_size);
//
// Within one batch a repeated index takes its last value. A refused batch (an index outside the
// tree, fewer leaves than indices) or append (past a fixed depth) changes nothing: it is checked
// before the tree is written.
#pragma once

#include "../plan/update_plan.hpp"
#include "../proofs/consistency.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/staged_upload.hpp"
#include "device_tree.hpp"

#include <algorithm>
#include <cstring>
#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

// The commands of the last update, profiled: the plan's and leaves' uploads (the download of a
// device batch's indices included), the scatter and level launches.
struct update_events {
  std::vector<cl::Event> transfers, kernels;
};

class resident_tree {
public:
  // The tree of cfg.tree over `bytes` bytes of leaves in host memory (a multiple of 32, at least
  // one leaf), copied to the device.
  resident_tree(block_hasher &h, const void *leaves, std::uint64_t bytes, const config &cfg)
      : runtime_(h.context(), h.device()), queue_(h.queue()), cfg_(cfg),
        leaves_(owned_leaves(h, leaf_count_of(bytes), leaves, nullptr)),
        tree_(h, {leaves_, bytes / node_bytes, bytes, {}}, cfg), nodes_(levels_of(tree_)),
        capacity_(tree_.leaf_count()), root_(tree_.root()) {}

  resident_tree(block_hasher &h, const std::vector<digest> &leaves, const config &cfg)
      : resident_tree(h, leaves.data(), leaves.size() * node_bytes, cfg) {}

  // The tree over `count` leaves in a device buffer of h's context, copied into the tree's own.
  resident_tree(block_hasher &h, const cl::Buffer &leaves, std::uint64_t count, const config &cfg)
      : runtime_(h.context(), h.device()), queue_(h.queue()), cfg_(cfg),
        leaves_(owned_leaves(h, count, nullptr, &leaves)),
        tree_(h, {leaves_, count, count * node_bytes, {}}, cfg), nodes_(levels_of(tree_)),
        capacity_(count), root_(tree_.root()) {}

  // One owner a tree: two copies would write the same buffers.
  resident_tree(const resident_tree &) = delete;
  resident_tree &operator=(const resident_tree &) = delete;
  resident_tree(resident_tree &&) = default;
  resident_tree &operator=(resident_tree &&) = default;

  // The root, raised to a fixed depth where the configuration has one: the last update's.
  const digest &root() const { return root_; }
  std::uint64_t leaf_count() const { return tree_.leaf_count(); }
  const tree_options &options() const { return cfg_.tree; }
  // The tree on the device, for its reads (levels, proofs); its own root() is the built one's.
  const device_tree &on_device() const { return tree_; }

  // Every level, leaves first, read back; and leaf `index`'s proof, prove()'s bit for bit.
  std::vector<std::vector<digest>> levels() const { return tree_.levels(); }
  inclusion_proof prove(std::uint64_t index) const { return tree_.prove_binary(index); }

  // Leaf indices[k] becomes new_leaves[k]; returns the new root.
  digest update(const std::vector<std::uint64_t> &indices, const std::vector<digest> &new_leaves) {
    if (indices.size() != new_leaves.size())
      throw error("update: " + std::to_string(indices.size()) + " indices but " +
                  std::to_string(new_leaves.size()) + " leaves; give a leaf for each index");
    return update(indices.data(), new_leaves.data(), indices.size());
  }

  // The same from `count` indices and count x 32 bytes of leaves in host memory. The leaves go
  // up through page-locked staging while the host sorts the indices (update_batch.hpp); an index
  // outside the tree is refused then, before the tree is written.
  digest update(const std::uint64_t *indices, const void *new_leaves, std::uint64_t count) {
    detail::check_batch_limits(leaf_count(), count);
    begin_call();
    if (count == 0) return root_;
    const detail::drain_on_unwind drained(queue_); // no upload may outlive the caller's leaves
    runtime_.grow(values_, values_capacity_, count * node_bytes);
    up_.begin(queue_, count * (node_bytes + 2 * sizeof(cl_uint)));
    // A large batch sorts on a thread of its own while this one stages the leaves: both take
    // about a millisecond for 1% of 2^25 leaves. The sort refuses a bad index, rethrown by get().
    const std::uint64_t n = leaf_count();
    std::future<update_batch> sorted =
        std::async(count >= parallel_sort_updates ? std::launch::async : std::launch::deferred,
                   [=] { return sort_batch(n, indices, count); });
    up_.write(queue_, values_, 0, new_leaves, count * node_bytes, events_.transfers);
    batch_ = sorted.get();
    return run(values_);
  }

  // The same from buffers of the tree's context: `count` indices (cl_ulong) and count x 32 bytes
  // of leaves. The indices are read back into page-locked memory and sorted on the host (8 bytes
  // an update: 2.7 MB for 335k); the leaves are read where they are.
  digest update(const cl::Buffer &indices, const cl::Buffer &new_leaves, std::uint64_t count) {
    runtime_.check_buffer(indices, "the indices", count * sizeof(cl_ulong), "tree", "update");
    runtime_.check_buffer(new_leaves, "the leaves", count * node_bytes, "tree", "update");
    detail::check_batch_limits(leaf_count(), count);
    begin_call();
    if (count == 0) return root_;
    if (read_back_.size() < count * sizeof(cl_ulong)) {
      read_back_ = host_buffer();
      read_back_ = host_buffer(runtime_.context(), queue_,
                               static_cast<std::size_t>(count * sizeof(cl_ulong)));
    }
    cl::Event read;
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(indices, CL_TRUE, 0, count * sizeof(cl_ulong),
                                      read_back_.data(), nullptr, &read);
    });
    events_.transfers.push_back(read);
    batch_ =
        sort_batch(leaf_count(), reinterpret_cast<const std::uint64_t *>(read_back_.data()), count);
    up_.begin(queue_, count * 2 * sizeof(cl_uint));
    return run(new_leaves);
  }

  // update(), and the multiproof of the updated leaves in the new tree, prove_multi's bit for
  // bit (indices sorted, once each; an empty batch's has none), its nodes gathered on the
  // device by one launch and read back with them.
  std::pair<digest, multiproof> update_proved(const std::vector<std::uint64_t> &indices,
                                              const std::vector<digest> &new_leaves) {
    const digest root = update(indices, new_leaves);
    return {root, updated_multiproof()};
  }

  // `count` leaves (count x 32 bytes in host memory) after the last: the tree of the first
  // leaf_count() leaves stays a prefix of the new one (RFC 6962's log, shape promote; shape
  // zero's trees grow the same way). Only the new leaves' paths are recomputed, a range of each
  // level; the device memory grows geometrically (each level moved once a doubling, device to
  // device). A fixed depth's tree takes at most 2^depth leaves; more is refused, changing
  // nothing. Returns the new root.
  digest append(const void *leaves, std::uint64_t count) {
    const std::uint64_t old_count = leaf_count(), total = old_count + count;
    check_append(count);
    begin_call();
    if (count == 0) return root_;
    const detail::drain_on_unwind drained(queue_); // no upload may outlive the caller's leaves
    return detail::in_step(
        [&] {
          return "appending " + std::to_string(count) + " leaves to the tree of " +
                 std::to_string(old_count) + " leaves on " +
                 detail::name_in_message(runtime_.device());
        },
        [&] {
          prepare();
          if (total > capacity_) grow(total);
          up_.begin(queue_, count * node_bytes);
          up_.write(queue_, leaves_, old_count * node_bytes, leaves, count * node_bytes,
                    events_.transfers);
          tree_.adopt_layout(leaves_, nodes_, total, capacity_);
          const unsigned old_top = kary_height(old_count, 2);
          for (unsigned level = 1; level <= tree_.top(); ++level) {
            // The old root, flagged as one by some hashes (blake3-parent), is one no longer.
            const std::uint64_t first =
                level == old_top && tree_.top() > old_top ? 0 : old_count >> level;
            enqueue_level(level, first, ((total - 1) >> level) - first + 1);
          }
          return read_root();
        });
  }

  digest append(const std::vector<digest> &leaves) { return append(leaves.data(), leaves.size()); }

  // The proof that the tree of the first old_size leaves is a prefix of this one (RFC 9162
  // 2.1.4, shape promote, a hash without a root flag; others refused), prove_consistency's of
  // the host tree bit for bit: only its nodes read from the device, a read each.
  consistency_proof prove_consistency(std::uint64_t old_size) const {
    if (auto reason = why_no_consistency_proofs(cfg_.tree)) throw error(*reason);
    consistency_proof proof{cfg_.tree, old_size, leaf_count(), {}};
    proof.nodes = read_nodes(consistency_positions(old_size, leaf_count()));
    return proof;
  }

  // The last update's plan (each level's dirty nodes, listed on the host when asked for: the
  // update itself never lists them) and commands. An append's plan is empty.
  const update_plan &last_plan() const {
    if (!plan_) plan_ = plan_of(batch_, tree_.level_sizes());
    return *plan_;
  }
  const update_events &last_events() const { return events_; }

  // Leaves the device memory holds now: appends grow it when they pass it.
  std::uint64_t capacity() const { return capacity_; }

  // Device memory the tree holds: its leaves and levels (with room for capacity() leaves), and
  // the scratch of its largest batch (and multiproof).
  std::uint64_t device_bytes() const {
    std::uint64_t nodes = 0;
    for (const std::uint64_t size : kary_part_sizes(capacity_, 2, kary_height(capacity_, 2)))
      nodes += size;
    return nodes * node_bytes + sorted_capacity_ + sources_capacity_ + values_capacity_ +
           offsets_capacity_ + proof_capacity_ + zeros_bytes_;
  }

private:
  // Batches of at least this many updates sort on a thread of their own (a thread's start, tens
  // of microseconds, is small beside their sort).
  static constexpr std::uint64_t parallel_sort_updates = 1 << 15;

  static cl::Buffer levels_of(const device_tree &t) {
    return t.top() > 0 ? t.level_buffer(1) : cl::Buffer();
  }

  static cl::Buffer owned_leaves(block_hasher &h, std::uint64_t count, const void *host,
                                 const cl::Buffer *device) {
    if (count == 0) throw error("no leaves: a tree needs at least one leaf (N = 0)");
    const std::uint64_t bytes = count * node_bytes;
    if (device)
      detail::check_buffer(h.context(), *device, "the leaves", bytes, "tree", "tree's leaves");
    cl::Buffer owned = h.device_buffer(bytes, "the tree's leaves");
    detail::call(host ? "clEnqueueWriteBuffer" : "clEnqueueCopyBuffer", [&] {
      return host ? h.queue().enqueueWriteBuffer(owned, CL_TRUE, 0, bytes, host)
                  : h.queue().enqueueCopyBuffer(*device, owned, 0, 0, bytes);
    }); // the build after it on the same in-order queue reads the copy
    return owned;
  }

  // A new call's records: the last one's batch, plan and commands forgotten.
  void begin_call() {
    events_ = {};
    batch_ = {};
    plan_.reset();
  }

  // Refuses an append past what the tree can hold, before anything changes.
  void check_append(std::uint64_t count) const {
    const std::uint64_t n = leaf_count();
    const std::uint64_t limit = cfg_.tree.depth && *cfg_.tree.depth < 32
                                    ? std::uint64_t(1) << *cfg_.tree.depth
                                    : detail::max_sorted_leaves;
    if (count > limit - n)
      throw error("append: " + std::to_string(count) + " leaves onto the tree of " +
                  std::to_string(n) + " would pass its " + std::to_string(limit) + " leaves (" +
                  (cfg_.tree.depth && *cfg_.tree.depth < 32
                       ? "a fixed depth of " + std::to_string(*cfg_.tree.depth)
                       : std::string("2^32, the most a tree changed in place holds")) +
                  ")");
  }

  // Room for `needed` leaves at least (twice the last room, at most what the tree may hold): new
  // buffers for the leaves and the levels laid out for the room, each level copied there on
  // the device.
  void grow(std::uint64_t needed) {
    std::uint64_t room = std::max(needed, capacity_ * 2);
    if (cfg_.tree.depth && *cfg_.tree.depth < 32)
      room = std::min(room, std::uint64_t(1) << *cfg_.tree.depth);
    room = std::min(room, detail::max_sorted_leaves);
    cl::Buffer leaves, nodes;
    std::uint64_t leaves_bytes = 0, nodes_bytes = 0;
    const auto sizes = kary_part_sizes(room, 2, kary_height(room, 2));
    std::uint64_t above = 0;
    for (std::size_t level = 1; level < sizes.size(); ++level)
      above += sizes[level];
    runtime_.grow(leaves, leaves_bytes, room * node_bytes);
    if (above > 0) runtime_.grow(nodes, nodes_bytes, above * node_bytes);
    detail::call("clEnqueueCopyBuffer", [&] {
      return queue_.enqueueCopyBuffer(leaves_, leaves, 0, 0, leaf_count() * node_bytes);
    });
    std::uint64_t at = 0;
    for (unsigned level = 1; level <= tree_.top(); ++level) {
      tree_.enqueue_copy_level(level, nodes, at * node_bytes);
      at += sizes[level];
    }
    leaves_ = leaves;
    nodes_ = nodes;
    capacity_ = room;
    tree_.adopt_layout(leaves_, nodes_, leaf_count(), capacity_);
  }

  // Builds the kernels and the zero-subtree roots (of every height a tree held here may have) on
  // the first update or append.
  void prepare() {
    if (scatter_()) return;
    const auto spec = detail::merkle_indexed_program(cfg_.tree.hash);
    local_ =
        detail::resolve_launch_settings(runtime_.facts(), runtime_.tuning_row(), cfg_).local_size;
    scatter_ = runtime_.kernel(spec, "scatter_leaves", local_);
    sorted_level_ = runtime_.kernel(spec, "merkle_sorted_level", local_);
    range_level_ = runtime_.kernel(spec, "merkle_range_level", local_);
    const auto zeros = zero_subtree_roots(cfg_.tree.hash, 32);
    zeros_bytes_ = zeros.size() * node_bytes;
    zeros_ = runtime_.copy_of(zeros.data(), zeros_bytes_);
  }

  // The sorted batch uploaded (through the staging begin() made room for), the leaves scattered
  // from `values`, a launch a level above them; waits for the new top node.
  digest run(const cl::Buffer &values) {
    const detail::drain_on_unwind drained(queue_); // nothing runs on once this has failed
    return detail::in_step(
        [&] {
          return "updating " + std::to_string(batch_.leaves.size()) + " leaves of the tree of " +
                 std::to_string(leaf_count()) + " leaves on " +
                 detail::name_in_message(runtime_.device());
        },
        [&] {
          prepare();
          const std::uint64_t count = batch_.leaves.size(), bytes = count * sizeof(cl_uint);
          runtime_.grow(sorted_, sorted_capacity_, bytes);
          runtime_.grow(sources_, sources_capacity_, bytes);
          up_.write(queue_, sorted_, 0, batch_.leaves.data(), bytes, events_.transfers);
          up_.write(queue_, sources_, 0, batch_.sources.data(), bytes, events_.transfers);
          detail::set_args(scatter_, tree_.level_buffer(0), values, sorted_, sources_,
                           cl_ulong(count));
          events_.kernels.push_back(detail::launch(queue_, scatter_, count, local_, {}));
          for (unsigned level = 1; level <= tree_.top(); ++level)
            if (tree_.level_sizes()[level] <= count) // as cheap to recompute the whole level
              enqueue_level(level, 0, tree_.level_sizes()[level]);
            else
              enqueue_level(level, 0, 0);
          return read_root();
        });
  }

  // Level `level`'s dirty nodes from the level below: nodes first .. first + count - 1, or with
  // a count of 0 those above the sorted batch's leaves.
  void enqueue_level(unsigned level, std::uint64_t first, std::uint64_t count) {
    const unsigned root_level = root_depth(cfg_.tree, tree_layout(leaf_count()));
    const bool sorted = count == 0;
    cl::Kernel &kernel = sorted ? sorted_level_ : range_level_;
    const cl::Buffer &in = tree_.level_buffer(level - 1), &out = tree_.level_buffer(level);
    const cl_ulong in_first = tree_.level_first(level - 1), out_first = tree_.level_first(level);
    const cl_ulong in_count = tree_.level_sizes()[level - 1];
    const cl_int pad = cfg_.tree.pad == shape::zero, top = level == root_level;
    if (sorted)
      detail::set_args(kernel, in, in_first, in_count, out, out_first, sorted_,
                       cl_ulong(batch_.leaves.size()), cl_uint(level), zeros_, cl_ulong(level - 1),
                       pad, top);
    else
      detail::set_args(kernel, in, in_first, in_count, out, out_first, cl_ulong(first),
                       cl_ulong(count), zeros_, cl_ulong(level - 1), pad, top);
    const std::uint64_t items = sorted ? batch_.leaves.size() : count;
    events_.kernels.push_back(detail::launch(queue_, kernel, items, local_, {}));
  }

  // The multiproof of the last update's leaves: its nodes' places in the tree
  // (multiproof_positions), gathered by proof.cl's proof_gather_nodes.
  multiproof updated_multiproof() {
    multiproof proof{cfg_.tree, leaf_count(), {batch_.leaves.begin(), batch_.leaves.end()}, {}};
    if (proof.indices.empty()) return proof;
    std::vector<std::uint64_t> offsets;
    for (const node_position &p : multiproof_positions(leaf_count(), proof.indices))
      offsets.push_back(p.level == 0 ? p.index : capacity_ + tree_.level_first(p.level) + p.index);
    if (offsets.empty()) return proof; // one leaf: nothing to prove it with
    if (!gather_())
      gather_ =
          runtime_.kernel(detail::proof_program(cfg_.tree.hash), "proof_gather_nodes", local_);
    const std::uint64_t count = offsets.size();
    const detail::drain_on_unwind drained(queue_);
    runtime_.grow(proof_offsets_, offsets_capacity_, count * sizeof(cl_ulong));
    runtime_.grow(proof_nodes_, proof_capacity_, count * node_bytes);
    events_.transfers.push_back(write(proof_offsets_, 0, count * sizeof(cl_ulong), offsets.data()));
    detail::set_args(gather_, tree_.level_buffer(0), tree_.level_buffer(1), cl_ulong(capacity_),
                     proof_offsets_, cl_ulong(count), proof_nodes_);
    events_.kernels.push_back(detail::launch(queue_, gather_, count, local_, {}));
    proof.nodes.resize(static_cast<std::size_t>(count));
    cl::Event read;
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(proof_nodes_, CL_TRUE, 0, count * node_bytes,
                                      proof.nodes.data(), nullptr, &read);
    });
    events_.transfers.push_back(read);
    return proof;
  }

  cl::Event write(const cl::Buffer &to, std::uint64_t at, std::uint64_t bytes, const void *from) {
    cl::Event done;
    detail::call("clEnqueueWriteBuffer", [&] {
      return queue_.enqueueWriteBuffer(to, CL_FALSE, at, bytes, from, nullptr, &done);
    });
    return done;
  }

  // The nodes at `positions`, a read each, waited for once: a consistency proof's few.
  std::vector<digest> read_nodes(const std::vector<node_position> &positions) const {
    std::vector<digest> nodes(positions.size());
    const detail::drain_on_unwind drained(queue_); // no read may still be writing into nodes
    for (std::size_t k = 0; k < positions.size(); ++k) {
      const node_position &p = positions[k];
      detail::call("clEnqueueReadBuffer", [&] {
        return queue_.enqueueReadBuffer(tree_.level_buffer(p.level), CL_FALSE,
                                        (tree_.level_first(p.level) + p.index) * node_bytes,
                                        node_bytes, nodes[k].data());
      });
    }
    detail::call("clFinish", [&] { return queue_.finish(); });
    return nodes;
  }

  // The top stored node read back, raised to the fixed depth on the host as device_tree does.
  digest read_root() {
    digest top{};
    const unsigned level = tree_.top();
    cl::Event read;
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(tree_.level_buffer(level), CL_TRUE,
                                      tree_.level_first(level) * node_bytes, node_bytes, top.data(),
                                      nullptr, &read);
    });
    events_.transfers.push_back(read);
    root_ =
        extend_root(cfg_.tree.hash, top, level, root_depth(cfg_.tree, tree_layout(leaf_count())));
    return root_;
  }

  detail::device_runtime runtime_;
  cl::CommandQueue queue_; // the block_hasher's, in order
  config cfg_;
  cl::Buffer leaves_; // the tree's own copy of its leaves, level 0, with room for capacity_
  device_tree tree_;  // the levels, built over leaves_
  cl::Buffer nodes_;  // the levels above the leaves, laid out for capacity_ leaves
  std::uint64_t capacity_;
  digest root_{};
  update_batch batch_; // the last update's, kept until its uploads are done
  mutable std::optional<update_plan> plan_;
  update_events events_;
  cl::Kernel scatter_, sorted_level_, range_level_; // built on the first update or append
  cl::Kernel gather_;                               // built on the first update_proved
  std::size_t local_ = 0;
  cl::Buffer zeros_, sorted_, sources_, values_; // values_: a host batch's leaves
  cl::Buffer proof_offsets_, proof_nodes_;       // a multiproof's nodes: where, and gathered
  detail::staged_upload up_;                     // pageable leaves and the sorted batch go up
  host_buffer read_back_;                        // a device batch's indices come down
  std::uint64_t zeros_bytes_ = 0, sorted_capacity_ = 0, sources_capacity_ = 0;
  std::uint64_t values_capacity_ = 0, offsets_capacity_ = 0, proof_capacity_ = 0;
};

} // namespace merklize
