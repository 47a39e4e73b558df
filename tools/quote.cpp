// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "quote.hpp"

#include "utf8.hpp"

#include <algorithm>
#include <cstdio>

namespace cli {
namespace {

std::string hex_escape(unsigned char byte) {
  char text[5];
  std::snprintf(text, sizeof text, "\\x%02x", byte);
  return text;
}

// The printable form of `text`, with `also` (characters to escape with a backslash) escaped.
std::string escaped(std::string_view text, std::size_t max, std::string_view also) {
  static constexpr std::string_view cut = "...";
  std::string out;
  std::size_t fits = 0; // the longest whole prefix of `out` that leaves room for "..."
  for (std::size_t i = 0; i < text.size() && out.size() <= max;) {
    const utf8_sequence s = utf8_sequence_at(text, i);
    const auto lead = static_cast<unsigned char>(text[i]);
    // C1 controls, U+0080..U+009F, are C2 80..C2 9F in UTF-8.
    const bool control =
        lead < 0x20 || lead == 0x7F ||
        (lead == 0xC2 && s.valid && static_cast<unsigned char>(text[i + 1]) < 0xA0);
    if (out.size() + cut.size() <= max) fits = out.size();
    if (s.valid && !control && also.find(text[i]) != std::string_view::npos)
      out += "\\" + std::string(1, text[i]);
    else if (s.valid && !control)
      out += text.substr(i, s.length);
    else
      for (std::size_t k = 0; k < s.length; ++k)
        out += hex_escape(static_cast<unsigned char>(text[i + k]));
    i += s.length;
  }
  if (out.size() <= max) return out; // all of it
  return out.substr(0, fits) + std::string(cut);
}

} // namespace

std::string printable(std::string_view text, std::size_t max) { return escaped(text, max, ""); }

std::string printable_lines(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t at = 0; at <= text.size() && out.size() < max;) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (at != 0) out += '\n';
    out += escaped(text.substr(at, end - at), max - std::min(max, out.size()), "");
    at = end + 1;
  }
  return out;
}

std::string quote(std::string_view text, std::size_t max) {
  return "\"" + escaped(text, max, "\\\"") + "\"";
}

} // namespace cli
