// SPDX-License-Identifier: Apache-2.0 OR MIT
// A 32-byte digest (a tree node) and its lowercase hex form.
#pragma once

#include "error_type.hpp"
#include "quote.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

constexpr std::size_t node_bytes = 32;
using digest = std::array<std::uint8_t, node_bytes>;

inline std::string to_hex(const std::uint8_t *bytes, std::size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string hex(2 * size, '0');
  for (std::size_t i = 0; i < size; ++i) {
    hex[2 * i] = digits[bytes[i] >> 4];
    hex[2 * i + 1] = digits[bytes[i] & 15];
  }
  return hex;
}

inline std::string to_hex(const digest &d) { return to_hex(d.data(), d.size()); }

// Parses hex digits (either case) into bytes; throws merklize::error on odd length or a non-hex
// character.
inline std::vector<std::uint8_t> from_hex(const std::string &hex) {
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw error("not a hex digit: " + detail::quoted(std::string(1, c)) + " in " +
                detail::quoted(hex));
  };
  if (hex.size() % 2) throw error("hex string has an odd number of digits: " + detail::quoted(hex));
  std::vector<std::uint8_t> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  return bytes;
}

inline digest digest_from_hex(const std::string &hex) {
  const auto bytes = from_hex(hex);
  if (bytes.size() != node_bytes)
    throw error("a digest is 64 hex digits, got " + std::to_string(hex.size()));
  digest d;
  std::copy(bytes.begin(), bytes.end(), d.begin());
  return d;
}

} // namespace merklize
