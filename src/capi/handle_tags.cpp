// SPDX-License-Identifier: Apache-2.0 OR MIT
// The handles' tags read and explained (handle_tags.hpp), and the quarantine of freed handles.
#include "capi.hpp"

#include <mutex>

namespace merklize_capi {
namespace {

constexpr const char *handle_names[] = {
    "merklize_bytes",        "merklize_device",      "merklize_builder",    "merklize_tree",
    "merklize_proof",        "merklize_device_tree", "merklize_update_batch",
    "merklize_tree_snapshot", "merklize_sparse_tree", "merklize_mmcs"};
constexpr std::uint32_t handle_types = sizeof handle_names / sizeof *handle_names;

std::string name_of(std::uint32_t type) { return handle_names[type]; }

// The handles freed last, oldest first from `next`, kept from the allocator. 64 of them: their
// objects' shells alone (a few KiB for a device tree, less for the others; what they held was
// freed), and a double free caught while fewer than 64 frees came between the two.
struct quarantine_ring {
  static constexpr std::size_t slots = 64;
  std::mutex mutex;
  void *storage[slots] = {};
  void (*release[slots])(void *) = {};
  std::size_t next = 0;
};

// Never destroyed: a handle may be freed by a static object's destructor at exit, and what is
// held then is reachable from here, not a leak.
quarantine_ring &ring() {
  static quarantine_ring *const held = new quarantine_ring;
  return *held;
}

} // namespace

std::string handle_refusal(const void *pointer, handle_type type) {
  std::uint64_t tag = 0;
  std::memcpy(&tag, pointer, sizeof tag);
  if (tag == live_tag(type)) return "";
  const std::uint32_t expected = static_cast<std::uint32_t>(type);
  const std::string refusal = " is not a live " + name_of(expected) + " handle: ";
  for (std::uint32_t t = 0; t < handle_types; ++t) {
    if (tag == live_tag(static_cast<handle_type>(t))) return refusal + "it is a " + name_of(t);
    if (tag == freed_tag(static_cast<handle_type>(t)))
      return refusal + (t == expected ? "it was freed" : "it is a freed " + name_of(t));
  }
  return refusal + "it holds no handle of libmerklize (never one, or freed long ago and its "
                   "memory used again)";
}

void quarantine(void *storage, void (*release)(void *)) noexcept {
  quarantine_ring &q = ring();
  void *oldest = nullptr;
  void (*release_oldest)(void *) = nullptr;
  {
    const std::lock_guard<std::mutex> lock(q.mutex);
    oldest = q.storage[q.next];
    release_oldest = q.release[q.next];
    q.storage[q.next] = storage;
    q.release[q.next] = release;
    q.next = (q.next + 1) % quarantine_ring::slots;
  }
  if (oldest) release_oldest(oldest);
}

void refuse_handle(const char *function, const char *name, const std::string &refusal) noexcept {
  try {
    failed(MERKLIZE_ERROR_ARGUMENT,
           (std::string(function) + ": `" + name + "`" + refusal).c_str());
  } catch (...) {
    failed(MERKLIZE_ERROR_ARGUMENT, "a handle that is not a live one was refused");
  }
}

} // namespace merklize_capi
