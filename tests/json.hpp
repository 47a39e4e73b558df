// SPDX-License-Identifier: Apache-2.0 OR MIT
// A small JSON reader for the test vectors (objects, arrays, strings, integers, booleans, null).
// Test-only: the library itself parses no JSON.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace json {

struct value {
  enum kind_t { null, boolean, number, string, array, object } kind = null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<value> items;
  std::map<std::string, value> fields;

  const value &operator[](const std::string &key) const {
    auto found = fields.find(key);
    if (found == fields.end()) throw std::runtime_error("json: no field " + key);
    return found->second;
  }
  bool has(const std::string &key) const { return fields.count(key) != 0; }
  std::uint64_t u64() const { return static_cast<std::uint64_t>(num); }
};

class parser {
public:
  explicit parser(std::string text) : text_(std::move(text)) {}

  value parse() {
    value v = parse_value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters");
    return v;
  }

private:
  [[noreturn]] void fail(const std::string &why) const {
    throw std::runtime_error("json: " + why + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool literal(const char *word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  value parse_value() {
    value v;
    const char c = peek();
    if (c == '{') {
      v.kind = value::object;
      ++pos_;
      if (peek() == '}') return ++pos_, v;
      for (;;) {
        value key = parse_value();
        if (key.kind != value::string) fail("object key is not a string");
        expect(':');
        v.fields[key.str] = parse_value();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = value::array;
      ++pos_;
      if (peek() == ']') return ++pos_, v;
      for (;;) {
        v.items.push_back(parse_value());
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = value::string;
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"') {
        char ch = text_[pos_++];
        if (ch == '\\') {
          const char esc = text_.at(pos_++);
          ch = esc == 'n' ? '\n' : esc == 't' ? '\t' : esc;
          if (esc == 'u') fail("\\u escapes are not supported");
        }
        v.str += ch;
      }
      expect('"');
      return v;
    }
    if (literal("true")) return v.kind = value::boolean, v.b = true, v;
    if (literal("false")) return v.kind = value::boolean, v;
    if (literal("null")) return v;
    std::size_t used = 0;
    v.kind = value::number;
    v.num = std::stod(text_.substr(pos_, 32), &used);
    if (used == 0) fail("bad value");
    pos_ += used;
    return v;
  }

  std::string text_;
  std::size_t pos_ = 0;
};

inline value parse_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("json: cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return parser(ss.str()).parse();
}

} // namespace json
