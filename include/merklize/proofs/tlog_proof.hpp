// SPDX-License-Identifier: Apache-2.0 OR MIT
// C2SP tlog-proof (c2sp.org/tlog-proof): an entry's inclusion proof with the checkpoint it is
// against, offline-verifiable text:
//
//   c2sp.org/tlog-proof@v1
//   extra <base 64>           optional, opaque, unauthenticated
//   index 73894
//   <base 64 hash>            the audit path, from the leaf's sibling up (RFC 6962 2.1.1)
//   ...
//                             an empty line
//   <the checkpoint, verbatim: a signed note (tlog_checkpoint.hpp)>
//
// Read back as untrusted text: every line checked, the checkpoint's body parsed (its signatures
// kept verbatim, not verified: the caller's note verifier checks them, and the verifier checks
// that the path leads from the leaf to the checkpoint's root). Inclusion proofs only: the format
// has none of consistency. No OpenCL.
#pragma once

#include "proof_model.hpp"
#include "tlog_checkpoint.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace merklize {

constexpr const char *tlog_proof_header = "c2sp.org/tlog-proof@v1";

struct tlog_proof {
  std::optional<std::vector<std::uint8_t>> extra;
  std::uint64_t index = 0;
  std::vector<digest> path;
  std::string checkpoint_text; // the signed note, verbatim
  checkpoint head;             // its body, parsed
};

// The proof as inclusion_proof: rfc6962, promote, over the checkpoint's tree size.
inline inclusion_proof inclusion_proof_of(const tlog_proof &p) {
  return {tree_options{hash_kind::rfc6962}, p.head.size, p.index, p.path};
}

// The text of `proof` (an rfc6962 audit path) against `checkpoint_text`, a checkpoint of the
// same tree size, written verbatim after it.
inline std::string to_tlog_proof(const inclusion_proof &proof, const std::string &checkpoint_text,
                                 const std::optional<std::vector<std::uint8_t>> &extra = {}) {
  if (proof.options.hash != hash_kind::rfc6962 || proof.options.shape != shape::promote ||
      proof.mixed_length)
    throw error("a tlog-proof holds an RFC 6962 audit path (hash rfc6962, shape promote)");
  const checkpoint head = parse_checkpoint(checkpoint_text);
  if (head.size != proof.leaf_count)
    throw error("the checkpoint is of a tree of " + std::to_string(head.size) +
                " entries, the proof of one of " + std::to_string(proof.leaf_count));
  std::string text = std::string(tlog_proof_header) + "\n";
  if (extra) text += "extra " + to_base64(extra->data(), extra->size()) + "\n";
  text += "index " + std::to_string(proof.index) + "\n";
  for (const digest &sibling : proof.siblings)
    text += to_base64(sibling) + "\n";
  return text + "\n" + checkpoint_text;
}

// A tlog-proof read back; malformed text is an error naming the line.
inline tlog_proof tlog_proof_from_text(std::string_view text) {
  try {
    if (text.size() > max_checkpoint_bytes + (std::size_t(64) << 10))
      throw error("it is " + std::to_string(text.size()) + " bytes, more than a proof can be");
    detail::check_note_text(text, "the proof");
    const std::size_t blank = text.find("\n\n");
    if (blank == std::string_view::npos) throw error("no empty line before the checkpoint");
    const auto lines = detail::note_lines(text.substr(0, blank + 1), "the proof");
    if (lines[0] != tlog_proof_header)
      throw error("line 1 is not \"" + std::string(tlog_proof_header) + "\"");
    tlog_proof p;
    std::size_t i = 1;
    if (i < lines.size() && lines[i].substr(0, 6) == "extra ")
      p.extra = from_base64(lines[i++].substr(6));
    if (i >= lines.size() || lines[i].substr(0, 6) != "index ")
      throw error("line " + std::to_string(i + 1) + " is not \"index N\"");
    p.index = detail::read_decimal(lines[i++].substr(6), "the index");
    if (lines.size() - i > 64) throw error("an audit path of more than 64 hashes");
    for (; i < lines.size(); ++i) {
      try {
        p.path.push_back(digest_from_base64(lines[i]));
      } catch (const error &e) {
        throw error("line " + std::to_string(i + 1) + ": " + e.what());
      }
    }
    p.checkpoint_text = std::string(text.substr(blank + 2));
    p.head = parse_checkpoint(p.checkpoint_text);
    return p;
  } catch (const error &e) {
    throw error(std::string("tlog-proof: ") + e.what());
  }
}

} // namespace merklize
