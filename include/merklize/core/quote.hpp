// SPDX-License-Identifier: Apache-2.0 OR MIT
// Untrusted text (a proof's names and hex strings, a device spec, a cache path) quoted for a
// message: it cannot drive the terminal that shows it, and a huge input gives a short message.
// Needs no OpenCL.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace merklize {
namespace detail {

// `text` in double quotes: printable ASCII as it is, `"` and `\` after a backslash, every other
// byte (control characters, DEL, the bytes of non-ASCII UTF-8) as \xNN. Text longer than `max`
// bytes is cut there and followed by "..." and its full length: "aaaa..." (10485760 bytes).
inline std::string quoted(std::string_view text, std::size_t max = 80) {
  static const char digits[] = "0123456789abcdef";
  const std::string_view shown = text.substr(0, max);
  std::string out = "\"";
  for (const char ch : shown) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  }
  if (shown.size() == text.size()) return out + "\"";
  return out + "...\" (" + std::to_string(text.size()) + " bytes)";
}

} // namespace detail
} // namespace merklize
