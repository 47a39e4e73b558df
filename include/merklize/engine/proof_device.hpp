// SPDX-License-Identifier: Apache-2.0 OR MIT
// Proofs on an OpenCL device: the sibling paths of many leaves gathered in one kernel launch from
// a tree that merkleizer::enqueue_build left on the device, the nodes of a multiproof or of a
// consistency proof gathered the same way, and many proofs verified at once. The results are the
// types of proof.hpp, and agree with its host prover and verifier.
//
//   merklize::merkleizer m(cfg);
//   const auto built = m.enqueue_build(leaves, n, nodes);    // cl::Buffers, nothing read back
//   merklize::device_prover prover(m);
//   auto proofs = prover.gather(leaves, nodes, n, {0, 17, 4095}, built);
//   std::vector<bool> valid = prover.verify(proofs, proven_leaves, root, n);
//   auto consistent = prover.gather_consistency(leaves, nodes, n, old_size, built);
#pragma once

#include "../proofs/consistency.hpp"
#include "../proofs/proof.hpp"
#include "../runtime/queue_drain.hpp"
#include "merkleizer.hpp"

#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace merklize {

// Gathers and verifies proofs on a merkleizer's device and queue, for trees built with its tree
// options. Not thread-safe, like merkleizer: use one per thread.
class device_prover {
public:
  // lengths[p] that enqueue_gather writes for an index outside the tree.
  static constexpr cl_uint no_proof = 0xFFFFFFFFu;

  explicit device_prover(const merkleizer &m) try
      : runtime_(m.context(), m.device()), queue_(m.queue()), options_(m.configuration().tree) {
  } catch (...) {
    detail::rethrow_in_step(
        [&] { return "setting up proofs on " + detail::name_in_message(m.device()); });
  }

  const tree_options &options() const { return options_; }

  // Levels from the leaves to the root of a tree of `leaf_count` leaves built with options():
  // its depth, or shape zero's fixed depth (checked against the leaves).
  unsigned root_depth(std::uint64_t leaf_count) const {
    return merklize::root_depth(options_, tree_layout(leaf_count));
  }

  // Nodes a proof takes in the path buffers: the root's depth, at least 1.
  std::uint64_t path_slots(std::uint64_t leaf_count) const {
    return std::max(1u, root_depth(leaf_count));
  }

  // Device buffers in and out, for `count` proofs of a tree of `leaf_count` leaves: `leaves` and
  // `nodes` hold the tree as enqueue_build wrote it, `indices` count uint64 leaf indices. Proof p
  // is written to `paths` (count x path_slots nodes): its siblings fill the first lengths[p]
  // slots of p (`lengths`: count uint32), from the leaves up, and zeros the rest; an index outside
  // the tree gets lengths[p] = no_proof. Waits for `wait`; returns the kernel's event.
  std::vector<cl::Event> enqueue_gather(const cl::Buffer &leaves, const cl::Buffer &nodes,
                                        std::uint64_t leaf_count, const cl::Buffer &indices,
                                        std::uint64_t count, const cl::Buffer &paths,
                                        const cl::Buffer &lengths,
                                        const std::vector<cl::Event> &wait = {}) {
    return enqueueing("proof_gather", count, [&]() -> std::vector<cl::Event> {
      const std::uint64_t slots = path_slots(leaf_count);
      check_tree_buffers(leaves, nodes, leaf_count);
      check(indices, "indices", count * 8);
      check(paths, "paths", count * slots * node_bytes);
      check(lengths, "lengths", count * 4);
      const cl::Buffer zeros = zero_roots(leaf_count);
      cl::Kernel &k = kernel("proof_gather");
      detail::set_args(k, leaves, nodes, cl_ulong(leaf_count), cl_uint(root_depth(leaf_count)),
                       zeros, pad_with_zero(), indices, cl_ulong(count), cl_uint(slots), paths,
                       lengths);
      return {launch(k, count, wait)};
    });
  }

  // Verifies `count` proofs against the tree of `leaf_count` leaves whose root is `root`:
  // `leaves` holds the proven leaves (count x 32 bytes), `indices`, `paths` and `lengths` the
  // proofs as enqueue_gather writes them. valid[p] (`valid`: count uint32) becomes 1 where proof p
  // is valid, else 0. Any content is safe: no read leaves proof p's own slots.
  std::vector<cl::Event> enqueue_verify(const cl::Buffer &leaves, const cl::Buffer &indices,
                                        const cl::Buffer &paths, const cl::Buffer &lengths,
                                        std::uint64_t count, std::uint64_t leaf_count,
                                        const digest &root, const cl::Buffer &valid,
                                        const std::vector<cl::Event> &wait = {}) {
    return enqueueing("proof_verify", count, [&]() -> std::vector<cl::Event> {
      const std::uint64_t slots = path_slots(leaf_count);
      check(leaves, "leaves", count * node_bytes);
      check(indices, "indices", count * 8);
      check(paths, "paths", count * slots * node_bytes);
      check(lengths, "lengths", count * 4);
      check(valid, "valid", count * 4);
      const cl::Buffer zeros = zero_roots(leaf_count);
      cl_uint8 root_words;
      std::memcpy(&root_words, root.data(), node_bytes);
      cl::Kernel &k = kernel("proof_verify");
      detail::set_args(k, leaves, indices, paths, lengths, cl_ulong(count), cl_uint(slots),
                       cl_ulong(leaf_count), cl_uint(root_depth(leaf_count)), zeros,
                       pad_with_zero(), root_words, valid);
      return {launch(k, count, wait)};
    });
  }

  // The proofs for leaves `indices` of a tree on the device (leaves and nodes as enqueue_build
  // wrote them), gathered in one kernel launch after `wait`. Every index must be in the tree.
  std::vector<inclusion_proof> gather(const cl::Buffer &leaves, const cl::Buffer &nodes,
                                      std::uint64_t leaf_count,
                                      const std::vector<std::uint64_t> &indices,
                                      const std::vector<cl::Event> &wait = {}) {
    for (const std::uint64_t index : indices)
      detail::check_leaf_index(index, leaf_count);
    last_ = build_times{};
    const auto started = std::chrono::steady_clock::now();
    if (indices.empty()) return {};
    return batch("gathering the proofs of", indices.size(),
                 [&] { return gather_paths(leaves, nodes, leaf_count, indices, wait, started); });
  }

  // A multiproof for the leaves `indices` (any order, repeats allowed) of a tree on the device,
  // its nodes gathered in one kernel launch after `wait`.
  multiproof gather_multiproof(const cl::Buffer &leaves, const cl::Buffer &nodes,
                               std::uint64_t leaf_count, std::vector<std::uint64_t> indices,
                               const std::vector<cl::Event> &wait = {}) {
    multiproof proof{options_, leaf_count, canonical_indices(std::move(indices), leaf_count), {}};
    proof.nodes = gather_nodes(leaves, nodes, leaf_count,
                               multiproof_positions(leaf_count, proof.indices), wait);
    return proof;
  }

private:
  std::vector<inclusion_proof> gather_paths(const cl::Buffer &leaves, const cl::Buffer &nodes,
                                            std::uint64_t leaf_count,
                                            const std::vector<std::uint64_t> &indices,
                                            const std::vector<cl::Event> &wait,
                                            std::chrono::steady_clock::time_point started) {
    const std::uint64_t count = indices.size(), slots = path_slots(leaf_count);
    const auto staged = upload(indices.data(), count * 8, "indices");
    const cl::Buffer paths = buffer(count * slots * node_bytes, "paths");
    const cl::Buffer lengths = buffer(count * 4, "lengths");
    const auto kernels = enqueue_gather(leaves, nodes, leaf_count, staged.buffer, count, paths,
                                        lengths, with(wait, staged.event));
    std::vector<digest> path_nodes(count * slots);
    std::vector<cl_uint> path_lengths(count);
    record(started, {staged.event}, kernels,
           {download(paths, path_nodes.data(), count * slots * node_bytes, kernels),
            download(lengths, path_lengths.data(), count * 4, kernels)});
    std::vector<inclusion_proof> proofs;
    for (std::uint64_t p = 0; p < count; ++p) {
      if (path_lengths[p] > slots)
        throw error("the device returned a path of " + std::to_string(path_lengths[p]) +
                    " siblings in a tree of depth " + std::to_string(slots));
      const auto first = path_nodes.begin() + static_cast<std::ptrdiff_t>(p * slots);
      proofs.push_back({options_, leaf_count, indices[p], {first, first + path_lengths[p]}});
    }
    return proofs;
  }

  // The step of an enqueue_ function: one launch of `kernel` over `count` items.
  template <class Work>
  std::invoke_result_t<Work> enqueueing(const char *kernel, std::uint64_t count, Work &&work) {
    const auto step = [&] {
      return std::string("enqueueing ") + kernel + " over " + std::to_string(count) + " items on " +
             runtime_.facts().name;
    };
    return detail::in_step(step, std::forward<Work>(work));
  }

  // Runs a batch's work on the device, `what` and `count` its step: on failure after waiting
  // for what it enqueued.
  template <class Work>
  std::invoke_result_t<Work> batch(const char *what, std::uint64_t count, Work &&work) {
    const detail::drain_on_unwind drained(queue_);
    const auto step = [&] {
      return std::string(what) + " " + std::to_string(count) + " leaves on " +
             runtime_.facts().name;
    };
    return detail::in_step(step, std::forward<Work>(work));
  }

public:
  // The consistency proof (consistency.hpp) that the tree of the first old_size leaves is a prefix
  // of the tree on the device (leaves and nodes as enqueue_build wrote them, leaf_count leaves),
  // its nodes gathered in one kernel launch after `wait`. Needs a hash with consistency proofs
  // and shape promote.
  consistency_proof gather_consistency(const cl::Buffer &leaves, const cl::Buffer &nodes,
                                       std::uint64_t leaf_count, std::uint64_t old_size,
                                       const std::vector<cl::Event> &wait = {}) {
    if (auto reason = why_no_consistency_proofs(options_)) throw error(*reason);
    consistency_proof proof{options_, old_size, leaf_count, {}};
    proof.nodes =
        gather_nodes(leaves, nodes, leaf_count, consistency_positions(old_size, leaf_count), wait);
    return proof;
  }

  // Device buffers in and out: out[p] becomes the node at offsets[p] (`count` uint64) of the tree
  // on the device laid out whole, leaves first (tree_layout::level_offset(level) + index). Waits
  // for `wait`; returns the kernel's event. For gathers whose offsets are on the device already.
  std::vector<cl::Event> enqueue_gather_nodes(const cl::Buffer &leaves, const cl::Buffer &nodes,
                                              std::uint64_t leaf_count, const cl::Buffer &offsets,
                                              std::uint64_t count, const cl::Buffer &out,
                                              const std::vector<cl::Event> &wait = {}) {
    return enqueueing("proof_gather_nodes", count, [&]() -> std::vector<cl::Event> {
      check_tree_buffers(leaves, nodes, leaf_count);
      check(offsets, "offsets", count * 8);
      check(out, "out", count * node_bytes);
      cl::Kernel &k = kernel("proof_gather_nodes");
      detail::set_args(k, leaves, nodes, cl_ulong(leaf_count), offsets, cl_ulong(count), out);
      return {launch(k, count, wait)};
    });
  }

  // Whether proofs[p] shows leaves[p] in the tree of `leaf_count` leaves, built with this
  // prover's options, whose root is `root`; one kernel launch for all. A proof for another hash,
  // shape or leaf count is invalid (the prover's tree pins them), and so is one with a length
  // mixed in (verify(proof, ...) on the host checks those) or a limb of p or more.
  std::vector<bool> verify(const std::vector<inclusion_proof> &proofs,
                           const std::vector<digest> &leaves, const digest &root,
                           std::uint64_t leaf_count) {
    if (proofs.size() != leaves.size())
      throw error(std::to_string(leaves.size()) + " leaves given for " +
                  std::to_string(proofs.size()) + " proofs");
    const std::uint64_t count = proofs.size(), slots = path_slots(leaf_count);
    last_ = build_times{};
    const auto started = std::chrono::steady_clock::now();
    if (count == 0) return {};
    std::vector<std::uint64_t> indices(count);
    std::vector<cl_uint> lengths(count);
    std::vector<digest> paths(count * slots);
    for (std::uint64_t p = 0; p < count; ++p) {
      const inclusion_proof &proof = proofs[p];
      indices[p] = proof.index;
      // A list element's proof (a length mixed in) is verified on the host; a leaf or sibling
      // that is not a canonical field element is invalid (the kernel would take it mod p).
      const bool fits = detail::same_tree(proof.options, proof.leaf_count, options_, leaf_count) &&
                        proof.siblings.size() <= slots && !proof.mixed_length &&
                        detail::check_elements(options_.hash, {proof.index}, {leaves[p]}, "sibling",
                                               proof.siblings);
      lengths[p] = fits ? static_cast<cl_uint>(proof.siblings.size()) : no_proof;
      if (fits)
        std::copy(proof.siblings.begin(), proof.siblings.end(),
                  paths.begin() + static_cast<std::ptrdiff_t>(p * slots));
    }
    return batch("verifying the proofs of", count, [&] {
      return verify_paths(leaves, indices, paths, lengths, root, leaf_count, started);
    });
  }

private:
  std::vector<bool> verify_paths(const std::vector<digest> &leaves,
                                 const std::vector<std::uint64_t> &indices,
                                 const std::vector<digest> &paths,
                                 const std::vector<cl_uint> &lengths, const digest &root,
                                 std::uint64_t leaf_count,
                                 std::chrono::steady_clock::time_point started) {
    const std::uint64_t count = indices.size(), slots = path_slots(leaf_count);
    const auto staged_leaves = upload(leaves.data(), count * node_bytes, "leaves");
    const auto staged_indices = upload(indices.data(), count * 8, "indices");
    const auto staged_paths = upload(paths.data(), count * slots * node_bytes, "paths");
    const auto staged_lengths = upload(lengths.data(), count * 4, "lengths");
    const std::vector<cl::Event> uploads{staged_leaves.event, staged_indices.event,
                                         staged_paths.event, staged_lengths.event};
    const cl::Buffer valid = buffer(count * 4, "valid");
    const auto kernels =
        enqueue_verify(staged_leaves.buffer, staged_indices.buffer, staged_paths.buffer,
                       staged_lengths.buffer, count, leaf_count, root, valid, uploads);
    std::vector<cl_uint> flags(count);
    record(started, uploads, kernels, {download(valid, flags.data(), count * 4, kernels)});
    return std::vector<bool>(flags.begin(), flags.end());
  }

public:
  // Profiled times of the last gather, gather_multiproof, gather_consistency or verify
  // (kernel_launches: 1).
  const build_times &last_times() const { return last_; }

private:
  int pad_with_zero() const { return options_.shape == shape::zero; }

  // The nodes at `positions` of a tree on the device, in one launch: a multiproof's or a
  // consistency proof's. Positions outside the tree are refused before anything is enqueued.
  std::vector<digest> gather_nodes(const cl::Buffer &leaves, const cl::Buffer &nodes,
                                   std::uint64_t leaf_count,
                                   const std::vector<node_position> &positions,
                                   const std::vector<cl::Event> &wait) {
    enqueueing("proof_gather_nodes", positions.size(),
               [&] { check_tree_buffers(leaves, nodes, leaf_count); });
    last_ = build_times{};
    const auto started = std::chrono::steady_clock::now();
    if (positions.empty()) return {}; // every needed node is computed by the verifier
    const tree_layout layout(leaf_count);
    std::vector<std::uint64_t> offsets;
    for (const auto &p : positions) {
      if (p.level > layout.depth() || p.index >= layout.level_size(p.level))
        throw error("node " + std::to_string(p.index) + " of level " + std::to_string(p.level) +
                    " is not in the tree of " + std::to_string(leaf_count) + " leaves");
      offsets.push_back(layout.level_offset(p.level) + p.index);
    }
    return batch("gathering the proof nodes of a tree of", leaf_count, [&] {
      const std::uint64_t count = offsets.size();
      const auto staged = upload(offsets.data(), count * 8, "node offsets");
      const cl::Buffer out = buffer(count * node_bytes, "proof nodes");
      const auto kernels = enqueue_gather_nodes(leaves, nodes, leaf_count, staged.buffer, count,
                                                out, with(wait, staged.event));
      std::vector<digest> gathered(count);
      record(started, {staged.event}, kernels,
             {download(out, gathered.data(), count * node_bytes, kernels)});
      return gathered;
    });
  }
  void check(const cl::Buffer &b, const char *what, std::uint64_t needed) const {
    runtime_.check_buffer(b, what, needed, "device_prover", "batch");
  }

  void check_tree_buffers(const cl::Buffer &leaves, const cl::Buffer &nodes,
                          std::uint64_t leaf_count) const {
    check(leaves, "leaves", leaf_count * node_bytes);
    check(nodes, "nodes", merkleizer::output_node_count(leaf_count) * node_bytes);
  }

  cl::Kernel &kernel(const char *name) {
    auto found = kernels_.find(name);
    if (found != kernels_.end()) return found->second;
    return kernels_.emplace(name, runtime_.kernel(detail::proof_program(options_.hash), name, 1))
        .first->second;
  }

  // One launch of `count` work-items, in work-groups as large as the kernel and the tuning row
  // allow.
  cl::Event launch(const cl::Kernel &k, std::uint64_t count, const std::vector<cl::Event> &wait) {
    const std::size_t local = std::min(runtime_.tuning_row().batch_work_group_size,
                                       detail::work_group_limit(k, runtime_.device()));
    return detail::launch(queue_, k, count, local, wait);
  }

  // The zero-subtree roots of every height below the root's depth (at least one node).
  cl::Buffer zero_roots(std::uint64_t leaf_count) {
    const auto roots = zero_subtree_roots(options_.hash, root_depth(leaf_count));
    return runtime_.copy_of(roots.data(), roots.size() * node_bytes);
  }

  cl::Buffer buffer(std::uint64_t bytes, const char *what) const {
    return runtime_.buffer(bytes, std::string("too many proofs at once: the ") + what);
  }

  struct staged {
    cl::Buffer buffer;
    cl::Event event;
  };

  // A new buffer holding a copy of `bytes` of host data. The copy blocks, so nothing in flight
  // reads host memory if a later step throws.
  staged upload(const void *data, std::uint64_t bytes, const char *what) const {
    staged s{buffer(bytes, what), {}};
    detail::call("clEnqueueWriteBuffer", [&] {
      return queue_.enqueueWriteBuffer(s.buffer, CL_TRUE, 0, bytes, data, nullptr, &s.event);
    });
    return s;
  }

  // Reads a buffer into host memory after `wait`, blocking.
  cl::Event download(const cl::Buffer &b, void *data, std::uint64_t bytes,
                     const std::vector<cl::Event> &wait) const {
    cl::Event event;
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(b, CL_TRUE, 0, bytes, data, &wait, &event);
    });
    return event;
  }

  static std::vector<cl::Event> with(std::vector<cl::Event> events, const cl::Event &more) {
    events.push_back(more);
    return events;
  }

  void record(std::chrono::steady_clock::time_point started, const std::vector<cl::Event> &uploads,
              const std::vector<cl::Event> &kernels, const std::vector<cl::Event> &downloads) {
    last_.wall_ms = detail::ms_since(started);
    last_.upload_ms = events_ms(uploads);
    last_.kernel_ms = events_ms(kernels);
    last_.download_ms = events_ms(downloads);
    last_.kernel_launches = kernels.size();
  }

  detail::device_runtime runtime_;
  cl::CommandQueue queue_;
  tree_options options_;
  std::map<std::string, cl::Kernel> kernels_;
  build_times last_;
};

} // namespace merklize
