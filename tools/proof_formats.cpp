// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "proof_formats.hpp"

#include "cli.hpp"
#include "input.hpp"
#include "quote.hpp"

#include <merklize/proofs/ct_json.hpp>
#include <merklize/proofs/tlog_proof.hpp>

namespace cli {

proof_format parse_proof_format(const std::string &option, const std::string &text) {
  if (text == "merklize") return proof_format::merklize;
  if (text == "ct") return proof_format::ct;
  if (text == "tlog-proof") return proof_format::tlog_proof;
  throw usage_error(option + ": " + quote(text, 64) +
                    " is not a proof format (known: merklize, ct, tlog-proof)");
}

void check_proof_format(const proof_format_arguments &written, const merklize::tree_options &tree,
                        const std::string &command) {
  const std::string hint = "Try 'merklize " + command + " --help' for the options.";
  if (written.format == proof_format::merklize) {
    if (written.checkpoint) throw usage_error("--checkpoint needs --proof-format tlog-proof", hint);
    return;
  }
  if (tree.hash != merklize::hash_kind::rfc6962 || tree.shape != merklize::shape::promote)
    throw usage_error(std::string("--proof-format ") +
                          (written.format == proof_format::ct ? "ct" : "tlog-proof") +
                          " is a log's (--log, or --hash rfc6962), not a tree of hash " +
                          merklize::to_string(tree.hash),
                      hint);
  if (written.format == proof_format::tlog_proof && !written.checkpoint)
    throw usage_error("--proof-format tlog-proof needs --checkpoint FILE: the log's signed "
                      "checkpoint of the tree, which the proof embeds",
                      hint);
  if (written.format == proof_format::ct && written.checkpoint)
    throw usage_error("--checkpoint needs --proof-format tlog-proof", hint);
}

merklize::checkpoint read_checkpoint(const std::string &path, std::string &note) {
  const auto bytes = read_input(path, false, json_proof_limit);
  note.assign(bytes.begin(), bytes.end());
  try {
    return merklize::parse_checkpoint(note);
  } catch (const merklize::error &e) {
    throw merklize::error(quote(path) + ": " + e.what());
  }
}

std::string inclusion_text(const merklize::inclusion_proof &proof,
                           const proof_format_arguments &written, const merklize::digest &root) {
  if (written.format == proof_format::merklize) return merklize::to_json(proof);
  if (written.format == proof_format::ct) return merklize::to_ct_json(proof);
  std::string note;
  const merklize::checkpoint head = read_checkpoint(*written.checkpoint, note);
  if (head.size != proof.leaf_count || head.root != root)
    throw merklize::error("--checkpoint " + quote(*written.checkpoint) + " is the head of " +
                          std::to_string(head.size) + " entries, root " +
                          merklize::to_hex(head.root) + "; the log has " +
                          std::to_string(proof.leaf_count) + ", root " + merklize::to_hex(root));
  return merklize::to_tlog_proof(proof, note);
}

std::string consistency_text(const merklize::consistency_proof &proof, proof_format format) {
  if (format == proof_format::tlog_proof)
    throw usage_error("--proof-format tlog-proof holds inclusion proofs only: a consistency "
                      "proof is written as merklize or ct",
                      "Try 'merklize consistency --help' for the options.");
  return format == proof_format::ct ? merklize::to_ct_json(proof) : merklize::to_json(proof);
}

read_inclusion inclusion_from_text(const std::string &text, proof_format format,
                                   const merklize::proof_expectations &expect) {
  if (format == proof_format::merklize) return {merklize::inclusion_proof_from_json(text), {}};
  if (format == proof_format::ct) {
    if (!expect.leaf_count)
      throw usage_error("--proof-format ct needs --leaves N: CT's JSON does not say the tree's "
                        "size, which the signed tree head does",
                        "Try 'merklize verify --help' for the options.");
    return {merklize::ct_inclusion_proof_from_json(text, *expect.leaf_count), {}};
  }
  const merklize::tlog_proof p = merklize::tlog_proof_from_text(text);
  return {merklize::inclusion_proof_of(p), p.head};
}

merklize::consistency_proof consistency_from_text(const std::string &text, proof_format format,
                                                  const std::optional<std::uint64_t> &old_size,
                                                  const std::optional<std::uint64_t> &new_size) {
  if (format == proof_format::merklize) return merklize::consistency_proof_from_json(text);
  if (format == proof_format::tlog_proof)
    throw usage_error("--proof-format tlog-proof holds inclusion proofs only",
                      "Try 'merklize verify-consistency --help' for the options.");
  if (!old_size || !new_size)
    throw usage_error("--proof-format ct needs --old-size M and --new-size N: CT's JSON does not "
                      "say the trees' sizes, which their signed tree heads do",
                      "Try 'merklize verify-consistency --help' for the options.");
  return merklize::ct_consistency_proof_from_json(text, *old_size, *new_size);
}

} // namespace cli
