// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_device_tree: the C ABI of resident_tree (engine/resident_tree.hpp), a binary tree
// kept on the device and updated in place, and of resident_kary_tree (arity k: all but
// prove_consistency, RFC 6962's, which is refused by name; its update_proved gives a k-ary
// multiproof). The handle owns a block_hasher of its own (its queue, its programs) on the
// builder's device state, so that it outlives the builder and the device and its commands never
// wait behind theirs; a mutex serialises its calls, since an update or an append changes the tree.
// resident_tree refuses a bad batch or append before it asks the device anything, and the checks
// here of the C arguments come before it, so a refused call leaves the tree as it was; a call
// that fails later is undone, or leaves the tree unusable, every later call refused
// (MERKLIZE_ERROR_UNUSABLE: engine/tree_health.hpp).
#include "device_tree.hpp"
#include "cl_events.hpp"

#include <cstring>

namespace merklize_capi {
namespace {

// The configurations resident_tree and resident_kary_tree keep: trees of 32-byte leaves, the
// root the tree's.
void check_resident(const tree_settings &s) {
  const char *what = s.blocks()             ? "config.leaf_size is not 0"
                     : s.spec.mix_in_length ? "config.mix_in_length is set"
                                            : nullptr;
  if (what)
    throw argument_error(std::string("merklize_device_tree_create: ") + what +
                         ": a tree kept on the device is a tree of 32-byte leaves whose root is "
                         "the tree's (leaf_size 0, no mix_in_length)");
}

// The binary tree under its mutex, for `body`, which returns nothing and throws on failure; a
// k-ary tree refused.
template <class Body>
merklize_status locked(merklize_device_tree *tree, const char *function, Body &&body) {
  return guarded([&] {
    merklize_device_tree &t = required(tree, function, "tree");
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.check_usable(function);
    body(t.binary(function));
  });
}

// The same for calls that either tree takes: `body` called with the binary or the k-ary tree.
template <class Body>
merklize_status locked_either(merklize_device_tree *tree, const char *function, Body &&body) {
  return guarded([&] {
    merklize_device_tree &t = required(tree, function, "tree");
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.check_usable(function);
    t.either(body);
  });
}

// The most leaves a tree may hold, and the most updates one batch of it takes: resident_tree
// holds 2^depth leaves for a fixed depth below 32, else 2^32, and elects a leaf's last update by
// its position + 1, a 32-bit number (fewer than 2^32 updates); resident_kary_tree holds and takes
// 2^32 (its sort's 32-bit indices).
std::uint64_t most_leaves(const tree_settings &s) {
  return s.kary() ? detail::max_sorted_leaves : detail::resident_leaf_limit(s.tree());
}
std::uint64_t most_updates(const resident_tree &) { return detail::max_sorted_leaves - 1; }
std::uint64_t most_updates(const resident_kary_tree &) { return detail::max_sorted_leaves; }

// Refuses a batch of more updates than the tree takes, before the caller's indices or leaves are
// read, checked or copied (a count of 2^62 is refused at once, not after copying 2^62 leaves).
template <class Tree> void check_update_count(const Tree &t, uint64_t count, const char *function) {
  if (count > most_updates(t))
    throw argument_error(std::string(function) + ": count is " + std::to_string(count) +
                         ": a batch of this tree holds at most " + std::to_string(most_updates(t)) +
                         " updates");
}

// The same for an append past what the tree may hold: the trees' own check, made before the
// caller's leaves are read (their field check). A k-ary tree's bound is the 2^32 of a tree of no
// fixed depth.
void check_append_count(const resident_tree &t, uint64_t count) {
  detail::check_resident_append(t.leaf_count(), count, t.options());
}
void check_append_count(const resident_kary_tree &t, uint64_t count) {
  detail::check_resident_append(t.leaf_count(), count, tree_options{});
}

// A batch's pointers (NULL refused only where there is something to read), and its leaves as the
// tree's hash takes them.
void check_batch(hash_kind hash, const uint64_t *indices, const void *leaves, uint64_t count,
                 const char *function) {
  if (count == 0) return;
  required(indices, function, "indices");
  required(leaves, function, "leaves");
  check_field_leaves(hash, leaves, count, "leaves");
}

void write_root(uint8_t *root, const digest &d) {
  if (root) std::memcpy(root, d.data(), d.size());
}

// Level `level`'s node count, or a refusal naming the levels the tree has.
std::uint64_t level_size(const device_tree &d, uint32_t level, const char *function) {
  if (level > d.top())
    throw argument_error(std::string(function) + ": level " + std::to_string(level) +
                         " out of range: the tree has levels 0.." + std::to_string(d.top()));
  return d.level_sizes()[level];
}

// Leaves in a device buffer of a hash that takes field elements only, read back (after `wait`,
// which is then done with) and checked on the host before the device writes anything; other
// hashes' leaves are never read here.
void check_device_leaves(merklize_device_tree &t, const cl::Buffer &leaves, std::uint64_t count,
                         std::vector<cl::Event> &wait, const char *function) {
  const hash_kind hash = t.either([](const auto &tree) { return tree.options().hash; });
  if (count == 0 || !row_of(hash).non_canonical) return;
  detail::check_buffer(t.device->context, leaves, "the leaves", count * node_bytes, "tree",
                       function);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(count * node_bytes));
  detail::call("clEnqueueReadBuffer", [&] {
    return t.hasher->queue().enqueueReadBuffer(leaves, CL_TRUE, 0, bytes.size(), bytes.data(),
                                               wait.empty() ? nullptr : &wait);
  });
  wait.clear();
  check_field_leaves(hash, bytes.data(), count, "leaves");
}

// A call of `count` updates or leaves on the caller's buffers: the handle under its mutex for
// `body`, which returns the new root; *done (if asked for) a marker of the tree's queue after the
// call's commands and `wait`, complete on return where count > 0 (the tree read its root, so
// it is done with the buffers), else only flushed (the caller's events may still be pending).
// A marker that fails once the tree has changed leaves it unusable: the call failed.
template <class Body>
merklize_status on_buffers(merklize_device_tree *tree, const char *function, uint64_t count,
                           uint32_t wait_count, struct _cl_event *const *wait,
                           struct _cl_event **done, uint8_t *root, Body &&body) {
  return guarded([&] {
    merklize_device_tree &t = required(tree, function, "tree");
    std::vector<cl::Event> waits = events_of(wait_count, wait, function);
    const std::lock_guard<std::mutex> lock(t.mutex);
    t.check_usable(function);
    t.health.change(
        function,
        [&] {
          const digest new_root = body(t, waits);
          if (count > 0) t.health.writing();
          const cl::CommandQueue &queue = t.hasher->queue();
          cl::Event marker;
          detail::call("clEnqueueMarkerWithWaitList", [&] {
            return queue.enqueueMarkerWithWaitList(waits.empty() ? nullptr : &waits, &marker);
          });
          detail::call("clFlush", [&] { return queue.flush(); });
          if (count > 0) detail::call("clWaitForEvents", [&] { return marker.wait(); });
          give_event(marker, done);
          write_root(root, new_root);
        },
        [] {}); // the tree's own call undid itself
  });
}

// Whether the tree is usable; if not, this thread's last error says why (for the calls that
// return a count, not a status).
bool usable(const merklize_device_tree &t, const char *function) {
  try {
    t.check_usable(function);
    return true;
  } catch (const std::exception &e) {
    set_last_error(e.what());
    return false;
  }
}

// The caller's buffer, NULL refused where count > 0 (a count of 0 reads no buffer).
cl::Buffer caller_buffer(struct _cl_mem *buffer, uint64_t count, const char *function,
                         const char *name) {
  if (count == 0) return {};
  return cl::Buffer(&required(buffer, function, name), true);
}

} // namespace
} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

merklize_status merklize_device_tree_create(merklize_builder *builder, const void *leaves,
                                            uint64_t size, merklize_device_tree **tree) {
  return guarded([&] {
    merklize_builder &b = required(builder, "merklize_device_tree_create", "builder");
    required(tree, "merklize_device_tree_create", "tree");
    if (size > 0) required(leaves, "merklize_device_tree_create", "leaves");
    check_resident(b.settings);
    for_field("leaves", [&] { leaf_count_of(size); }); // whole leaves, at least one
    if (size / node_bytes > most_leaves(b.settings))
      throw argument_error("merklize_device_tree_create: size is " + std::to_string(size) +
                           " bytes, " + std::to_string(size / node_bytes) +
                           " leaves: the tree "
                           "may hold " +
                           std::to_string(most_leaves(b.settings)));
    check_field_leaves(b.settings.tree().hash, leaves, size / node_bytes, "leaves");
    *tree = new merklize_device_tree(b.device, b.settings, leaves, size);
  });
}

void merklize_device_tree_free(merklize_device_tree *tree) {
  free_handle(tree, "merklize_device_tree_free", "tree");
}

merklize_status merklize_device_tree_root(merklize_device_tree *tree,
                                          uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  return locked_either(tree, "merklize_device_tree_root", [&](const auto &t) {
    write_root(&required(root, "merklize_device_tree_root", "root"), t.root());
  });
}

uint64_t merklize_device_tree_leaf_count(const merklize_device_tree *tree) {
  const auto *t = live_or_null(tree, "merklize_device_tree_leaf_count", "tree");
  if (!t) return 0;
  const std::lock_guard<std::mutex> lock(t->mutex); // an append changes it
  if (!usable(*t, "merklize_device_tree_leaf_count")) return 0;
  return t->either([](const auto &either) { return either.leaf_count(); });
}

uint32_t merklize_device_tree_depth(const merklize_device_tree *tree) {
  const auto *t = live_or_null(tree, "merklize_device_tree_depth", "tree");
  if (!t) return 0;
  const std::lock_guard<std::mutex> lock(t->mutex);
  if (!usable(*t, "merklize_device_tree_depth")) return 0;
  return t->either([](const auto &either) { return either.on_device().top(); });
}

merklize_status merklize_device_tree_update(merklize_device_tree *tree, const uint64_t *indices,
                                            const void *leaves, uint64_t count,
                                            uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  return locked_either(tree, "merklize_device_tree_update", [&](auto &t) {
    check_update_count(t, count, "merklize_device_tree_update");
    check_batch(t.options().hash, indices, leaves, count, "merklize_device_tree_update");
    write_root(root, t.update(indices, leaves, count));
  });
}

merklize_status merklize_device_tree_update_proved(merklize_device_tree *tree,
                                                   const uint64_t *indices, const void *leaves,
                                                   uint64_t count,
                                                   uint8_t root[MERKLIZE_DIGEST_SIZE],
                                                   merklize_proof **proof) {
  return locked_either(tree, "merklize_device_tree_update_proved", [&](auto &t) {
    required(proof, "merklize_device_tree_update_proved", "proof");
    check_update_count(t, count, "merklize_device_tree_update_proved");
    check_batch(t.options().hash, indices, leaves, count, "merklize_device_tree_update_proved");
    const std::vector<std::uint64_t> batch(indices, indices + count);
    tree->health.change(
        "merklize_device_tree_update_proved",
        [&] {
          auto [new_root, multi] = t.update_proved(batch, digests_of(leaves, count));
          if (count > 0) tree->health.writing(); // the tree updated: the proof's handle must follow
          auto handle = proof_handle(std::move(multi));
          write_root(root, new_root);
          *proof = handle.release();
        },
        [] {}); // the tree's own call undid itself
  });
}

merklize_status merklize_device_tree_prove(merklize_device_tree *tree, uint64_t index,
                                           merklize_proof **proof) {
  return locked_either(tree, "merklize_device_tree_prove", [&](const auto &t) {
    required(proof, "merklize_device_tree_prove", "proof");
    detail::check_leaf_index(index, t.leaf_count());
    *proof = proof_handle(t.prove(index)).release();
  });
}

merklize_status merklize_device_tree_append(merklize_device_tree *tree, const void *leaves,
                                            uint64_t count, uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  return locked_either(tree, "merklize_device_tree_append", [&](auto &t) {
    if (count > 0) required(leaves, "merklize_device_tree_append", "leaves");
    check_append_count(t, count);
    check_field_leaves(t.options().hash, leaves, count, "leaves");
    write_root(root, t.append(leaves, count)); // refuses a tree it would overfill first
  });
}

merklize_status merklize_device_tree_prove_consistency(merklize_device_tree *tree,
                                                       uint64_t old_size, merklize_proof **proof) {
  return locked(tree, "merklize_device_tree_prove_consistency", [&](const resident_tree &t) {
    required(proof, "merklize_device_tree_prove_consistency", "proof");
    *proof = proof_handle(t.prove_consistency(old_size)).release();
  });
}

merklize_status merklize_device_tree_level_size(merklize_device_tree *tree, uint32_t level,
                                                uint64_t *count) {
  return locked_either(tree, "merklize_device_tree_level_size", [&](const auto &t) {
    required(count, "merklize_device_tree_level_size", "count");
    *count = level_size(t.on_device(), level, "merklize_device_tree_level_size");
  });
}

merklize_status merklize_device_tree_read_level(merklize_device_tree *tree, uint32_t level,
                                                uint64_t first, uint64_t count, uint8_t *nodes) {
  const char *function = "merklize_device_tree_read_level";
  return locked_either(tree, function, [&](const auto &t) {
    const std::uint64_t size = level_size(t.on_device(), level, function);
    if (first > size || count > size - first)
      throw argument_error(std::string(function) + ": nodes " + std::to_string(first) + ".." +
                           std::to_string(first + count) + " out of range: level " +
                           std::to_string(level) + " has " + std::to_string(size) + " nodes");
    if (count == 0) return;
    required(nodes, function, "nodes");
    std::vector<digest> read(static_cast<std::size_t>(count)); // the caller's, on success only
    const device_tree &d = t.on_device();
    detail::call("clEnqueueReadBuffer", [&] {
      return tree->hasher->queue().enqueueReadBuffer(d.level_buffer(level), CL_TRUE,
                                                     (d.level_first(level) + first) * node_bytes,
                                                     count * node_bytes, read.data());
    });
    std::memcpy(nodes, read.data(), read.size() * node_bytes);
  });
}

merklize_status merklize_device_tree_append_cl(merklize_device_tree *tree, struct _cl_mem *leaves,
                                               uint64_t count, uint32_t wait_count,
                                               struct _cl_event *const *wait,
                                               struct _cl_event **done,
                                               uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  const char *function = "merklize_device_tree_append_cl";
  return on_buffers(tree, function, count, wait_count, wait, done, root,
                    [&](merklize_device_tree &t, std::vector<cl::Event> &waits) {
                      const cl::Buffer buffer = caller_buffer(leaves, count, function, "leaves");
                      return t.either([&](auto &either) {
                        if (count == 0) return either.root();
                        check_append_count(either, count);
                        check_device_leaves(t, buffer, count, waits, function);
                        return either.append(buffer, count, waits);
                      });
                    });
}

merklize_status merklize_device_tree_update_cl(merklize_device_tree *tree, struct _cl_mem *indices,
                                               struct _cl_mem *leaves, uint64_t count,
                                               uint32_t wait_count, struct _cl_event *const *wait,
                                               struct _cl_event **done,
                                               uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  const char *function = "merklize_device_tree_update_cl";
  return on_buffers(tree, function, count, wait_count, wait, done, root,
                    [&](merklize_device_tree &t, std::vector<cl::Event> &waits) {
                      const cl::Buffer at = caller_buffer(indices, count, function, "indices");
                      const cl::Buffer values = caller_buffer(leaves, count, function, "leaves");
                      return t.either([&](auto &either) {
                        if (count == 0) return either.root();
                        check_update_count(either, count, function);
                        check_device_leaves(t, values, count, waits, function);
                        return either.update(at, values, count, waits);
                      });
                    });
}

} // extern "C"
