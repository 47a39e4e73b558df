// merklize verify: checks an inclusion proof of a leaf against a root, on the host.
#include "cli.hpp"

#include <merklize/proof.hpp>

#include <iostream>

namespace cli {

namespace {

merklize::digest digest_argument(const char *name, const std::string &hex) {
  try {
    return merklize::digest_from_hex(hex);
  } catch (const merklize::error &e) {
    throw merklize::error(std::string(name) + ": " + e.what());
  }
}

} // namespace

int verify_command(int argc, char **argv) {
  const arguments args(argc, argv, 2, {"hash", "pad", "leaves", "depth"});
  if (args.positional.size() != 3)
    throw usage_error("verify takes PROOF.json (or -), LEAFHEX and ROOTHEX");
  merklize::proof_expectations expect;
  if (args.has("hash")) expect.hash = merklize::parse_hash_kind(args.get("hash", ""));
  if (args.has("pad")) expect.pad = merklize::parse_shape(args.get("pad", ""));
  if (args.has("leaves")) expect.leaf_count = count_option(args, "leaves");
  if (args.has("depth")) {
    const std::uint64_t depth = count_option(args, "depth");
    if (depth > 64) throw usage_error("--depth takes at most 64 levels");
    expect.depth = static_cast<unsigned>(depth);
  }
  const auto text = read_input(args.positional[0]);
  const auto proof = merklize::inclusion_proof_from_json(std::string(text.begin(), text.end()));
  const auto leaf = digest_argument("LEAFHEX", args.positional[1]);
  const auto root = digest_argument("ROOTHEX", args.positional[2]);
  const merklize::verification result = merklize::verify(proof, leaf, root, expect);
  if (!result) {
    std::cerr << "merklize: invalid proof: " << result.reason << "\n";
    return 1;
  }
  std::cout << "valid: leaf " << proof.index << " of " << proof.leaf_count << " ("
            << merklize::to_string(proof.options.hash) << ", "
            << merklize::to_string(proof.options.pad) << ")\n";
  return 0;
}

} // namespace cli
