// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize verify: checks an inclusion proof of a leaf against a root, on the host.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "sizes.hpp"

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

int verify_command(const verify_arguments &args) {
  const auto text = read_input(args.proof, false, json_proof_limit);
  if (merklize::is_kary_proof_json({reinterpret_cast<const char *>(text.data()), text.size()}))
    return kary_verify_command(args, std::string(text.begin(), text.end()));
  const auto proof = while_doing("reading the proof (" + size_text(text.size()) + " of JSON)", [&] {
    return merklize::inclusion_proof_from_json(std::string(text.begin(), text.end()));
  });
  const auto leaf = digest_operand("LEAFHEX", args.leaf);
  const auto root = digest_operand("ROOTHEX", args.root);
  const merklize::verification result = merklize::verify(proof, leaf, root, args.expect);
  if (!result) throw merklize::error("invalid proof: " + result.reason);
  write_stdout("valid: leaf " + std::to_string(proof.index) + " of " +
               std::to_string(proof.leaf_count) + " (" + merklize::to_string(proof.options.hash) +
               ", " + merklize::to_string(proof.options.pad) + ")" +
               (proof.mixed_length ? ", list length " + std::to_string(*proof.mixed_length) : "") +
               "\n");
  return 0;
}

} // namespace cli
