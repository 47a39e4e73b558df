// SPDX-License-Identifier: Apache-2.0 OR MIT
// The multiproof of a batch's leaves in a k-ary tree kept on the device
// (resident_kary_tree::update_proved): visit_kary_multiproof's nodes gathered on the device by
// kary_listed.cl's kary_gather in groups of one child, kary_prove_multi's proof bit for bit.
//
// Cost, whatever the batch: the places uploaded in one write, one launch for the leaves (their
// own buffer) and one for the levels above (one buffer, back to back), one read of each, waited
// for once: five commands, none where there is nothing to gather. Shape zero's zero-subtree
// roots come from the host. A read per group (device_tree::read_groups) would cost a command per
// group, a few hundred thousand for 1% of 2^25 leaves.
#pragma once

#include "../proofs/kary_proof_places.hpp"
#include "../runtime/buffers.hpp"
#include "../runtime/kernel_call.hpp"
#include "../runtime/queue_drain.hpp"
#include "device_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

class kary_multiproof_gatherer {
public:
  // The nodes of the multiproof of `sorted` (strictly increasing leaves of `tree`, of
  // `options`) in proof order (visit_kary_multiproof's), by `gather` (kary_gather) on `queue`;
  // zeros[l]: the zero-subtree root of height l.
  std::vector<digest> gather(const cl::Context &context, const cl::CommandQueue &queue,
                             cl::Kernel &gather, std::size_t local, const device_tree &tree,
                             const std::vector<digest> &zeros, const kary_options &options,
                             const std::vector<std::uint64_t> &sorted) {
    // Proof order climbs from the leaves: the leaves' places come first, those above after.
    // Each is gathered from its own buffer and read straight into the front of `nodes`; shape
    // zero's zero-subtree roots, which take no place, are spread in after (a copy of the proof
    // through vectors of its own would fault in as much fresh memory again: 64 MiB a million
    // nodes). A leaf's place counts from the leaves' first node in their buffer; a node above,
    // from the start of the one buffer that holds every level above, back to back.
    list_kary_proof_places(places_, options, tree.level_sizes(), sorted,
                           [&](unsigned level) { return tree.level_first(level); });
    const std::vector<std::uint64_t> &list = places_.list;
    const std::size_t below = places_.below;
    std::vector<digest> nodes(places_.total);
    if (list.empty()) {
      spread_kary_zeros(nodes, places_, zeros);
      return nodes;
    }
    const std::size_t above = list.size() - below;
    grow_buffer(context, list_, list_bytes_, list.size() * sizeof(cl_ulong));
    grow_buffer(context, below_, below_bytes_, std::max<std::size_t>(below, 1) * node_bytes);
    grow_buffer(context, above_, above_bytes_, std::max<std::size_t>(above, 1) * node_bytes);
    const drain_on_unwind drained(queue); // no read may outlive the host's vectors
    call("clEnqueueWriteBuffer", [&] {
      return queue.enqueueWriteBuffer(list_, CL_FALSE, 0, list.size() * sizeof(cl_ulong),
                                      list.data());
    });
    enqueue(queue, gather, local, {tree.level_buffer(0), tree.level_first(0)}, {0, below}, below_,
            nodes.data());
    if (above > 0) // a tree of one leaf has no level above
      enqueue(queue, gather, local, {tree.level_buffer(1), 0}, {below, above}, above_,
              nodes.data() + below);
    call("clFinish", [&] { return queue.finish(); });
    spread_kary_zeros(nodes, places_, zeros);
    return nodes;
  }

private:
  struct source {
    const cl::Buffer &buffer;
    std::uint64_t first; // the node the list's places count from
  };
  struct span {
    std::size_t first, count; // places list[first .. first + count)
  };

  // The nodes at `places` of `from` gathered into `out` and read back into `into`, not waited
  // for; nothing where there are none.
  void enqueue(const cl::CommandQueue &queue, cl::Kernel &gather, std::size_t local,
               const source &from, span places, const cl::Buffer &out, digest *into) {
    if (places.count == 0) return;
    set_args(gather, from.buffer, cl_ulong(from.first), list_, cl_ulong(places.first),
             cl_ulong(places.count), cl_uint(1), out);
    launch(queue, gather, places.count, local, {});
    call("clEnqueueReadBuffer", [&] {
      return queue.enqueueReadBuffer(out, CL_FALSE, 0, places.count * node_bytes, into);
    });
  }

  cl::Buffer list_, below_, above_; // the places; the nodes gathered from each buffer
  kary_proof_places places_;        // the last proof's places, their memory kept
  std::uint64_t list_bytes_ = 0, below_bytes_ = 0, above_bytes_ = 0;
};

} // namespace detail
} // namespace merklize
