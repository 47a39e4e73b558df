// SPDX-License-Identifier: Apache-2.0 OR MIT
// The multiproof of a batch's leaves in a tree kept on the device (resident_tree::update_proved):
// the places of its nodes in the tree (visit_multiproof's, listed straight from its visits in
// one climb) uploaded, the nodes gathered into one buffer by proof.cl's proof_gather_nodes in one
// launch and read back with them, prove_multi's proof bit for bit. Its kernel is built on first
// use, its buffers kept for the next.
#pragma once

#include "../proofs/proof_model.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/queue_drain.hpp"
#include "device_tree.hpp"
#include "tree_updater.hpp"

#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

class multiproof_gatherer {
public:
  // The multiproof of leaves `sorted` (sorted, once each) of `tree`, its levels laid out for
  // `capacity` leaves, on `queue`; its commands appended to `events`.
  multiproof gather(const device_runtime &runtime, const cl::CommandQueue &queue,
                    const device_tree &tree, const tree_options &options, std::uint64_t capacity,
                    std::size_t local, const std::vector<std::uint32_t> &sorted,
                    update_events &events) {
    multiproof proof{options, tree.leaf_count(), {sorted.begin(), sorted.end()}, {}};
    if (proof.indices.empty()) return proof;
    // The places straight from the planner's visits, one climb into memory kept from call to
    // call: a leaf's in the leaves' buffer, a node above's in the levels' buffer laid out for
    // `capacity`.
    std::vector<std::uint64_t> &offsets = offsets_host_;
    list_visits_into(
        offsets, multiproof_bound(tree.leaf_count(), proof.indices.size()),
        [&](const auto &visit) { visit_multiproof(tree.leaf_count(), proof.indices, visit); },
        [&](unsigned level, std::uint64_t index) {
          return level == 0 ? index : capacity + tree.level_first(level) + index;
        });
    if (offsets.empty()) return proof; // one leaf: nothing to prove it with
    if (!gather_())
      gather_ = runtime.kernel(proof_program(options.hash), "proof_gather_nodes", local);
    const std::uint64_t count = offsets.size();
    const drain_on_unwind drained(queue);
    runtime.grow(offsets_, offsets_bytes_, count * sizeof(cl_ulong));
    runtime.grow(nodes_, nodes_bytes_, count * node_bytes);
    cl::Event written, read;
    call("clEnqueueWriteBuffer", [&] {
      return queue.enqueueWriteBuffer(offsets_, CL_FALSE, 0, count * sizeof(cl_ulong),
                                      offsets.data(), nullptr, &written);
    });
    events.transfers.push_back(written);
    set_args(gather_, tree.level_buffer(0), tree.level_buffer(1), cl_ulong(capacity), offsets_,
             cl_ulong(count), nodes_);
    events.kernels.push_back(launch(queue, gather_, count, local, {}));
    proof.nodes.resize(static_cast<std::size_t>(count));
    call("clEnqueueReadBuffer", [&] {
      return queue.enqueueReadBuffer(nodes_, CL_TRUE, 0, count * node_bytes, proof.nodes.data(),
                                     nullptr, &read);
    });
    events.transfers.push_back(read);
    return proof;
  }

  // Device memory its buffers hold: the largest multiproof's places and nodes.
  std::uint64_t device_bytes() const { return offsets_bytes_ + nodes_bytes_; }

private:
  cl::Kernel gather_;
  cl::Buffer offsets_, nodes_;              // where the nodes are; the nodes gathered
  std::vector<std::uint64_t> offsets_host_; // the last proof's places, their memory kept
  std::uint64_t offsets_bytes_ = 0, nodes_bytes_ = 0;
};

} // namespace detail
} // namespace merklize
