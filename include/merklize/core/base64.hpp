// SPDX-License-Identifier: Apache-2.0 OR MIT
// Base 64 (RFC 4648 section 4, the standard alphabet with "=" padding), as C2SP's checkpoints and
// proofs and CT's JSON write hashes. Decoding takes untrusted text: only the canonical encoding
// is accepted (padding present, no whitespace, the unused bits of the last group zero), so one
// value has one text. No OpenCL.
#pragma once

#include "digest.hpp"
#include "error_type.hpp"
#include "quote.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace merklize {

inline std::string to_base64(const std::uint8_t *bytes, std::size_t size) {
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (std::size_t i = 0; i < size; i += 3) {
    const std::uint32_t group = std::uint32_t(bytes[i]) << 16 |
                                (i + 1 < size ? std::uint32_t(bytes[i + 1]) << 8 : 0) |
                                (i + 2 < size ? bytes[i + 2] : 0);
    out += alphabet[group >> 18 & 63];
    out += alphabet[group >> 12 & 63];
    out += i + 1 < size ? alphabet[group >> 6 & 63] : '=';
    out += i + 2 < size ? alphabet[group & 63] : '=';
  }
  return out;
}

inline std::string to_base64(const digest &d) { return to_base64(d.data(), d.size()); }

namespace detail {

inline int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

} // namespace detail

// The bytes of canonical base 64 text; anything else is an error naming the text.
inline std::vector<std::uint8_t> from_base64(std::string_view text) {
  const auto bad = [&](const std::string &why) {
    return error("not base 64 (RFC 4648): " + why + " in " +
                 detail::quoted(std::string(text.substr(0, 128))));
  };
  if (text.size() % 4) throw bad("a length that is not a multiple of 4");
  std::vector<std::uint8_t> bytes;
  bytes.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const std::size_t pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=')
                                 : 0;
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const int v = k >= 4 - pad ? 0 : detail::base64_value(text[i + k]);
      if (v < 0) throw bad("a character outside the alphabet (or misplaced padding)");
      group = group << 6 | static_cast<std::uint32_t>(v);
    }
    if ((pad == 1 && (group & 0xff)) || (pad == 2 && (group & 0xffff)))
      throw bad("padding bits that are not zero (a text that is not canonical)");
    bytes.push_back(static_cast<std::uint8_t>(group >> 16));
    if (pad < 2) bytes.push_back(static_cast<std::uint8_t>(group >> 8));
    if (pad < 1) bytes.push_back(static_cast<std::uint8_t>(group));
  }
  return bytes;
}

// A 32-byte hash in base 64 (44 characters).
inline digest digest_from_base64(std::string_view text) {
  const std::vector<std::uint8_t> bytes = from_base64(text);
  if (bytes.size() != node_bytes)
    throw error("a hash is 32 bytes, this base 64 text holds " + std::to_string(bytes.size()));
  digest d;
  std::copy(bytes.begin(), bytes.end(), d.begin());
  return d;
}

} // namespace merklize
