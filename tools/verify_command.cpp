// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize verify: checks an inclusion proof of a leaf, or a multiproof of several, against a
// root, on the host; the proof in merklize's JSON, CT's or a C2SP tlog-proof (proof_formats.hpp).
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "proof_formats.hpp"
#include "quote.hpp"
#include "sizes.hpp"

#include <merklize/core/json.hpp>
#include <merklize/proofs/kary_proof_encoding.hpp>
#include <merklize/proofs/proof.hpp>

namespace cli {

merklize::digest digest_operand(const char *name, const std::string &hex) {
  try {
    return merklize::digest_from_hex(hex);
  } catch (const merklize::error &e) {
    throw merklize::error(std::string(name) + ": " + e.what());
  }
}

namespace {

constexpr text_limit leaf_file_limit{merklize::max_json_proof_bytes / 2 * merklize::node_bytes,
                                     "of the leaves of a JSON proof"};

// LEAFHEX: one digest, several (HEX,HEX,...), or @FILE, a file of 32-byte leaves.
std::vector<merklize::digest> leaf_operands(const std::string &text) {
  std::vector<merklize::digest> leaves;
  if (!text.empty() && text[0] == '@') {
    const std::string path = text.substr(1);
    // As many leaves as a JSON proof could prove: each index there takes at least 2 bytes.
    const auto bytes = read_input(path, false, leaf_file_limit);
    if (bytes.empty() || bytes.size() % merklize::node_bytes)
      throw merklize::error("LEAFHEX " + quote(text) + ": " + std::to_string(bytes.size()) +
                            " bytes are not one or more leaves of 32 bytes");
    leaves.resize(bytes.size() / merklize::node_bytes);
    for (std::size_t i = 0; i < leaves.size(); ++i)
      std::copy_n(bytes.begin() + i * merklize::node_bytes, merklize::node_bytes,
                  leaves[i].begin());
    return leaves;
  }
  for (std::size_t at = 0;;) {
    const std::size_t comma = text.find(',', at);
    leaves.push_back(digest_operand("LEAFHEX", text.substr(at, comma - at)));
    if (comma == std::string::npos) return leaves;
    at = comma + 1;
  }
}

// The verdict: the line of a valid proof (or {"valid":true,...} with --json), else the reason,
// exit status 1.
int verdict(const verify_arguments &args, const merklize::verification &result,
            const std::string &line, const std::string &json_members) {
  if (args.json) {
    write_stdout(result ? "{\"valid\":true," + json_members + "}\n"
                        : "{\"valid\":false,\"reason\":" + merklize::json_quote(result.reason) +
                              "}\n");
    return result ? 0 : 1;
  }
  if (!result) throw merklize::error("invalid proof: " + result.reason);
  write_stdout(line);
  return 0;
}

std::string tree_members(const merklize::tree_options &options, std::uint64_t leaf_count) {
  return "\"leaf_count\":" + std::to_string(leaf_count) +
         ",\"hash\":" + merklize::json_quote(merklize::to_string(options.hash)) +
         ",\"shape\":" + merklize::json_quote(merklize::to_string(options.shape));
}

int verify_multiproof(const verify_arguments &args, const std::string &text,
                      const std::vector<merklize::digest> &leaves, const merklize::digest &root) {
  const auto proof = while_doing("reading the proof (" + size_text(text.size()) + " of JSON)",
                                 [&] { return merklize::multiproof_from_json(text); });
  const merklize::verification result = merklize::verify(proof, leaves, root, args.expect);
  return verdict(args, result,
                 "valid: " + std::to_string(proof.indices.size()) + " leaves of " +
                     std::to_string(proof.leaf_count) + " (" +
                     merklize::to_string(proof.options.hash) + ", " +
                     merklize::to_string(proof.options.shape) + ")\n",
                 "\"leaves\":" + std::to_string(proof.indices.size()) + "," +
                     tree_members(proof.options, proof.leaf_count));
}

// Whether `text` is a multiproof in merklize's JSON: its "kind" says so.
bool is_multiproof(const std::string &text) {
  try {
    merklize::inclusion_proof_from_json(text);
  } catch (const merklize::error &e) {
    return std::string(e.what()).find("kind \"multiproof\"") != std::string::npos;
  }
  return false;
}

} // namespace

int verify_command(const verify_arguments &args) {
  const auto bytes = read_input(args.proof, false, json_proof_limit);
  const std::string text(bytes.begin(), bytes.end());
  if (args.format == proof_format::merklize && merklize::is_kary_proof_json(text))
    return kary_verify_command(args, text);
  const auto leaves = leaf_operands(args.leaf);
  const auto root = digest_operand("ROOTHEX", args.root);
  if (args.format == proof_format::merklize && (leaves.size() > 1 || is_multiproof(text)))
    return verify_multiproof(args, text, leaves, root);
  const read_inclusion read =
      while_doing("reading the proof (" + size_text(text.size()) + ")",
                  [&] { return inclusion_from_text(text, args.format, args.expect); });
  const merklize::inclusion_proof &proof = read.proof;
  merklize::verification result = merklize::verify(proof, leaves.front(), root, args.expect);
  if (result && read.head && read.head->root != root)
    result = {false,
              "the checkpoint's root " + merklize::to_hex(read.head->root) + " is not ROOTHEX"};
  const std::string origin = read.head ? ", checkpoint of " + read.head->origin : "";
  return verdict(
      args, result,
      "valid: leaf " + std::to_string(proof.index) + " of " + std::to_string(proof.leaf_count) +
          " (" + merklize::to_string(proof.options.hash) + ", " +
          merklize::to_string(proof.options.shape) + ")" +
          (proof.mixed_length ? ", list length " + std::to_string(*proof.mixed_length) : "") +
          origin + "\n",
      "\"index\":" + std::to_string(proof.index) + "," +
          tree_members(proof.options, proof.leaf_count) +
          (read.head ? ",\"origin\":" + merklize::json_quote(read.head->origin) : ""));
}

} // namespace cli
