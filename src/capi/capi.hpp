// SPDX-License-Identifier: Apache-2.0 OR MIT
// What the files of the C ABI (include/merklize.h) share: the one guard that turns every C++
// exception into a merklize_status and a message for merklize_last_error, the errors that pick a
// status of their own, and the checks of pointer arguments (handles' tags: handle_tags.hpp). The
// handles are in handles.hpp.
//
// Every exported function that can fail is `return guarded([&] { ... });`: nothing thrown
// crosses the ABI, and since the out-pointers and caller buffers are written by the lambda's
// last statements, a call that fails leaves them as they were.
#pragma once

#include "handle_tags.hpp"

#include <merklize.h>

#include <merklize/core/digest.hpp>
#include <merklize/engine/tree_health.hpp>
#include <merklize/runtime/error.hpp>

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// Not namespace merklize: the library exports merklize::* for C++ users (cmake/merklize.map.in),
// and these are libmerklize's own.
namespace merklize_capi {
using namespace merklize;

// A bad argument of the caller's (MERKLIZE_ERROR_ARGUMENT). The library's own merklize::error
// that is neither an OpenCL nor a file error is one too: its checks are of what it is asked.
class argument_error : public error {
public:
  using error::error;
};

// No OpenCL device, or none that matches a spec (MERKLIZE_ERROR_NO_DEVICE).
class no_device_error : public error {
public:
  using error::error;
};

// An encoded proof or a JSON text that cannot be decoded (MERKLIZE_ERROR_DECODE).
class decode_error : public error {
public:
  using error::error;
};

// Stores `message` as this thread's last error and returns `status`.
merklize_status failed(merklize_status status, const char *message) noexcept;

// Sets this thread's last error without failing: why a proof did not verify.
void set_last_error(const std::string &message) noexcept;

// Runs `body`, which returns nothing and throws on failure, and turns what it throws into a
// status and this thread's last error. More derived exceptions first: opencl_error and
// file_error are merklize::errors.
template <class Body> merklize_status guarded(Body &&body) noexcept {
  try {
    body();
    return MERKLIZE_OK;
  } catch (const no_device_error &e) {
    return failed(MERKLIZE_ERROR_NO_DEVICE, e.what());
  } catch (const decode_error &e) {
    return failed(MERKLIZE_ERROR_DECODE, e.what());
  } catch (const opencl_error &e) {
    return failed(MERKLIZE_ERROR_OPENCL, e.what());
  } catch (const file_error &e) {
    return failed(MERKLIZE_ERROR_IO, e.what());
  } catch (const unusable_tree_error &e) {
    return failed(MERKLIZE_ERROR_UNUSABLE, e.what());
  } catch (const error &e) { // argument_error and the library's checks
    return failed(MERKLIZE_ERROR_ARGUMENT, e.what());
  } catch (const std::bad_alloc &) {
    return failed(MERKLIZE_ERROR_NO_MEMORY, "out of host memory");
  } catch (const std::length_error &) { // a std::vector asked for more than it can hold
    return failed(MERKLIZE_ERROR_NO_MEMORY, "out of host memory: a buffer larger than allowed");
  } catch (const std::exception &e) {
    return failed(
        MERKLIZE_ERROR_INTERNAL,
        (std::string("internal error of libmerklize (please report it): ") + e.what()).c_str());
  } catch (...) {
    return failed(MERKLIZE_ERROR_INTERNAL,
                  "internal error of libmerklize (please report it): an unknown exception");
  }
}

// Refuses a NULL pointer argument: "merklize_build: `source` is NULL"; and a handle that is not
// a live one of its type (handle_tags.hpp): "merklize_build: `builder` is not a live
// merklize_builder handle: it was freed".
template <class T> T &required(T *pointer, const char *function, const char *name) {
  if (!pointer) throw argument_error(std::string(function) + ": `" + name + "` is NULL");
  if constexpr (is_handle<std::remove_const_t<T>>::value) {
    const std::string refusal =
        handle_refusal(static_cast<const std::remove_const_t<T> *>(pointer));
    if (!refusal.empty())
      throw argument_error(std::string(function) + ": `" + name + "`" + refusal);
  }
  return *pointer;
}

// The same for bytes of any type.
inline const void *required(const void *pointer, const char *function, const char *name) {
  if (!pointer) throw argument_error(std::string(function) + ": `" + name + "` is NULL");
  return pointer;
}

// The integer a C caller stored in an enum member, read as an int, never as the enum: a value
// outside the enum's (merklize_source_kind 7) read as the enum would be undefined behaviour in
// C++ before any check could refuse it.
template <class Enum> int stored_value(const Enum &member) {
  static_assert(std::is_enum<Enum>::value && sizeof(Enum) == sizeof(int));
  int value = 0;
  std::memcpy(&value, &member, sizeof value);
  return value;
}

// Refuses a configuration struct whose `size` is not this header's (a caller that did not call
// its _init function, or built against another merklize.h).
void check_struct_size(std::uint32_t size, std::size_t expected, const char *what);

// Runs `body`, a check or a parse of the library's, naming `field` in what it throws:
// "config.hash: unknown hash "x" (known: ...)".
template <class Body> auto for_field(const char *field, Body &&body) {
  try {
    return body();
  } catch (const opencl_error &) {
    throw;
  } catch (const error &e) {
    throw argument_error(std::string(field) + ": " + e.what());
  }
}

// `count` 32-byte digests copied from the caller's bytes.
inline std::vector<digest> digests_of(const void *bytes, std::uint64_t count) {
  std::vector<digest> out(static_cast<std::size_t>(count));
  if (count > 0) std::memcpy(out.data(), bytes, static_cast<std::size_t>(count) * node_bytes);
  return out;
}

inline digest digest_of(const void *bytes) {
  digest d;
  std::memcpy(d.data(), bytes, d.size());
  return d;
}

// A visitor of std::variant made of one lambda per alternative.
template <class... F> struct overloaded : F... { using F::operator()...; };
template <class... F> overloaded(F...) -> overloaded<F...>;

} // namespace merklize_capi
