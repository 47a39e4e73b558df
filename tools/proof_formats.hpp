// SPDX-License-Identifier: Apache-2.0 OR MIT
// --proof-format: the texts a log's proofs travel in, beside merklize's own JSON: CT v1's JSON
// (RFC 6962 4.5's audit_path, 4.4's consistency; <merklize/proofs/ct_json.hpp>) and C2SP's
// tlog-proof (<merklize/proofs/tlog_proof.hpp>), which embeds --checkpoint's signed note. Written
// by proof, consistency and tiles-read; read, as untrusted text, by verify and verify-consistency.
#pragma once

#include "commands.hpp"

#include <merklize/proofs/proof.hpp>
#include <merklize/proofs/tlog_checkpoint.hpp>

#include <optional>
#include <string>

namespace cli {

// merklize (the default), ct or tlog-proof; any other name is a usage error naming the three.
proof_format parse_proof_format(const std::string &option, const std::string &text);

// Refuses, as a usage error naming `command`'s --help, a format other than merklize's for a tree
// that is not a log's (rfc6962, shape promote), and a tlog-proof without --checkpoint.
void check_proof_format(const proof_format_arguments &written, const merklize::tree_options &tree,
                        const std::string &command);

// The checkpoint in the file at `path` (its text into `note`), its errors naming the file.
merklize::checkpoint read_checkpoint(const std::string &path, std::string &note);

// `proof` in `written`'s format (no trailing newline). A tlog-proof embeds --checkpoint's note,
// which must be of the proof's tree size and of `root`.
std::string inclusion_text(const merklize::inclusion_proof &proof,
                           const proof_format_arguments &written, const merklize::digest &root);

std::string consistency_text(const merklize::consistency_proof &proof, proof_format format);

// An inclusion proof read from `text` in `format`; CT's JSON, which names no tree size, takes
// --leaves (expect.leaf_count); a tlog-proof gives its checkpoint too.
struct read_inclusion {
  merklize::inclusion_proof proof;
  std::optional<merklize::checkpoint> head;
};
read_inclusion inclusion_from_text(const std::string &text, proof_format format,
                                   const merklize::proof_expectations &expect);

// A consistency proof read from `text`; CT's JSON takes --old-size and --new-size.
merklize::consistency_proof consistency_from_text(const std::string &text, proof_format format,
                                                  const std::optional<std::uint64_t> &old_size,
                                                  const std::optional<std::uint64_t> &new_size);

} // namespace cli
