// SPDX-License-Identifier: Apache-2.0 OR MIT
// The multiproof of a batch's leaves in a k-ary tree kept on the device
// (resident_kary_tree::update_proved): kary_multiproof_positions's nodes gathered on the device
// by kary_listed.cl's kary_gather in groups of one child, kary_prove_multi's proof bit for bit.
//
// Cost, whatever the batch: the places uploaded in one write, one launch for the leaves (their
// own buffer) and one for the levels above (one buffer, back to back), one read of each, waited
// for once: five commands, none where there is nothing to gather. Shape zero's zero-subtree
// roots come from the host. A read per group (device_tree::read_groups) would cost a command per
// group, a few hundred thousand for 1% of 2^25 leaves.
#pragma once

#include "../proofs/kary_multiproof.hpp"
#include "../runtime/buffers.hpp"
#include "../runtime/kernel_call.hpp"
#include "../runtime/queue_drain.hpp"
#include "device_tree.hpp"

#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

class kary_multiproof_gatherer {
public:
  // The nodes at `positions` (kary_multiproof_positions's over `tree`) in their order, by
  // `gather` (kary_gather) on `queue`; zeros[l]: the zero-subtree root of height l.
  std::vector<digest> gather(const cl::Context &context, const cl::CommandQueue &queue,
                             cl::Kernel &gather, std::size_t local, const device_tree &tree,
                             const std::vector<digest> &zeros,
                             const std::vector<node_position> &positions) {
    std::vector<digest> nodes(positions.size());
    std::vector<std::uint64_t> list;       // the leaves' places, then those above, in nodes_
    std::vector<std::size_t> below, above; // where each gathered node goes in `nodes`
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const node_position &p = positions[i];
      if (p.index >= tree.level_sizes()[p.level])
        nodes[i] = zeros[p.level];
      else
        (p.level == 0 ? below : above).push_back(i);
    }
    for (const std::size_t i : below)
      list.push_back(positions[i].index);
    for (const std::size_t i : above)
      list.push_back(tree.level_first(positions[i].level) + positions[i].index);
    if (list.empty()) return nodes;
    grow_buffer(context, list_, list_bytes_, list.size() * sizeof(cl_ulong));
    grow_buffer(context, below_, below_bytes_, std::max<std::size_t>(below.size(), 1) * node_bytes);
    grow_buffer(context, above_, above_bytes_, std::max<std::size_t>(above.size(), 1) * node_bytes);
    std::vector<digest> read_below(below.size()), read_above(above.size());
    const drain_on_unwind drained(queue); // no read may outlive the host's vectors
    call("clEnqueueWriteBuffer", [&] {
      return queue.enqueueWriteBuffer(list_, CL_FALSE, 0, list.size() * sizeof(cl_ulong),
                                      list.data());
    });
    enqueue(queue, gather, local, {tree.level_buffer(0), tree.level_first(0)}, 0, below_,
            read_below);
    if (!above.empty()) // a tree of one leaf has no level above
      enqueue(queue, gather, local, {tree.level_buffer(1), 0}, below.size(), above_, read_above);
    call("clFinish", [&] { return queue.finish(); });
    for (std::size_t j = 0; j < below.size(); ++j)
      nodes[below[j]] = read_below[j];
    for (std::size_t j = 0; j < above.size(); ++j)
      nodes[above[j]] = read_above[j];
    return nodes;
  }

private:
  struct source {
    const cl::Buffer &buffer;
    std::uint64_t first; // the node the list's places count from
  };

  // The nodes at places list[first..first + into.size()) of `from` gathered into `out` and read
  // back into `into`, not waited for; nothing where `into` is empty.
  void enqueue(const cl::CommandQueue &queue, cl::Kernel &gather, std::size_t local,
               const source &from, std::uint64_t first, const cl::Buffer &out,
               std::vector<digest> &into) {
    if (into.empty()) return;
    set_args(gather, from.buffer, cl_ulong(from.first), list_, cl_ulong(first),
             cl_ulong(into.size()), cl_uint(1), out);
    launch(queue, gather, into.size(), local, {});
    call("clEnqueueReadBuffer", [&] {
      return queue.enqueueReadBuffer(out, CL_FALSE, 0, into.size() * node_bytes, into.data());
    });
  }

  cl::Buffer list_, below_, above_; // the places; the nodes gathered from each buffer
  std::uint64_t list_bytes_ = 0, below_bytes_ = 0, above_bytes_ = 0;
};

} // namespace detail
} // namespace merklize
