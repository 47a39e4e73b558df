// SPDX-License-Identifier: Apache-2.0 OR MIT
// A log's entries into its leaves on the host engine, no OpenCL: RFC 6962 2.1's leaf hash,
// SHA-256(0x00 || entry), of each, equal to hash_entries (leaf_hash.hpp) on a device and to
// rfc6962_leaf_hash (entries.hpp) one at a time.
//
//   const auto spans = merklize::split_entries(data, size, merklize::entry_framing::lines);
//   std::vector<merklize::digest> leaves = merklize::host_hash_entries(data, size, spans);
//
// How: the entries are cut into one run a thread, and each thread hashes its run on
// core/sha256_many.hpp, two entries at a time on the SHA extensions with the 0x00 prefix in the
// stream, a lane taking the next entry as soon as its own ends, so entries of mixed lengths keep
// both lanes busy. The entries are read where they lie; only the digests are written.
#pragma once

#include "../core/entries.hpp"
#include "../core/sha256_many.hpp"
#include "host_blocks.hpp" // detail::host_parallel_for
#include "host_tree.hpp"   // host_engine_threads

#include <cstdint>
#include <vector>

namespace merklize {

// The leaves of the entries `spans` index in the `size` bytes at `data`, on `threads` host threads
// (0: host_engine_threads()). A span past the bytes is refused before anything is hashed.
inline std::vector<digest> host_hash_entries(const void *data, std::uint64_t size,
                                             const std::vector<entry_span> &spans,
                                             unsigned threads = 0) {
  detail::check_entry_spans(spans, size, "host_hash_entries");
  const auto *bytes = static_cast<const std::uint8_t *>(data);
  std::vector<digest> leaves(spans.size());
  const std::uint8_t leaf_prefix = 0x00; // RFC 6962 2.1: a leaf's hash input starts with it
  const detail::sha256_prefix prefix = detail::sha256_prefix_of(&leaf_prefix, 1);
  detail::host_parallel_for(
      spans.size(), threads ? threads : host_engine_threads(),
      [&](std::uint64_t begin, std::uint64_t end) {
        detail::sha256_many(prefix, end - begin, [&](std::uint64_t i) {
          const entry_span &s = spans[begin + i];
          return detail::sha256_message{bytes + s.first, s.size, 0, leaves[begin + i].data()};
        });
      });
  return leaves;
}

} // namespace merklize
