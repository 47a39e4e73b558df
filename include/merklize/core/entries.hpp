// SPDX-License-Identifier: Apache-2.0 OR MIT
// The entries of a log, framed in one buffer of bytes, and RFC 6962 2.1's leaf hash of an entry,
// SHA-256(0x00 || entry), on the host (leaf_hash.hpp hashes batches on a device). Two framings
// (entry_framing):
//   lines            one entry a line: the bytes up to each "\n", which is not part of the entry
//                    ("\r" is kept); a last line without "\n" is an entry too, and an empty input
//                    has no entries
//   length_prefixed  each entry is its length as 4 bytes big-endian (as TLS's opaque<0..2^32-1>),
//                    then that many bytes; the input must end where an entry does
// No OpenCL.
#pragma once

#include "error_type.hpp"
#include "node_rule.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace merklize {

enum class entry_framing { lines, length_prefixed };

// Where one entry lies in its buffer.
struct entry_span {
  std::uint64_t first = 0, size = 0;
};

namespace detail {

// Refuses spans that run past the `size` bytes they index, naming `caller` ("hash_entries").
inline void check_entry_spans(const std::vector<entry_span> &spans, std::uint64_t size,
                              const char *caller) {
  for (const entry_span &s : spans)
    if (s.first > size || s.size > size - s.first)
      throw error(std::string(caller) + ": an entry of " + std::to_string(s.size) +
                  " bytes at offset " + std::to_string(s.first) + " runs past the " +
                  std::to_string(size) + " bytes given");
}

} // namespace detail

inline entry_framing parse_entry_framing(const std::string &name) {
  if (name == "lines") return entry_framing::lines;
  if (name == "length-prefixed") return entry_framing::length_prefixed;
  throw error("unknown entry framing " + detail::quoted(name) + " (known: lines, length-prefixed)");
}

// The entries of `size` bytes at `data`, framed as `framing`. Malformed framing (a length that
// runs past the end) is an error naming `name` and the offset.
inline std::vector<entry_span> split_entries(const std::uint8_t *data, std::uint64_t size,
                                             entry_framing framing,
                                             const std::string &name = "the entries") {
  std::vector<entry_span> spans;
  if (framing == entry_framing::lines) {
    for (std::uint64_t first = 0; first < size;) {
      const void *newline = std::memchr(data + first, '\n', size - first);
      const std::uint64_t end = newline ? static_cast<const std::uint8_t *>(newline) - data : size;
      spans.push_back({first, end - first});
      first = end + 1;
    }
    return spans;
  }
  for (std::uint64_t at = 0; at < size;) {
    if (size - at < 4)
      throw error(name + ": " + std::to_string(size - at) + " bytes at offset " +
                  std::to_string(at) + " where a 4-byte entry length was expected");
    const std::uint64_t length = std::uint64_t(data[at]) << 24 | std::uint64_t(data[at + 1]) << 16 |
                                 std::uint64_t(data[at + 2]) << 8 | data[at + 3];
    if (length > size - at - 4)
      throw error(name + ": the entry at offset " + std::to_string(at) + " says " +
                  std::to_string(length) + " bytes, only " + std::to_string(size - at - 4) +
                  " follow");
    spans.push_back({at + 4, length});
    at += 4 + length;
  }
  return spans;
}

// RFC 6962's leaf hash of one entry on the host: SHA-256(0x00 || entry).
inline digest rfc6962_leaf_hash(const void *entry, std::size_t size) {
  return sha256::hasher().update(&rfc6962_leaf_prefix, 1).update(entry, size).finalize();
}

} // namespace merklize
