// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary proofs (kary.hpp) as JSON, one object, no OpenCL:
//
//   {"kind":"kary-inclusion","arity":16,"hash":"sha256","pad":"zero","leaf_count":1000,
//    "index":7,"siblings":[["<64 hex digits>",...],...]}
//
// siblings[l] holds the other children of the leaf's path's group at level l, in order. The
// decoder takes untrusted text: every member once, nothing else, each of its type, bounded in
// size (core/json.hpp); kary_verify then checks the counts against the tree's shape.
#pragma once

#include "../core/json.hpp"
#include "../core/kary.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace merklize {

namespace detail {

// The members every k-ary proof's JSON opens with: its kind, the tree's options and leaf count,
// and the comma after them.
inline std::string kary_json_head(const char *kind, const kary_options &options,
                                  std::uint64_t leaf_count) {
  return std::string("{\"kind\":\"") + kind + "\",\"arity\":" + std::to_string(options.arity) +
         ",\"hash\":\"" + to_string(options.hash) + "\",\"pad\":\"" + to_string(options.shape) +
         "\",\"leaf_count\":" + std::to_string(leaf_count) + ",";
}

} // namespace detail

inline std::string to_json(const kary_proof &proof) {
  std::string out = detail::kary_json_head("kary-inclusion", proof.options, proof.leaf_count) +
                    "\"index\":" + std::to_string(proof.index) + ",\"siblings\":[";
  for (std::size_t level = 0; level < proof.siblings.size(); ++level) {
    out += level ? ",[" : "[";
    for (std::size_t i = 0; i < proof.siblings[level].size(); ++i)
      out += (i ? ",\"" : "\"") + to_hex(proof.siblings[level][i]) + "\"";
    out += "]";
  }
  return out + "]}";
}

// The "kind" of a JSON object ("inclusion", "multiproof", "consistency", "kary-inclusion",
// "kary-multiproof"), or
// nothing where `text` is no object or has no string "kind" (malformed text included: the
// decoder of the kind reports that).
inline std::optional<std::string> json_proof_kind(std::string_view text) {
  try {
    detail::json::reader r(text);
    if (r.peek() != detail::json::kind::object) return std::nullopt;
    r.begin_object();
    for (std::string key; r.next_key(key);) {
      if (key == "kind")
        return r.peek() == detail::json::kind::string ? std::optional<std::string>(r.string())
                                                      : std::nullopt;
      r.skip();
    }
  } catch (const error &) {
  }
  return std::nullopt;
}

// Whether `text` is a JSON object whose "kind" is "kary-inclusion".
inline bool is_kary_proof_json(std::string_view text) {
  return json_proof_kind(text) == "kary-inclusion";
}

namespace detail {

inline digest read_kary_digest(json::reader &r, const json::place &where) {
  const std::string hex = json::read_string(r, where);
  try {
    return digest_from_hex(hex);
  } catch (const error &e) {
    throw error(where.str() + ": " + e.what());
  }
}

// One of the members every k-ary proof's JSON opens with (kary_json_head's) read into `options`
// and `leaf_count`, the kind checked against `kind`; false where `key` is none of them.
inline bool read_kary_head_member(json::reader &r, const std::string &key, const char *kind,
                                  kary_options &options, std::uint64_t &leaf_count) {
  const json::place where{key.c_str(), {}};
  if (key == "kind") {
    if (json::read_string(r, where) != kind)
      throw error(std::string("\"kind\" is not \"") + kind + "\"");
  } else if (key == "arity") {
    const std::uint64_t k = json::read_u64(r, where);
    options.arity = k > 128 ? 0 : static_cast<unsigned>(k);
  } else if (key == "hash") {
    options.hash = parse_hash_kind(json::read_string(r, where));
  } else if (key == "pad") {
    options.shape = parse_shape(json::read_string(r, where));
  } else if (key == "leaf_count") {
    leaf_count = json::read_u64(r, where);
  } else {
    return false;
  }
  return true;
}

inline void read_kary_member(json::reader &r, const std::string &key, kary_proof &proof) {
  const json::place where{key.c_str(), {}};
  if (read_kary_head_member(r, key, "kary-inclusion", proof.options, proof.leaf_count)) return;
  if (key == "index") {
    proof.index = json::read_u64(r, where);
  } else if (key == "siblings") {
    proof.siblings = json::read_array(r, "siblings", 2, [](json::reader &in, const json::place &) {
      return json::read_array(in, "siblings", 66, read_kary_digest);
    });
  } else {
    throw error("unknown member " + detail::quoted(key) + " in a k-ary proof");
  }
}

} // namespace detail

namespace detail {

// A k-ary proof's object (`what`: "k-ary proof") read from untrusted text: each of `members`
// once, nothing else, read_member(reader, key) reading each; its options then checked.
template <class Proof, std::size_t count, class ReadMember>
Proof read_kary_object(std::string_view text, const char *what, const char *const (&members)[count],
                       ReadMember read_member) {
  Proof proof;
  json::reader r(text);
  json::expect_kind(r, json::kind::object, {"proof", {}}, "an object");
  r.begin_object();
  std::vector<std::string> seen;
  for (std::string key; r.next_key(key);) {
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      throw error(std::string(what) + ": " + detail::quoted(key) + " given twice");
    read_member(r, key, proof);
    seen.push_back(key);
  }
  r.finish();
  for (const char *member : members)
    if (std::find(seen.begin(), seen.end(), member) == seen.end())
      throw error(std::string(what) + ": no \"" + member + "\"");
  check_kary(proof.options);
  return proof;
}

} // namespace detail

// The proof a text of to_json(kary_proof) holds; throws merklize::error naming what is wrong.
inline kary_proof kary_proof_from_json(std::string_view text) {
  static const char *const members[] = {"kind",       "arity", "hash",    "pad",
                                        "leaf_count", "index", "siblings"};
  return detail::read_kary_object<kary_proof>(text, "k-ary proof", members,
                                              detail::read_kary_member);
}

} // namespace merklize
