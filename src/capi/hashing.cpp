// SPDX-License-Identifier: Apache-2.0 OR MIT
// Hashing on a device: full BLAKE3 (blake3_device.hpp, as `merklize b3sum`), the SHA-256 layer
// (layer.hpp, hashtree's contract) and RFC 6962 leaf hashes of log entries (leaf_hash.hpp, as
// `merklize leaf-hash`). Each call holds the device's mutex.
#include "handles.hpp"
#include "sources.hpp"

#include <merklize/core/entries.hpp>
#include <merklize/engine/blake3_device.hpp>
#include <merklize/engine/layer.hpp>
#include <merklize/engine/leaf_hash.hpp>

#include <cstring>
#include <vector>

namespace merklize_capi {
namespace {

blake3_mode mode_of(const merklize_blake3_mode *mode) {
  const int kind = mode ? stored_value(mode->kind) : MERKLIZE_BLAKE3_HASH;
  if (kind == MERKLIZE_BLAKE3_HASH) return blake3_mode::hash();
  if (kind == MERKLIZE_BLAKE3_KEYED) {
    required(mode->key, "merklize_blake3", "mode->key");
    return blake3_mode::keyed(mode->key);
  }
  if (kind == MERKLIZE_BLAKE3_DERIVE_KEY) {
    required(mode->context, "merklize_blake3", "mode->context");
    return blake3_mode::derive_key(mode->context);
  }
  throw argument_error("merklize_blake3: mode->kind is " + std::to_string(kind) +
                       ": MERKLIZE_BLAKE3_HASH (0), MERKLIZE_BLAKE3_KEYED (1) or "
                       "MERKLIZE_BLAKE3_DERIVE_KEY (2)");
}

// The blocks are copied to the device before any digest comes back, so `digests` may overlap
// `chunks`: a level is hashed in place as gohashtree's callers do, its parents written over its
// first half. The layer is one buffer on the device: a count past what it allocates at once is
// refused before anything is copied.
void check_layer(const cl::Device &device, const uint8_t *digests, const uint8_t *chunks,
                 uint64_t count) {
  required(digests, "merklize_sha256_layer", "digests");
  required(chunks, "merklize_sha256_layer", "chunks");
  if (count > UINT64_MAX / sha256::block_len || count * sha256::block_len > SIZE_MAX)
    throw argument_error("merklize_sha256_layer: count " + std::to_string(count) +
                         " blocks of 64 bytes are more than memory can hold");
  const cl_ulong most = detail::device_info<CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong>(device);
  if (count * sha256::block_len > most)
    throw argument_error("merklize_sha256_layer: count " + std::to_string(count) +
                         " blocks of 64 bytes are more than the device allocates at once (" +
                         std::to_string(most) + " bytes)");
}

} // namespace
} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

merklize_status merklize_blake3(merklize_device *device, const merklize_blake3_mode *mode,
                                const merklize_source *source, uint8_t *out, size_t out_size) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_blake3", "device");
    if (out_size > 0) required(out, "merklize_blake3", "out");
    const merklize::blake3_mode m = mode_of(mode);
    const std::lock_guard<std::mutex> lock(d.mutex);
    opened_source opened(source, "merklize_blake3");
    merklize::blake3_device &b3 = d.blake3();
    // The output is made in scratch memory and copied to `out` once the call has succeeded: it
    // comes in pieces, and the device may fail after some of them (or when the work is done).
    std::vector<std::uint8_t> scratch(out_size);
    if (opened.in_memory()) {
      b3.hash(m, opened.data(), opened.size(), scratch.data(), out_size);
    } else {
      std::size_t written = 0;
      b3.hash(
          m, opened.input(),
          [&](const std::uint8_t *bytes, std::size_t size) {
            std::memcpy(scratch.data() + written, bytes, size);
            written += size;
          },
          out_size);
    }
    if (out_size > 0) std::memcpy(out, scratch.data(), out_size);
  });
}

merklize_status merklize_sha256_layer(merklize_device *device, uint8_t *digests,
                                      const uint8_t *chunks, uint64_t count) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_sha256_layer", "device");
    if (count == 0) return;
    check_layer(d.state->device, digests, chunks, count);
    const std::lock_guard<std::mutex> lock(d.mutex);
    merklize::hash_layer(d.queue(), digests, count * merklize::node_bytes, chunks,
                         count * merklize::sha256::block_len);
  });
}

merklize_status merklize_log_leaves(merklize_device *device, const merklize_source *source,
                                    const char *framing, merklize_bytes **leaves) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_log_leaves", "device");
    required(leaves, "merklize_log_leaves", "leaves");
    required(framing, "merklize_log_leaves", "framing");
    const merklize::entry_framing f =
        for_field("framing", [&] { return merklize::parse_entry_framing(framing); });
    const std::lock_guard<std::mutex> lock(d.mutex);
    opened_source opened(source, "merklize_log_leaves");
    const byte_view data = opened.whole();
    const auto spans = merklize::split_entries(data.data, data.size, f, opened.name());
    auto out = std::make_unique<merklize_bytes>();
    if (!spans.empty()) {
      const auto hashed = merklize::hash_entries(d.queue(), data.data, data.size, spans);
      out->data.resize(hashed.size() * merklize::node_bytes);
      std::memcpy(out->data.data(), hashed.data(), out->data.size());
    }
    *leaves = out.release();
  });
}

} // extern "C"
