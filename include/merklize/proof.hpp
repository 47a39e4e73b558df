// Inclusion proofs and multiproofs of merklize trees: made from a host tree, verified on the
// host, stored in a versioned binary or JSON encoding (docs/PROOFS.md). This header needs no
// OpenCL, so a verifier can be built without it; proof_device.hpp gathers and verifies batches of
// proofs on a device.
//
//   const merklize::inclusion_proof proof = merklize::prove(tree, 4);
//   const std::string stored = merklize::to_json(proof);
//   if (!merklize::verify(merklize::inclusion_proof_from_json(stored), leaf, root)) ...
//
// Verification takes untrusted proofs: any proof, however malformed, is rejected with a reason and
// never read out of bounds; decoding rejects malformed encodings with a merklize::error.
#pragma once

#include "detail/json.hpp"
#include "tree.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

// That the leaf at `index` belongs to the tree of `leaf_count` leaves built with `options`
// (options.depth: shape zero's fixed root depth, if any). `siblings` runs from the leaves up, one
// node per level up to the root: the sibling of the path's node. Where the path's node is the
// lone last node of its level, shape::promote records nothing (the node moves up) and
// shape::zero records the zero-subtree root it was hashed with, as on the levels that a fixed
// depth adds above the stored tree.
struct inclusion_proof {
  tree_options options;
  std::uint64_t leaf_count = 0;
  std::uint64_t index = 0;
  std::vector<digest> siblings;
};

// That the leaves at `indices` (strictly increasing) belong to the tree. `nodes` holds only what
// the verifier cannot compute itself: the siblings along the paths that are neither above a
// proven leaf nor zero-subtree roots, from the leaves up and left to right within a level.
struct multiproof {
  tree_options options;
  std::uint64_t leaf_count = 0;
  std::vector<std::uint64_t> indices;
  std::vector<digest> nodes;
};

namespace detail {

inline std::uint64_t parent_level_size(std::uint64_t size) { return size / 2 + size % 2; }

// Levels above the leaves, for any leaf count (a hostile one included) without allocating.
inline unsigned depth_of(std::uint64_t leaf_count) {
  unsigned depth = 0;
  for (std::uint64_t size = leaf_count; size > 1; size = parent_level_size(size))
    ++depth;
  return depth;
}

// Levels from the leaves to the root: the fixed depth if the options set one, else the natural.
inline unsigned root_depth_of(const tree_options &options, std::uint64_t leaf_count) {
  return options.depth.value_or(depth_of(leaf_count));
}

// Same tree: an unset depth and the natural depth set explicitly give the same root.
inline bool same_tree(const tree_options &a, std::uint64_t a_leaves, const tree_options &b,
                      std::uint64_t b_leaves) {
  return a.hash == b.hash && a.pad == b.pad && a_leaves == b_leaves &&
         root_depth_of(a, a_leaves) == root_depth_of(b, b_leaves);
}

} // namespace detail

inline bool operator==(const inclusion_proof &a, const inclusion_proof &b) {
  return detail::same_tree(a.options, a.leaf_count, b.options, b.leaf_count) &&
         a.index == b.index && a.siblings == b.siblings;
}

inline bool operator==(const multiproof &a, const multiproof &b) {
  return detail::same_tree(a.options, a.leaf_count, b.options, b.leaf_count) &&
         a.indices == b.indices && a.nodes == b.nodes;
}

// A node of a tree: its level (0 for the leaves) and its index within the level.
struct node_position {
  unsigned level;
  std::uint64_t index;
};

// What the verifier knows of the tree apart from the proof. A root commits neither to the leaf
// count nor to the hash, shape and depth that made it, so a proof relabelled with another of
// these can still verify where the computation stays the same (docs/PROOFS.md): pin what you
// know. `depth` is the root's depth (tree::root_depth()).
struct proof_expectations {
  std::optional<hash_kind> hash;
  std::optional<shape> pad;
  std::optional<std::uint64_t> leaf_count;
  std::optional<unsigned> depth;
};

// The outcome of a verification: valid, or the reason it is not.
struct verification {
  bool valid = false;
  std::string reason; // empty when valid
  explicit operator bool() const { return valid; }
};

namespace detail {

// The climb from known nodes of level 0 to the root, shared by every prover and verifier so that
// they agree on which nodes a proof holds and in which order. `known` holds (index, value) pairs
// with strictly increasing indices below leaf_count; the root is `levels` levels up (at least
// the natural depth; above it the single node is alone). At each level, a known node meets its
// sibling: another known node, pair(level, left, right); a node the proof must hold,
// from_proof(level, index, value); or none, being the lone last node of its level,
// alone(level, value). Each returns the value of the parent. Returns the root's value.
template <class Value, class Pair, class FromProof, class Alone>
Value climb(std::vector<std::pair<std::uint64_t, Value>> known, std::uint64_t leaf_count,
            unsigned levels, Pair pair, FromProof from_proof, Alone alone) {
  std::uint64_t size = leaf_count;
  for (unsigned level = 0; level < levels; ++level, size = parent_level_size(size)) {
    std::size_t parents = 0;
    for (std::size_t i = 0; i < known.size(); ++i) {
      const std::uint64_t index = known[i].first;
      const std::uint64_t sibling = index ^ 1;
      Value parent;
      if (index % 2 == 0 && i + 1 < known.size() && known[i + 1].first == sibling) {
        parent = pair(level, known[i].second, known[i + 1].second);
        ++i;
      } else if (sibling < size) {
        parent = from_proof(level, index, known[i].second);
      } else {
        parent = alone(level, known[i].second);
      }
      known[parents++] = {index / 2, parent};
    }
    known.resize(parents);
  }
  return known.front().second;
}

struct nothing {}; // the value a prover climbs with: it only records positions

// Hands out a proof's nodes in order. Past the end it hands out zeros and keeps counting, so the
// verifier learns how many nodes the proof should hold without reading out of bounds.
class node_stream {
public:
  explicit node_stream(const std::vector<digest> &nodes) : nodes_(nodes) {}
  digest next() { return taken_ < nodes_.size() ? nodes_[taken_++] : (++taken_, digest{}); }
  std::size_t taken() const { return taken_; }

private:
  const std::vector<digest> &nodes_;
  std::size_t taken_ = 0;
};

// The parent of a node and its sibling: the node is the left child when its index is even.
inline digest parent_of(hash_kind hash, std::uint64_t index, const digest &node,
                        const digest &sibling, bool is_root) {
  return index % 2 ? node_hash(hash, sibling, node, is_root)
                   : node_hash(hash, node, sibling, is_root);
}

inline verification reject(std::string reason) { return {false, std::move(reason)}; }

inline verification check_claims(const tree_options &options, std::uint64_t leaf_count,
                                 const proof_expectations &expect) {
  if (expect.hash && *expect.hash != options.hash)
    return reject(std::string("the proof is for hash ") + to_string(options.hash) + ", not " +
                  to_string(*expect.hash));
  if (expect.pad && *expect.pad != options.pad)
    return reject(std::string("the proof is for shape ") + to_string(options.pad) + ", not " +
                  to_string(*expect.pad));
  if (expect.leaf_count && *expect.leaf_count != leaf_count)
    return reject("the proof is for a tree of " + std::to_string(leaf_count) + " leaves, not " +
                  std::to_string(*expect.leaf_count));
  const unsigned depth = root_depth_of(options, leaf_count);
  if (expect.depth && *expect.depth != depth)
    return reject("the proof is for a root of depth " + std::to_string(depth) + ", not " +
                  std::to_string(*expect.depth));
  if (leaf_count == 0) return reject("the proof claims a tree of 0 leaves");
  if (depth != depth_of(leaf_count)) {
    if (options.pad != shape::zero)
      return reject("the proof claims a fixed depth, which only shape zero has");
    if (depth < depth_of(leaf_count) || depth > 64)
      return reject("the proof claims a root of depth " + std::to_string(depth) +
                    ", which cannot hold " + std::to_string(leaf_count) + " leaves");
  }
  return {true, {}};
}

inline verification check_node_count(const char *what, std::size_t held, std::size_t needed) {
  if (held == needed) return {true, {}};
  return reject("the proof holds " + std::to_string(held) + " " + what + ", the tree needs " +
                std::to_string(needed) + (held < needed ? " (truncated)" : " (overlong)"));
}

inline verification check_root(const digest &computed, const digest &root) {
  if (computed == root) return {true, {}};
  return reject("the proof leads to root " + to_hex(computed) + ", not " + to_hex(root));
}

inline void check_leaf_index(std::uint64_t index, std::uint64_t leaf_count) {
  if (index >= leaf_count)
    throw error("leaf index " + std::to_string(index) + " out of range: the tree has " +
                std::to_string(leaf_count) + " leaves");
}

// Proofs read every level below the top of a host tree.
inline void check_all_levels(const tree &t) {
  if (t.first_level() != 0)
    throw error("a proof needs every level of the tree, but this one keeps levels " +
                std::to_string(t.first_level()) + ".." + std::to_string(t.depth()) +
                " (build it with output_levels::all_nodes())");
}

} // namespace detail

// The proof for leaf `index` of a host tree, which must keep every level.
inline inclusion_proof prove(const tree &t, std::uint64_t index) {
  detail::check_leaf_index(index, t.leaf_count());
  detail::check_all_levels(t);
  inclusion_proof proof{t.options(), t.leaf_count(), index, {}};
  const auto zeros = zero_subtree_roots(t.options().hash, t.root_depth());
  using detail::nothing;
  detail::climb<nothing>(
      {{index, nothing{}}}, t.leaf_count(), t.root_depth(),
      [](unsigned, nothing, nothing) { return nothing{}; },
      [&](unsigned level, std::uint64_t i, nothing) {
        proof.siblings.push_back(t.node(level, i ^ 1));
        return nothing{};
      },
      [&](unsigned level, nothing) {
        if (t.options().pad == shape::zero) proof.siblings.push_back(zeros[level]);
        return nothing{};
      });
  return proof;
}

// Where the nodes of a multiproof for `indices` (strictly increasing, each below leaf_count) lie
// in the tree, in proof order.
inline std::vector<node_position> multiproof_positions(std::uint64_t leaf_count,
                                                       const std::vector<std::uint64_t> &indices) {
  if (indices.empty()) throw error("a multiproof needs at least one leaf index");
  std::vector<std::pair<std::uint64_t, detail::nothing>> known;
  for (const std::uint64_t index : indices) {
    detail::check_leaf_index(index, leaf_count);
    if (!known.empty() && index <= known.back().first)
      throw error("multiproof leaf indices must be strictly increasing: " + std::to_string(index) +
                  " follows " + std::to_string(known.back().first));
    known.emplace_back(index, detail::nothing{});
  }
  std::vector<node_position> positions;
  using detail::nothing;
  detail::climb<nothing>(
      std::move(known), leaf_count, detail::depth_of(leaf_count),
      [](unsigned, nothing, nothing) { return nothing{}; },
      [&](unsigned level, std::uint64_t i, nothing) {
        positions.push_back({level, i ^ 1});
        return nothing{};
      },
      [](unsigned, nothing) { return nothing{}; });
  return positions;
}

// Indices sorted, without repeats, each checked against the tree's leaf count.
inline std::vector<std::uint64_t> canonical_indices(std::vector<std::uint64_t> indices,
                                                    std::uint64_t leaf_count) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  for (const std::uint64_t index : indices)
    detail::check_leaf_index(index, leaf_count);
  return indices;
}

// One proof for the leaves at `indices` of a host tree, which must keep every level (indices in
// any order, repeats allowed: the proof lists them sorted, once each).
inline multiproof prove_multi(const tree &t, std::vector<std::uint64_t> indices) {
  detail::check_all_levels(t);
  multiproof proof{
      t.options(), t.leaf_count(), canonical_indices(std::move(indices), t.leaf_count()), {}};
  for (const auto &p : multiproof_positions(t.leaf_count(), proof.indices))
    proof.nodes.push_back(t.node(p.level, p.index));
  return proof;
}

// Whether `proof` shows that `leaf` is in the tree whose root is `root`.
inline verification verify(const inclusion_proof &proof, const digest &leaf, const digest &root,
                           const proof_expectations &expect = {}) {
  if (auto claims = detail::check_claims(proof.options, proof.leaf_count, expect); !claims)
    return claims;
  if (proof.index >= proof.leaf_count)
    return detail::reject("leaf index " + std::to_string(proof.index) +
                          " out of range: the proof claims a tree of " +
                          std::to_string(proof.leaf_count) + " leaves");
  const hash_kind hash = proof.options.hash;
  const unsigned depth = detail::root_depth_of(proof.options, proof.leaf_count);
  const bool zero_pad = proof.options.pad == shape::zero;
  const auto zeros = zero_pad ? zero_subtree_roots(hash, depth) : std::vector<digest>{};
  detail::node_stream siblings(proof.siblings);
  std::optional<unsigned> bad_padding; // a level whose zero-subtree sibling is wrong
  const digest computed = detail::climb<digest>(
      {{proof.index, leaf}}, proof.leaf_count, depth,
      [](unsigned, const digest &, const digest &) { return digest{}; }, // one leaf: no pairs
      [&](unsigned level, std::uint64_t i, const digest &node) {
        return detail::parent_of(hash, i, node, siblings.next(), level + 1 == depth);
      },
      [&](unsigned level, const digest &node) {
        if (!zero_pad) return node;
        const digest sibling = siblings.next();
        if (sibling != zeros[level] && !bad_padding) bad_padding = level;
        return node_hash(hash, node, sibling, level + 1 == depth);
      });
  if (auto count = detail::check_node_count("siblings", proof.siblings.size(), siblings.taken());
      !count)
    return count;
  if (bad_padding)
    return detail::reject("the sibling at level " + std::to_string(*bad_padding) +
                          " must be the zero-subtree root " + to_hex(zeros[*bad_padding]) +
                          ": the path's node is the last of its level");
  return detail::check_root(computed, root);
}

namespace detail {

// Node hashes that verify(const multiproof &, ...) computed on this thread: the tests read it to
// show that a malformed multiproof is rejected before any hashing.
inline thread_local std::uint64_t multiproof_hashes = 0;

// How many nodes the multiproof of `indices` (strictly increasing, each below leaf_count) holds
// for a root `depth` levels up, found by climbing positions only; nothing where it is more than
// `limit`. The climb stops there, so that its work is bounded by the proof's size.
inline std::optional<std::uint64_t> multiproof_node_count(std::uint64_t leaf_count, unsigned depth,
                                                          const std::vector<std::uint64_t> &indices,
                                                          std::uint64_t limit) {
  struct past_limit {};
  std::vector<std::pair<std::uint64_t, nothing>> known;
  known.reserve(indices.size());
  for (const std::uint64_t index : indices)
    known.emplace_back(index, nothing{});
  std::uint64_t count = 0;
  try {
    climb<nothing>(
        std::move(known), leaf_count, depth, [](unsigned, nothing, nothing) { return nothing{}; },
        [&](unsigned, std::uint64_t, nothing) {
          if (++count > limit) throw past_limit{};
          return nothing{};
        },
        [](unsigned, nothing) { return nothing{}; });
  } catch (const past_limit &) {
    return std::nullopt;
  }
  return count;
}

// Fails a multiproof whose indices or node count do not fit its tree, without hashing.
inline verification check_multiproof_structure(const multiproof &proof, std::size_t leaves) {
  if (proof.indices.empty()) return reject("the multiproof proves no leaf");
  if (leaves != proof.indices.size())
    return reject(std::to_string(leaves) + " leaves given for " +
                  std::to_string(proof.indices.size()) + " proven indices");
  for (std::size_t k = 0; k < proof.indices.size(); ++k) {
    const std::uint64_t index = proof.indices[k];
    if (index >= proof.leaf_count)
      return reject("leaf index " + std::to_string(index) +
                    " out of range: the proof claims a tree of " +
                    std::to_string(proof.leaf_count) + " leaves");
    if (k > 0 && index <= proof.indices[k - 1])
      return reject("leaf indices are not strictly increasing at position " + std::to_string(k));
  }
  const auto needed =
      multiproof_node_count(proof.leaf_count, root_depth_of(proof.options, proof.leaf_count),
                            proof.indices, proof.nodes.size());
  if (!needed)
    return reject("the proof holds " + std::to_string(proof.nodes.size()) +
                  " nodes, the tree needs more (truncated)");
  return check_node_count("nodes", proof.nodes.size(), *needed);
}

} // namespace detail

// Whether `proof` shows that leaves[k] is the leaf at proof.indices[k], for every k, in the tree
// whose root is `root`. The proof's structure (indices, node count) is checked before any
// hashing, so a hostile proof costs work in proportion to its size.
inline verification verify(const multiproof &proof, const std::vector<digest> &leaves,
                           const digest &root, const proof_expectations &expect = {}) {
  if (auto claims = detail::check_claims(proof.options, proof.leaf_count, expect); !claims)
    return claims;
  if (auto structure = detail::check_multiproof_structure(proof, leaves.size()); !structure)
    return structure;
  std::vector<std::pair<std::uint64_t, digest>> known;
  known.reserve(leaves.size());
  for (std::size_t k = 0; k < leaves.size(); ++k)
    known.emplace_back(proof.indices[k], leaves[k]);
  const hash_kind hash = proof.options.hash;
  const unsigned depth = detail::root_depth_of(proof.options, proof.leaf_count);
  const bool zero_pad = proof.options.pad == shape::zero;
  const auto zeros = zero_pad ? zero_subtree_roots(hash, depth) : std::vector<digest>{};
  const auto parent = [&](unsigned level, const digest &left, const digest &right) {
    ++detail::multiproof_hashes;
    return node_hash(hash, left, right, level + 1 == depth);
  };
  detail::node_stream nodes(proof.nodes);
  const digest computed = detail::climb<digest>(
      std::move(known), proof.leaf_count, depth, parent,
      [&](unsigned level, std::uint64_t i, const digest &node) {
        const digest sibling = nodes.next();
        return i % 2 ? parent(level, sibling, node) : parent(level, node, sibling);
      },
      [&](unsigned level, const digest &node) {
        return zero_pad ? parent(level, node, zeros[level]) : node;
      });
  return detail::check_root(computed, root);
}

// ---- Encodings (docs/PROOFS.md) ----

constexpr unsigned proof_format_version = 1;
// The longest JSON proof the decoders read (64 MiB); the binary encoding has no such limit.
constexpr std::size_t max_json_proof_bytes = detail::json::max_text_bytes;

namespace detail {

constexpr char binary_magic[4] = {'M', 'K', 'L', 'P'};
enum proof_kind : std::uint8_t { inclusion_kind = 1, multiproof_kind = 2 }; // binary codes

inline const char *kind_name(proof_kind kind) {
  return kind == inclusion_kind ? "inclusion" : "multiproof";
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
  w.name(to_string(options.pad));
  w.u64(leaf_count);
  w.u8(static_cast<std::uint8_t>(checked_depth(root_depth_of(options, leaf_count))));
}

// Reads the header up to the root depth into `options` and `leaf_count`.
inline void read_binary_header(byte_reader &r, proof_kind kind, tree_options &options,
                               std::uint64_t &leaf_count) {
  r.expect_magic();
  check_version(r.u8("the version"));
  const unsigned found = r.u8("the kind");
  if (found != kind)
    throw error("kind " + std::to_string(found) + " where " + std::to_string(kind) + " (" +
                kind_name(kind) + ") was expected");
  options.hash = parse_hash_kind(r.name("the hash name"));
  options.pad = parse_shape(r.name("the shape name"));
  leaf_count = r.u64("the leaf count");
  set_root_depth(options, leaf_count, r.u8("the depth"));
}

inline std::string json_header(proof_kind kind, const tree_options &options,
                               std::uint64_t leaf_count) {
  return "{\"format\":\"merklize-proof\",\"version\":" + std::to_string(proof_format_version) +
         ",\"kind\":" + json::quote(kind_name(kind)) +
         ",\"hash\":" + json::quote(to_string(options.hash)) +
         ",\"shape\":" + json::quote(to_string(options.pad)) +
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

// The keys of a JSON proof: the header's, then the two of its kind (json_body_keys).
constexpr const char *json_header_keys[] = {"format", "version",    "kind", "hash",
                                            "shape",  "leaf_count", "depth"};
constexpr std::size_t json_header_members = std::size(json_header_keys);

inline const char *const *json_body_keys(proof_kind kind) {
  static constexpr const char *inclusion[] = {"index", "siblings"};
  static constexpr const char *multi[] = {"indices", "nodes"};
  return kind == inclusion_kind ? inclusion : multi;
}

// The position of `key` among the proof's keys, or nothing where it is not one of them.
inline std::optional<std::size_t> json_key_position(const std::string &key, proof_kind kind) {
  for (std::size_t i = 0; i < json_header_members; ++i)
    if (key == json_header_keys[i]) return i;
  for (std::size_t i = 0; i < 2; ++i)
    if (key == json_body_keys(kind)[i]) return json_header_members + i;
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
  options.pad = parse_shape(h.shape);
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
  for (std::size_t i = 0; i < json_header_members + 2; ++i)
    if (!(seen >> i & 1))
      throw error(std::string("the proof has no \"") +
                  (i < json_header_members ? json_header_keys[i]
                                           : json_body_keys(kind)[i - json_header_members]) +
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
  detail::write_binary_header(w, detail::inclusion_kind, proof.options, proof.leaf_count);
  w.u64(proof.index);
  w.nodes(proof.siblings);
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
    detail::read_binary_header(r, detail::inclusion_kind, proof.options, proof.leaf_count);
    proof.index = r.u64("the leaf index");
    proof.siblings = r.nodes("the siblings");
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
         ",\"siblings\":" + detail::json_nodes(proof.siblings) + "}";
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
    detail::read_json_proof(text, detail::inclusion_kind, proof.options, proof.leaf_count,
                            [&](detail::json::reader &r, std::size_t member) {
                              if (member == 0)
                                proof.index = detail::json::read_u64(r, {"index", {}});
                              else
                                proof.siblings = detail::read_json_nodes(r, "siblings");
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
