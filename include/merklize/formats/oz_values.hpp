// SPDX-License-Identifier: Apache-2.0 OR MIT
// A StandardMerkleTree's JSON, read and written: the values it is built from,
// {"leafEncoding": ["address", "uint256"], "values": [["0x11..", "5000"], ...]}, or the dump that
// OpenZeppelin's tree.dump() gives and StandardMerkleTree.load() takes,
// {"format": "standard-v1", "leafEncoding": [...], "tree": ["0x..", ...],
//  "values": [{"value": [...], "treeIndex": 5}, ...]}. A dump is written as JSON.stringify writes
// it, the values as they were given. Host only, no OpenCL (formats/oz_standard.hpp has the tree).
#pragma once

#include "abi.hpp"
#include "oz_standard.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace merklize {
namespace oz {

using json_value = merklize::detail::json::value;

// What a JSON text holds: the types and values, and from a dump its tree and each value's index.
struct standard_input {
  std::vector<std::string> leaf_encoding;
  std::vector<abi::type> types;
  std::vector<json_value> values; // rows, each a JSON array
  bool is_dump = false;
  std::vector<digest> tree;              // a dump's
  std::vector<std::uint64_t> tree_index; // a dump's, of each value
};

// A whole tree: its array, its values and where each value's leaf lies.
struct standard_tree {
  std::vector<std::string> leaf_encoding;
  std::vector<json_value> values;
  std::vector<std::uint64_t> tree_index;
  std::vector<digest> tree;

  const digest &root() const { return tree.front(); }
};

// JSON texts of a tree of a million values run to hundreds of MiB.
constexpr std::size_t max_json_bytes = std::size_t(1) << 30;

namespace detail {

using json_kind = merklize::detail::json::kind;

[[noreturn]] inline void bad_input(const std::string &name, const std::string &why) {
  throw error(name + ": " + why);
}

inline const json_value *member(const json_value &object, const char *key) {
  for (const auto &m : object.members)
    if (m.first == key) return &m.second;
  return nullptr;
}

inline std::vector<std::string> leaf_encoding_of(const json_value &v, const std::string &name) {
  if (v.type != json_kind::array || v.items.empty())
    bad_input(name, "\"leafEncoding\" is not an array of at least one type name");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < v.items.size(); ++i) {
    if (v.items[i].type != json_kind::string)
      bad_input(name, "\"leafEncoding\"[" + std::to_string(i) + "] is not a string");
    names.push_back(v.items[i].text);
  }
  return names;
}

inline std::uint64_t index_of(const json_value &v, const std::string &where) {
  const std::string &t = v.text;
  if (v.type != json_kind::number || t.empty() || t.size() > 15 ||
      t.find_first_not_of("0123456789") != std::string::npos)
    throw error(where + " is not a non-negative integer");
  return std::stoull(t);
}

inline digest node_of(const json_value &v, const std::string &where) {
  if (v.type != json_kind::string || v.text.size() != 66 || v.text.compare(0, 2, "0x") != 0)
    throw error(where + " is not a node: 0x and 64 hex digits");
  return digest_from_hex(v.text.substr(2));
}

// A dump's "tree" and "values" ({"value", "treeIndex"}).
inline void read_dump(const json_value &doc, standard_input &in, const std::string &name) {
  const json_value *format = member(doc, "format");
  if (format->type != json_kind::string || format->text != "standard-v1")
    bad_input(name, "\"format\" is not \"standard-v1\": not a StandardMerkleTree's dump");
  const json_value *tree = member(doc, "tree");
  if (!tree || tree->type != json_kind::array) bad_input(name, "a dump's \"tree\" is not an array");
  for (std::size_t i = 0; i < tree->items.size(); ++i)
    in.tree.push_back(node_of(tree->items[i], name + ": \"tree\"[" + std::to_string(i) + "]"));
  const json_value &values = *member(doc, "values");
  for (std::size_t i = 0; i < values.items.size(); ++i) {
    const std::string where = name + ": \"values\"[" + std::to_string(i) + "]";
    const json_value &entry = values.items[i];
    const json_value *value = entry.type == json_kind::object ? member(entry, "value") : nullptr;
    const json_value *index =
        entry.type == json_kind::object ? member(entry, "treeIndex") : nullptr;
    if (!value || !index || entry.members.size() != 2)
      throw error(where + " is not {\"value\": [...], \"treeIndex\": N}");
    in.values.push_back(*value);
    in.tree_index.push_back(index_of(*index, where + ".treeIndex"));
  }
}

} // namespace detail

// Reads either JSON text; `name` names it in errors. The types are parsed; the values are checked
// when they are encoded (leaf_hashes).
inline standard_input read_standard_json(std::string_view text, const std::string &name) {
  using detail::json_kind;
  merklize::detail::json::reader r(text, max_json_bytes);
  json_value doc;
  try {
    doc = merklize::detail::json::read_value(r);
    r.finish();
  } catch (const error &e) {
    detail::bad_input(name, e.what());
  }
  if (doc.type != json_kind::object) detail::bad_input(name, "not a JSON object");
  for (const auto &m : doc.members)
    if (m.first != "format" && m.first != "leafEncoding" && m.first != "tree" &&
        m.first != "values")
      detail::bad_input(name, "unknown member \"" + m.first +
                                  "\" (a StandardMerkleTree's JSON "
                                  "holds leafEncoding and values, and a dump format and tree)");
  const json_value *encoding = detail::member(doc, "leafEncoding");
  const json_value *values = detail::member(doc, "values");
  if (!encoding || !values || values->type != json_kind::array)
    detail::bad_input(name, "needs \"leafEncoding\": [types] and \"values\": [rows]");
  standard_input in;
  in.leaf_encoding = detail::leaf_encoding_of(*encoding, name);
  for (const std::string &t : in.leaf_encoding) {
    try {
      in.types.push_back(abi::parse_type(t));
    } catch (const error &e) {
      detail::bad_input(name, std::string("\"leafEncoding\": ") + e.what());
    }
  }
  in.is_dump = detail::member(doc, "format") != nullptr;
  if (in.is_dump)
    detail::read_dump(doc, in, name);
  else if (detail::member(doc, "tree"))
    detail::bad_input(name, "\"tree\" without \"format\": a dump names its format, standard-v1");
  else
    in.values = values->items;
  if (in.values.empty()) detail::bad_input(name, "\"values\" is empty: a tree needs a value");
  return in;
}

// The leaf hash of each value, in the values' order, each value checked against the types.
inline std::vector<digest> leaf_hashes(const standard_input &in, const std::string &name) {
  std::vector<digest> hashes;
  hashes.reserve(in.values.size());
  for (std::size_t i = 0; i < in.values.size(); ++i)
    hashes.push_back(standard_leaf(
        abi::encode(in.types, in.values[i], name + ": \"values\"[" + std::to_string(i) + "]")));
  return hashes;
}

// A dump's leaves checked as StandardMerkleTree.validate() checks them: 2n - 1 nodes, and each
// value's leaf hash at its treeIndex.
inline void check_dump_leaves(const standard_input &in, const std::vector<digest> &hashes,
                              const std::string &name) {
  const std::uint64_t n = in.values.size();
  if (in.tree.size() != 2 * n - 1)
    detail::bad_input(name, "the tree holds " + std::to_string(in.tree.size()) + " nodes, " +
                                std::to_string(n) + " values make " + std::to_string(2 * n - 1));
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint64_t i = in.tree_index[v];
    if (!is_leaf_index(in.tree.size(), i) || in.tree[i] != hashes[v])
      detail::bad_input(name, "\"values\"[" + std::to_string(v) +
                                  "] is not the leaf at its "
                                  "treeIndex " +
                                  std::to_string(i) +
                                  ": Merkle tree does not contain "
                                  "the expected value");
  }
}

// The leaves of a dump, in the tree's order (leaf k at index 2n - 2 - k).
inline std::vector<digest> dump_leaves(const standard_input &in) {
  const std::size_t n = in.values.size();
  return std::vector<digest>(in.tree.rbegin(), in.tree.rbegin() + static_cast<std::ptrdiff_t>(n));
}

// The tree of the values `in` holds. From values: their leaves placed (sorted by hash unless
// `sort_leaves` is false) and the array built by `make_tree(leaves)`. From a dump: its leaves
// checked, the array rebuilt from them by `make_tree` and checked to be the dump's ("Merkle tree
// is invalid"). `make_tree` is oz::make_tree on the host, or a device's (pair_tree.hpp).
template <class MakeTree>
standard_tree standard_tree_of(standard_input in, bool sort_leaves, const std::string &name,
                               MakeTree &&make_tree) {
  const std::vector<digest> hashes = leaf_hashes(in, name);
  standard_tree t;
  if (in.is_dump) {
    check_dump_leaves(in, hashes, name);
    t.tree = make_tree(dump_leaves(in));
    if (t.tree != in.tree)
      detail::bad_input(name, "Merkle tree is invalid: " +
                                  tree_defect(in.tree).value_or("its nodes are not its leaves'"));
    t.tree_index = std::move(in.tree_index);
  } else {
    leaf_order placed = order_leaves(hashes, sort_leaves);
    t.tree = make_tree(placed.leaves);
    t.tree_index = std::move(placed.tree_index);
  }
  t.leaf_encoding = std::move(in.leaf_encoding);
  t.values = std::move(in.values);
  return t;
}

// ---- Writing, as JSON.stringify writes ----

namespace detail {

inline void stringify_string(const std::string &s, std::string &out) {
  static const char digits[] = "0123456789abcdef";
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        out += "\\u00";
        out += digits[c >> 4];
        out += digits[c & 15];
      } else {
        out += ch;
      }
    }
  }
  out += '"';
}

inline void stringify(const json_value &v, std::string &out) {
  switch (v.type) {
  case json_kind::null:
    out += "null";
    return;
  case json_kind::boolean:
    out += v.boolean ? "true" : "false";
    return;
  case json_kind::number:
    out += v.text == "-0" ? "0" : v.text;
    return;
  case json_kind::string:
    return stringify_string(v.text, out);
  case json_kind::array:
    out += '[';
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      if (i) out += ',';
      stringify(v.items[i], out);
    }
    out += ']';
    return;
  case json_kind::object:
    out += '{';
    for (std::size_t i = 0; i < v.members.size(); ++i) {
      if (i) out += ',';
      stringify_string(v.members[i].first, out);
      out += ':';
      stringify(v.members[i].second, out);
    }
    out += '}';
    return;
  }
}

} // namespace detail

inline std::string node_text(const digest &d) { return "0x" + to_hex(d); }

inline std::string nodes_json(const std::vector<digest> &nodes) {
  std::string out = "[";
  for (std::size_t i = 0; i < nodes.size(); ++i)
    out += (i ? ",\"" : "\"") + node_text(nodes[i]) + "\"";
  return out + "]";
}

inline std::string value_json(const json_value &v) {
  std::string out;
  detail::stringify(v, out);
  return out;
}

// tree.dump(), as JSON.stringify(tree.dump()) writes it (no line break).
inline std::string dump_json(const standard_tree &t) {
  std::string out = "{\"format\":\"standard-v1\",\"leafEncoding\":[";
  for (std::size_t i = 0; i < t.leaf_encoding.size(); ++i) {
    if (i) out += ',';
    detail::stringify_string(t.leaf_encoding[i], out);
  }
  out += "],\"tree\":" + nodes_json(t.tree) + ",\"values\":[";
  for (std::size_t v = 0; v < t.values.size(); ++v) {
    out += (v ? ",{\"value\":" : "{\"value\":") + value_json(t.values[v]) +
           ",\"treeIndex\":" + std::to_string(t.tree_index[v]) + "}";
  }
  return out + "]}";
}

// The proof of value `v` as the command line prints it: the value, its leaf and getProof's nodes.
inline std::string proof_json(const standard_tree &t, std::uint64_t v) {
  if (v >= t.values.size())
    throw error("value " + std::to_string(v) + " is past the tree's " +
                std::to_string(t.values.size()) + " values");
  const std::uint64_t i = t.tree_index[v];
  return "{\"value\":" + value_json(t.values[v]) + ",\"leaf\":\"" + node_text(t.tree[i]) +
         "\",\"proof\":" + nodes_json(get_proof(t.tree, i)) + "}";
}

// getMultiProof of values `vs`, as OpenZeppelin returns it: {"leaves": the values, "proof",
// "proofFlags"}.
inline std::string multiproof_json(const standard_tree &t, const std::vector<std::uint64_t> &vs) {
  std::vector<std::uint64_t> indices, value_at(t.tree.size(), 0);
  for (const std::uint64_t v : vs) {
    if (v >= t.values.size())
      throw error("value " + std::to_string(v) + " is past the tree's " +
                  std::to_string(t.values.size()) + " values");
    indices.push_back(t.tree_index[v]);
  }
  for (std::size_t v = 0; v < t.values.size(); ++v)
    value_at[t.tree_index[v]] = v;
  const multiproof m = get_multiproof(t.tree, indices);
  std::string out = "{\"leaves\":[";
  for (std::size_t k = 0; k < m.tree_indices.size(); ++k)
    out += (k ? "," : "") + value_json(t.values[value_at[m.tree_indices[k]]]);
  out += "],\"proof\":" + nodes_json(m.proof) + ",\"proofFlags\":[";
  for (std::size_t k = 0; k < m.flags.size(); ++k)
    out += std::string(k ? "," : "") + (m.flags[k] ? "true" : "false");
  return out + "]}";
}

} // namespace oz
} // namespace merklize
