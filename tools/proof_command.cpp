// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize proof: the inclusion proof of one leaf of a file, as JSON. The leaves stream through the
// device: only the chunk holding the leaf comes back whole (merkleizer::prove(input, index)).
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "output.hpp"

#include <merklize/merklize.hpp>

namespace cli {

int proof_command(const proof_arguments &args) {
  check_mix_in_length(args.mix_in_length, args.tree);
  if (args.arity) return kary_proof_command(args);
  merklize::config cfg;
  cfg.tree = args.tree;
  if (args.chunk_log2) cfg.input_chunk_log2 = *args.chunk_log2;
  library_input in(args.file, args.progress); // opened first: a bad FILE fails at once
  merklize::merkleizer m(chosen_device(args.device), cfg);
  auto proof = m.prove(in.get(), args.index);
  if (args.mix_in_length) proof = merklize::mix_in_length(proof, *args.mix_in_length);
  const std::string json = merklize::to_json(proof) + "\n";
  in.finish();
  if (args.output)
    write_file_replacing(*args.output, json);
  else
    write_stdout(json);
  return 0;
}

} // namespace cli
