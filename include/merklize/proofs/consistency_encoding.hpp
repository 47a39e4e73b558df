// SPDX-License-Identifier: Apache-2.0 OR MIT
// The binary and JSON encodings of consistency proofs (docs/PROOFS.md), beside those of
// inclusion proofs and multiproofs (proof_encoding.hpp), with the same header: kind 3,
// "consistency", whose leaf count is the new tree's size; then the old size and the nodes.
// Decoding takes untrusted bytes, as proof_encoding.hpp's does. No OpenCL.
#pragma once

#include "consistency.hpp"
#include "proof_encoding.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

inline std::vector<std::uint8_t> to_binary(const consistency_proof &proof) {
  detail::byte_writer w;
  detail::write_binary_header(w, detail::consistency_kind, proof.options, proof.new_size);
  w.u64(proof.old_size);
  w.nodes(proof.nodes);
  return w.bytes;
}

inline consistency_proof consistency_proof_from_binary(const std::uint8_t *data, std::size_t size) {
  return detail::decoding("binary proof", [&] {
    detail::byte_reader r(data, size);
    consistency_proof proof;
    detail::read_binary_header(r, detail::consistency_kind, proof.options, proof.new_size);
    proof.old_size = r.u64("the old size");
    proof.nodes = r.nodes("the nodes");
    r.expect_end();
    return proof;
  });
}

inline consistency_proof consistency_proof_from_binary(const std::vector<std::uint8_t> &bytes) {
  return consistency_proof_from_binary(bytes.data(), bytes.size());
}

// One line of JSON, no trailing newline.
inline std::string to_json(const consistency_proof &proof) {
  return detail::json_header(detail::consistency_kind, proof.options, proof.new_size) +
         ",\"old_size\":" + std::to_string(proof.old_size) +
         ",\"nodes\":" + detail::json_nodes(proof.nodes) + "}";
}

inline consistency_proof consistency_proof_from_json(const std::string &text) {
  return detail::decoding("proof JSON", [&] {
    consistency_proof proof;
    detail::read_json_proof(text, detail::consistency_kind, proof.options, proof.new_size,
                            [&](detail::json::reader &r, std::size_t member) {
                              if (member == 0)
                                proof.old_size = detail::json::read_u64(r, {"old_size", {}});
                              else
                                proof.nodes = detail::read_json_nodes(r, "nodes");
                            });
    return proof;
  });
}

} // namespace merklize
