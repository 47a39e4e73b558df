// SPDX-License-Identifier: Apache-2.0 OR MIT
// A batch of leaf updates that the caller fills in place, in page-locked memory of the tree's
// context: resident_tree::update(batch, count) writes its indices and leaves to the
// device straight from there, nothing copied on the host first. The ordinary update from the
// caller's pageable memory copies the whole batch into page-locked staging before the bus can
// move it (13.4 MB for 1% of 2^25 leaves, the larger part of that call's time on the H100);
// here the caller's own writes of the batch are the only host work. The memory is reused from
// call to call: make a batch once, of the most updates a call will carry.
// resident_kary_tree::update(batch, count) takes one too, applied as its host-memory updates
// are (the indices sorted on the host, the elected values written from the batch's memory).
//
//   merklize::resident_batch b = t.make_update_batch(1 << 20);
//   for (std::uint64_t k = 0; k < count; ++k) { b.indices()[k] = ...; b.leaves()[k] = ...; }
//   merklize::digest root = t.update(b, count);
//
// The memory stays the caller's to write between calls: an update has read it when it returns.
#pragma once

#include "../plan/update_batch.hpp"
#include "../runtime/host_buffer.hpp"

#include <cstdint>
#include <string>

namespace merklize {

class resident_batch {
public:
  resident_batch() = default;

  // Room for `capacity` updates (at least one, fewer than 2^32: what one update takes) in one
  // page-locked buffer of `context`, the leaves first (32-byte aligned), the indices after them.
  resident_batch(const cl::Context &context, const cl::CommandQueue &queue, std::uint64_t capacity)
      : memory_(context, queue, bytes_for(capacity)), capacity_(capacity) {}

  std::uint64_t capacity() const { return capacity_; }
  // capacity() indices and capacity() leaves, the caller's to fill: update k is leaf
  // indices()[k] becoming leaves()[k].
  std::uint64_t *indices() {
    return reinterpret_cast<std::uint64_t *>(leaf_bytes() + leaves_end());
  }
  const std::uint64_t *indices() const {
    return reinterpret_cast<const std::uint64_t *>(leaf_bytes() + leaves_end());
  }
  digest *leaves() { return reinterpret_cast<digest *>(leaf_bytes()); }
  const digest *leaves() const { return reinterpret_cast<const digest *>(leaf_bytes()); }

  // Whether the memory is page-locked memory of `context` (a tree of another context refuses
  // the batch).
  bool of_context(const cl::Context &context) const {
    return is_page_locked(context, memory_.data(), memory_.size());
  }

  // Refuses an update of `count` updates from this batch by a tree of `context`: a batch of
  // another context, or more updates than its room, before anything is written.
  void check_use(const cl::Context &context, std::uint64_t count) const {
    if (!of_context(context))
      throw error("update: the batch is not page-locked memory of this tree's context; make it "
                  "with make_update_batch");
    if (count > capacity_)
      throw error("update: " + std::to_string(count) + " updates from a batch of room for " +
                  std::to_string(capacity_));
  }

private:
  static std::size_t bytes_for(std::uint64_t capacity) {
    if (capacity == 0 || capacity >= detail::max_sorted_leaves)
      throw error("update batch: a capacity of " + std::to_string(capacity) +
                  " updates; a batch holds 1 to 2^32 - 1 updates");
    return static_cast<std::size_t>(capacity * (node_bytes + sizeof(std::uint64_t)));
  }
  std::uint8_t *leaf_bytes() const { return memory_.data(); }
  std::uint64_t leaves_end() const { return capacity_ * node_bytes; }

  host_buffer memory_; // shared by copies: a copy of a batch is the same batch
  std::uint64_t capacity_ = 0;
};

} // namespace merklize
