// SPDX-License-Identifier: Apache-2.0 OR MIT
// Solidity's ABI encoding (abi.encode) of JSON values, as OpenZeppelin's StandardMerkleTree
// hashes its leaves: the types of `leafEncoding` parsed, each value checked against its type and
// encoded. Host only, no OpenCL. Written from the Solidity ABI specification ("Formal
// Specification of the Encoding"); the values are taken as ethers' ABI coder takes them from
// JSON, more strictly where ethers would guess.
//
// Types: uint<N> and int<N> (N = 8 .. 256 by 8; uint and int are 256), address, bool,
// bytes<N> (N = 1 .. 32), bytes, string, tuples "(T,U)" or "tuple(T,U)", and arrays of any of
// them, T[] and T[k], nested.
//
// Values: integers as decimal or 0x-hex strings ("-" before either for int<N>), or as JSON
// integers up to 2^53 - 1 (a larger JSON number is refused: JavaScript would round it before
// ethers saw it); addresses as 40 hex digits with or without 0x, refused when of mixed case with
// a wrong EIP-55 checksum; bool as true or false; bytes<N> and bytes as 0x-hex strings (exactly N
// bytes for bytes<N>); string as a JSON string (its UTF-8 bytes); arrays and tuples as JSON
// arrays. Every refusal names the value's place ("values[3][1]") and the reason.
#pragma once

#include "../core/digest.hpp"
#include "../core/json.hpp"
#include "../core/keccak.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace merklize {
namespace abi {

constexpr std::size_t word_bytes = 32;

struct type {
  enum class kind { uint, int_, address, boolean, fixed_bytes, bytes, string, array, tuple };
  kind of = kind::uint;
  unsigned size = 0;                   // uint and int: bits; fixed_bytes: bytes
  std::optional<std::uint64_t> length; // array: T[k]'s k; none for T[]
  std::vector<type> members;           // array: its element; tuple: its components

  // A dynamic type is encoded in the tail, with its offset in the head.
  bool is_dynamic() const {
    if (of == kind::bytes || of == kind::string) return true;
    if (of == kind::array) return !length || members.front().is_dynamic();
    if (of == kind::tuple)
      for (const type &member : members)
        if (member.is_dynamic()) return true;
    return false;
  }
};

namespace detail {

[[noreturn]] inline void bad_type(const std::string &text, const std::string &why) {
  throw error("ABI type " + merklize::detail::quoted(text) + ": " + why);
}

// A decimal number of digits only, below 2^64.
inline std::optional<std::uint64_t> small_number(const std::string &digits) {
  if (digits.empty() || digits.size() > 19 || (digits.size() > 1 && digits[0] == '0'))
    return std::nullopt;
  std::uint64_t n = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n;
}

// The top-level components of a tuple's inside, "T,U,(V,W)".
inline std::vector<std::string> components(const std::string &inside, const std::string &text) {
  std::vector<std::string> parts;
  if (inside.empty()) return parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= inside.size(); ++i) {
    const char c = i < inside.size() ? inside[i] : ',';
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth < 0) bad_type(text, "unbalanced parentheses");
    if (c == ',' && depth == 0) {
      parts.push_back(inside.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

inline type elementary(const std::string &name, const std::string &text) {
  using kind = type::kind;
  if (name == "address") return {kind::address, 160, {}, {}};
  if (name == "bool") return {kind::boolean, 0, {}, {}};
  if (name == "string") return {kind::string, 0, {}, {}};
  if (name == "bytes") return {kind::bytes, 0, {}, {}};
  if (name == "uint" || name == "int")
    return {name == "uint" ? kind::uint : kind::int_, 256, {}, {}};
  for (const char *prefix : {"uint", "int", "bytes"}) {
    const std::string p = prefix;
    if (name.compare(0, p.size(), p) != 0) continue;
    const auto n = small_number(name.substr(p.size()));
    if (!n) break;
    if (p == "bytes") {
      if (*n < 1 || *n > 32) bad_type(text, "bytes<N> takes N from 1 to 32");
      return {kind::fixed_bytes, static_cast<unsigned>(*n), {}, {}};
    }
    if (*n < 8 || *n > 256 || *n % 8 != 0) bad_type(text, p + "<N> takes N from 8 to 256 by 8");
    return {p == "uint" ? kind::uint : kind::int_, static_cast<unsigned>(*n), {}, {}};
  }
  bad_type(text, "unknown type (known: uint<N>, int<N>, address, bool, bytes<N>, bytes, string, "
                 "tuples and arrays of them)");
}

inline type parse(const std::string &text, const std::string &whole, unsigned depth) {
  if (depth > 32) bad_type(whole, "nested more than 32 deep");
  if (!text.empty() && text.back() == ']') { // T[] or T[k]: the last suffix is the outermost
    const std::size_t open = text.rfind('[');
    if (open == std::string::npos || open == 0) bad_type(whole, "unbalanced brackets");
    const std::string inside = text.substr(open + 1, text.size() - open - 2);
    type array{type::kind::array, 0, std::nullopt, {parse(text.substr(0, open), whole, depth + 1)}};
    if (!inside.empty()) {
      array.length = small_number(inside);
      if (!array.length)
        bad_type(whole,
                 "an array's length is a decimal number, not " + merklize::detail::quoted(inside));
    }
    return array;
  }
  const std::size_t paren = text.find('(');
  if (paren == std::string::npos) return elementary(text, whole);
  if ((paren != 0 && text.substr(0, paren) != "tuple") || text.back() != ')')
    bad_type(whole, "a tuple is written (T,U) or tuple(T,U)");
  type tuple{type::kind::tuple, 0, std::nullopt, {}};
  for (const std::string &part : components(text.substr(paren + 1, text.size() - paren - 2), whole))
    tuple.members.push_back(parse(part, whole, depth + 1));
  if (tuple.members.empty()) bad_type(whole, "a tuple needs at least one component");
  return tuple;
}

} // namespace detail

// A type as leafEncoding names it, refused with the reason where it is none.
inline type parse_type(const std::string &text) { return detail::parse(text, text, 0); }

// ---- Values ----

namespace detail {

using json_value = merklize::detail::json::value;
using json_kind = merklize::detail::json::kind;
using word = std::array<std::uint8_t, word_bytes>; // big-endian

[[noreturn]] inline void bad_value(const std::string &where, const std::string &why) {
  throw error(where + ": " + why);
}

// word = word * base + digit; false where it passes 256 bits.
inline bool multiply_add(word &w, unsigned base, unsigned digit) {
  unsigned carry = digit;
  for (std::size_t i = word_bytes; i-- > 0;) {
    const unsigned v = w[i] * base + carry;
    w[i] = static_cast<std::uint8_t>(v);
    carry = v >> 8;
  }
  return carry == 0;
}

inline unsigned bit_length(const word &w) {
  for (std::size_t i = 0; i < word_bytes; ++i)
    for (int b = 7; b >= 0; --b)
      if (w[i] >> b & 1) return static_cast<unsigned>(8 * (word_bytes - 1 - i) + b + 1);
  return 0;
}

inline bool is_power_of_two(const word &w) {
  unsigned ones = 0;
  for (const std::uint8_t byte : w)
    for (int b = 0; b < 8; ++b)
      ones += byte >> b & 1;
  return ones == 1;
}

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The magnitude of an integer's digits, decimal or after 0x hex; nothing where they are none or
// the number passes 256 bits.
inline std::optional<word> magnitude(const std::string &digits) {
  const bool hex = digits.size() > 2 && digits[0] == '0' && digits[1] == 'x';
  const std::size_t first = hex ? 2 : 0;
  if (digits.size() == first) return std::nullopt;
  word w{};
  for (std::size_t i = first; i < digits.size(); ++i) {
    const int d =
        hex ? hex_digit(digits[i]) : (digits[i] >= '0' && digits[i] <= '9' ? digits[i] - '0' : -1);
    if (d < 0 || !multiply_add(w, hex ? 16 : 10, static_cast<unsigned>(d))) return std::nullopt;
  }
  return w;
}

inline word integer_word(const type &t, const json_value &v, const std::string &where) {
  const bool is_signed = t.of == type::kind::int_;
  const std::string name = (is_signed ? "int" : "uint") + std::to_string(t.size);
  std::string text = v.text;
  if (v.type == json_kind::number) {
    if (text.find_first_of(".eE") != std::string::npos)
      bad_value(where, text + " is not an integer, which " + name + " takes");
    const auto m = magnitude(text[0] == '-' ? text.substr(1) : text);
    if (!m || bit_length(*m) > 53)
      bad_value(where, text +
                           " is beyond 2^53 - 1, where JavaScript numbers lose digits: "
                           "write it as a string, \"" +
                           text + "\"");
  } else if (v.type != json_kind::string) {
    bad_value(where, name + " takes an integer, as a string or a number");
  }
  const bool negative = !text.empty() && text[0] == '-';
  if (negative && !is_signed)
    bad_value(where, merklize::detail::quoted(text) + " is negative: " + name + " is unsigned");
  const auto m = magnitude(negative ? text.substr(1) : text);
  if (!m)
    bad_value(where, merklize::detail::quoted(text) + " is not a " + name +
                         " (decimal digits or 0x and hex digits)");
  const unsigned bits = bit_length(*m), room = is_signed ? t.size - 1 : t.size;
  if (bits > room && !(negative && bits == t.size && is_power_of_two(*m)))
    bad_value(where, merklize::detail::quoted(text) + " does not fit " + name);
  word w = *m;
  if (negative) { // two's complement over the 256 bits
    unsigned carry = 1;
    for (std::size_t i = word_bytes; i-- > 0;) {
      const unsigned v2 = static_cast<std::uint8_t>(~w[i]) + carry;
      w[i] = static_cast<std::uint8_t>(v2);
      carry = v2 >> 8;
    }
  }
  return w;
}

// 0x and an even number of hex digits.
inline std::vector<std::uint8_t> hex_bytes(const json_value &v, const std::string &where,
                                           const std::string &name) {
  if (v.type != json_kind::string || v.text.compare(0, 2, "0x") != 0)
    bad_value(where, name + " takes a string of 0x and hex digits");
  try {
    return from_hex(v.text.substr(2));
  } catch (const error &e) {
    bad_value(where, std::string(e.what()) + " (" + name + ")");
  }
}

// EIP-55: an address's mixed-case form capitalizes hex letter i where nibble i of
// Keccak-256(lowercase hex) is 8 or more.
inline bool has_valid_checksum(const std::string &hex40) {
  std::string lower = hex40;
  for (char &c : lower)
    c = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
  const digest h = keccak::keccak256(lower.data(), lower.size());
  for (std::size_t i = 0; i < 40; ++i) {
    const unsigned nibble = (h[i / 2] >> (i % 2 ? 0 : 4)) & 15;
    const char c = hex40[i];
    if (c >= 'a' && c <= 'f' && nibble >= 8) return false;
    if (c >= 'A' && c <= 'F' && nibble < 8) return false;
  }
  return true;
}

inline word address_word(const json_value &v, const std::string &where) {
  const std::string text = v.type == json_kind::string ? v.text : "";
  const std::string hex = text.compare(0, 2, "0x") == 0 ? text.substr(2) : text;
  bool lower = false, upper = false, ok = hex.size() == 40 && v.type == json_kind::string;
  for (const char c : hex) {
    ok = ok && hex_digit(c) >= 0;
    lower = lower || (c >= 'a' && c <= 'f');
    upper = upper || (c >= 'A' && c <= 'F');
  }
  if (!ok) bad_value(where, "an address is a string of 40 hex digits, with or without 0x");
  if (lower && upper && !has_valid_checksum(hex))
    bad_value(where,
              merklize::detail::quoted(text) + " has a bad EIP-55 checksum (its mixed case)");
  const auto bytes = from_hex(hex);
  word w{};
  std::copy(bytes.begin(), bytes.end(), w.begin() + (word_bytes - bytes.size()));
  return w;
}

inline void append(std::vector<std::uint8_t> &out, const word &w) {
  out.insert(out.end(), w.begin(), w.end());
}

inline word length_word(std::uint64_t n) {
  word w{};
  for (int i = 0; i < 8; ++i)
    w[word_bytes - 1 - i] = static_cast<std::uint8_t>(n >> (8 * i));
  return w;
}

// Bytes, right-padded with zeros to whole words.
inline void append_padded(std::vector<std::uint8_t> &out, const std::uint8_t *data, std::size_t n) {
  out.insert(out.end(), data, data + n);
  out.resize(out.size() + (word_bytes - n % word_bytes) % word_bytes, 0);
}

inline void encode_value(const type &t, const json_value &v, const std::string &where,
                         std::vector<std::uint8_t> &out);

// The tuple encoding of `values` of `types`: the heads (a static value itself, a dynamic one's
// offset from the tuple's start), then the tails.
inline void encode_tuple(const std::vector<const type *> &types,
                         const std::vector<json_value> &values, const std::string &where,
                         std::vector<std::uint8_t> &out) {
  std::vector<std::uint8_t> heads, tails;
  std::vector<std::pair<std::size_t, std::size_t>> offsets; // (its place in heads, its tail's)
  for (std::size_t i = 0; i < types.size(); ++i) {
    const std::string place = where + "[" + std::to_string(i) + "]";
    if (types[i]->is_dynamic()) {
      offsets.emplace_back(heads.size(), tails.size());
      heads.resize(heads.size() + word_bytes);
      encode_value(*types[i], values[i], place, tails);
    } else {
      encode_value(*types[i], values[i], place, heads);
    }
  }
  for (const auto &[head, tail] : offsets) {
    const word offset = length_word(heads.size() + tail);
    std::copy(offset.begin(), offset.end(), heads.begin() + static_cast<std::ptrdiff_t>(head));
  }
  out.insert(out.end(), heads.begin(), heads.end());
  out.insert(out.end(), tails.begin(), tails.end());
}

inline void encode_sequence(const type &t, const json_value &v, const std::string &where,
                            std::vector<std::uint8_t> &out) {
  if (v.type != json_kind::array) bad_value(where, "an array or tuple takes a JSON array");
  const bool tuple = t.of == type::kind::tuple;
  const std::size_t expected = tuple ? t.members.size() : t.length.value_or(v.items.size());
  if (v.items.size() != expected)
    bad_value(where, "holds " + std::to_string(v.items.size()) + " values where its type takes " +
                         std::to_string(expected));
  std::vector<const type *> types;
  for (std::size_t i = 0; i < v.items.size(); ++i)
    types.push_back(tuple ? &t.members[i] : &t.members.front());
  if (t.of == type::kind::array && !t.length) append(out, length_word(v.items.size()));
  encode_tuple(types, v.items, where, out);
}

inline void encode_value(const type &t, const json_value &v, const std::string &where,
                         std::vector<std::uint8_t> &out) {
  using kind = type::kind;
  switch (t.of) {
  case kind::uint:
  case kind::int_:
    return append(out, integer_word(t, v, where));
  case kind::address:
    return append(out, address_word(v, where));
  case kind::boolean:
    if (v.type != json_kind::boolean) bad_value(where, "bool takes true or false");
    return append(out, length_word(v.boolean ? 1 : 0));
  case kind::fixed_bytes: {
    const std::string name = "bytes" + std::to_string(t.size);
    const auto bytes = hex_bytes(v, where, name);
    if (bytes.size() != t.size)
      bad_value(where, "holds " + std::to_string(bytes.size()) + " bytes, " + name + " " +
                           std::to_string(t.size));
    return append_padded(out, bytes.data(), bytes.size());
  }
  case kind::bytes:
  case kind::string: {
    if (t.of == kind::string && v.type != json_kind::string)
      bad_value(where, "string takes a JSON string");
    const auto bytes = t.of == kind::bytes
                           ? hex_bytes(v, where, "bytes")
                           : std::vector<std::uint8_t>(v.text.begin(), v.text.end());
    append(out, length_word(bytes.size()));
    return append_padded(out, bytes.data(), bytes.size());
  }
  case kind::array:
  case kind::tuple:
    return encode_sequence(t, v, where, out);
  }
}

} // namespace detail

// abi.encode(values...) of one row of values (a JSON array, one value per type), `where` naming
// the row in errors ("values[3]").
inline std::vector<std::uint8_t> encode(const std::vector<type> &types,
                                        const merklize::detail::json::value &row,
                                        const std::string &where) {
  type tuple{type::kind::tuple, 0, std::nullopt, types};
  std::vector<std::uint8_t> out;
  detail::encode_sequence(tuple, row, where, out);
  return out;
}

} // namespace abi
} // namespace merklize
