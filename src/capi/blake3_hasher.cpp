// SPDX-License-Identifier: Apache-2.0 OR MIT
// BLAKE3 given in pieces, on the host (core/blake3.hpp's hasher): the handle the bindings' hashlib
// objects (Python's merklize.blake3, Go's hash.Hash) stand on. Each call holds the handle's mutex.
#include "capi.hpp"

#include <merklize/core/blake3.hpp>

#include <memory>
#include <mutex>

struct merklize_blake3_hasher {
  merklize::blake3::hasher initial, state;
  std::mutex mutex;
};

namespace merklize_capi {
namespace {

merklize::blake3::hasher hasher_of(const merklize_blake3_mode *mode) {
  if (!mode || mode->kind == MERKLIZE_BLAKE3_HASH) return merklize::blake3::hasher();
  if (mode->kind == MERKLIZE_BLAKE3_KEYED) {
    required(mode->key, "merklize_blake3_hasher_create", "mode->key");
    return merklize::blake3::hasher::keyed(mode->key);
  }
  if (mode->kind == MERKLIZE_BLAKE3_DERIVE_KEY) {
    required(mode->context, "merklize_blake3_hasher_create", "mode->context");
    return merklize::blake3::hasher::derive_key(mode->context);
  }
  throw argument_error("merklize_blake3_hasher_create: mode->kind is " +
                       std::to_string(static_cast<int>(mode->kind)) +
                       ": MERKLIZE_BLAKE3_HASH (0), MERKLIZE_BLAKE3_KEYED (1) or "
                       "MERKLIZE_BLAKE3_DERIVE_KEY (2)");
}

} // namespace
} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

merklize_status merklize_blake3_hasher_create(const merklize_blake3_mode *mode,
                                              merklize_blake3_hasher **hasher) {
  return guarded([&] {
    required(hasher, "merklize_blake3_hasher_create", "hasher");
    const merklize::blake3::hasher initial = hasher_of(mode);
    *hasher = new merklize_blake3_hasher{initial, initial, {}};
  });
}

merklize_status merklize_blake3_hasher_update(merklize_blake3_hasher *hasher, const void *data,
                                              size_t size) {
  return guarded([&] {
    merklize_blake3_hasher &h = required(hasher, "merklize_blake3_hasher_update", "hasher");
    if (size > 0) required(data, "merklize_blake3_hasher_update", "data");
    const std::lock_guard<std::mutex> lock(h.mutex);
    h.state.update(data, size);
  });
}

merklize_status merklize_blake3_hasher_finalize(merklize_blake3_hasher *hasher, uint64_t seek,
                                                uint8_t *out, size_t out_size) {
  return guarded([&] {
    merklize_blake3_hasher &h = required(hasher, "merklize_blake3_hasher_finalize", "hasher");
    if (out_size > 0) required(out, "merklize_blake3_hasher_finalize", "out");
    if (out_size > UINT64_MAX - seek)
      throw argument_error("merklize_blake3_hasher_finalize: seek " + std::to_string(seek) +
                           " and " + std::to_string(out_size) +
                           " bytes run past BLAKE3's 2^64 bytes of output");
    const std::lock_guard<std::mutex> lock(h.mutex);
    h.state.finalize(out, out_size, seek);
  });
}

merklize_status merklize_blake3_hasher_copy(merklize_blake3_hasher *hasher,
                                            merklize_blake3_hasher **copy) {
  return guarded([&] {
    merklize_blake3_hasher &h = required(hasher, "merklize_blake3_hasher_copy", "hasher");
    required(copy, "merklize_blake3_hasher_copy", "copy");
    const std::lock_guard<std::mutex> lock(h.mutex);
    *copy = new merklize_blake3_hasher{h.initial, h.state, {}};
  });
}

merklize_status merklize_blake3_hasher_reset(merklize_blake3_hasher *hasher) {
  return guarded([&] {
    merklize_blake3_hasher &h = required(hasher, "merklize_blake3_hasher_reset", "hasher");
    const std::lock_guard<std::mutex> lock(h.mutex);
    h.state = h.initial;
  });
}

void merklize_blake3_hasher_free(merklize_blake3_hasher *hasher) { delete hasher; }

} // extern "C"
