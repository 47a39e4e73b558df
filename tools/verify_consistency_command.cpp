// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize verify-consistency: checks on the host that a consistency proof shows the tree whose
// root is OLDROOT to be a prefix of the tree whose root is NEWROOT; the proof in merklize's JSON
// or CT's (proof_formats.hpp).
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "proof_formats.hpp"
#include "sizes.hpp"

#include <merklize/core/json.hpp>
#include <merklize/proofs/proof.hpp>

namespace cli {

int verify_consistency_command(const verify_consistency_arguments &args) {
  const auto text = read_input(args.proof, false, json_proof_limit);
  const auto proof = while_doing("reading the proof (" + size_text(text.size()) + ")", [&] {
    return consistency_from_text(std::string(text.begin(), text.end()), args.format, args.old_size,
                                 args.new_size);
  });
  const auto old_root = digest_operand("OLDROOT", args.old_root);
  const auto new_root = digest_operand("NEWROOT", args.new_root);
  merklize::proof_expectations expect;
  expect.hash = args.hash;
  const merklize::verification result = merklize::verify_consistency(
      args.old_size.value_or(proof.old_size), args.new_size.value_or(proof.new_size), old_root,
      new_root, proof, expect);
  if (args.json) {
    write_stdout(
        result ? "{\"consistent\":true,\"old_size\":" + std::to_string(proof.old_size) +
                     ",\"new_size\":" + std::to_string(proof.new_size) + ",\"hash\":" +
                     merklize::json_quote(merklize::to_string(proof.options.hash)) + "}\n"
               : "{\"consistent\":false,\"reason\":" + merklize::json_quote(result.reason) + "}\n");
    return result ? 0 : 1;
  }
  if (!result) throw merklize::error("invalid proof: " + result.reason);
  write_stdout("consistent: the tree of " + std::to_string(proof.old_size) +
               " leaves is a prefix of the tree of " + std::to_string(proof.new_size) + " (" +
               merklize::to_string(proof.options.hash) + ")\n");
  return 0;
}

} // namespace cli
