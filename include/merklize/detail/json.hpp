// A small strict JSON reader (RFC 8259) for the proof encodings, without OpenCL.
//
// Strict: one value and nothing but whitespace after it, no trailing commas, no comments, no
// duplicate object keys, numbers and strings exactly as the grammar writes them (no leading zeros,
// no control characters in strings, well-formed UTF-8, paired surrogates in \u escapes). Input
// is untrusted: every read is bounds-checked and nesting is limited, so hostile text ends in a
// merklize::error naming the byte offset, never in a crash.
#pragma once

#include "../error_type.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {
namespace json {

struct value {
  enum class kind { null, boolean, number, string, array, object };
  kind type = kind::null;
  bool boolean = false;
  std::string text;                                   // a string's content, or a number as written
  std::vector<value> items;                           // an array's elements
  std::vector<std::pair<std::string, value>> members; // an object's members, in order
};

class parser {
public:
  explicit parser(const std::string &text) : text_(text) {}

  value parse() {
    value v = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

private:
  static constexpr unsigned max_depth = 64; // proofs nest two levels; this stops stack exhaustion

  [[noreturn]] void fail(const std::string &why) const {
    throw error("JSON: " + why + " at byte " + std::to_string(pos_));
  }

  bool at_end() const { return pos_ >= text_.size(); }
  unsigned char current() const { return static_cast<unsigned char>(text_[pos_]); }

  void skip_space() {
    while (!at_end() &&
           (current() == ' ' || current() == '\t' || current() == '\n' || current() == '\r'))
      ++pos_;
  }

  unsigned char next_token() {
    skip_space();
    if (at_end()) fail("unexpected end of text");
    return current();
  }

  void expect(char c) {
    if (next_token() != static_cast<unsigned char>(c)) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  value parse_value(unsigned depth) {
    if (depth > max_depth) fail("nesting deeper than " + std::to_string(max_depth));
    const unsigned char c = next_token();
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    value v;
    if (c == '"') {
      v.type = value::kind::string;
      v.text = parse_string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.type = value::kind::number;
      v.text = parse_number();
    } else if (literal("true")) {
      v.type = value::kind::boolean;
      v.boolean = true;
    } else if (literal("false")) {
      v.type = value::kind::boolean;
    } else if (!literal("null")) {
      fail("not a JSON value");
    }
    return v;
  }

  bool literal(const char *word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  value parse_object(unsigned depth) {
    value v;
    v.type = value::kind::object;
    ++pos_; // '{'
    if (next_token() == '}') return ++pos_, v;
    for (;;) {
      if (next_token() != '"') fail("expected a string as object key");
      std::string key = parse_string();
      for (const auto &m : v.members)
        if (m.first == key) fail("duplicate key \"" + key + "\"");
      expect(':');
      v.members.emplace_back(std::move(key), parse_value(depth + 1));
      if (next_token() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return v;
    }
  }

  value parse_array(unsigned depth) {
    value v;
    v.type = value::kind::array;
    ++pos_; // '['
    if (next_token() == ']') return ++pos_, v;
    for (;;) {
      v.items.push_back(parse_value(depth + 1));
      if (next_token() == ',') {
        ++pos_;
        continue;
      }
      expect(']');
      return v;
    }
  }

  std::size_t digits() {
    const std::size_t start = pos_;
    while (!at_end() && current() >= '0' && current() <= '9')
      ++pos_;
    return pos_ - start;
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, returned as written.
  std::string parse_number() {
    const std::size_t start = pos_;
    if (current() == '-') ++pos_;
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

  unsigned hex4() {
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

  static void append_utf8(std::string &out, unsigned code) {
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
  unsigned escaped_code_point() {
    const unsigned high = hex4();
    if (high >= 0xDC00 && high <= 0xDFFF) fail("a lone low surrogate");
    if (high < 0xD800 || high > 0xDBFF) return high;
    if (text_.compare(pos_, 2, "\\u") != 0) fail("a high surrogate without its low half");
    pos_ += 2;
    const unsigned low = hex4();
    if (low < 0xDC00 || low > 0xDFFF) fail("a high surrogate without its low half");
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
  }

  // Copies one well-formed UTF-8 sequence of two to four bytes (no overlong forms, no
  // surrogates, nothing above U+10FFFF).
  void copy_utf8(std::string &out) {
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
    out.append(text_, pos_, static_cast<std::size_t>(extra) + 1);
    pos_ += static_cast<std::size_t>(extra) + 1;
  }

  std::string parse_string() {
    ++pos_; // opening quote
    std::string out;
    for (;;) {
      if (at_end()) fail("unterminated string");
      const unsigned char c = current();
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) fail("a control character in a string");
      if (c >= 0x80) {
        copy_utf8(out);
        continue;
      }
      ++pos_;
      if (c != '\\') {
        out += static_cast<char>(c);
        continue;
      }
      if (at_end()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u':
        append_utf8(out, escaped_code_point());
        break;
      default:
        --pos_;
        fail("unknown escape");
      }
    }
  }

  const std::string &text_;
  std::size_t pos_ = 0;
};

inline value parse(const std::string &text) { return parser(text).parse(); }

// A string literal, escaped as JSON requires.
inline std::string quote(const std::string &s) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : s) {
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

// The member `name` of an object, or nullptr where there is none.
inline const value *member(const value &object, const char *name) {
  for (const auto &m : object.members)
    if (m.first == name) return &m.second;
  return nullptr;
}

// The members of an object that must have exactly the keys `names`, in the order of `names`.
inline std::vector<const value *> exact_members(const value &object,
                                                std::initializer_list<const char *> names,
                                                const std::string &what) {
  if (object.type != value::kind::object) throw error(what + " is not a JSON object");
  std::vector<const value *> found;
  for (const char *name : names) {
    found.push_back(member(object, name));
    if (!found.back()) throw error(what + " has no \"" + name + "\"");
  }
  for (const auto &m : object.members)
    if (std::find_if(names.begin(), names.end(), [&](const char *n) { return m.first == n; }) ==
        names.end())
      throw error(what + " has an unknown key " + quote(m.first));
  return found;
}

inline const std::string &as_string(const value &v, const std::string &what) {
  if (v.type != value::kind::string) throw error(what + " is not a string");
  return v.text;
}

inline const std::vector<value> &as_array(const value &v, const std::string &what) {
  if (v.type != value::kind::array) throw error(what + " is not an array");
  return v.items;
}

// A non-negative integer written without fraction or exponent that fits 64 bits.
inline std::uint64_t as_u64(const value &v, const std::string &what) {
  if (v.type != value::kind::number || v.text.find_first_not_of("0123456789") != std::string::npos)
    throw error(what + " is not a non-negative integer");
  std::uint64_t n = 0;
  for (const char c : v.text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (UINT64_MAX - digit) / 10) throw error(what + " " + v.text + " exceeds 2^64 - 1");
    n = n * 10 + digit;
  }
  return n;
}

} // namespace json
} // namespace detail
} // namespace merklize
