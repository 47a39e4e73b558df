// SPDX-License-Identifier: Apache-2.0 OR MIT
// A k-ary tree that lives on the device and changes in place: built once, as
// device_tree builds a k-ary tree (kary.hpp: every k-ary hash, shapes promote and zero, arities
// the powers of two from 2 to 128), over leaves that the tree owns, since it writes them. An
// update sorts its batch on the host (a repeated index takes its last value) and lists, a level
// at a time, the distinct groups above the changed nodes (plan/kary_update_plan.hpp); all the
// lists go up in one write. On the device each level's listed whole groups are gathered back to
// back (kary_listed.cl), hashed as blocks by the block-leaf kernels in one launch and scattered
// to their parents: three launches a level whatever the hash, the short last group apart by the
// build's own rule (group_level.hpp). Once a level's dirty groups pass the device's share
// (tuning.hpp: kary_whole_level_percent), it and every level above are hashed whole as a build
// hashes them, one launch a level and no list, so a large batch costs about a rebuild plus its
// leaves' write; a batch large beside the tree (tuning.hpp: kary_elect_per_mille) is not planned
// at all: its leaves are elected on the device and every level hashed whole
// (kary_leaf_election.hpp). Only the root is read back; last_split() says where the time went. An
// append writes its leaves after the last and recomputes each level's right edge the same way (a
// k-ary tree of either shape is a prefix of its appended tree), the buffers growing geometrically.
// As a binary resident_tree, it updates from device buffers (the indices read back to plan on
// the host, count x 8 bytes; the leaves gathered on the device, never read back), appends from
// them (copied on the device), updates from page-locked batches the caller fills
// (resident_batch.hpp), and rolls back to its snapshots (resident_snapshot.hpp, the same code).
// update_proved returns the batch's k-ary multiproof (proofs/kary_multiproof.hpp); no
// consistency proof (RFC 6962's, binary).
//
//   merklize::block_hasher h(device);
//   merklize::resident_kary_tree t(h, leaves, {merklize::hash_kind::sha256, 16});
//   merklize::digest root = t.update({7, 9000}, {new_leaf_7, new_leaf_9000}); // == t.root()
//   merklize::kary_proof p = t.prove(7);                                     // kary_prove's
//   auto [r, m] = t.update_proved({7, 8}, {leaf_7, leaf_8}); // kary_prove_multi's
//   t.append(more_leaves);
//   merklize::resident_snapshot s = t.snapshot();
//   t.rollback(s);
//
// A refused batch (an index outside the tree, fewer leaves than indices) or append (past 2^32
// leaves) changes nothing: it is checked before the tree is written. Every call is all or
// nothing, as a binary tree's (tree_health.hpp). The block_hasher must outlive the tree.
#pragma once

#include "../plan/kary_update_plan.hpp"
#include "../runtime/queue_drain.hpp"
#include "../runtime/worker_pool.hpp"
#include "device_tree.hpp"
#include "kary_leaf_election.hpp"
#include "kary_listed_levels.hpp"
#include "kary_multiproof_gather.hpp"
#include "kary_update_split.hpp"
#include "resident_batch.hpp"
#include "resident_memory.hpp"
#include "resident_snapshot.hpp"
#include "tree_health.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

class resident_kary_tree {
public:
  // The k-ary tree of `options` over `count` leaves (at least one) in host memory, copied to
  // the device.
  resident_kary_tree(block_hasher &h, const void *leaves, std::uint64_t count,
                     const kary_options &options)
      : h_(&h), rule_(checked_rule(options)),
        leaves_(detail::resident_owned_leaves(h, count, leaves, nullptr)),
        tree_(h, {leaves_, count, count * node_bytes, {}}, options),
        nodes_(detail::resident_levels_of(tree_)), capacity_(count),
        zeros_(group_zero_roots(rule_, tree_.top())), root_(tree_.root()),
        election_(runtime(), h.work_group_size()), levels_(h, rule_) {
    const detail::device_runtime runtime(h.context(), h.device());
    whole_percent_ = runtime.tuning_row().kary_whole_level_percent;
    elect_per_mille_ = runtime.tuning_row().kary_elect_per_mille;
  }

  resident_kary_tree(block_hasher &h, const std::vector<digest> &leaves,
                     const kary_options &options)
      : resident_kary_tree(h, leaves.data(), leaves.size(), options) {}

  resident_kary_tree(const resident_kary_tree &) = delete; // one owner writes the buffers
  resident_kary_tree &operator=(const resident_kary_tree &) = delete;
  resident_kary_tree(resident_kary_tree &&) = default;
  resident_kary_tree &operator=(resident_kary_tree &&) = default;

  // The last update's root.
  const digest &root() const { return root_; }
  std::uint64_t leaf_count() const { return tree_.leaf_count(); }
  const kary_options &options() const { return tree_.options(); }
  // The tree on the device, for its reads; its own root() is the built one's.
  const device_tree &on_device() const { return tree_; }
  // Every level, leaves first, read back; and leaf `index`'s proof, kary_prove's bit for bit.
  std::vector<std::vector<digest>> levels() const {
    health_.check("levels");
    return tree_.levels();
  }
  kary_proof prove(std::uint64_t index) const {
    health_.check("prove");
    return tree_.prove(index);
  }
  // Refuses `call` on a tree that a failed call left unusable (tree_health.hpp).
  void check_usable(const char *call) const { health_.check(call); }

  // Leaf indices[i] becomes new_leaves[i]; returns the new root.
  digest update(const std::vector<std::uint64_t> &indices, const std::vector<digest> &new_leaves) {
    detail::check_leaf_each(indices.size(), new_leaves.size());
    return update(indices.data(), new_leaves.data(), indices.size());
  }

  // The same from `count` indices and count x 32 bytes of leaves in host memory.
  digest update(const std::uint64_t *indices, const void *new_leaves, std::uint64_t count) {
    return changing("update", [&] { return update_from_host(indices, new_leaves, count); });
  }

  // update(), and the multiproof of the updated leaves in the new tree (indices sorted, once
  // each; an empty batch's holds the root alone), kary_prove_multi's over its levels bit for bit,
  // its nodes gathered on the device (kary_multiproof_gather.hpp: five commands). The sorted
  // batch is the plan's, sorted once (an elected batch's sorted on the host's cores), its
  // proof's places listed straight from the planner's visits. A refused batch changes nothing:
  // update's checks come first.
  std::pair<digest, kary_multiproof> update_proved(const std::vector<std::uint64_t> &indices,
                                                   const std::vector<digest> &new_leaves) {
    return changing("update_proved", [&] {
      const digest root = update(indices, new_leaves);
      const std::vector<std::uint32_t> &sorted = sorted_batch(indices);
      kary_multiproof proof{options(), leaf_count(), {sorted.begin(), sorted.end()}, {}};
      proof.nodes = proofs_.gather(h_->context(), h_->queue(), levels_.gather(),
                                   h_->work_group_size(), tree_, zeros_, options(), proof.indices);
      return std::pair<digest, kary_multiproof>{root, std::move(proof)};
    });
  }

  // The same from buffers of the tree's context: `count` indices (cl_ulong) and count x 32 bytes
  // of leaves, read once the device is done with `wait` (the caller's writes of them). The plan
  // is made on the host, as for a batch in host memory: the indices are read back (count x 8
  // bytes) and sorted there, an index outside the tree refused before the tree is written. The
  // leaves stay on the device: each leaf's last value, elected on the host from the indices
  // alone, is gathered there from the caller's buffer. The call returns once the device is
  // done with both buffers.
  digest update(const cl::Buffer &indices, const cl::Buffer &new_leaves, std::uint64_t count,
                const std::vector<cl::Event> &wait = {}) {
    detail::check_buffer(h_->context(), indices, "the indices", count * sizeof(cl_ulong), "tree",
                         "update");
    detail::check_buffer(h_->context(), new_leaves, "the leaves", count * node_bytes, "tree",
                         "update");
    detail::check_batch_limits(leaf_count(), count);
    if (count == 0) return root_;
    return changing("update", [&] { return update_from(indices, new_leaves, count, wait); });
  }

  // A batch for up to `capacity` updates in page-locked memory of the tree's context, which the
  // caller fills in place (resident_batch.hpp) and may reuse for every call.
  resident_batch make_update_batch(std::uint64_t capacity) const {
    return {h_->context(), h_->queue(), capacity};
  }

  // The batch's first `count` updates, applied as a batch in host memory is (the indices sorted
  // on the host, the elected values written from the batch's page-locked memory); a count past
  // the batch's capacity, or a batch of another context, is refused first.
  digest update(const resident_batch &batch, std::uint64_t count) {
    batch.check_use(h_->context(), count);
    return update(batch.indices(), batch.leaves(), count);
  }

  // A copy of the tree as it is now, on the device (resident_snapshot.hpp), for rollback().
  resident_snapshot snapshot() const {
    health_.check("snapshot");
    const resident_snapshot::tree_buffers buffers{leaves_, nodes_};
    return {id_, runtime(), h_->queue(), buffers, leaf_count(), capacity_, root_};
  }

  // The tree as it was when `s` (a snapshot of this tree; another's is refused, changing
  // nothing) was taken, bit for bit: leaves, levels, size, room and root, the updates and
  // appends since undone. A rollback that fails once it has begun to copy into the tree's own
  // buffers (the same room as the snapshot's) leaves the tree unusable.
  void rollback(const resident_snapshot &s) {
    changing("rollback", [&] {
      resident_snapshot::tree_buffers buffers{leaves_, nodes_};
      s.restore(id_, runtime(), h_->queue(), buffers, health_);
      leaves_ = buffers.leaves;
      nodes_ = buffers.nodes;
      capacity_ = s.capacity_;
      root_ = s.root();
      tree_.adopt_layout(leaves_, nodes_, s.leaf_count(), capacity_);
      zeros_ = group_zero_roots(rule_, tree_.top());
    });
  }

  // Where the last update's time went.
  const kary_update_split &last_split() const { return split_; }

  // The share of a level's groups past which updates hash it and the levels above whole, in
  // percent: the device's tuning row's unless set (0: every level above the leaves whole; above
  // 100: every level listed), for tests and benches that compare the paths.
  unsigned whole_level_percent() const { return whole_percent_; }
  void set_whole_level_percent(unsigned percent) { whole_percent_ = percent; }
  // The batches elected on the device with every level hashed whole, no plan on the host: at
  // least this many updates a thousand leaves (the device's tuning row's unless set; 0: none).
  unsigned elect_per_mille() const { return elect_per_mille_; }
  void set_elect_per_mille(unsigned per_mille) { elect_per_mille_ = per_mille; }

  // `leaves` added after the last (a log: the tree before them is a prefix of the tree after);
  // returns the new root. Only the right edge of each level is recomputed; the device memory
  // grows geometrically (the old nodes copied once into the larger buffers).
  digest append(const std::vector<digest> &leaves) { return append(leaves.data(), leaves.size()); }

  // The same from `count` x 32 bytes of leaves in host memory.
  digest append(const void *leaves, std::uint64_t count) {
    return append_with(count, [&](std::uint64_t at) {
      detail::call("clEnqueueWriteBuffer", [&] {
        return h_->queue().enqueueWriteBuffer(leaves_, CL_FALSE, at * node_bytes,
                                              count * node_bytes, leaves);
      });
    });
  }

  // The same from `count` leaves in a buffer of the tree's context, copied on the device once
  // it is done with `wait` (the caller's writes of it); the call returns once the device is
  // done with the buffer. Nothing crosses the bus but the root.
  digest append(const cl::Buffer &leaves, std::uint64_t count,
                const std::vector<cl::Event> &wait = {}) {
    detail::check_buffer(h_->context(), leaves, "the leaves", count * node_bytes, "tree", "append");
    return append_with(count, [&](std::uint64_t at) {
      detail::call("clEnqueueCopyBuffer", [&] {
        return h_->queue().enqueueCopyBuffer(leaves, leaves_, 0, at * node_bytes,
                                             count * node_bytes, wait.empty() ? nullptr : &wait);
      });
    });
  }

private:
  unsigned arity() const { return rule_.arity(); }

  // An append of `count` leaves, refused past max_leaves before anything changes: room made,
  // `put(at)` enqueueing their write at leaf `at`, the right edge of each level recomputed.
  template <class Put> digest append_with(std::uint64_t count, const Put &put) {
    health_.check("append");
    if (count == 0) return root_;
    const std::uint64_t old_count = leaf_count(), total = old_count + count;
    if (total < old_count || total > max_leaves)
      throw error("append: " + std::to_string(count) + " leaves onto " + std::to_string(old_count) +
                  " would pass the " + std::to_string(max_leaves) +
                  " leaves a k-ary tree on the device holds");
    return changing("append", [&] {
      kary_update_plan plan; // before the drain: its lists' write reads it until the drain is done
      const detail::drain_on_unwind drained(h_->queue());
      const bool in_place = total <= capacity_;
      if (!in_place) grow(std::max(total, 2 * capacity_)); // the old buffers kept as they were
      put(old_count);
      tree_.adopt_layout(leaves_, nodes_, total, capacity_);
      zeros_ = group_zero_roots(rule_, tree_.top());
      plan = plan_kary_append(old_count, tree_.level_sizes(), arity());
      levels_.upload({}, plan);
      if (in_place) health_.writing(); // the right edge of each level rewritten where it lies
      return recompute(plan);
    });
  }

  // What a failed call puts back where it had not yet written the tree (tree_health.hpp): the
  // buffers (an append that moved the tree left the old ones as they were), the size, room,
  // zero-subtree roots and root.
  struct host_state {
    cl::Buffer leaves, nodes;
    std::uint64_t count, capacity;
    std::vector<digest> zeros;
    digest root;
  };

  // `body()` as call `call`, all or nothing: undone on the host where it fails before it writes
  // the tree, else the tree left unusable.
  template <class Body> auto changing(const char *call, const Body &body) -> decltype(body()) {
    const host_state before{leaves_, nodes_, leaf_count(), capacity_, zeros_, root_};
    return health_.change(call, body, [&] {
      leaves_ = before.leaves;
      nodes_ = before.nodes;
      capacity_ = before.capacity;
      zeros_ = before.zeros;
      root_ = before.root;
      tree_.adopt_layout(leaves_, nodes_, before.count, capacity_);
    });
  }

  // update() from host memory, within its change.
  digest update_from_host(const std::uint64_t *indices, const void *new_leaves,
                          std::uint64_t count) {
    const auto at = std::chrono::steady_clock::now();
    if (elected(count)) {
      detail::check_batch_limits(leaf_count(), count);
      detail::check_indices(leaf_count(), indices, count);
      return apply_elected(election_.indices(), election_.values(), count, at, [&] {
        return election_.upload(h_->context(), h_->queue(), indices, new_leaves, count);
      });
    }
    const unsigned slices = detail::batch_slices(count);
    const kary_update_plan &plan = planner_.plan(tree_.level_sizes(), arity(), indices, count,
                                                 whole_percent_, slices, detail::on_cores{});
    if (count == 0) return root_;
    const std::vector<digest> &values = levels_.elect_values(plan.batch, new_leaves, slices);
    return apply(plan, at, [&] { return levels_.upload(values, plan); });
  }

  // update() from device buffers (count > 0, checked), within its change.
  digest update_from(const cl::Buffer &indices, const cl::Buffer &new_leaves, std::uint64_t count,
                     const std::vector<cl::Event> &wait) {
    const auto at = std::chrono::steady_clock::now();
    if (elected(count)) {
      const digest &root =
          apply_elected(indices, new_leaves, count, at, [&] { return mark(wait); });
      if (const cl_uint bad = election_.bad_update()) {
        health_.unchanged(); // the device found it before it wrote the tree
        detail::refuse_device_index(h_->queue(), indices, bad - 1, count, leaf_count());
      }
      return root;
    }
    kary_update_plan plan = plan_kary_update(
        tree_.level_sizes(), arity(),
        detail::read_indices(h_->queue(), indices, 0, count, wait).data(), count, whole_percent_);
    // The sources after the lists, in their one write: what the values' gather reads.
    const std::uint64_t sources = plan.list.size();
    plan.list.insert(plan.list.end(), plan.batch.sources.begin(), plan.batch.sources.end());
    return apply(plan, at, [&] { return levels_.gather_values(plan, sources, new_leaves); });
  }

  // The device's runtime, for the snapshots' copies and their errors.
  detail::device_runtime runtime() const { return {h_->context(), h_->device()}; }

  static group_rule checked_rule(const kary_options &options) {
    check_kary(options);
    return group_rule_of(options);
  }

  // A planned update (planned from `at` on), its values put on the device by `put` (which
  // returns the first write's event): the leaves written, the levels recomputed, the root read.
  template <class Put>
  digest apply(const kary_update_plan &plan, std::chrono::steady_clock::time_point at,
               const Put &put) {
    return apply(plan, at, put, [&] {
      levels_.write_leaves(plan.batch.leaves.size(), {leaves_, 0, leaf_count()});
    });
  }

  // The same, the leaves written by `write` (after the uploads).
  template <class Put, class Write>
  digest apply(const kary_update_plan &plan, std::chrono::steady_clock::time_point at,
               const Put &put, const Write &write) {
    split_ = {};
    split_.plan_ms = detail::ms_since(at);
    at = std::chrono::steady_clock::now();
    const detail::drain_on_unwind drained(h_->queue()); // no write may outlive the host's data
    std::array<cl::Event, 5> marks; // the first write, after the uploads, the leaves, the lists
    marks[0] = put();
    marks[1] = mark();
    health_.writing(); // the leaves, then the levels, change from here on
    write();
    marks[2] = mark();
    const unsigned listed = levels_.recompute_listed(tree_, plan, zeros_);
    marks[3] = mark();
    levels_.recompute_whole(tree_, listed, zeros_);
    split_.enqueue_ms = detail::ms_since(at);
    at = std::chrono::steady_clock::now();
    marks[4] = read_root();
    split_.wait_ms = detail::ms_since(at);
    detail::split_device(split_, plan, marks, listed, tree_.top());
    return root_;
  }

  // The distinct leaves of `indices`, the batch update() just applied, ascending: its plan's
  // (valid until the next plan), unless update() elected it on the device with no plan; then
  // sorted here, in slices on the host's cores.
  const std::vector<std::uint32_t> &sorted_batch(const std::vector<std::uint64_t> &indices) {
    if (!elected(indices.size())) return planner_.batch().leaves;
    sort_batch_into(proved_batch_, proved_sort_, leaf_count(), indices.data(), indices.size(),
                    detail::batch_slices(indices.size()), detail::on_cores{});
    return proved_batch_.leaves;
  }

  // Whether a batch of `count` updates skips the host's plan (kary_leaf_election.hpp).
  bool elected(std::uint64_t count) const {
    return detail::kary_leaf_election::chosen(count, leaf_count(), elect_per_mille_);
  }

  // `count` updates in device buffers (indices, values) elected and written on the device after
  // what `put` enqueues (returning its first command's event), every level hashed whole, the
  // root read; checked on the host from `at`.
  template <class Put>
  const digest &apply_elected(const cl::Buffer &indices, const cl::Buffer &values,
                              std::uint64_t count, std::chrono::steady_clock::time_point at,
                              const Put &put) {
    const kary_update_plan every_level_whole{{}, {}, {kary_level_update{0, 0, false, true}}};
    apply(every_level_whole, at, put, [&] {
      election_.enqueue(h_->context(), h_->queue(), leaves_, leaf_count(), capacity_, indices,
                        values, count);
    });
    return root_;
  }

  // A marker after every command enqueued so far and `wait`: its end is theirs (an in-order
  // queue).
  cl::Event mark(const std::vector<cl::Event> &wait = {}) {
    cl::Event marker;
    detail::call("clEnqueueMarkerWithWaitList", [&] {
      return h_->queue().enqueueMarkerWithWaitList(wait.empty() ? nullptr : &wait, &marker);
    });
    return marker;
  }

  // The most leaves: what an update's sort takes (sort_batch's 32-bit indices).
  static constexpr std::uint64_t max_leaves = detail::max_sorted_leaves;

  // Every level's planned parents, a level at a time, then the root read back.
  const digest &recompute(const kary_update_plan &plan) {
    levels_.recompute_whole(tree_, levels_.recompute_listed(tree_, plan, zeros_), zeros_);
    read_root();
    return root_;
  }

  // The root into root_, blocking; the read's event.
  cl::Event read_root() {
    const unsigned top = tree_.top();
    cl::Event read;
    detail::call("clEnqueueReadBuffer", [&] {
      return h_->queue().enqueueReadBuffer(tree_.level_buffer(top), CL_TRUE,
                                           tree_.level_first(top) * node_bytes, node_bytes,
                                           root_.data(), nullptr, &read);
    });
    return read;
  }

  // The leaves and levels moved into buffers laid out for `capacity` leaves (level l from where
  // levels 1..l-1 of a tree of `capacity` leaves would end), on the device.
  void grow(std::uint64_t capacity) {
    const std::uint64_t above = detail::resident_nodes_above(capacity, arity());
    cl::Buffer leaves = h_->device_buffer(capacity * node_bytes, "the tree's leaves");
    cl::Buffer nodes =
        h_->device_buffer(std::max<std::uint64_t>(above, 1) * node_bytes, "the tree's levels");
    tree_.move_into(leaves, nodes, capacity);
    leaves_ = leaves;
    nodes_ = nodes;
    capacity_ = capacity;
  }

  block_hasher *h_;
  group_rule rule_;           // what the block-leaf kernels hash each group by
  cl::Buffer leaves_;         // owned: updates and appends write them, room for capacity_
  device_tree tree_;          // its levels, changed in place
  cl::Buffer nodes_;          // the levels above the leaves, laid out for capacity_ leaves
  std::uint64_t capacity_;    // the leaves the buffers have room for
  std::vector<digest> zeros_; // zeros[l]: what shape zero pads level l's short group with
  digest root_{};
  unsigned whole_percent_ = kary_whole_level_percent;
  unsigned elect_per_mille_ = 0;
  detail::kary_leaf_election election_; // large batches' leaves, elected on the device
  detail::kary_listed_levels levels_;   // a planned update's uploads and launches, its scratch kept
  kary_update_split split_;
  kary_update_planner planner_; // an update's plan, its host memory kept from call to call
  detail::kary_multiproof_gatherer proofs_; // update_proved's, its buffers kept
  update_batch proved_batch_; // update_proved's sort of an elected batch, and its memory
  batch_sort_memory proved_sort_;
  std::uint64_t id_ = detail::next_resident_tree_id(); // what its snapshots know it by
  detail::tree_health health_; // unusable after a call that failed once it had written the tree
};

} // namespace merklize
