// SPDX-License-Identifier: Apache-2.0 OR MIT
// UTF-8 as Unicode defines it well-formed (table 3-7), for the tools' printing of names and
// untrusted text.
#pragma once

#include <cstddef>
#include <string_view>

namespace cli {

// What starts at text[i]: a well-formed sequence of `length` bytes (valid), or an ill-formed one
// whose maximal prefix of a well-formed sequence is `length` bytes, at least 1 (not valid): the
// unit that Unicode's practice, and Rust's String::from_utf8_lossy, replace by one U+FFFD.
struct utf8_sequence {
  std::size_t length;
  bool valid;
};

inline utf8_sequence utf8_sequence_at(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
  const auto within = [](unsigned char b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return {1, true};
  // The lead byte fixes the length and the range of the second byte; later bytes are 80..BF.
  std::size_t width = 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (within(lead, 0xC2, 0xDF)) width = 2;
  if (within(lead, 0xE0, 0xEF))
    width = 3, lo = lead == 0xE0 ? 0xA0 : lo, hi = lead == 0xED ? 0x9F : hi;
  if (within(lead, 0xF0, 0xF4))
    width = 4, lo = lead == 0xF0 ? 0x90 : lo, hi = lead == 0xF4 ? 0x8F : hi;
  std::size_t valid = 1;
  if (width > 0 && i + 1 < text.size() && within(byte(i + 1), lo, hi))
    for (valid = 2;
         valid < width && i + valid < text.size() && within(byte(i + valid), 0x80, 0xBF);)
      ++valid;
  return {valid, valid == width};
}

} // namespace cli
