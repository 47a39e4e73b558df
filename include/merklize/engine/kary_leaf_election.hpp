// SPDX-License-Identifier: Apache-2.0 OR MIT
// A k-ary resident tree's large batch, with no plan on the host (resident_kary_tree.hpp, issue
// 31). Planning a batch sorts its indices and lists each level's dirty groups on the host: some
// 20-60 ns an update on 16 cores, where the device hashes every level of a tree whole, as a
// build does, in about 0.06 ns a leaf (an H100, blake3 at arity 16: 1 ms for 2^24 leaves). So
// past a share of the leaves (the tuning row's kary_elect_per_mille) the batch goes to the
// device as given: its raw indices and leaves uploaded (or read where they are, in the caller's
// buffers), update_elect.cl electing each leaf's last value and writing it, and the caller then
// hashes every level whole. An index outside the tree is found by update_elect (the host's
// batches are checked before, the device's are not read back), and then nothing is written:
// bad_update() says which, once the root has been read.
//
// Device memory: a uint a leaf the tree has room for (winner[], zero between calls), made on the
// first elected batch and again when appends grow the room; a host batch's indices and leaves.
#pragma once

#include "../runtime/buffers.hpp"
#include "../runtime/kernel_call.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/runtime.hpp"

#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

class kary_leaf_election {
public:
  kary_leaf_election(const device_runtime &runtime, std::size_t local)
      : local_(local), elect_(runtime.kernel(kary_listed_program(), "update_elect", local)),
        write_(runtime.kernel(kary_listed_program(), "update_write_elected", local)),
        reset_(runtime.kernel(kary_listed_program(), "update_reset", local)) {}

  // Whether a batch of `count` updates to a tree of `leaves` leaves is elected on the device:
  // at least per_mille of them a thousand leaves (0: never).
  static bool chosen(std::uint64_t count, std::uint64_t leaves, unsigned per_mille) {
    return per_mille > 0 && count > 0 && count * 1000 >= leaves * per_mille;
  }

  // A host batch's `count` indices and count x 32 bytes of leaves written into this election's
  // buffers, not waited for; the first write's event.
  cl::Event upload(const cl::Context &context, const cl::CommandQueue &queue,
                   const std::uint64_t *indices, const void *leaves, std::uint64_t count) {
    grow_buffer(context, indices_, indices_bytes_, count * sizeof(cl_ulong));
    grow_buffer(context, values_, values_bytes_, count * node_bytes);
    cl::Event first;
    call("clEnqueueWriteBuffer", [&] {
      return queue.enqueueWriteBuffer(indices_, CL_FALSE, 0, count * sizeof(cl_ulong), indices,
                                      nullptr, &first);
    });
    call("clEnqueueWriteBuffer", [&] {
      return queue.enqueueWriteBuffer(values_, CL_FALSE, 0, count * node_bytes, leaves);
    });
    return first;
  }
  const cl::Buffer &indices() const { return indices_; }
  const cl::Buffer &values() const { return values_; }

  // The batch's `count` updates (`indices`, cl_ulong; `values`, 32 bytes each) elected and the
  // winners written into `leaves` (leaf_count of them, room for `capacity`), after every command
  // enqueued before (one in-order queue).
  void enqueue(const cl::Context &context, const cl::CommandQueue &queue, const cl::Buffer &leaves,
               std::uint64_t leaf_count, std::uint64_t capacity, const cl::Buffer &indices,
               const cl::Buffer &values, std::uint64_t count) {
    if (!state_()) state_ = create_buffer(context, sizeof(cl_uint));
    if (capacity > winner_leaves_) { // winner[] for every leaf the tree has room for, zero
      winner_leaves_ = 0;            // until it is made and filled: a failure leaves none
      winner_ = cl::Buffer();
      winner_ = create_buffer(context, capacity * sizeof(cl_uint));
      fill(queue, winner_, capacity * sizeof(cl_uint));
      winner_leaves_ = capacity;
    }
    fill(queue, state_, sizeof(cl_uint));
    const cl_ulong n = leaf_count;
    set_args(elect_, indices, cl_ulong(count), n, winner_, state_);
    launch(queue, elect_, count, local_, {});
    set_args(write_, leaves, values, indices, cl_ulong(count), n, winner_, state_);
    launch(queue, write_, count, local_, {});
    set_args(reset_, indices, cl_ulong(count), n, winner_);
    launch(queue, reset_, count, local_, {});
    call("clEnqueueReadBuffer", [&] {
      return queue.enqueueReadBuffer(state_, CL_FALSE, 0, sizeof(cl_uint), &bad_);
    }); // the caller's blocking read of the root waits for it (one in-order queue)
  }

  // After the call's root was read: 0, or the position + 1 of an update whose index was outside
  // the tree (then nothing was written).
  cl_uint bad_update() const { return bad_; }

private:
  static cl::Buffer create_buffer(const cl::Context &context, std::uint64_t bytes) {
    return create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context, CL_MEM_READ_WRITE, bytes, nullptr, err);
    });
  }

  static void fill(const cl::CommandQueue &queue, const cl::Buffer &buffer, std::uint64_t bytes) {
    call("clEnqueueFillBuffer",
         [&] { return queue.enqueueFillBuffer(buffer, cl_uint(0), 0, bytes); });
  }

  std::size_t local_;
  cl::Kernel elect_, write_, reset_;
  cl::Buffer winner_, state_, indices_, values_;
  std::uint64_t winner_leaves_ = 0, indices_bytes_ = 0, values_bytes_ = 0;
  cl_uint bad_ = 0;
};

} // namespace detail
} // namespace merklize
