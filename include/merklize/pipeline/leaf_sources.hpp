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

// Leaves in pageable memory that the tree keeps (its level 0): each chunk is copied into its place
// in the tree by several host threads, then uploaded from there. Where that place is page-locked
// (the pool's memory) the leaves are copied once, into the tree that keeps them, with no other
// staging; where it is ordinary memory (a first build, before the pool has pinned any) the chunk
// goes on through the staging ring (staged_leaves), read from the caches it was just copied to.
class copied_leaves {
public:
  copied_leaves(stream_context &s, const std::uint8_t *leaves, std::uint8_t *into, bool staged)
      : s_(s), leaves_(leaves), into_(into), staged_(s, into), stage_(staged) {}

  cl::Event upload(std::uint64_t c, const chunk &ch, const cl::Buffer &to,
                   const std::vector<cl::Event> &slot_free) {
    std::uint8_t *place = into_ + ch.first * node_bytes;
    parallel_copy(place, leaves_ + ch.first * node_bytes, ch.count * node_bytes);
    if (stage_) return staged_.upload(c, ch, to, slot_free);
    return enqueue_leaf_upload(s_, to, place, ch.count, slot_free);
  }

private:
  stream_context &s_;
  const std::uint8_t *leaves_;
  std::uint8_t *into_;
  staged_leaves staged_;
  bool stage_;
};

} // namespace detail
} // namespace merklize
