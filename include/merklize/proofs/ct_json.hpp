// SPDX-License-Identifier: Apache-2.0 OR MIT
// Certificate Transparency v1's JSON proofs (RFC 6962 4.5 and 4.4): the answers of
// get-proof-by-hash, {"leaf_index": 7, "audit_path": ["<base 64>", ...]}, and of
// get-sth-consistency, {"consistency": ["<base 64>", ...]}. They name neither the tree's size nor
// its hash: the verifier knows them (the signed tree heads), so the decoders take them. Decoding
// takes untrusted text, as the merklize-proof decoders do (core/json.hpp's strict reader, every
// member required once, no other, bounded arrays). No OpenCL.
#pragma once

#include "../core/base64.hpp"
#include "../core/json.hpp"
#include "consistency.hpp"
#include "proof_encoding.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

namespace detail {

inline void check_ct_tree(const tree_options &options, const char *what) {
  if (options.hash != hash_kind::rfc6962 || options.shape != shape::promote || options.depth)
    throw error(std::string("CT's JSON holds ") + what +
                " of RFC 6962 logs only (hash rfc6962, shape promote), not " +
                to_string(options.hash) + " " + to_string(options.shape));
}

inline std::string ct_nodes(const std::vector<digest> &nodes) {
  std::string out = "[";
  for (std::size_t i = 0; i < nodes.size(); ++i)
    out += (i ? ",\"" : "\"") + to_base64(nodes[i]) + "\"";
  return out + "]";
}

inline std::vector<digest> read_ct_nodes(json::reader &r, const char *member) {
  constexpr std::size_t quoted_base64_bytes = 46; // 44 characters and the quotes
  return json::read_array(r, member, quoted_base64_bytes,
                          [](json::reader &items, const json::place &where) {
                            const std::string text = json::read_string(items, where);
                            try {
                              return digest_from_base64(text);
                            } catch (const error &e) {
                              throw error(where.str() + ": " + e.what());
                            }
                          });
}

// Reads a JSON object whose members are exactly `keys` (each once), member i through read(r, i).
template <std::size_t N, class Read>
void read_ct_object(const std::string &text, const char *const (&keys)[N], Read read) {
  json::reader r(text);
  if (r.peek() != json::kind::object) {
    r.skip();
    throw error("the proof is not a JSON object");
  }
  unsigned seen = 0;
  std::string key;
  r.begin_object();
  while (r.next_key(key)) {
    std::size_t i = 0;
    while (i < N && key != keys[i])
      ++i;
    if (i == N) r.fail("unknown key " + merklize::detail::quoted(key));
    if (seen >> i & 1) r.fail("duplicate key " + merklize::detail::quoted(key));
    seen |= 1u << i;
    read(r, i);
  }
  r.finish();
  for (std::size_t i = 0; i < N; ++i)
    if (!(seen >> i & 1)) throw error(std::string("the proof has no \"") + keys[i] + "\"");
}

} // namespace detail

// get-proof-by-hash's answer for `proof`, one line.
inline std::string to_ct_json(const inclusion_proof &proof) {
  detail::check_ct_tree(proof.options, "audit paths");
  if (proof.mixed_length) throw error("CT's JSON has no length mixed in");
  return "{\"leaf_index\":" + std::to_string(proof.index) +
         ",\"audit_path\":" + detail::ct_nodes(proof.siblings) + "}";
}

// get-sth-consistency's answer for `proof`, one line.
inline std::string to_ct_json(const consistency_proof &proof) {
  detail::check_ct_tree(proof.options, "consistency proofs");
  return "{\"consistency\":" + detail::ct_nodes(proof.nodes) + "}";
}

// An audit path of a log of `tree_size` entries, from get-proof-by-hash's JSON.
inline inclusion_proof ct_inclusion_proof_from_json(const std::string &text,
                                                    std::uint64_t tree_size) {
  return detail::decoding("CT proof JSON", [&] {
    inclusion_proof proof{tree_options{hash_kind::rfc6962}, tree_size, 0, {}};
    static constexpr const char *keys[] = {"leaf_index", "audit_path"};
    detail::read_ct_object(text, keys, [&](detail::json::reader &r, std::size_t member) {
      if (member == 0)
        proof.index = detail::json::read_u64(r, {"leaf_index", {}});
      else
        proof.siblings = detail::read_ct_nodes(r, "audit_path");
    });
    return proof;
  });
}

// The consistency proof between a log's heads of old_size and new_size entries, from
// get-sth-consistency's JSON.
inline consistency_proof ct_consistency_proof_from_json(const std::string &text,
                                                        std::uint64_t old_size,
                                                        std::uint64_t new_size) {
  return detail::decoding("CT proof JSON", [&] {
    consistency_proof proof{tree_options{hash_kind::rfc6962}, old_size, new_size, {}};
    static constexpr const char *keys[] = {"consistency"};
    detail::read_ct_object(text, keys, [&](detail::json::reader &r, std::size_t) {
      proof.nodes = detail::read_ct_nodes(r, "consistency");
    });
    return proof;
  });
}

} // namespace merklize
