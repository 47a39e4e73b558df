// SPDX-License-Identifier: Apache-2.0 OR MIT
// A snapshot of a resident_tree or resident_kary_tree: a copy on the device of its
// buffers, its leaves and its levels (laid out for the room it had then), and its leaf count,
// room and root, so that the tree's rollback can restore it bit for bit, undoing the updates and
// appends made since. Nothing crosses the bus: the copies are clEnqueueCopyBuffer's, device to
// device, at the device memory's speed (2 GiB, a tree of 2^25 leaves, in about a millisecond on an
// H100), and the snapshot holds as much device memory as the tree did when it was taken.
//
//   merklize::resident_snapshot s = t.snapshot();
//   t.update(indices, leaves);
//   t.append(more);
//   t.rollback(s); // t's leaves, levels, size, root and proofs as they were at t.snapshot()
//
// A snapshot belongs to the tree it was taken of (a tree moved keeps its snapshots; another
// tree, of either kind, any arity or shape, refuses them) and may be rolled back to any number of
// times.
#pragma once

#include "../runtime/error.hpp"
#include "../runtime/runtime.hpp"
#include "tree_health.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace merklize {

class resident_tree;
class resident_kary_tree;

namespace detail {

// A number no other resident tree (binary or k-ary) of the process has: what a snapshot knows its
// tree by.
inline std::uint64_t next_resident_tree_id() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

} // namespace detail

class resident_snapshot {
public:
  resident_snapshot() = default;

  std::uint64_t leaf_count() const { return count_; }
  const digest &root() const { return root_; }
  // The device memory it holds: the tree's buffers' when it was taken.
  std::uint64_t device_bytes() const { return bytes_of(copy_.leaves) + bytes_of(copy_.nodes); }

private:
  friend class resident_tree;
  friend class resident_kary_tree;

  // A tree's leaves (level 0, room for its capacity) and levels above them (none for one leaf).
  struct tree_buffers {
    cl::Buffer leaves, nodes;
  };

  // A copy of `from`, the buffers of the tree `tree` of `count` leaves in room for `capacity`,
  // its root `root`, made on `queue` and waited for, so that a device without room for it
  // refuses here.
  resident_snapshot(std::uint64_t tree, const detail::device_runtime &runtime,
                    const cl::CommandQueue &queue, const tree_buffers &from, std::uint64_t count,
                    std::uint64_t capacity, const digest &root)
      : tree_(tree), count_(count), capacity_(capacity), root_(root) {
    detail::in_step(
        [&] {
          return "taking a snapshot of the tree of " + std::to_string(count) + " leaves (" +
                 std::to_string(bytes_of(from.leaves) + bytes_of(from.nodes)) +
                 " bytes of device memory more) on " + detail::name_in_message(runtime.device());
        },
        [&] { copy_ = copies(runtime, queue, from, "a snapshot of the tree"); });
  }

  // The tree's buffers as they were, copied into `into` where they have the same sizes, else
  // into new buffers that replace `into` (the tree's room has changed since). Refuses a
  // snapshot of another tree before anything is written; tells `health` before it writes the
  // tree's own buffers (a failure then leaves the tree unusable; new buffers leave it whole).
  void restore(std::uint64_t tree, const detail::device_runtime &runtime,
               const cl::CommandQueue &queue, tree_buffers &into,
               detail::tree_health &health) const {
    if (tree != tree_)
      throw error(tree_ == 0 ? "rollback: an empty snapshot; take one with snapshot()"
                             : "rollback: the snapshot is of another tree");
    detail::in_step(
        [&] {
          return "rolling the tree back to its snapshot of " + std::to_string(count_) +
                 " leaves on " + detail::name_in_message(runtime.device());
        },
        [&] {
          if (bytes_of(into.leaves) != bytes_of(copy_.leaves) ||
              bytes_of(into.nodes) != bytes_of(copy_.nodes)) {
            into = copies(runtime, queue, copy_, "the tree rolled back");
            return;
          }
          health.writing();
          copy(queue, copy_.leaves, into.leaves);
          copy(queue, copy_.nodes, into.nodes);
          detail::call("clFinish", [&] { return queue.finish(); });
        });
  }

  // A buffer's size; a failed query refused (read as 0 it would pick the wrong restore).
  static std::uint64_t bytes_of(const cl::Buffer &b) {
    std::size_t size = 0;
    if (b()) detail::call("clGetMemObjectInfo", [&] { return b.getInfo(CL_MEM_SIZE, &size); });
    return size;
  }

  static void copy(const cl::CommandQueue &queue, const cl::Buffer &from, const cl::Buffer &to) {
    if (!from()) return;
    detail::call("clEnqueueCopyBuffer",
                 [&] { return queue.enqueueCopyBuffer(from, to, 0, 0, bytes_of(from)); });
  }

  // New buffers of `from`'s sizes holding copies of them, waited for.
  static tree_buffers copies(const detail::device_runtime &runtime, const cl::CommandQueue &queue,
                             const tree_buffers &from, const std::string &what) {
    tree_buffers to;
    to.leaves = runtime.buffer(bytes_of(from.leaves), what + "'s leaves");
    if (from.nodes()) to.nodes = runtime.buffer(bytes_of(from.nodes), what + "'s levels");
    copy(queue, from.leaves, to.leaves);
    copy(queue, from.nodes, to.nodes);
    detail::call("clFinish", [&] { return queue.finish(); });
    return to;
  }

  std::uint64_t tree_ = 0; // detail::next_resident_tree_id's number of the tree; 0: none
  std::uint64_t count_ = 0, capacity_ = 0;
  digest root_{};
  tree_buffers copy_;
};

} // namespace merklize
