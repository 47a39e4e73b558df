// SPDX-License-Identifier: Apache-2.0 OR MIT
// A small strict JSON reader (RFC 8259) for the proof encodings, without OpenCL, and json_quote,
// the string literals they write (public: the one name here outside namespace detail).
//
// Strict: one value and nothing but whitespace after it, no trailing commas, no comments, no
// duplicate object keys, numbers and strings exactly as the grammar writes them (no leading zeros,
// no control characters in strings, well-formed UTF-8, paired surrogates in \u escapes). Input
// is untrusted: every read is bounds-checked, a text is at most max_text_bytes and nesting at
// most max_depth, so hostile text ends in a merklize::error naming the byte offset, never in a
// crash, and costs time and memory in proportion to its size.
//
// `reader` reads a document in one pass without holding it (the proof decoders read what they
// need and nothing else); `parse` builds the whole document, at about 90 bytes a value, so it
// takes only documents of up to max_tree_bytes.
#pragma once

#include "error_type.hpp"
#include "quote.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {
namespace json {

constexpr std::size_t max_text_bytes = std::size_t(64) << 20; // 64 MiB
constexpr std::size_t max_tree_bytes = std::size_t(1) << 20;  // 1 MiB, for parse()
constexpr unsigned max_depth = 64; // proofs nest two levels; this stops stack exhaustion

enum class kind { null, boolean, number, string, array, object };

// Reads one JSON text from the front, value by value: the caller asks what comes next (peek)
// and takes it with the matching call. Containers: begin_object() then next_key() until it
// returns false, reading each member's value; begin_array() then next_item() likewise.
class reader {
public:
  explicit reader(std::string_view text, std::size_t max_bytes = max_text_bytes) : text_(text) {
    if (text.size() > max_bytes)
      throw error("JSON: the text is " + std::to_string(text.size()) + " bytes, more than the " +
                  std::to_string(max_bytes) + " this reader takes");
  }

  // The kind of the value that comes next; fails where no value starts.
  kind peek() {
    const unsigned char c = next_token();
    if (c == '{') return kind::object;
    if (c == '[') return kind::array;
    if (c == '"') return kind::string;
    if (c == '-' || (c >= '0' && c <= '9')) return kind::number;
    if (c == 't' || c == 'f') return kind::boolean;
    if (c == 'n') return kind::null;
    fail("not a JSON value");
  }

  void string(std::string &out);
  std::string string() {
    std::string out;
    string(out);
    return out;
  }
  std::string_view number(); // as written: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  bool boolean() {
    if (literal("true")) return true;
    if (literal("false")) return false;
    fail("not a JSON value");
  }
  void null() {
    if (!literal("null")) fail("not a JSON value");
  }

  void begin_object() { open(); }
  // The next member's key, with its ':' read; false at the end of the object.
  bool next_key(std::string &key) {
    if (!another('}')) return false;
    if (next_token() != '"') fail("expected a string as object key");
    string(key);
    if (next_token() != ':') fail("expected ':'");
    ++pos_;
    return true;
  }
  void begin_array() { open(); }
  // Whether another item follows; false at the end of the array.
  bool next_item() { return another(']'); }

  // Reads past the next value, whatever it is, checking its syntax (duplicate keys aside).
  void skip();
  // How many items of at least `min_item_bytes` the array that comes next can hold: its commas
  // up to its first ']', where an array of numbers or of strings without ']' ends, and no more
  // than that much text could hold. An upper bound on such an array's items (a comma within a
  // string counts too); for any other array, a vector of this many items still takes memory in
  // proportion to the text.
  std::size_t item_bound(std::size_t min_item_bytes) {
    skip_space();
    const std::size_t end = std::min(text_.find(']', pos_), text_.size());
    const auto commas =
        static_cast<std::size_t>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                            text_.begin() + static_cast<std::ptrdiff_t>(end), ','));
    return std::min(commas + 1, (end - pos_) / (min_item_bytes + 1) + 1);
  }
  // Checks that nothing but whitespace follows the value read.
  void finish() {
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
  }

  [[noreturn]] void fail(const std::string &why) const {
    throw error("JSON: " + why + " at byte " + std::to_string(pos_));
  }

private:
  bool at_end() const { return pos_ >= text_.size(); }
  unsigned char current() const { return static_cast<unsigned char>(text_[pos_]); }

  void skip_space() {
    while (!at_end() && current() <= ' ' &&
           (current() == ' ' || current() == '\t' || current() == '\n' || current() == '\r'))
      ++pos_;
  }

  unsigned char next_token() {
    skip_space();
    if (at_end()) fail("unexpected end of text");
    return current();
  }

  bool literal(std::string_view word) {
    skip_space();
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  void open() {
    if (depth_ == max_depth) fail("nesting deeper than " + std::to_string(max_depth));
    ++pos_; // '{' or '['
    empty_[depth_++] = true;
  }

  // Whether another element follows in the innermost container, which `close` ends: takes the
  // ',' before it, or the closing bracket.
  bool another(char close) {
    const bool first = empty_[depth_ - 1];
    empty_[depth_ - 1] = false;
    const unsigned char c = next_token();
    if (c == static_cast<unsigned char>(close)) {
      ++pos_;
      --depth_;
      return false;
    }
    if (first) return true;
    if (c != ',') fail(std::string("expected ',' or '") + close + "'");
    ++pos_;
    return true;
  }

  std::size_t digits() {
    const std::size_t start = pos_;
    while (!at_end() && current() >= '0' && current() <= '9')
      ++pos_;
    return pos_ - start;
  }

  unsigned hex4();
  static void append_utf8(std::string &out, unsigned code);
  unsigned escaped_code_point();
  void copy_utf8(std::string &out);
  void escape(std::string &out);

  std::string_view text_;
  std::size_t pos_ = 0;
  // Per open container, outermost first: whether it has no element yet.
  std::array<bool, max_depth> empty_{};
  unsigned depth_ = 0;
  std::string skipped_text_; // where skip() reads strings, reused
};

inline std::string_view reader::number() {
  skip_space();
  const std::size_t start = pos_;
  if (!at_end() && current() == '-') ++pos_;
  if (!at_end() && current() == '0')
    ++pos_;
  else if (digits() == 0)
    fail("a number needs a digit");
  if (!at_end() && current() == '.') {
    ++pos_;
    if (digits() == 0) fail("a fraction needs a digit");
  }
  if (!at_end() && (current() == 'e' || current() == 'E')) {
    ++pos_;
    if (!at_end() && (current() == '+' || current() == '-')) ++pos_;
    if (digits() == 0) fail("an exponent needs a digit");
  }
  if (!at_end() && current() >= '0' && current() <= '9') fail("a number has a leading zero");
  return text_.substr(start, pos_ - start);
}

inline unsigned reader::hex4() {
  unsigned code = 0;
  for (int i = 0; i < 4; ++i, ++pos_) {
    if (at_end()) fail("unexpected end in a \\u escape");
    const unsigned char c = current();
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) fail("a \\u escape needs four hex digits");
    code = code << 4 | static_cast<unsigned>(digit);
  }
  return code;
}

inline void reader::append_utf8(std::string &out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | code >> 6);
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | code >> 12);
    out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | code >> 18);
    out += static_cast<char>(0x80 | (code >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// The code point of a \u escape (pos_ after "\u"), joining a surrogate pair.
inline unsigned reader::escaped_code_point() {
  const unsigned high = hex4();
  if (high >= 0xDC00 && high <= 0xDFFF) fail("a lone low surrogate");
  if (high < 0xD800 || high > 0xDBFF) return high;
  if (text_.substr(pos_, 2) != "\\u") fail("a high surrogate without its low half");
  pos_ += 2;
  const unsigned low = hex4();
  if (low < 0xDC00 || low > 0xDFFF) fail("a high surrogate without its low half");
  return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}

// Copies one well-formed UTF-8 sequence of two to four bytes (no overlong forms, no surrogates,
// nothing above U+10FFFF).
inline void reader::copy_utf8(std::string &out) {
  const unsigned char lead = current();
  const int extra = lead >= 0xC2 && lead <= 0xDF   ? 1
                    : lead >= 0xE0 && lead <= 0xEF ? 2
                    : lead >= 0xF0 && lead <= 0xF4 ? 3
                                                   : -1;
  if (extra < 0 || text_.size() - pos_ <= static_cast<std::size_t>(extra)) fail("bad UTF-8");
  const unsigned char second = static_cast<unsigned char>(text_[pos_ + 1]);
  const unsigned char low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
  const unsigned char high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
  if (second < low || second > high) fail("bad UTF-8");
  for (int i = 2; i <= extra; ++i)
    if ((static_cast<unsigned char>(text_[pos_ + i]) & 0xC0) != 0x80) fail("bad UTF-8");
  out.append(text_.substr(pos_, static_cast<std::size_t>(extra) + 1));
  pos_ += static_cast<std::size_t>(extra) + 1;
}

// One escape sequence, pos_ after its backslash.
inline void reader::escape(std::string &out) {
  if (at_end()) fail("unterminated escape");
  const char e = text_[pos_++];
  switch (e) {
  case '"':
  case '\\':
  case '/':
    out += e;
    return;
  case 'b':
    out += '\b';
    return;
  case 'f':
    out += '\f';
    return;
  case 'n':
    out += '\n';
    return;
  case 'r':
    out += '\r';
    return;
  case 't':
    out += '\t';
    return;
  case 'u':
    append_utf8(out, escaped_code_point());
    return;
  default:
    --pos_;
    fail("unknown escape");
  }
}

// A string's content into `out` (replacing what it held).
inline void reader::string(std::string &out) {
  out.clear();
  if (next_token() != '"') fail("expected a string");
  ++pos_;
  for (;;) {
    if (at_end()) fail("unterminated string");
    const unsigned char c = current();
    if (c == '"') {
      ++pos_;
      return;
    }
    if (c < 0x20) fail("a control character in a string");
    if (c >= 0x80) {
      copy_utf8(out);
    } else if (c == '\\') {
      ++pos_;
      escape(out);
    } else {
      const std::size_t start = pos_; // a run of plain characters, copied at once
      while (!at_end() && current() >= 0x20 && current() < 0x80 && current() != '"' &&
             current() != '\\')
        ++pos_;
      out.append(text_.substr(start, pos_ - start));
    }
  }
}

inline void reader::skip() {
  switch (peek()) {
  case kind::object:
    begin_object();
    while (next_key(skipped_text_))
      skip();
    return;
  case kind::array:
    begin_array();
    while (next_item())
      skip();
    return;
  case kind::string:
    string(skipped_text_);
    return;
  case kind::number:
    number();
    return;
  case kind::boolean:
    boolean();
    return;
  case kind::null:
    null();
    return;
  }
}

// Names a value in messages: a member, "\"nodes\"", or an item of one, "\"nodes\"[3]".
struct place {
  const char *member;
  std::optional<std::size_t> item;

  std::string str() const {
    return "\"" + std::string(member) + "\"" + (item ? "[" + std::to_string(*item) + "]" : "");
  }
};

// Fails, naming the value, unless the next one is of kind `expected`; a value of another kind
// is read past first, so that a syntax error in it is reported as such.
inline void expect_kind(reader &r, kind expected, const place &where, const char *what) {
  if (r.peek() == expected) return;
  r.skip();
  throw error(where.str() + " is not " + what);
}

inline std::string read_string(reader &r, const place &where) {
  expect_kind(r, kind::string, where, "a string");
  return r.string();
}

// A non-negative integer written without fraction or exponent that fits 64 bits.
inline std::uint64_t read_u64(reader &r, const place &where) {
  expect_kind(r, kind::number, where, "a non-negative integer");
  const std::string_view text = r.number();
  std::uint64_t n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') throw error(where.str() + " is not a non-negative integer");
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (UINT64_MAX - digit) / 10)
      throw error(where.str() + " exceeds 2^64 - 1: " + detail::quoted(text));
    n = n * 10 + digit;
  }
  return n;
}

// An array whose items, each at least `min_item_bytes` of text, read_item(reader, place) reads.
// The vector is sized once, to no more items than the text could hold: it takes at most
// sizeof(item) / (min_item_bytes + 1) times the text, however the text lies about its items.
template <class ReadItem>
auto read_array(reader &r, const char *member, std::size_t min_item_bytes, ReadItem read_item)
    -> std::vector<decltype(read_item(r, place{member, 0}))> {
  expect_kind(r, kind::array, place{member, {}}, "an array");
  std::vector<decltype(read_item(r, place{member, 0}))> items;
  items.reserve(r.item_bound(min_item_bytes));
  r.begin_array();
  while (r.next_item())
    items.push_back(read_item(r, place{member, items.size()}));
  return items;
}

// ---- The whole document at once ----

struct value {
  using kind = json::kind;
  kind type = kind::null;
  bool boolean = false;
  std::string text;                                   // a string's content, or a number as written
  std::vector<value> items;                           // an array's elements
  std::vector<std::pair<std::string, value>> members; // an object's members, in order
};

// Fails on a key that an object holds twice: sorting finds it in O(n log n).
inline void check_unique_keys(const reader &r,
                              const std::vector<std::pair<std::string, value>> &members) {
  std::vector<const std::string *> keys;
  keys.reserve(members.size());
  for (const auto &m : members)
    keys.push_back(&m.first);
  std::sort(keys.begin(), keys.end(), [](const auto *a, const auto *b) { return *a < *b; });
  const auto twice = std::adjacent_find(keys.begin(), keys.end(),
                                        [](const auto *a, const auto *b) { return *a == *b; });
  if (twice != keys.end()) r.fail("duplicate key " + detail::quoted(**twice));
}

inline value read_value(reader &r) {
  value v;
  v.type = r.peek();
  switch (v.type) {
  case kind::object: {
    r.begin_object();
    std::string key;
    while (r.next_key(key))
      v.members.emplace_back(std::move(key), read_value(r));
    check_unique_keys(r, v.members);
    break;
  }
  case kind::array:
    r.begin_array();
    while (r.next_item())
      v.items.push_back(read_value(r));
    break;
  case kind::string:
    r.string(v.text);
    break;
  case kind::number:
    v.text = r.number();
    break;
  case kind::boolean:
    v.boolean = r.boolean();
    break;
  case kind::null:
    r.null();
    break;
  }
  return v;
}

// The whole document of a text of up to max_tree_bytes.
inline value parse(std::string_view text) {
  reader r(text, max_tree_bytes);
  value v = read_value(r);
  r.finish();
  return v;
}

} // namespace json
} // namespace detail

// `text` as a JSON string literal, escaped as RFC 8259 requires (a quote, a backslash, control
// characters; other bytes as they are): for callers' JSON beside the library's proofs.
inline std::string json_quote(std::string_view text) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      out += "\\u00";
      out += digits[c >> 4];
      out += digits[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

} // namespace merklize
