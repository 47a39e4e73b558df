// SPDX-License-Identifier: Apache-2.0 OR MIT
// A binary tree that lives on the device and changes in place (issue 31): built once, as
// device_tree builds it (every node hash, shapes promote and zero, a fixed depth), over leaves
// that the tree owns, since it writes them; then each batch of updates writes its leaves with
// one launch and recomputes only the nodes above them, one launch a level over that level's dirty
// nodes (plan/update_plan.hpp), the plan uploaded once for every level. The caller's data is
// copied, never written.
//
//   merklize::block_hasher h(device);
//   merklize::resident_tree t(h, leaves.data(), leaves.size(),
//   merklize::config{{hash_kind::sha256}}); merklize::digest root = t.update({7, 9000},
//   {new_leaf_7, new_leaf_9000}); // == t.root() merklize::inclusion_proof p = t.prove(7); //
//   prove()'s
//
// Within one batch a repeated index takes its last value. A refused batch (an index outside the
// tree, fewer leaves than indices) changes nothing: it is checked before the device is asked
// anything.
#pragma once

#include "../plan/update_plan.hpp"
#include "../runtime/profiling.hpp"
#include "device_tree.hpp"

#include <cstring>
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
        tree_(h, {leaves_, bytes / node_bytes, bytes, {}}, cfg), root_(tree_.root()) {}

  resident_tree(block_hasher &h, const std::vector<digest> &leaves, const config &cfg)
      : resident_tree(h, leaves.data(), leaves.size() * node_bytes, cfg) {}

  // The tree over `count` leaves in a device buffer of h's context, copied into the tree's own.
  resident_tree(block_hasher &h, const cl::Buffer &leaves, std::uint64_t count, const config &cfg)
      : runtime_(h.context(), h.device()), queue_(h.queue()), cfg_(cfg),
        leaves_(owned_leaves(h, count, nullptr, &leaves)),
        tree_(h, {leaves_, count, count * node_bytes, {}}, cfg), root_(tree_.root()) {}

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

  // The same from `count` indices and count x 32 bytes of leaves in host memory.
  digest update(const std::uint64_t *indices, const void *new_leaves, std::uint64_t count) {
    plan_ = plan_update(tree_.level_sizes(), 2, indices, count); // refuses before any change
    events_ = {};
    if (count == 0) return root_;
    const detail::drain_on_unwind drained(queue_); // no upload may outlive the caller's leaves
    runtime_.grow(values_, values_capacity_, count * node_bytes);
    events_.transfers.push_back(write(values_, 0, count * node_bytes, new_leaves));
    return run(values_);
  }

  // The same from buffers of the tree's context: `count` indices (cl_ulong) and count x 32 bytes
  // of leaves. The indices are read back for the plan; the leaves are read where they are.
  digest update(const cl::Buffer &indices, const cl::Buffer &new_leaves, std::uint64_t count) {
    runtime_.check_buffer(indices, "the indices", count * sizeof(cl_ulong), "tree", "update");
    runtime_.check_buffer(new_leaves, "the leaves", count * node_bytes, "tree", "update");
    std::vector<std::uint64_t> host(static_cast<std::size_t>(count));
    events_ = {};
    if (count > 0) {
      cl::Event read;
      detail::call("clEnqueueReadBuffer", [&] {
        return queue_.enqueueReadBuffer(indices, CL_TRUE, 0, count * sizeof(cl_ulong), host.data(),
                                        nullptr, &read);
      });
      events_.transfers.push_back(read);
    }
    plan_ = plan_update(tree_.level_sizes(), 2, host.data(), count);
    if (count == 0) return root_;
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

  // The last update's plan and commands.
  const update_plan &last_plan() const { return plan_; }
  const update_events &last_events() const { return events_; }

  // Device memory the tree holds: its leaves and levels, and the scratch of its largest batch
  // (and multiproof).
  std::uint64_t device_bytes() const {
    std::uint64_t nodes = 0;
    for (const std::uint64_t size : tree_.level_sizes())
      nodes += size;
    return nodes * node_bytes + plan_capacity_ + values_capacity_ + offsets_capacity_ +
           proof_capacity_ + zeros_bytes_;
  }

private:
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

  cl::Event write(const cl::Buffer &to, std::uint64_t at, std::uint64_t bytes, const void *from) {
    cl::Event done;
    detail::call("clEnqueueWriteBuffer", [&] {
      return queue_.enqueueWriteBuffer(to, CL_FALSE, at, bytes, from, nullptr, &done);
    });
    return done;
  }

  // Builds the kernels and the zero-subtree roots on the first update.
  void prepare() {
    if (scatter_()) return;
    const auto spec = detail::merkle_indexed_program(cfg_.tree.hash);
    local_ =
        detail::resolve_launch_settings(runtime_.facts(), runtime_.tuning_row(), cfg_).local_size;
    scatter_ = runtime_.kernel(spec, "scatter_leaves", local_);
    level_ = runtime_.kernel(spec, "merkle_indexed_level", local_);
    const auto zeros = zero_subtree_roots(cfg_.tree.hash, std::max(1u, tree_.top()));
    zeros_bytes_ = zeros.size() * node_bytes;
    zeros_ = runtime_.copy_of(zeros.data(), zeros_bytes_);
  }

  // The plan uploaded (its nodes, then its sources: one buffer for every level), the leaves
  // scattered from `values`, a launch a level above them; waits for the new top node.
  digest run(const cl::Buffer &values) {
    const detail::drain_on_unwind drained(queue_); // nothing runs on once this has failed
    return detail::in_step(
        [&] {
          return "updating " + std::to_string(plan_.count(0)) + " leaves of the tree of " +
                 std::to_string(leaf_count()) + " leaves on " +
                 detail::name_in_message(runtime_.device());
        },
        [&] {
          prepare();
          const std::uint64_t nodes = plan_.nodes.size(), sources = plan_.sources.size();
          runtime_.grow(plan_buffer_, plan_capacity_, (nodes + sources) * sizeof(cl_ulong));
          events_.transfers.push_back(
              write(plan_buffer_, 0, nodes * sizeof(cl_ulong), plan_.nodes.data()));
          events_.transfers.push_back(write(plan_buffer_, nodes * sizeof(cl_ulong),
                                            sources * sizeof(cl_ulong), plan_.sources.data()));
          detail::set_args(scatter_, tree_.level_buffer(0), values, plan_buffer_, cl_ulong(0),
                           cl_ulong(nodes), cl_ulong(sources));
          events_.kernels.push_back(detail::launch(queue_, scatter_, sources, local_, {}));
          for (unsigned level = 1; level <= tree_.top(); ++level)
            enqueue_level(level);
          return read_root();
        });
  }

  // The multiproof of the last update's leaves: its nodes' places in the tree laid out whole
  // (multiproof_positions), gathered by proof.cl's proof_gather_nodes.
  multiproof updated_multiproof() {
    multiproof proof{cfg_.tree, leaf_count(), plan_.dirty(0), {}};
    if (proof.indices.empty()) return proof;
    std::vector<std::uint64_t> level_offsets = {0}, offsets;
    for (const std::uint64_t size : tree_.level_sizes())
      level_offsets.push_back(level_offsets.back() + size);
    for (const node_position &p : multiproof_positions(leaf_count(), proof.indices))
      offsets.push_back(level_offsets[p.level] + p.index);
    if (offsets.empty()) return proof; // one leaf: nothing to prove it with
    if (!gather_())
      gather_ =
          runtime_.kernel(detail::proof_program(cfg_.tree.hash), "proof_gather_nodes", local_);
    const std::uint64_t count = offsets.size();
    const detail::drain_on_unwind drained(queue_);
    runtime_.grow(proof_offsets_, offsets_capacity_, count * sizeof(cl_ulong));
    runtime_.grow(proof_nodes_, proof_capacity_, count * node_bytes);
    events_.transfers.push_back(write(proof_offsets_, 0, count * sizeof(cl_ulong), offsets.data()));
    detail::set_args(gather_, tree_.level_buffer(0), tree_.level_buffer(1), cl_ulong(leaf_count()),
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

  // Level `level`'s dirty nodes from the level below.
  void enqueue_level(unsigned level) {
    const unsigned root_level = root_depth(cfg_.tree, tree_layout(leaf_count()));
    detail::set_args(level_, tree_.level_buffer(level - 1), cl_ulong(tree_.level_first(level - 1)),
                     cl_ulong(tree_.level_sizes()[level - 1]), tree_.level_buffer(level),
                     cl_ulong(tree_.level_first(level)), plan_buffer_, cl_ulong(plan_.first[level]),
                     cl_ulong(plan_.count(level)), zeros_, cl_ulong(level - 1),
                     cl_int(cfg_.tree.pad == shape::zero), cl_int(level == root_level));
    events_.kernels.push_back(detail::launch(queue_, level_, plan_.count(level), local_, {}));
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
  cl::Buffer leaves_; // the tree's own copy of its leaves, level 0
  device_tree tree_;  // the levels, built over leaves_
  digest root_{};
  update_plan plan_; // the last update's, kept until its uploads are done
  update_events events_;
  cl::Kernel scatter_, level_; // built on the first update
  cl::Kernel gather_;          // built on the first update_proved
  std::size_t local_ = 0;
  cl::Buffer zeros_, plan_buffer_, values_; // values_: a host batch's leaves
  cl::Buffer proof_offsets_, proof_nodes_;  // a multiproof's nodes: where, and gathered
  std::uint64_t zeros_bytes_ = 0, plan_capacity_ = 0, values_capacity_ = 0;
  std::uint64_t offsets_capacity_ = 0, proof_capacity_ = 0;
};

} // namespace merklize
