// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where a streaming build's leaves come from. A source uploads chunk c's leaves into the device
// buffer of the chunk's slot, on the upload queue, once the slot is free (`slot_free`: the
// kernels of the chunk that held it last have read it), and returns the upload's event.
#pragma once

#include "stream_memory.hpp"

#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

inline cl::Event enqueue_leaf_upload(stream_context &s, const cl::Buffer &to, const void *from,
                                     std::uint64_t count, const std::vector<cl::Event> &slot_free) {
  cl::Event uploaded;
  call("clEnqueueWriteBuffer", [&] {
    return s.queues.uploads.enqueueWriteBuffer(to, CL_FALSE, 0, count * node_bytes, from,
                                               &slot_free, &uploaded);
  });
  call("clFlush", [&] { return s.queues.uploads.flush(); });
  s.log.uploads.push_back(uploaded);
  return uploaded;
}

// Leaves in page-locked memory (a host_buffer's): uploaded straight from it.
class pinned_leaves {
public:
  pinned_leaves(stream_context &s, const std::uint8_t *leaves) : s_(s), leaves_(leaves) {}

  cl::Event upload(std::uint64_t, const chunk &ch, const cl::Buffer &to,
                   const std::vector<cl::Event> &slot_free) {
    return enqueue_leaf_upload(s_, to, leaves_ + ch.first * node_bytes, ch.count, slot_free);
  }

private:
  stream_context &s_;
  const std::uint8_t *leaves_;
};

// Leaves in pageable memory that the tree keeps in page-locked memory (its level 0): each chunk
// is copied into its place in the tree by several host threads, then uploaded from there, so the
// leaves are copied once, into the tree that keeps them, and need no other staging.
class copied_leaves {
public:
  copied_leaves(stream_context &s, const std::uint8_t *leaves, std::uint8_t *into)
      : s_(s), leaves_(leaves), into_(into) {}

  cl::Event upload(std::uint64_t, const chunk &ch, const cl::Buffer &to,
                   const std::vector<cl::Event> &slot_free) {
    std::uint8_t *place = into_ + ch.first * node_bytes;
    parallel_copy(place, leaves_ + ch.first * node_bytes, ch.count * node_bytes);
    return enqueue_leaf_upload(s_, to, place, ch.count, slot_free);
  }

private:
  stream_context &s_;
  const std::uint8_t *leaves_;
  std::uint8_t *into_;
};

// Leaves in pageable memory: copied by several host threads into page-locked staging (a buffer
// per slot, free again once its last upload is done), then uploaded from there.
class staged_leaves {
public:
  staged_leaves(stream_context &s, const std::uint8_t *leaves)
      : s_(s), leaves_(leaves), uploaded_(s.plan.slots) {}

  cl::Event upload(std::uint64_t c, const chunk &ch, const cl::Buffer &to,
                   const std::vector<cl::Event> &slot_free) {
    const unsigned slot = static_cast<unsigned>(c % s_.plan.slots);
    std::uint8_t *stage = s_.memory.up().at(slot, s_.plan.slot_leaves * node_bytes);
    if (uploaded_[slot]()) call("clWaitForEvents", [&] { return uploaded_[slot].wait(); });
    parallel_copy(stage, leaves_ + ch.first * node_bytes, ch.count * node_bytes);
    uploaded_[slot] = enqueue_leaf_upload(s_, to, stage, ch.count, slot_free);
    return uploaded_[slot];
  }

private:
  stream_context &s_;
  const std::uint8_t *leaves_;
  std::vector<cl::Event> uploaded_; // the last upload from each staging buffer
};

} // namespace detail
} // namespace merklize
