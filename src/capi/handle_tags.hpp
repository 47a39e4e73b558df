// SPDX-License-Identifier: Apache-2.0 OR MIT
// The tags of the C ABI's handles. Every object behind an opaque handle of include/merklize.h
// begins with a tag (its first base, tagged<T>): a magic number of its type, set when it is made
// and turned into its type's freed value when it is freed. A call reads the tag where the handle
// points before it uses the object, so that a handle of another type (a builder passed as a
// device) or a freed one (a double free, a call after the free) is refused with
// MERKLIZE_ERROR_ARGUMENT, naming the parameter: "merklize_build: `builder` is not a live
// merklize_builder handle: it is a merklize_device".
//
// A freed handle's memory is not given back at once: the last handles freed are kept in a
// quarantine (handle_tags.cpp), their objects destroyed and their tags marked freed, so that a
// second free or a late call finds the freed tag rather than memory the allocator gave to
// something else. What a check cannot catch: a pointer freed longer ago, whose memory has gone
// back to the allocator and may hold anything (another live handle of the same type included),
// and a pointer to no object of the library (whose first 8 bytes are read as they are).
#pragma once

#include <merklize.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

namespace merklize_capi {

enum class handle_type : std::uint32_t {
  bytes,
  device,
  builder,
  tree,
  proof,
  device_tree,
  update_batch,
  tree_snapshot,
  sparse_tree,
  mmcs
};

// The handle type of each opaque type of merklize.h (declared there; defined in handles.hpp,
// device_tree.hpp and beside their calls).
constexpr handle_type type_of(const merklize_bytes *) { return handle_type::bytes; }
constexpr handle_type type_of(const merklize_device *) { return handle_type::device; }
constexpr handle_type type_of(const merklize_builder *) { return handle_type::builder; }
constexpr handle_type type_of(const merklize_tree *) { return handle_type::tree; }
constexpr handle_type type_of(const merklize_proof *) { return handle_type::proof; }
constexpr handle_type type_of(const merklize_device_tree *) { return handle_type::device_tree; }
constexpr handle_type type_of(const merklize_update_batch *) { return handle_type::update_batch; }
constexpr handle_type type_of(const merklize_tree_snapshot *) {
  return handle_type::tree_snapshot;
}
constexpr handle_type type_of(const merklize_sparse_tree *) { return handle_type::sparse_tree; }
constexpr handle_type type_of(const merklize_mmcs *) { return handle_type::mmcs; }

// Whether T is one of them.
template <class T, class = void> struct is_handle : std::false_type {};
template <class T>
struct is_handle<T, std::void_t<decltype(type_of(static_cast<const T *>(nullptr)))>>
    : std::true_type {};

// A live handle's tag: "MKLZ", then its type; a freed one's has the top bit of its type set.
constexpr std::uint64_t live_tag(handle_type type) {
  return std::uint64_t(0x4d4b4c5a) << 32 | (static_cast<std::uint32_t>(type) + 1);
}
constexpr std::uint64_t freed_tag(handle_type type) {
  return live_tag(type) | std::uint64_t(0x80000000);
}

// The first base of every handle's object (so at its start: no handle type is polymorphic).
template <class T> struct tagged {
  tagged() noexcept : tag(live_tag(type_of(static_cast<const T *>(nullptr)))) {}
  std::uint64_t tag;
};

// Why `pointer` (not NULL) is not a live handle of `type`, as the end of a message naming the
// parameter (" is not a live merklize_device handle: it was freed"); "" where it is one.
std::string handle_refusal(const void *pointer, handle_type type);

template <class T> std::string handle_refusal(const T *pointer) {
  static_assert(is_handle<T>::value && !std::is_polymorphic<T>::value);
  return handle_refusal(static_cast<const void *>(pointer), type_of(pointer));
}

// Keeps the storage of a destroyed handle from the allocator for a while; `release` gives it
// back (operator delete of its type) once newer frees push it out.
void quarantine(void *storage, void (*release)(void *)) noexcept;

// Stores the message of a handle refused by a call that returns no status.
void refuse_handle(const char *function, const char *name, const std::string &refusal) noexcept;

// The handle where it is a live one, else NULL with the reason for merklize_last_error: for the
// calls that take NULL and return a value, not a status (merklize_tree_leaf_count), which then
// give what they give for NULL.
template <class T> T *live_or_null(T *handle, const char *function, const char *name) noexcept {
  if (!handle) return nullptr;
  try {
    const std::string refusal = handle_refusal(static_cast<const std::remove_const_t<T> *>(handle));
    if (refusal.empty()) return handle;
    refuse_handle(function, name, refusal);
  } catch (...) { // no memory for the message: refused all the same
  }
  return nullptr;
}

// merklize_X_free: a live handle destroyed, its tag marked freed and its storage quarantined;
// NULL is nothing; a handle that is not live is left alone (freeing it again would free memory
// that is no longer its), with the reason for merklize_last_error.
template <class T> void free_handle(T *handle, const char *function, const char *name) noexcept {
  if (!live_or_null(handle, function, name)) return;
  handle->~T();
  const std::uint64_t freed = freed_tag(type_of(handle));
  std::memcpy(static_cast<void *>(handle), &freed, sizeof freed);
  quarantine(handle, [](void *storage) {
    if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
      ::operator delete(storage, std::align_val_t(alignof(T)));
    else
      ::operator delete(storage);
  });
}

} // namespace merklize_capi
