// SPDX-License-Identifier: Apache-2.0 OR MIT
// A sparse Merkle tree on the device, changed by batches: the rule and the host
// reference in core/sparse.hpp, the trie and each batch's plan in plan/sparse_trie.hpp, the
// kernels in kernels/sparse.cl.
//
//   merklize::block_hasher h(device);
//   merklize::sparse_tree t(h, {merklize::hash_kind::sha256, 256});
//   merklize::digest root = t.update(keys, values);  // a zero value deletes its key
//   merklize::sparse_proof p = t.prove(key);         // of presence, or of absence
//
// The host keeps the trie (each key, its value, and the m - 1 branches: some 100 bytes a key);
// the device keeps its mirror and the branches' digests. A batch writes its leaves and new
// branches' prefixes with one launch each, then recomputes the dirty branches a launch a height,
// lowest first: O(batch x the trie's depth) branches, each hashing its children up through the
// empty subtrees between them. Nothing else crosses the bus: the root and a proof's digests are
// read back, the hashes above the top branch done on the host.
//
// A refused batch (a key out of range, fewer values than keys) changes nothing. A batch the
// device fails leaves host and device apart: the tree then refuses every call, naming the failure.
#pragma once

#include "../core/sparse.hpp"
#include "../plan/launch_plan.hpp"
#include "../plan/sparse_trie.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/queue_drain.hpp"
#include "../runtime/runtime.hpp"
#include "block_hasher.hpp"

#include <string>
#include <vector>

namespace merklize {

// The commands of the last batch, profiled: uploads, and the scatter and branch launches.
struct sparse_events {
  std::vector<cl::Event> transfers, kernels;
};

class sparse_tree {
public:
  sparse_tree(block_hasher &h, const sparse_options &options)
      : runtime_(h.context(), h.device()), queue_(h.queue()), options_(options),
        trie_(options.depth), zeros_(zero_subtree_roots(options.hash, options.depth)),
        local_(detail::resolve_launch_settings(runtime_.facts(), runtime_.tuning_row(),
                                               config{{options.hash}})
                   .local_size),
        branches_(runtime_.kernel(detail::sparse_program(options.hash), "sparse_branches", local_)),
        scatter_(runtime_.kernel(detail::sparse_program(options.hash), "sparse_scatter", local_)),
        leaf_edges_(
            runtime_.kernel(detail::sparse_program(options.hash), "sparse_leaf_edges", local_)),
        zeros_buffer_(runtime_.copy_of(zeros_.data(), zeros_.size() * node_bytes)),
        root_(sparse_empty_root(options_, zeros_)) {}

  sparse_tree(const sparse_tree &) = delete; // one owner: two would write the same buffers
  sparse_tree &operator=(const sparse_tree &) = delete;
  sparse_tree(sparse_tree &&) = default;
  sparse_tree &operator=(sparse_tree &&) = default;

  const digest &root() const { return root_; }
  std::size_t size() const { return trie_.size(); } // keys holding a value
  const sparse_options &options() const { return options_; }

  // Keys keys[k] take values[k] (zero deletes; a repeated key takes its last value); returns the
  // new root.
  digest update(const std::vector<digest> &keys, const std::vector<digest> &values) {
    if (keys.size() != values.size())
      throw error("sparse update: " + std::to_string(keys.size()) + " keys but " +
                  std::to_string(values.size()) + " values; give a value for each key");
    return update(keys.data(), values.data(), keys.size());
  }

  digest update(const digest *keys, const digest *values, std::size_t count) {
    check_usable();
    const sparse_plan plan = trie_.apply(keys, values, count); // refuses before any change
    events_ = {};
    try {
      return run(plan);
    } catch (const std::exception &e) {
      broken_ = e.what();
      throw;
    }
  }

  // The value `key` holds (zero: absent).
  digest value(const digest &key) const {
    check_sparse_key(options_, key);
    const sparse_path p = trie_.path(key);
    return p.found ? trie_.value_of(p.end) : digest{};
  }

  // `key`'s proof: its value and the siblings of its path, bottom up; core/sparse.hpp's
  // sparse_verify checks it against root().
  sparse_proof prove(const digest &key) const { return prove(std::vector<digest>{key}).front(); }

  // The proofs of `keys`, in their order: the branches' digests they need read back together,
  // a wait for all of them (not one per branch).
  std::vector<sparse_proof> prove(const std::vector<digest> &keys) const {
    check_usable();
    for (const digest &key : keys)
      check_sparse_key(options_, key);
    std::vector<sparse_path> paths;
    std::vector<sparse_ref> branches; // every branch sibling, in the paths' order
    for (const digest &key : keys) {
      paths.push_back(trie_.path(key));
      for (const auto &passed : paths.back().passed)
        if (sparse_trie::is_branch(passed.second)) branches.push_back(passed.second);
      if (sparse_trie::is_branch(paths.back().end) && !paths.back().found)
        branches.push_back(paths.back().end);
    }
    const std::vector<digest> read = read_digests(branches);
    std::size_t next = 0; // the next digest of `read`, taken in the order they were listed
    auto raised_sibling = [&](sparse_ref r, unsigned to) {
      const digest node = sparse_trie::is_branch(r) ? read[next++] : trie_.value_of(r);
      return sparse_raise(options_, zeros_, node, trie_.key_of(r), trie_.height_of(r), to);
    };
    std::vector<sparse_proof> proofs;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const sparse_path &p = paths[k];
      proofs.push_back({keys[k], p.found ? trie_.value_of(p.end) : digest{},
                        std::vector<digest>(zeros_.begin(), zeros_.end() - 1)});
      for (const auto &[height, other] : p.passed)
        proofs.back().siblings[height - 1] = raised_sibling(other, height - 1);
      if (!p.found && p.end != sparse_none)
        proofs.back().siblings[static_cast<unsigned>(p.differs)] =
            raised_sibling(p.end, static_cast<unsigned>(p.differs));
    }
    return proofs;
  }

  const sparse_events &last_events() const { return events_; }

  // Device memory the tree holds: the mirror of the trie, the zeros, the largest batch's scratch.
  std::uint64_t device_bytes() const {
    std::uint64_t bytes = zeros_.size() * node_bytes;
    for (const std::uint64_t c : capacity_)
      bytes += c;
    return bytes;
  }

private:
  // The device's buffers: the trie's mirror (kept, grown by copying), then the batch's scratch.
  enum buffer_name {
    leaf_keys,
    leaf_values,
    prefixes,
    digests,
    keys_in,
    values_in,
    prefixes_in,
    leaf_slots_in,
    branch_slots_in,
    entries_in,
    edges, // the dirty branches' leaf children, hashed up to them
    buffer_count
  };

  void check_usable() const {
    if (!broken_.empty())
      throw error("this sparse tree is unusable: an update failed on the device part-way (" +
                  broken_ + "); build a new one");
  }

  digest run(const sparse_plan &plan) {
    const detail::drain_on_unwind drained(queue_); // no upload may outlive the plan
    return detail::in_step(
        [&] {
          return "updating the sparse tree of " + std::to_string(trie_.size()) + " keys on " +
                 detail::name_in_message(runtime_.device());
        },
        [&] {
          keep(leaf_keys, trie_.leaf_slots());
          keep(leaf_values, trie_.leaf_slots());
          keep(prefixes, trie_.branch_slots());
          keep(digests, trie_.branch_slots());
          write_slots(plan);
          upload(entries_in, plan.entries.data(), plan.entries.size() * sizeof(sparse_entry));
          enqueue_leaf_edges(plan.entries.size());
          for (const auto &[first, count] : plan.groups) {
            detail::set_args(branches_, buffers_[entries_in], cl_uint(first), cl_uint(count),
                             buffers_[edges], buffers_[prefixes], buffers_[digests], zeros_buffer_,
                             cl_uint(options_.depth));
            events_.kernels.push_back(detail::launch(queue_, branches_, count, local_, {}));
          }
          detail::call("clFinish", [&] { return queue_.finish(); }); // the plan's uploads too
          root_ = trie_.root() == sparse_none ? sparse_empty_root(options_, zeros_)
                                              : raised(trie_.root(), options_.depth);
          return root_;
        });
  }

  // Every dirty branch's leaf children hashed up to the branch, in one launch.
  void enqueue_leaf_edges(std::size_t entries) {
    if (entries == 0) return;
    runtime_.grow(buffers_[edges], capacity_[edges], 2 * entries * node_bytes);
    detail::set_args(leaf_edges_, buffers_[entries_in], cl_uint(entries), buffers_[leaf_keys],
                     buffers_[leaf_values], zeros_buffer_, buffers_[edges]);
    events_.kernels.push_back(detail::launch(queue_, leaf_edges_, entries, local_, {}));
  }

  // Node `r` hashed up from its height to `to` (the root's flag at the tree's depth).
  digest raised(sparse_ref r, unsigned to) const {
    const digest node = sparse_trie::is_branch(r) ? read_digest(r) : trie_.value_of(r);
    return sparse_raise(options_, zeros_, node, trie_.key_of(r), trie_.height_of(r), to);
  }

  digest read_digest(sparse_ref branch) const { return read_digests({branch}).front(); }

  // Branches' digests, each read without waiting, then one wait for them all.
  std::vector<digest> read_digests(const std::vector<sparse_ref> &branches) const {
    std::vector<digest> out(branches.size());
    const detail::drain_on_unwind drained(queue_); // no read may still be writing into out
    for (std::size_t k = 0; k < branches.size(); ++k)
      detail::call("clEnqueueReadBuffer", [&] {
        return queue_.enqueueReadBuffer(buffers_[digests], CL_FALSE,
                                        (branches[k] & ~sparse_branch_bit) * node_bytes, node_bytes,
                                        out[k].data());
      });
    detail::call("clFinish", [&] { return queue_.finish(); });
    return out;
  }

  // Grows kept buffer `which` to `slots` nodes, doubling, its contents copied; new memory poisoned
  // (0xA5), so a read of a node never written shows.
  void keep(buffer_name which, std::uint64_t slots) {
    const std::uint64_t needed = slots * node_bytes;
    if (needed <= capacity_[which]) return;
    const std::uint64_t bytes = std::max(needed, 2 * capacity_[which]);
    cl::Buffer grown = runtime_.buffer(bytes, "the sparse tree's nodes");
    const cl_uchar poison = 0xA5;
    detail::call("clEnqueueFillBuffer",
                 [&] { return queue_.enqueueFillBuffer(grown, poison, 0, bytes); });
    if (capacity_[which] > 0)
      detail::call("clEnqueueCopyBuffer", [&] {
        return queue_.enqueueCopyBuffer(buffers_[which], grown, 0, 0, capacity_[which]);
      });
    buffers_[which] = grown;
    capacity_[which] = bytes;
  }

  void upload(buffer_name which, const void *data, std::uint64_t bytes) {
    if (bytes == 0) return;
    runtime_.grow(buffers_[which], capacity_[which], bytes);
    cl::Event done;
    detail::call("clEnqueueWriteBuffer", [&] {
      return queue_.enqueueWriteBuffer(buffers_[which], CL_FALSE, 0, bytes, data, nullptr, &done);
    });
    events_.transfers.push_back(done);
  }

  // The batch's leaves (keys and values) and its new branches' prefixes into their slots.
  void write_slots(const sparse_plan &plan) {
    if (!plan.leaf_slots.empty()) {
      upload(leaf_slots_in, plan.leaf_slots.data(), plan.leaf_slots.size() * sizeof(cl_uint));
      scatter(leaf_keys, keys_in, plan.leaf_keys, leaf_slots_in);
      scatter(leaf_values, values_in, plan.leaf_values, leaf_slots_in);
    }
    if (!plan.branch_slots.empty()) {
      upload(branch_slots_in, plan.branch_slots.data(), plan.branch_slots.size() * sizeof(cl_uint));
      scatter(prefixes, prefixes_in, plan.branch_prefixes, branch_slots_in);
    }
  }

  // nodes[k] into kept buffer `to` at the slot slots[k] holds, through scratch buffer `via`.
  void scatter(buffer_name to, buffer_name via, const std::vector<digest> &nodes,
               buffer_name slots) {
    upload(via, nodes.data(), nodes.size() * node_bytes);
    detail::set_args(scatter_, buffers_[to], buffers_[via], buffers_[slots], cl_uint(nodes.size()));
    events_.kernels.push_back(detail::launch(queue_, scatter_, nodes.size(), local_, {}));
  }

  detail::device_runtime runtime_;
  cl::CommandQueue queue_; // the block_hasher's, in order
  sparse_options options_;
  sparse_trie trie_;
  std::vector<digest> zeros_; // z[0 .. depth]
  std::size_t local_;
  cl::Kernel branches_, scatter_, leaf_edges_;
  cl::Buffer zeros_buffer_;
  cl::Buffer buffers_[buffer_count];
  std::uint64_t capacity_[buffer_count] = {};
  digest root_;
  sparse_events events_;
  std::string broken_; // why the tree is unusable, once an update failed on the device
};

} // namespace merklize
