// SPDX-License-Identifier: Apache-2.0 OR MIT
// C2SP tlog-checkpoint (c2sp.org/tlog-checkpoint): a log's tree head as the body of a signed
// note (c2sp.org/signed-note), three lines and optional extensions:
//
//   example.com/log42                               the origin
//   20852163                                        the tree size, decimal
//   CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=    the RFC 6962 root, base 64
//
// then, in a signed note, an empty line and the signature lines ("— name base64"). merklize
// writes the body (signing is the log's, with its keys) and reads a checkpoint back as untrusted
// text: the body checked line by line, the signature lines kept but not verified (the caller's
// note verifier, Go's golang.org/x/mod/sumdb/note for one, checks them). No OpenCL.
#pragma once

#include "../core/base64.hpp"
#include "../core/digest.hpp"
#include "../core/error_type.hpp"
#include "../core/quote.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace merklize {

struct checkpoint {
  std::string origin;
  std::uint64_t size = 0;
  digest root{};
  std::vector<std::string> extensions; // lines after the root, opaque
};

// The longest checkpoint text read (a note with many cosignatures is a few KiB).
constexpr std::size_t max_checkpoint_bytes = std::size_t(1) << 20;

// The note text: each line ended by "\n".
inline std::string checkpoint_body(const checkpoint &c) {
  if (c.origin.empty() || c.origin.find('\n') != std::string::npos)
    throw error("a checkpoint's origin is one non-empty line");
  std::string body = c.origin + "\n" + std::to_string(c.size) + "\n" + to_base64(c.root) + "\n";
  for (const std::string &line : c.extensions) {
    if (line.empty() || line.find('\n') != std::string::npos)
      throw error("a checkpoint's extension lines are each one non-empty line");
    body += line + "\n";
  }
  return body;
}

namespace detail {

// A decimal count as the checkpoint and tlog-proof formats write it: digits, no leading zero
// (but "0"), below 2^64.
inline std::uint64_t read_decimal(std::string_view text, const char *what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos ||
      (text.size() > 1 && text[0] == '0'))
    throw error(std::string(what) + " is not a decimal count without leading zeros: " +
                merklize::detail::quoted(std::string(text)));
  std::uint64_t n = 0;
  for (const char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (UINT64_MAX - digit) / 10)
      throw error(std::string(what) + " exceeds 2^64 - 1: " + merklize::detail::quoted(std::string(text)));
    n = n * 10 + digit;
  }
  return n;
}

// Splits `text` into lines at "\n"; the text must end with one (so no line is lost unended).
inline std::vector<std::string_view> note_lines(std::string_view text, const char *what) {
  if (text.empty() || text.back() != '\n')
    throw error(std::string(what) + " does not end with a newline");
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

// No control character but the newlines that split the lines (a note is UTF-8 text).
inline void check_note_text(std::string_view text, const char *what) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) < 0x20 && text[i] != '\n') || text[i] == 0x7f)
      throw error(std::string(what) + ": a control character at byte " + std::to_string(i));
}

} // namespace detail

// A checkpoint's body, or a whole signed note (its signatures not verified), read back.
inline checkpoint parse_checkpoint(std::string_view text) {
  const char *what = "the checkpoint";
  try {
    if (text.size() > max_checkpoint_bytes)
      throw error("it is " + std::to_string(text.size()) + " bytes, more than the " +
                  std::to_string(max_checkpoint_bytes) + " read");
    detail::check_note_text(text, what);
    const auto lines = detail::note_lines(text, what);
    if (lines.size() < 3) throw error("it has fewer than three lines (origin, size, root)");
    checkpoint c;
    if (lines[0].empty()) throw error("its origin (line 1) is empty");
    c.origin = std::string(lines[0]);
    c.size = detail::read_decimal(lines[1], "its tree size (line 2)");
    c.root = digest_from_base64(lines[2]);
    std::size_t i = 3;
    for (; i < lines.size() && !lines[i].empty(); ++i)
      c.extensions.emplace_back(lines[i]);
    if (i < lines.size()) { // a signed note: an empty line, then one or more signature lines
      if (i + 1 == lines.size()) throw error("an empty line with no signature after it");
      for (++i; i < lines.size(); ++i)
        if (lines[i].substr(0, 4) != "\xe2\x80\x94 ")
          throw error("line " + std::to_string(i + 1) + " is not a signature line (\"— name " +
                      "signature\")");
    }
    return c;
  } catch (const error &e) {
    throw error(std::string(what) + ": " + e.what());
  }
}

} // namespace merklize
