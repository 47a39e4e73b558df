// merklize proof: the inclusion proof of one leaf of a file, as JSON. The leaves stream through the
// device: only the chunk holding the leaf comes back whole (merkleizer::prove(input, index)).
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "output.hpp"

#include <merklize/merklize.hpp>

namespace cli {

int proof_command(const proof_arguments &args) {
  if (args.arity) return kary_proof_command(args);
  merklize::config cfg;
  cfg.tree = args.tree;
  if (args.chunk_log2) cfg.input_chunk_log2 = *args.chunk_log2;
  library_input in(args.file, args.progress); // opened first: a bad FILE fails at once
  merklize::merkleizer m(chosen_device(args.device), cfg);
  const std::string json = merklize::to_json(m.prove(in.get(), args.index)) + "\n";
  in.finish();
  if (args.output)
    write_file_replacing(*args.output, json);
  else
    write_stdout(json);
  return 0;
}

} // namespace cli
