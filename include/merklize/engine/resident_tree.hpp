// SPDX-License-Identifier: Apache-2.0 OR MIT
// A binary tree that lives on the device and changes in place: built once, as
// device_tree builds it (every node hash, shapes promote and zero, a fixed depth), over leaves
// that the tree owns, since it writes them. A batch of updates goes up as given (indices and
// leaves, the host only checking the indices, O(batch)); the last value of each leaf is elected
// on the device and each level's dirty nodes listed there, a launch a level, nothing read back
// before the root (tree_updater.hpp, merkle_indexed.cl); a batch large beside the tree
// recomputes the levels whole. Appends add leaves after the last (a log: the old tree a prefix),
// recomputing their paths, the device memory growing geometrically; consistency proofs read
// their nodes from the device. Updates and appends come from host memory or device buffers (the
// device waiting for the caller's events first). The caller's data is copied, never written;
// but leaves already on the device may be adopted, with room for appends, so that a log as
// large as the device holds needs no second copy of them.
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
// before the tree is written. Every call is all or nothing (tree_health.hpp): one that fails
// before it writes the tree is undone; one that fails after leaves the tree unusable, every later
// call refused (unusable_tree_error) until it is destroyed.
#pragma once

#include "../plan/update_plan.hpp"
#include "../proofs/consistency.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/worker_pool.hpp"
#include "device_tree.hpp"
#include "host_updater.hpp"
#include "resident_batch.hpp"
#include "resident_memory.hpp"
#include "resident_snapshot.hpp"
#include "resident_upload.hpp"
#include "tree_health.hpp"
#include "tree_updater.hpp"
#include "update_multiproof.hpp"

#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

class resident_tree {
public:
  // The tree of cfg.tree over `bytes` bytes of leaves in host memory (a multiple of 32, at least
  // one leaf), copied to the device.
  resident_tree(block_hasher &h, const void *leaves, std::uint64_t bytes, const config &cfg)
      : runtime_(h.context(), h.device()), queue_(h.queue()), cfg_(cfg),
        leaves_(detail::resident_owned_leaves(h, leaf_count_of(bytes), leaves, nullptr)),
        tree_(h, {leaves_, bytes / node_bytes, bytes, {}}, cfg),
        nodes_(detail::resident_levels_of(tree_)), capacity_(tree_.leaf_count()),
        root_(tree_.root()) {}

  resident_tree(block_hasher &h, const std::vector<digest> &leaves, const config &cfg)
      : resident_tree(h, leaves.data(), leaves.size() * node_bytes, cfg) {}

  // The tree over `count` leaves in a device buffer of h's context, copied into the tree's own.
  resident_tree(block_hasher &h, const cl::Buffer &leaves, std::uint64_t count, const config &cfg)
      : runtime_(h.context(), h.device()), queue_(h.queue()), cfg_(cfg),
        leaves_(detail::resident_owned_leaves(h, count, nullptr, &leaves)),
        tree_(h, {leaves_, count, count * node_bytes, {}}, cfg),
        nodes_(detail::resident_levels_of(tree_)), capacity_(count), root_(tree_.root()) {}

  // Leaves already on the device that the tree takes over instead of copying (a log too large
  // for two copies of its leaves): `buffer`, of h's context, holds `count` leaves (at least
  // one) and room for `capacity` (at least count, at most what the tree may hold). The levels
  // are laid out for `capacity` leaves, so that appends up to it allocate and move nothing. The
  // tree writes the buffer from then on (updates, appends); the caller no longer may.
  struct adopted_leaves {
    cl::Buffer buffer;
    std::uint64_t count = 0, capacity = 0;
  };

  // The tree of cfg.tree over adopted leaves: the tree of the first leaf, grown over the others
  // where they lie by the append's launches (a launch a level), with no copy of the leaves.
  resident_tree(block_hasher &h, const adopted_leaves &leaves, const config &cfg)
      : runtime_(h.context(), h.device()), queue_(h.queue()), cfg_(cfg),
        leaves_(detail::resident_checked_room(h, leaves.buffer, leaves.count, leaves.capacity,
                                              cfg.tree)),
        tree_(h, {leaves_, 1, node_bytes, {}}, cfg), capacity_(leaves.capacity),
        root_(tree_.root()) {
    std::uint64_t bytes = 0;
    if (const std::uint64_t above = detail::resident_nodes_above(capacity_); above > 0)
      runtime_.grow(nodes_, bytes, above * node_bytes);
    const detail::drain_on_unwind drained(queue_);
    detail::in_step([&] { return appending(leaves.count - 1, 1); },
                    [&] { return recompute_appended(1, leaves.count, true); });
  }

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
  std::vector<std::vector<digest>> levels() const {
    health_.check("levels");
    return tree_.levels();
  }
  inclusion_proof prove(std::uint64_t index) const {
    health_.check("prove");
    return tree_.prove_binary(index);
  }
  // Refuses `call` on a tree that a failed call left unusable (tree_health.hpp).
  void check_usable(const char *call) const { health_.check(call); }

  // Leaf indices[k] becomes new_leaves[k]; returns the new root.
  digest update(const std::vector<std::uint64_t> &indices, const std::vector<digest> &new_leaves) {
    detail::check_leaf_each(indices.size(), new_leaves.size());
    return update(indices.data(), new_leaves.data(), indices.size());
  }

  // The same from `count` indices and count x 32 bytes of leaves in host memory. Both go up
  // through page-locked staging (leaves first; resident_upload.hpp) while the host checks the
  // indices: an index outside the tree is refused then, before the tree is written. On a CPU
  // device (or as cfg.resident_updates says) the host's cores apply the batch instead
  // (host_updater.hpp).
  digest update(const std::uint64_t *indices, const void *new_leaves, std::uint64_t count) {
    return changing("update", [&] { return update_from_host(indices, new_leaves, count); });
  }

  // The same from buffers of the tree's context: `count` indices (cl_ulong) and count x 32 bytes
  // of leaves, read where they are: nothing comes back but the root. An index outside the tree
  // is found on the device, and then nothing is written (the refusal reads it back).
  // The device waits for `wait` (the caller's writes of the buffers) before it reads them; the
  // call returns once it is done with them.
  digest update(const cl::Buffer &indices, const cl::Buffer &new_leaves, std::uint64_t count,
                const std::vector<cl::Event> &wait = {}) {
    runtime_.check_buffer(indices, "the indices", count * sizeof(cl_ulong), "tree", "update");
    runtime_.check_buffer(new_leaves, "the leaves", count * node_bytes, "tree", "update");
    return changing("update", [&] {
      check_batch(count);
      begin_call();
      if (count == 0) return root_;
      await(wait);
      return run(indices, new_leaves, count);
    });
  }

  // A batch for up to `capacity` updates in page-locked memory of the tree's context, which the
  // caller fills in place (resident_batch.hpp) and may reuse for every call.
  resident_batch make_update_batch(std::uint64_t capacity) const {
    return {runtime_.context(), queue_, capacity};
  }

  // The batch's first `count` updates, written to the device straight from its page-locked
  // memory: nothing is copied on the host. The indices are checked on the device as a device
  // batch's are (a bad one refused, the tree as it was); a count past the batch's capacity, or
  // a batch of another context, is refused first.
  digest update(const resident_batch &batch, std::uint64_t count) {
    batch.check_use(runtime_.context(), count);
    return changing("update", [&] {
      check_batch(count);
      begin_call();
      if (count == 0) return root_;
      const detail::drain_on_unwind drained(queue_); // no write may outlive a refusal
      upload_.from_batch(runtime_, queue_, batch, count, events_);
      return run(upload_.indices(), upload_.values(), count);
    });
  }

  // update(), and the multiproof of the updated leaves in the new tree, prove_multi's bit for
  // bit (indices sorted, once each; an empty batch's has none), its nodes gathered on the
  // device by one launch and read back with them. The batch is sorted in slices on the host's
  // cores into memory kept from call to call; the proof's places are listed straight from the
  // planner's visits (update_multiproof.hpp). A proof that fails once the tree is updated
  // leaves it unusable.
  std::pair<digest, multiproof> update_proved(const std::vector<std::uint64_t> &indices,
                                              const std::vector<digest> &new_leaves) {
    return changing("update_proved", [&] {
      const digest root = update(indices, new_leaves);
      prepare(); // the launch settings (local_), which the host's path never needed
      sort_batch_into(proved_batch_, proved_sort_, leaf_count(), indices.data(), indices.size(),
                      detail::batch_slices(indices.size()), detail::on_cores{});
      return std::pair<digest, multiproof>{root, gatherer_.gather(runtime_, queue_, tree_,
                                                                  cfg_.tree, capacity_, local_,
                                                                  proved_batch_.leaves, events_)};
    });
  }

  // `count` leaves (count x 32 bytes in host memory) after the last: the tree of the first
  // leaf_count() leaves stays a prefix of the new one (RFC 6962's log, shape promote; shape
  // zero's trees grow the same way). Only the new leaves' paths are recomputed, a range of each
  // level; the device memory grows geometrically (each level moved once a doubling, device to
  // device; reserve() sets it exactly). A fixed depth's tree takes at most 2^depth leaves; more
  // is refused, changing nothing. Returns the new root.
  digest append(const void *leaves, std::uint64_t count);

  // The same from `count` leaves in a buffer of the tree's context, copied on the device after
  // `wait` (the caller's writes of it); the call returns once the device is done with it.
  digest append(const cl::Buffer &leaves, std::uint64_t count,
                const std::vector<cl::Event> &wait = {});

  digest append(const std::vector<digest> &leaves) { return append(leaves.data(), leaves.size()); }

  // The proof that the tree of the first old_size leaves is a prefix of this one (RFC 9162
  // 2.1.4, shape promote, a hash without a root flag; others refused), prove_consistency's of
  // the host tree bit for bit: only its nodes read from the device, a read each.
  consistency_proof prove_consistency(std::uint64_t old_size) const;

  // A copy of the tree as it is now, on the device (resident_snapshot.hpp), for rollback().
  resident_snapshot snapshot() const {
    health_.check("snapshot");
    return {id_, runtime_, queue_, {leaves_, nodes_}, leaf_count(), capacity_, root_};
  }

  // The tree as it was when `s` (a snapshot of this tree; another's is refused, changing
  // nothing) was taken, bit for bit: leaves, levels, size, room and root, the updates and
  // appends since undone. A rollback that fails once it has begun to copy into the tree's own
  // buffers (the same room as the snapshot's) leaves the tree unusable.
  void rollback(const resident_snapshot &s) {
    changing("rollback", [&] {
      resident_snapshot::tree_buffers buffers{leaves_, nodes_};
      s.restore(id_, runtime_, queue_, buffers, health_);
      begin_call();
      if (s.capacity_ != capacity_) updater_.forget_layout();
      leaves_ = buffers.leaves;
      nodes_ = buffers.nodes;
      capacity_ = s.capacity_;
      root_ = s.root();
      tree_.adopt_layout(leaves_, nodes_, s.leaf_count(), capacity_);
    });
  }

  // The last update's plan (each level's dirty nodes, listed on the host when asked for: the
  // batch's indices read back, from the caller's buffer as it is then for an update from device
  // buffers, and sorted; the update itself never lists them) and commands. An append's plan is
  // empty.
  const update_plan &last_plan() const {
    if (!plan_) plan_ = plan_of(plan_batch(), tree_.level_sizes());
    return *plan_;
  }
  const update_events &last_events() const { return events_; }

  // The claim generation of the last update set to `last` (tests: the marks' wrap-around, which
  // clears them, without 2^32 - 1 calls; plan/claim_generation.hpp).
  void set_claim_generation(std::uint32_t last) { updater_.set_generation(last); }

  // Leaves the device memory holds now: appends grow it when they pass it.
  std::uint64_t capacity() const { return capacity_; }

  // Room for `room` leaves exactly, where the tree has less (appends double it): the tree
  // moved once now, both copies held meanwhile. More than the tree may hold is refused.
  void reserve(std::uint64_t room);

  // Device memory the tree holds: its leaves and levels (with room for capacity() leaves), and
  // the scratch of its largest batch (and multiproof).
  std::uint64_t device_bytes() const {
    return (capacity_ + detail::resident_nodes_above(capacity_)) * node_bytes +
           upload_.device_bytes() + gatherer_.device_bytes() + updater_.device_bytes();
  }

private:
  // update() from host memory, within its change.
  digest update_from_host(const std::uint64_t *indices, const void *new_leaves,
                          std::uint64_t count) {
    check_batch(count);
    begin_call();
    if (count == 0) return root_;
    if (host_updates_) return update_on_host(indices, new_leaves, count);
    const detail::drain_on_unwind drained(queue_); // no upload may outlive the caller's data
    upload_.from_host(runtime_, queue_, leaf_count(), indices, new_leaves, count, events_);
    return run(upload_.indices(), upload_.values(), count);
  }

  // What a failed call puts back where it had not yet written the tree (tree_health.hpp): the
  // buffers (an append or reserve that moved the tree left the old ones as they were), the
  // size, room and root.
  struct host_state {
    cl::Buffer leaves, nodes;
    std::uint64_t count, capacity;
    digest root;
  };

  // `body()` as call `call`, all or nothing: undone on the host where it fails before it writes
  // the tree, else the tree left unusable.
  template <class Body> auto changing(const char *call, const Body &body) -> decltype(body()) {
    const host_state before{leaves_, nodes_, leaf_count(), capacity_, root_};
    return health_.change(call, body, [&] {
      leaves_ = before.leaves;
      nodes_ = before.nodes;
      capacity_ = before.capacity;
      root_ = before.root;
      tree_.adopt_layout(leaves_, nodes_, before.count, capacity_);
      updater_.forget_layout();
    });
  }

  using clock_type = std::chrono::steady_clock;

  // A batch from host memory applied by the host's cores to the mapped levels, its indices
  // checked first (a refusal changes nothing); the root raised as after the kernels.
  digest update_on_host(const std::uint64_t *indices, const void *new_leaves, std::uint64_t count) {
    const detail::drain_on_unwind drained(queue_);
    digest top{};
    try {
      top = host_.update(queue_, tree_, cfg_.tree, indices, new_leaves, count, events_);
    } catch (...) {
      if (events_.on_host) health_.writing(); // the levels were mapped, then written
      throw;
    }
    health_.writing();
    root_ = root_of(top);
    events_.wait_ms = 0; // the root read from the mapped levels
    plan_host_.assign(indices, indices + count);
    return root_;
  }

  // Refuses a batch this tree cannot take (each update's position + 1 must fit a uint: the
  // device elects the last update of a leaf by it).
  void check_batch(std::uint64_t count) const {
    detail::check_batch_limits(leaf_count(), count);
    if (count >= detail::max_sorted_leaves)
      throw error("update: a batch of " + std::to_string(count) +
                  " updates; a batch holds fewer than 2^32 updates");
  }

  // A new call's records: the last one's batch, plan and commands forgotten.
  void begin_call() {
    events_ = {};
    plan_indices_ = cl::Buffer();
    plan_count_ = 0;
    plan_host_.clear();
    plan_.reset();
  }

  // Room for `needed` leaves at least (twice the last room, at most what the tree may hold): new
  // buffers for the leaves and the levels laid out for the room, each level copied there on
  // the device.
  void grow(std::uint64_t needed);

  // New buffers for the leaves and the levels laid out for `room` leaves (at least the tree's),
  // the tree moved there on the device.
  void move_to(std::uint64_t room);

  // Builds the kernels and the zero-subtree roots on the first update or append.
  void prepare() {
    if (local_) return;
    const auto settings =
        detail::resolve_launch_settings(runtime_.facts(), runtime_.tuning_row(), cfg_);
    updater_.prepare(runtime_, cfg_, settings);
    local_ = settings.local_size; // last: a prepare that failed is tried again whole
  }

  // What an append of `count` leaves onto `old_count` is doing, for its errors.
  std::string appending(std::uint64_t count, std::uint64_t old_count) const;

  // An append of `count` leaves (checked): room made, `put` writing them at byte `at` of the
  // leaves, and the new leaves' paths recomputed.
  template <class Put> digest append_with(std::uint64_t count, const Put &put);

  // Leaves old_count .. total - 1, on the device in the room, made the tree's: the layout
  // adopted, their paths recomputed (a range of each level), the new root read. `in_place`: in
  // the tree's own buffers, whose right edge changes (not new ones it moved to).
  digest recompute_appended(std::uint64_t old_count, std::uint64_t total, bool in_place);

  // The caller's events waited for by every command after this one on the in-order queue.
  void await(const std::vector<cl::Event> &wait) {
    if (wait.empty()) return;
    detail::call("clEnqueueBarrierWithWaitList",
                 [&] { return queue_.enqueueBarrierWithWaitList(&wait); });
  }

  // A batch of `count` updates, its indices and leaves in device buffers, enqueued
  // (tree_updater.hpp); waits for the new top node. A bad index found on the device is refused
  // then, the tree as it was.
  digest run(const cl::Buffer &indices, const cl::Buffer &values, std::uint64_t count) {
    const detail::drain_on_unwind drained(queue_); // nothing runs on once this has failed
    plan_indices_ = indices;
    plan_count_ = count;
    return detail::in_step(
        [&] {
          return "updating " + std::to_string(count) + " leaves of the tree of " +
                 std::to_string(leaf_count()) + " leaves on " +
                 detail::name_in_message(runtime_.device());
        },
        [&] {
          prepare();
          auto at = clock_type::now();
          health_.writing();
          try {
            updater_.enqueue(runtime_, queue_, tree_, capacity_,
                             root_depth(cfg_.tree, tree_layout(leaf_count())),
                             cfg_.tree.shape == shape::zero, indices, values, count, events_);
          } catch (...) {
            updater_.forget_layout(); // winner[] may not have been reset to zero
            throw;
          }
          events_.enqueue_ms = detail::ms_since(at);
          at = clock_type::now();
          const digest root = read_root();
          events_.wait_ms = detail::ms_since(at);
          if (const cl_uint bad = updater_.bad_update()) {
            health_.unchanged(); // the device found it before it wrote the tree
            detail::refuse_device_index(queue_, indices, bad - 1, count, leaf_count());
          }
          return root_ = root;
        });
  }

  // The last update's batch sorted: its indices read back (none after an append).
  update_batch plan_batch() const {
    if (!plan_host_.empty()) return sort_batch(leaf_count(), plan_host_);
    if (plan_count_ == 0) return {};
    std::vector<std::uint64_t> indices(static_cast<std::size_t>(plan_count_));
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(plan_indices_, CL_TRUE, 0, plan_count_ * sizeof(cl_ulong),
                                      indices.data());
    });
    return sort_batch(leaf_count(), indices);
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
    return root_of(top);
  }

  // The root of the tree whose top level's node is `top`: raised to a fixed depth's.
  digest root_of(const digest &top) const {
    return extend_root(cfg_.tree.hash, top, tree_.top(),
                       root_depth(cfg_.tree, tree_layout(leaf_count())));
  }

  detail::device_runtime runtime_;
  cl::CommandQueue queue_; // the block_hasher's, in order
  config cfg_;
  cl::Buffer leaves_; // the tree's own copy of its leaves, level 0, with room for capacity_
  device_tree tree_;  // the levels, built over leaves_
  cl::Buffer nodes_;  // the levels above the leaves, laid out for capacity_ leaves
  std::uint64_t capacity_;
  digest root_{};
  mutable std::optional<update_plan> plan_;
  cl::Buffer plan_indices_; // the last update's indices (the caller's for a device batch)
  std::uint64_t plan_count_ = 0;
  std::vector<std::uint64_t> plan_host_; // the last host-applied batch's indices
  update_events events_;
  detail::tree_updater updater_; // its kernels built on the first update or append
  bool host_updates_ = resident_updates_on_host(cfg_.resident_updates, runtime_.facts(), cfg_.tree);
  detail::host_updater host_;
  std::size_t local_ = 0;
  detail::resident_upload upload_;       // batches (and appends) from host memory go up
  detail::multiproof_gatherer gatherer_; // built on the first update_proved
  update_batch proved_batch_;            // update_proved's sorted batch, and its sort's memory
  batch_sort_memory proved_sort_;
  std::uint64_t id_ = detail::next_resident_tree_id(); // what its snapshots know it by
  detail::tree_health health_; // unusable after a call that failed once it had written the tree
};

} // namespace merklize

#include "resident_tree_appends.hpp" // its appends, reserve() and consistency proofs
