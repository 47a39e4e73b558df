// SPDX-License-Identifier: Apache-2.0 OR MIT
// The versioned binary and JSON encodings of proofs (docs/PROOFS.md). Decoding takes untrusted
// bytes: malformed encodings are rejected with a merklize::error naming the problem, and JSON is
// read in one pass within bounded time and memory. No OpenCL.
#pragma once

#include "../core/json.hpp"
#include "proof_model.hpp"

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

constexpr unsigned proof_format_version = 1;
// The longest JSON proof the decoders read (64 MiB); the binary encoding has no such limit.
constexpr std::size_t max_json_proof_bytes = detail::json::max_text_bytes;

namespace detail {

constexpr char binary_magic[4] = {'M', 'K', 'L', 'P'};
// The binary codes of the kinds. An inclusion proof with a length mixed in (an SSZ list
// element's) is a kind of its own in the binary encoding, which has no optional fields; in JSON
// it is an "inclusion" proof with a "mixed_length" member.
enum proof_kind : std::uint8_t {
  inclusion_kind = 1,
  multiproof_kind = 2,
  consistency_kind = 3,
  mixed_inclusion_kind = 4,
};

inline const char *kind_name(proof_kind kind) {
  switch (kind) {
  case inclusion_kind:
  case mixed_inclusion_kind:
    return "inclusion";
  case multiproof_kind:
    return "multiproof";
  case consistency_kind:
    return "consistency";
  }
  return "unknown";
}

class byte_writer {
public:
  void u8(std::uint8_t v) { bytes.push_back(v); }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
      u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void name(const std::string &s) {
    u8(static_cast<std::uint8_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void nodes(const std::vector<digest> &list) {
    u64(list.size());
    for (const auto &d : list)
      bytes.insert(bytes.end(), d.begin(), d.end());
  }
  std::vector<std::uint8_t> bytes;
};

// Reads an untrusted encoding: every read is checked against the bytes left.
class byte_reader {
public:
  byte_reader(const std::uint8_t *data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t u8(const char *what) {
    need(1, what);
    return data_[pos_++];
  }
  std::uint64_t u64(const char *what) {
    need(8, what);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t(data_[pos_++]) << (8 * i);
    return v;
  }
  std::string name(const char *what) {
    const std::size_t length = u8(what);
    need(length, what);
    std::string s(reinterpret_cast<const char *>(data_ + pos_), length);
    pos_ += length;
    return s;
  }
  // A count of `unit`-byte items that must all fit in what is left.
  std::uint64_t count(const char *what, std::size_t unit) {
    const std::uint64_t n = u64(what);
    if (n > (size_ - pos_) / unit)
      fail(std::string("truncated: ") + what + " says " + std::to_string(n) + " items of " +
           std::to_string(unit) + " bytes, only " + std::to_string(size_ - pos_) + " bytes follow");
    return n;
  }
  std::vector<digest> nodes(const char *what) {
    std::vector<digest> list(count(what, node_bytes));
    for (auto &d : list) {
      std::copy(data_ + pos_, data_ + pos_ + node_bytes, d.begin());
      pos_ += node_bytes;
    }
    return list;
  }
  void expect_magic() {
    need(sizeof binary_magic, "the magic");
    if (!std::equal(binary_magic, binary_magic + sizeof binary_magic, data_))
      fail("not a merklize proof (the magic is not \"MKLP\")");
    pos_ += sizeof binary_magic;
  }
  void expect_end() {
    if (pos_ != size_) fail(std::to_string(size_ - pos_) + " bytes after the end of the proof");
  }

private:
  [[noreturn]] void fail(const std::string &why) const {
    throw error(why + " (offset " + std::to_string(pos_) + ")");
  }
  void need(std::size_t n, const char *what) {
    if (size_ - pos_ < n)
      fail(std::string("truncated in ") + what + ": " + std::to_string(n) + " bytes needed, " +
           std::to_string(size_ - pos_) + " left");
  }

  const std::uint8_t *data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

inline void check_version(std::uint64_t version) {
  if (version != proof_format_version)
    throw error("version " + std::to_string(version) +
                " is not supported (this merklize reads version " +
                std::to_string(proof_format_version) + ")");
}

// The encodings carry the root's depth; options.depth is set from it only where it differs from
// the natural depth, as tree_options leaves it unset then.
inline std::uint64_t checked_depth(std::uint64_t depth) {
  if (depth > 64) throw error("a root depth of " + std::to_string(depth) + " is more than 64");
  return depth;
}

inline void set_root_depth(tree_options &options, std::uint64_t leaf_count, std::uint64_t depth) {
  checked_depth(depth);
  options.depth.reset();
  if (depth != depth_of(leaf_count)) options.depth = static_cast<unsigned>(depth);
}

inline void write_binary_header(byte_writer &w, proof_kind kind, const tree_options &options,
                                std::uint64_t leaf_count) {
  w.bytes.insert(w.bytes.end(), binary_magic, binary_magic + sizeof binary_magic);
  w.u8(proof_format_version);
  w.u8(kind);
  w.name(to_string(options.hash));
  w.name(to_string(options.shape));
  w.u64(leaf_count);
  w.u8(static_cast<std::uint8_t>(checked_depth(root_depth_of(options, leaf_count))));
}

// Reads the header up to the root depth into `options` and `leaf_count`; returns the kind, which
// must be `kind` or `also` (an inclusion proof's two codes).
inline proof_kind read_binary_header(byte_reader &r, proof_kind kind, tree_options &options,
                                     std::uint64_t &leaf_count,
                                     std::optional<proof_kind> also = std::nullopt) {
  r.expect_magic();
  check_version(r.u8("the version"));
  const unsigned found = r.u8("the kind");
  if (found != kind && (!also || found != *also))
    throw error("kind " + std::to_string(found) + " where " + std::to_string(kind) + " (" +
                kind_name(kind) + ") was expected");
  options.hash = parse_hash_kind(r.name("the hash name"));
  options.shape = parse_shape(r.name("the shape name"));
  leaf_count = r.u64("the leaf count");
  set_root_depth(options, leaf_count, r.u8("the depth"));
  return static_cast<proof_kind>(found);
}

inline std::string json_header(proof_kind kind, const tree_options &options,
                               std::uint64_t leaf_count) {
  return "{\"format\":\"merklize-proof\",\"version\":" + std::to_string(proof_format_version) +
         ",\"kind\":" + json_quote(kind_name(kind)) +
         ",\"hash\":" + json_quote(to_string(options.hash)) +
         ",\"shape\":" + json_quote(to_string(options.shape)) +
         ",\"leaf_count\":" + std::to_string(leaf_count) +
         ",\"depth\":" + std::to_string(root_depth_of(options, leaf_count));
}

inline std::string json_nodes(const std::vector<digest> &nodes) {
  std::string out = "[";
  for (std::size_t i = 0; i < nodes.size(); ++i)
    out += (i ? ",\"" : "\"") + to_hex(nodes[i]) + "\"";
  return out + "]";
}

// A JSON proof's header members as read, checked once the whole object is read.
struct json_proof_header {
  std::string format, kind, hash, shape;
  std::uint64_t version = 0, leaf_count = 0, depth = 0;
};

// The keys of a JSON proof: the header's, then those of its kind (json_body_keys).
constexpr const char *json_header_keys[] = {"format", "version",    "kind", "hash",
                                            "shape",  "leaf_count", "depth"};
constexpr std::size_t json_header_members = std::size(json_header_keys);

// The members of a kind: `required` of them, then the optional ones.
struct json_body {
  const char *const *keys;
  std::size_t count, required;
};

inline json_body json_body_keys(proof_kind kind) {
  static constexpr const char *inclusion[] = {"index", "siblings", "mixed_length"};
  static constexpr const char *multi[] = {"indices", "nodes"};
  static constexpr const char *consistency[] = {"old_size", "nodes"};
  if (kind == consistency_kind) return {consistency, 2, 2};
  return kind == multiproof_kind ? json_body{multi, 2, 2} : json_body{inclusion, 3, 2};
}

// The position of `key` among the proof's keys, or nothing where it is not one of them.
inline std::optional<std::size_t> json_key_position(const std::string &key, proof_kind kind) {
  for (std::size_t i = 0; i < json_header_members; ++i)
    if (key == json_header_keys[i]) return i;
  const json_body body = json_body_keys(kind);
  for (std::size_t i = 0; i < body.count; ++i)
    if (key == body.keys[i]) return json_header_members + i;
  return std::nullopt;
}

inline void check_json_kind(const std::string &found, proof_kind kind) {
  if (found != kind_name(kind))
    throw error("kind " + detail::quoted(found) + " where \"" + kind_name(kind) +
                "\" was expected");
}

// Reads the value of header member `position` into `h`; the kind is checked at once, so that
// the other kind's members are not reported as unknown keys.
inline void read_json_header_member(json::reader &r, std::size_t position, proof_kind kind,
                                    json_proof_header &h) {
  const json::place where{json_header_keys[position], {}};
  switch (position) {
  case 0:
    h.format = json::read_string(r, where);
    return;
  case 1:
    h.version = json::read_u64(r, where);
    return;
  case 2:
    h.kind = json::read_string(r, where);
    return check_json_kind(h.kind, kind);
  case 3:
    h.hash = json::read_string(r, where);
    return;
  case 4:
    h.shape = json::read_string(r, where);
    return;
  case 5:
    h.leaf_count = json::read_u64(r, where);
    return;
  default:
    h.depth = json::read_u64(r, where);
  }
}

inline void check_json_header(const json_proof_header &h, tree_options &options,
                              std::uint64_t &leaf_count) {
  if (h.format != "merklize-proof") throw error("\"format\" is not \"merklize-proof\"");
  check_version(h.version);
  options.hash = parse_hash_kind(h.hash);
  options.shape = parse_shape(h.shape);
  leaf_count = h.leaf_count;
  set_root_depth(options, leaf_count, h.depth);
}

// Reads a JSON proof of `kind` in one pass, holding only what it decodes: the header into
// `options` and `leaf_count`, the value of body member i (json_body_keys) through
// read_body(reader, i). Every key is required once and no other is allowed.
template <class ReadBody>
void read_json_proof(const std::string &text, proof_kind kind, tree_options &options,
                     std::uint64_t &leaf_count, ReadBody read_body) {
  json::reader r(text);
  if (r.peek() != json::kind::object) {
    r.skip();
    throw error("the proof is not a JSON object");
  }
  json_proof_header header;
  std::uint32_t seen = 0;             // a bit per key position
  std::optional<std::string> unknown; // the first key that is not the proof's
  std::string key;
  r.begin_object();
  while (r.next_key(key)) {
    const auto position = json_key_position(key, kind);
    if (!position) {
      if (!unknown) unknown = key;
      r.skip();
      continue;
    }
    if (seen >> *position & 1) r.fail("duplicate key " + detail::quoted(key));
    seen |= std::uint32_t(1) << *position;
    if (*position < json_header_members)
      read_json_header_member(r, *position, kind, header);
    else
      read_body(r, *position - json_header_members);
  }
  r.finish();
  const json_body body = json_body_keys(kind);
  for (std::size_t i = 0; i < json_header_members + body.required; ++i)
    if (!(seen >> i & 1))
      throw error(
          std::string("the proof has no \"") +
          (i < json_header_members ? json_header_keys[i] : body.keys[i - json_header_members]) +
          "\"");
  if (unknown) throw error("the proof has an unknown key " + detail::quoted(*unknown));
  check_json_header(header, options, leaf_count);
}

// A node: 64 hex digits.
inline digest read_json_node(json::reader &r, const json::place &where) {
  const std::string hex = json::read_string(r, where);
  try {
    return digest_from_hex(hex);
  } catch (const error &e) {
    throw error(where.str() + ": " + e.what());
  }
}

inline std::vector<digest> read_json_nodes(json::reader &r, const char *member) {
  constexpr std::size_t quoted_hex_bytes = 2 * node_bytes + 2;
  return json::read_array(r, member, quoted_hex_bytes, read_json_node);
}

inline std::vector<std::uint64_t> read_json_indices(json::reader &r) {
  // A lambda rather than a function pointer, so that the read of each index is inlined.
  return json::read_array(r, "indices", 1, [](json::reader &items, const json::place &where) {
    return json::read_u64(items, where);
  });
}

// Runs a decoder over untrusted input, naming the encoding in its errors.
template <class Decode> auto decoding(const char *encoding, Decode decode) {
  try {
    return decode();
  } catch (const error &e) {
    throw error(std::string(encoding) + ": " + e.what());
  }
}

} // namespace detail

inline std::vector<std::uint8_t> to_binary(const inclusion_proof &proof) {
  detail::byte_writer w;
  detail::write_binary_header(
      w, proof.mixed_length ? detail::mixed_inclusion_kind : detail::inclusion_kind, proof.options,
      proof.leaf_count);
  w.u64(proof.index);
  w.nodes(proof.siblings);
  if (proof.mixed_length) w.u64(*proof.mixed_length);
  return w.bytes;
}

inline std::vector<std::uint8_t> to_binary(const multiproof &proof) {
  detail::byte_writer w;
  detail::write_binary_header(w, detail::multiproof_kind, proof.options, proof.leaf_count);
  w.u64(proof.indices.size());
  for (const std::uint64_t index : proof.indices)
    w.u64(index);
  w.nodes(proof.nodes);
  return w.bytes;
}

inline inclusion_proof inclusion_proof_from_binary(const std::uint8_t *data, std::size_t size) {
  return detail::decoding("binary proof", [&] {
    detail::byte_reader r(data, size);
    inclusion_proof proof;
    const detail::proof_kind kind = detail::read_binary_header(
        r, detail::inclusion_kind, proof.options, proof.leaf_count, detail::mixed_inclusion_kind);
    proof.index = r.u64("the leaf index");
    proof.siblings = r.nodes("the siblings");
    if (kind == detail::mixed_inclusion_kind) proof.mixed_length = r.u64("the mixed-in length");
    r.expect_end();
    return proof;
  });
}

inline inclusion_proof inclusion_proof_from_binary(const std::vector<std::uint8_t> &bytes) {
  return inclusion_proof_from_binary(bytes.data(), bytes.size());
}

inline multiproof multiproof_from_binary(const std::uint8_t *data, std::size_t size) {
  return detail::decoding("binary proof", [&] {
    detail::byte_reader r(data, size);
    multiproof proof;
    detail::read_binary_header(r, detail::multiproof_kind, proof.options, proof.leaf_count);
    proof.indices.resize(r.count("the leaf indices", 8));
    for (auto &index : proof.indices)
      index = r.u64("the leaf indices");
    proof.nodes = r.nodes("the nodes");
    r.expect_end();
    return proof;
  });
}

inline multiproof multiproof_from_binary(const std::vector<std::uint8_t> &bytes) {
  return multiproof_from_binary(bytes.data(), bytes.size());
}

// One line of JSON, no trailing newline.
inline std::string to_json(const inclusion_proof &proof) {
  return detail::json_header(detail::inclusion_kind, proof.options, proof.leaf_count) +
         ",\"index\":" + std::to_string(proof.index) +
         ",\"siblings\":" + detail::json_nodes(proof.siblings) +
         (proof.mixed_length ? ",\"mixed_length\":" + std::to_string(*proof.mixed_length) : "") +
         "}";
}

inline std::string to_json(const multiproof &proof) {
  std::string indices = "[";
  for (std::size_t i = 0; i < proof.indices.size(); ++i)
    indices += (i ? "," : "") + std::to_string(proof.indices[i]);
  return detail::json_header(detail::multiproof_kind, proof.options, proof.leaf_count) +
         ",\"indices\":" + indices + "],\"nodes\":" + detail::json_nodes(proof.nodes) + "}";
}

inline inclusion_proof inclusion_proof_from_json(const std::string &text) {
  return detail::decoding("proof JSON", [&] {
    inclusion_proof proof;
    detail::read_json_proof(
        text, detail::inclusion_kind, proof.options, proof.leaf_count,
        [&](detail::json::reader &r, std::size_t member) {
          if (member == 0)
            proof.index = detail::json::read_u64(r, {"index", {}});
          else if (member == 1)
            proof.siblings = detail::read_json_nodes(r, "siblings");
          else
            proof.mixed_length = detail::json::read_u64(r, {"mixed_length", {}});
        });
    return proof;
  });
}

inline multiproof multiproof_from_json(const std::string &text) {
  return detail::decoding("proof JSON", [&] {
    multiproof proof;
    detail::read_json_proof(text, detail::multiproof_kind, proof.options, proof.leaf_count,
                            [&](detail::json::reader &r, std::size_t member) {
                              if (member == 0)
                                proof.indices = detail::read_json_indices(r);
                              else
                                proof.nodes = detail::read_json_nodes(r, "nodes");
                            });
    return proof;
  });
}

} // namespace merklize
