// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary multiproofs (kary_multiproof.hpp) as JSON, one object, no OpenCL, in the members of the
// k-ary inclusion proof's JSON (kary_proof_encoding.hpp):
//
//   {"kind":"kary-multiproof","arity":16,"hash":"sha256","pad":"zero","leaf_count":1000,
//    "indices":[7,9],"nodes":["<64 hex digits>",...]}
//
// nodes are in proof order (kary_multiproof_positions). The decoder takes untrusted text: every
// member once, nothing else, each of its type, bounded in size (core/json.hpp); the indices
// strictly increasing below leaf_count, and exactly as many nodes as they need, counted without
// holding more than the text does (the count stops one past the nodes given).
#pragma once

#include "kary_multiproof.hpp"
#include "kary_proof_encoding.hpp"

#include <string>
#include <string_view>

namespace merklize {

inline std::string to_json(const kary_multiproof &proof) {
  std::string out =
      detail::kary_json_head("kary-multiproof", proof.options, proof.leaf_count) + "\"indices\":[";
  for (std::size_t i = 0; i < proof.indices.size(); ++i)
    out += (i ? "," : "") + std::to_string(proof.indices[i]);
  out += "],\"nodes\":[";
  for (std::size_t i = 0; i < proof.nodes.size(); ++i)
    out += (i ? ",\"" : "\"") + to_hex(proof.nodes[i]) + "\"";
  return out + "]}";
}

// Whether `text` is a JSON object whose "kind" is "kary-multiproof".
inline bool is_kary_multiproof_json(std::string_view text) {
  return json_proof_kind(text) == "kary-multiproof";
}

namespace detail {

inline void read_kary_multi_member(json::reader &r, const std::string &key,
                                   kary_multiproof &proof) {
  if (read_kary_head_member(r, key, "kary-multiproof", proof.options, proof.leaf_count)) return;
  if (key == "indices") {
    proof.indices = json::read_array(r, "indices", 1, [](json::reader &in, const json::place &at) {
      return json::read_u64(in, at);
    });
  } else if (key == "nodes") {
    proof.nodes = json::read_array(r, "nodes", 66, read_kary_digest);
  } else {
    throw error("unknown member " + detail::quoted(key) + " in a k-ary multiproof");
  }
}

// The proof's indices checked (strictly increasing, below leaf_count) and its nodes counted
// against the shape's: the climb of kary_multiproof_positions, stopped one node past those given,
// so that a short list of nodes costs no more than the proof's text.
inline void check_kary_multi_nodes(const kary_multiproof &proof) {
  if (proof.leaf_count == 0) throw error("\"leaf_count\" is 0: a tree has at least one leaf");
  std::vector<std::pair<std::uint64_t, kary_position_only>> known;
  known.reserve(proof.indices.size());
  for (const std::uint64_t index : proof.indices) {
    if (index >= proof.leaf_count)
      throw error("\"indices\": " + std::to_string(index) + " is not below the leaf count " +
                  std::to_string(proof.leaf_count));
    if (!known.empty() && index <= known.back().first)
      throw error("\"indices\" are not strictly increasing: " + std::to_string(index) +
                  " follows " + std::to_string(known.back().first));
    known.emplace_back(index, kary_position_only{});
  }
  struct too_many {};
  std::size_t needed = known.empty() ? 1 : 0;
  try {
    if (!known.empty())
      kary_climb<kary_position_only>(
          std::move(known), proof.options, proof.leaf_count,
          [&](unsigned, std::uint64_t) {
            if (++needed > proof.nodes.size()) throw too_many{};
            return kary_position_only{};
          },
          [](unsigned, const std::vector<kary_position_only> &) { return kary_position_only{}; });
  } catch (const too_many &) {
  }
  if (needed != proof.nodes.size())
    throw error("\"nodes\" holds " + std::to_string(proof.nodes.size()) + " nodes, and " +
                (needed > proof.nodes.size() ? "more" : std::to_string(needed)) +
                " are the multiproof of these indices in a tree of " +
                std::to_string(proof.leaf_count) + " leaves");
}

} // namespace detail

// The proof a text of to_json(kary_multiproof) holds; throws merklize::error naming what is wrong.
inline kary_multiproof kary_multiproof_from_json(std::string_view text) {
  static const char *const members[] = {"kind",       "arity",   "hash", "pad",
                                        "leaf_count", "indices", "nodes"};
  kary_multiproof proof = detail::read_kary_object<kary_multiproof>(
      text, "k-ary multiproof", members, detail::read_kary_multi_member);
  detail::check_kary_multi_nodes(proof);
  return proof;
}

} // namespace merklize
