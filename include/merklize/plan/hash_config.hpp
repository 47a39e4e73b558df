// SPDX-License-Identifier: Apache-2.0 OR MIT
// What blake3_device (engine/blake3_device.hpp) is asked for: the BLAKE3 mode (hash, keyed_hash,
// derive_key), how many chunks a work-item hashes, the memory it may use, and the times it reports.
// No OpenCL.
#pragma once

#include "../core/blake3.hpp"
#include "../core/quote.hpp"
#include "tuning.hpp"

#include <cstdint>
#include <string>

namespace merklize {

// How many 1024-byte chunks one work-item hashes at once: one, or 2..16 in the lanes of a
// uint2..uint16 vector. `automatic` is default_chunk_strategy(device).
enum class chunk_strategy : unsigned {
  automatic = 0,
  one_chunk = 1,
  lanes2 = 2,
  lanes4 = 4,
  lanes8 = 8,
  lanes16 = 16,
};

constexpr chunk_strategy all_chunk_strategies[] = {chunk_strategy::one_chunk,
                                                   chunk_strategy::lanes2, chunk_strategy::lanes4,
                                                   chunk_strategy::lanes8, chunk_strategy::lanes16};

inline unsigned chunks_per_work_item(chunk_strategy s) { return static_cast<unsigned>(s); }

inline std::string to_string(chunk_strategy s) {
  if (s == chunk_strategy::automatic) return "automatic";
  if (s == chunk_strategy::one_chunk) return "one-chunk";
  return "lanes" + std::to_string(chunks_per_work_item(s));
}

inline chunk_strategy parse_chunk_strategy(const std::string &name) {
  if (name == "automatic") return chunk_strategy::automatic;
  for (auto s : all_chunk_strategies)
    if (name == to_string(s)) return s;
  throw error("unknown chunk strategy " + detail::quoted(name) +
              " (known: automatic, one-chunk, lanes2, lanes4, lanes8, lanes16)");
}

// The strategy a device gets when none is asked for: its tuning row's chunks per work-item
// (tuning.hpp), where 0 is as many as the device's preferred int vector width, rounded down to
// 1, 2, 4, 8 or 16 (PoCL's work-group vectorizer does not turn one chunk per work-item into SIMD
// code: PoCL 3.1 on an AVX-512 EPYC, one-chunk 0.3 GB/s, lanes8 1.5-3 GB/s, lanes16 as fast or a
// little faster). GPUs take one chunk per work-item: on an H200 at 1 GiB, one-chunk 1.53 TB/s,
// lanes2 1.50, lanes4 1.39, lanes8 1.10, lanes16 0.20 (dev/PERFORMANCE_LOG.md); more lanes cost
// registers and occupancy.
inline chunk_strategy default_chunk_strategy(const device_facts &device, const tuning &row) {
  const unsigned wanted =
      row.hash_chunks_per_item ? row.hash_chunks_per_item : device.preferred_int_vector_width;
  chunk_strategy best = chunk_strategy::one_chunk;
  for (auto s : all_chunk_strategies)
    if (chunks_per_work_item(s) <= wanted) best = s;
  return best;
}

// What BLAKE3 hashes with: the key words (the IV, a 32-byte key, or a context's derived key) and
// the mode flag.
struct blake3_mode {
  blake3::words8 key;
  std::uint32_t flags;

  static blake3_mode hash() {
    using blake3::iv;
    return {{iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]}, 0};
  }
  static blake3_mode keyed(const std::uint8_t key[blake3::key_len]) {
    return {blake3::detail::load_key(key), blake3::keyed_hash_mode};
  }
  // The context string is hashed on the host (it is short); the key material on the device.
  static blake3_mode derive_key(const std::string &context) {
    return {blake3::detail::load_key(blake3::hasher::context_key(context).data()),
            blake3::derive_key_material};
  }
};

struct hash_config {
  chunk_strategy strategy = chunk_strategy::automatic;
  // The most input bytes held on the device at once; longer inputs are streamed through two
  // pieces of at most half of it. 0: the device's limit, the smaller of its largest buffer and
  // half its memory. At least 2048 (two chunks). Scratch for chaining values adds 1/20 of it.
  std::uint64_t max_device_bytes = 0;
  // Work-items per work-group of the chunk kernel; 0 picks one.
  std::size_t work_group_size = 0;
  // Threads reading a regular file of more than 1 MiB in hash_file, at most one per MiB;
  // 0: min(8, hardware threads).
  unsigned file_read_threads = 0;
};

// Profiled times of the last host call (hash, keyed_hash, derive_key, hash_stream, hash_file), in
// ms.
struct hash_times {
  double upload_ms = 0;   // sum of the host-to-device copies
  double kernel_ms = 0;   // sum of the kernel executions
  double download_ms = 0; // sum of the device-to-host copies
  double wall_ms = 0;     // the whole call, by the host's clock
  std::size_t kernel_launches = 0;
  std::size_t pieces = 0; // pieces the input was streamed in (1: it fitted the device)
};

} // namespace merklize
