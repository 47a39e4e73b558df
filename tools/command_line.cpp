// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize's command line: each command's options, usage and help (CLI11), parsed into the
// arguments of commands.hpp.
#include "command_line.hpp"

#include "commands.hpp"
#include "parser.hpp"
#include "proof_formats.hpp"
#include "version.hpp"

#include <merklize/core/kary.hpp>
#include <merklize/engine/host_tree.hpp>
#include <merklize/formats/presets.hpp>
#include <merklize/proofs/consistency.hpp>
#include <merklize/runtime/compile_notice.hpp>

namespace cli {
namespace {

const char *exit_statuses = "Exit status: 0 success, 1 a failure, 2 a mistake in the command line.";

const std::string device_help =
    "the OpenCL device: P:D as `merklize devices` lists them, or a case-insensitive part of a "
    "device's or platform's name or vendor, or nvidia, pocl, cpu, gpu; default: the first GPU, "
    "else the first device; host: the host engine (" +
    merklize::host_engine_hash_names() +
    " trees, data blocks and log entries on the CPU's cores); auto (the default, unless "
    "$MERKLIZE_DEVICE names one): default's device, and for root, b3sum, leaf-hash and one leaf's "
    "proof whichever of it and the host engine is expected to finish first (--verbose says why)";

CLI::App &add_command(CLI::App &app, const std::string &name, const std::string &description,
                      const std::string &footer = "") {
  CLI::App &command = *app.add_subcommand(name, description);
  command.footer(footer.empty() ? exit_statuses : footer + "\n" + exit_statuses);
  return command;
}

CLI::Option *add_device(CLI::App &command, std::optional<std::string> &device) {
  return add_text(command, "--device", device, "SPEC", device_help);
}

CLI::Option *add_progress(CLI::App &command, bool &progress) {
  return command.add_flag("--progress", progress,
                          "show on stderr how far the input has been read (bytes, rate, time "
                          "left), updated in place");
}

CLI::Option *add_chunk_log2(CLI::App &command, std::optional<unsigned> &chunk_log2) {
  return add_parsed(command, "--chunk-log2", chunk_log2, parse_chunk_log2, "S",
                    "stream the leaves through the device in chunks of 2^S leaves, S from 1 to "
                    "40 (default: the device's, 2^21 on GPUs and 2^20 on CPUs); the memory held "
                    "is a few chunks, whatever FILE's size");
}

CLI::Option *add_mix_in_length(CLI::App &command, std::optional<std::uint64_t> &length,
                               const std::string &what) {
  return add_parsed(command, "--mix-in-length", length, parse_count, "N",
                    what + " of an SSZ list of N elements: the tree's root with N mixed in, "
                           "SHA-256(root || N as 32 bytes little-endian); needs --hash sha256 "
                           "--pad zero --depth D, D from the list's limit (--ssz-list LIMIT "
                           "sets all four)");
}

const char *entries_help =
    "lines (one entry a line, the \"\\n\" not part of it; a last line without one is an entry "
    "too) or length-prefixed (each a 4-byte big-endian length, then its bytes: entries that may "
    "hold a \"\\n\"). No default: binary entries read as lines would give other leaves";

// --ssz-list LIMIT, --ssz-vector (where `ssz`) and --log with --entries (presets.hpp): each
// excludes the others, the options it sets, and `also`.
void add_presets(CLI::App &c, preset_arguments &preset, bool ssz, const std::string &what,
                 const std::vector<const char *> &also) {
  std::vector<CLI::Option *> presets;
  if (ssz) {
    presets.push_back(add_parsed(
        c, "--ssz-list", preset.ssz_list, parse_count, "LIMIT",
        what + " of the SSZ List[Bytes32, LIMIT] whose chunks FILE holds (Ethereum consensus; "
               "one chunk an element, or each element's hash_tree_root): sha256 nodes, shape "
               "zero, depth ceil(log2 LIMIT), FILE's chunk count mixed in as the length; the "
               "same as --hash sha256 --pad zero --depth D --mix-in-length N"));
    presets.push_back(c.add_flag("--ssz-vector", preset.ssz_vector,
                                 what + " of the SSZ Vector[Bytes32, N] whose N chunks FILE holds: "
                                        "sha256 nodes, shape zero, no length mixed in"));
  }
  const auto log = c.add_flag("--log", preset.log,
                              what + " of the RFC 6962 / 9162 transparency log (Certificate "
                                     "Transparency, Sigstore Rekor, Go's checksum database) whose "
                                     "entries FILE holds, framed as --entries says: their leaf "
                                     "hashes SHA-256(0x00 || entry) are the leaves, nodes "
                                     "rfc6962; FILE is read whole");
  presets.push_back(log);
  add_parsed(c, "--entries", preset.entries, parse_entries, "F",
             std::string("with --log, required: how FILE holds the entries, ") + entries_help)
      ->needs(log);
  for (CLI::Option *preset_option : presets) {
    for (CLI::Option *other : presets)
      if (other != preset_option) preset_option->excludes(other);
    for (const char *name : {"--hash", "--pad", "--depth", "--mix-in-length"})
      if (CLI::Option *set = c.get_option_no_throw(name)) preset_option->excludes(set);
    for (const char *name : also)
      if (CLI::Option *other = c.get_option_no_throw(name)) preset_option->excludes(other);
  }
  for (const char *name : {"--devices", "--chunk-log2", "--verbose"})
    if (CLI::Option *streamed = c.get_option_no_throw(name)) log->excludes(streamed);
}

CLI::Option *add_output(CLI::App &command, std::optional<std::string> &output,
                        const std::string &what) {
  return add_text(command, "-o,--output", output, what,
                  "write to " + what +
                      ", not stdout: to a temporary file renamed over it once whole, so that it "
                      "is never left half-written");
}

const char *proof_format_help =
    "merklize (the default: merklize's JSON, docs/PROOFS.md), ct (Certificate Transparency v1's "
    "JSON: RFC 6962 4.5's {\"leaf_index\", \"audit_path\"}, 4.4's {\"consistency\"}, hashes "
    "in base 64) or tlog-proof (C2SP's tlog-proof text, its checkpoint embedded); ct and "
    "tlog-proof are a log's (--log, or --hash rfc6962)";

CLI::Option *add_proof_format(CLI::App &command, proof_format &format, const std::string &what) {
  return add_parsed(command, "--proof-format", format, parse_proof_format, "F",
                    what + ": " + proof_format_help);
}

CLI::Option *add_json(CLI::App &command, bool &json, const std::string &what) {
  return command.add_flag("--json", json, what);
}

CLI::Option *add_leaves(CLI::App &command, std::string &file) {
  return command
      .add_option("FILE", file,
                  "N x 32 bytes of leaves (with --log: a log's entries; with --leaf-size "
                  "or --format: data), or - for stdin")
      ->required()
      ->type_name("");
}

// --leaf-size, --leaf-hash and --salt: leaves hashed from FILE's data blocks (root and proof);
// `salt_users` is --salt's description. Returns --leaf-size.
CLI::Option *add_leaf_block_options(CLI::App &c, leaf_block_arguments &args,
                                    const std::string &salt_users) {
  const auto leaf_size =
      add_parsed(c, "--leaf-size", args.leaf_size, parse_count, "L",
                 "FILE is data: leaf i is the hash of its bytes [i L, (i + 1) L), "
                 "the last block shorter. Leaves and nodes are not told apart unless "
                 "--leaf-domain: at L = 32 x arity, FILE and the file of its leaf hashes have "
                 "the same root (docs/FORMATS.md)");
  add_text(c, "--leaf-hash", args.leaf_hash, "H",
           "with --leaf-size: " + merklize::leaf_hash_list() +
               " (default: the --hash of that name, else blake3)")
      ->needs(leaf_size);
  const auto salt = add_text(c, "--salt", args.salt, "HEX", salt_users);
  c.add_flag("--leaf-domain", args.leaf_domain,
             "with --leaf-size: leaves separated from nodes, SHA-256(tag || block) or BLAKE3 "
             "keyed with the tag (docs/FORMATS.md); off by default, so that roots stay")
      ->needs(leaf_size)
      ->excludes(salt);
  return leaf_size;
}

// The options of the commitments' formats (commitment_command.cpp), each needing `format`; --cid
// and --dump only where `root`.
void add_commitment_options(CLI::App &c, commitment_arguments &args, CLI::Option *format,
                            bool root) {
  c.add_flag("--display-order", args.display_order,
             "bitcoin: FILE holds txids as hex lines, byte-reversed as block explorers and "
             "bitcoin-cli show them, and the root (or proof) prints so too")
      ->needs(format);
  if (root) {
    c.add_flag("--cid", args.cid,
               "filecoin-tree-d: print the piece CID (baga6ea4sea..., as Lotus prints it), not "
               "the commitment in hex")
        ->needs(format);
    add_text(c, "--dump", args.dump, "OUT",
             "oz-standard: also write the tree to OUT as OpenZeppelin's tree.dump() writes it "
             "(format standard-v1), which StandardMerkleTree.load() reads")
        ->needs(format);
  }
  c.add_flag("--no-sort-leaves", args.no_sort_leaves,
             "oz-standard, FILE of values: the leaves in the values' order (OpenZeppelin's "
             "sortLeaves: false), not sorted by hash")
      ->needs(format);
}

// --leaf-size and --format: trees over data blocks (block_command.cpp); they exclude the options
// of trees over ready leaves that they have no use for.
void add_block_options(CLI::App &c, block_arguments &args) {
  const auto leaf_size = add_leaf_block_options(
      c, args,
      "dm-verity, fs-verity, or SHA-256 leaves: the salt hashed before each block, - for none "
      "(default: none, but for dm-verity 32 random bytes, as veritysetup format's)");
  const auto format = add_text(
      c, "--format", args.format, "F",
      "FILE is data, its tree a preset: " + merklize::format_help(merklize::preset_group::data) +
          "; or a commitment (docs/FORMATS.md): " +
          merklize::format_help(merklize::preset_group::commitment));
  add_commitment_options(c, args.commitment, format, true);
  add_parsed(c, "--data-block-size", args.data_block_size, parse_count, "B",
             "dm-verity: bytes a data block (default 4096)")
      ->needs(format);
  add_parsed(c, "--hash-block-size", args.hash_block_size, parse_count, "B",
             "dm-verity: bytes a hash block (default 4096)")
      ->needs(format);
  add_parsed(c, "--block-size", args.block_size, parse_count, "B",
             "fs-verity: bytes a block (default 4096)")
      ->needs(format);
  add_text(c, "--hash-output", args.hash_output, "FILE",
           "dm-verity: write the hash device to FILE, as veritysetup format writes it: its "
           "superblock, then the hash tree from the next hash block")
      ->needs(format);
  c.add_flag("--no-superblock", args.no_superblock,
             "dm-verity: no superblock, the hash tree from the hash device's first byte "
             "(veritysetup format --no-superblock; open and verify then need every option)")
      ->needs(format);
  add_text(c, "--uuid", args.uuid, "UUID",
           "dm-verity: the superblock's UUID (default: a random one, as veritysetup's)")
      ->needs(format);
  add_text(c, "--tree-output", args.tree_output, "FILE",
           "fs-verity: write the Merkle tree (fsverity digest --out-merkle-tree's) to FILE")
      ->needs(format);
  add_text(c, "--outboard", args.outboard, "FILE",
           "bao-outboard: write the outboard (docs/FORMATS.md) to FILE")
      ->needs(format);
  const auto arity =
      add_parsed(c, "--arity", args.arity, parse_count, "K",
                 "a k-ary tree: each node the hash of K children (a power of two from 2 to "
                 "128), --hash " +
                     merklize::kary_hash_names() +
                     ", --pad promote or zero; over FILE's leaves, or with --leaf-size its "
                     "blocks'");
  arity->excludes(format)->excludes(c.get_option("--depth"));
  leaf_size->excludes(format);
  for (const char *tree_option : {"--hash", "--pad", "--depth"})
    format->excludes(c.get_option(tree_option));
  for (const char *stream_option : {"--chunk-log2", "--mix-in-length"})
    for (CLI::Option *option : {leaf_size, format, arity})
      option->excludes(c.get_option(stream_option));
  format->excludes(c.get_option("--devices")); // --devices takes --leaf-size and --arity
}

command_runner add_root(CLI::App &app) {
  auto args = std::make_shared<root_arguments>();
  CLI::App &c = add_command(
      app, "root", "Print the root of the Merkle tree over FILE's leaves as 64 hex digits.",
      "Kernels come from the cache of compiled programs ($MERKLIZE_CACHE_DIR, else "
      "$XDG_CACHE_HOME/merklize or ~/.cache/merklize; set empty: no cache), or compiled ahead of "
      "time from $MERKLIZE_KERNEL_DIR, else are compiled now and cached.");
  add_tree_options(c, args->tree);
  add_mix_in_length(c, args->mix_in_length, "print the root");
  const auto device = add_device(c, args->device);
  const auto devices = add_text(c, "--devices", args->devices, "SPEC,SPEC...",
                                "build over several devices (one named twice: two queues); not "
                                "with --device or --verbose. FILE is read whole into memory first, "
                                "but with --leaf-size or --arity a regular file, which each "
                                "device reads at its own offsets");
  add_parsed(c, "--shard-log2", args->shard_log2, parse_shard_log2, "S",
             "with --devices: shards of 2^S leaves (with --leaf-size: blocks; with --arity K: a "
             "power of K), S from 1 to 64 "
             "(default: about 8 a device, no smaller than a device's chunk, or with --leaf-size "
             "than a piece of 16 MiB of data)")
      ->needs(devices);
  const auto verbose = c.add_flag("-v,--verbose", args->verbose,
                                  "say on stderr which engine ran and why (\"engine: ..\"), "
                                  "where the kernels came from (\"program: "
                                  "jit|spirv|spir-bitcode|cache, ..\") and where the time went, "
                                  "a line per phase (\"phase device discovery and engine "
                                  "choice: .. ms\"), and before kernels are compiled that they "
                                  "are (\"merklize: compiling kernels for ..\"), stderr a "
                                  "terminal or not");
  const auto chunk_log2 = add_chunk_log2(c, args->chunk_log2);
  devices->excludes(device)->excludes(verbose)->excludes(chunk_log2);
  add_progress(c, args->progress);
  add_block_options(c, args->blocks);
  add_json(c, args->json, "print {\"root\":\"HEX\"}, one JSON object, not the bare root")
      ->excludes(c.get_option("--format"));
  add_presets(c, args->preset, true, "print the root",
              {"--leaf-size", "--format", "--arity", "--salt"});
  add_leaves(c, args->file);
  return [args] {
    if (args->verbose) merklize::set_compile_notice(merklize::compile_notice::on);
    return root_command(*args);
  };
}

command_runner add_proof(CLI::App &app) {
  auto args = std::make_shared<proof_arguments>();
  CLI::App &c = add_command(
      app, "proof",
      "Print the inclusion proof of leaf I of FILE as one line of JSON (docs/PROOFS.md), "
      "gathered on the device.",
      "With --leaf-size L, `merklize verify` takes leaf I, which the proof does not hold: the "
      "hash of FILE's block I, `tail -c +$((I * L + 1)) FILE | head -c L | sha256sum` for "
      "SHA-256 leaves (with --salt, the salt's bytes hashed first; docs/PROOFS.md), `... | "
      "merklize b3sum --no-names` for BLAKE3 leaves; and the root that `merklize root` prints "
      "with the same options.");
  add_parsed(c, "-i,--index", args->indices, parse_indices, "I",
             "the leaf to prove, from 0 (with --leaf-size: the leaf of block I; with --format: "
             "value or txid I); I,J,...: the multiproof of several leaves (of FILE's leaves or a "
             "--log's entries, or with --format oz-standard of several values)")
      ->required();
  add_tree_options(c, args->tree);
  add_mix_in_length(c, args->mix_in_length, "prove the leaf under the root");
  add_device(c, args->device);
  add_output(c, args->output, "PROOF");
  const auto chunk_log2 = add_chunk_log2(c, args->chunk_log2);
  add_parsed(c, "--arity", args->arity, parse_count, "K",
             "the proof of a k-ary tree (merklize root --arity K): K - 1 siblings a level")
      ->excludes(chunk_log2)
      ->excludes(c.get_option("--depth"))
      ->excludes(c.get_option("--mix-in-length"));
  const auto leaf_size = add_leaf_block_options(
      c, args->blocks, "SHA-256 leaves: the salt hashed before each block (default: none)");
  c.get_option("--salt")->needs(leaf_size);
  leaf_size->excludes(chunk_log2)->excludes(c.get_option("--mix-in-length"));
  add_progress(c, args->progress);
  add_presets(c, args->preset, true, "prove leaf I (with --log: entry I) under the root",
              {"--leaf-size", "--arity", "--salt"});
  const auto format = add_text(c, "--format", args->format, "F",
                               "a commitment's proof (docs/FORMATS.md): " +
                                   merklize::format_help(merklize::preset_group::commitment, true));
  add_commitment_options(c, args->commitment, format, false);
  add_proof_format(c, args->written.format, "the proof's text")->excludes(format);
  add_text(c, "--checkpoint", args->written.checkpoint, "FILE",
           "with --proof-format tlog-proof: the log's checkpoint of the tree (a signed note, "
           "c2sp.org/tlog-checkpoint), embedded verbatim; its size and root must be the tree's");
  for (const char *other :
       {"--hash", "--pad", "--depth", "--mix-in-length", "--chunk-log2", "--arity", "--leaf-size",
        "--salt", "--ssz-list", "--ssz-vector", "--log"})
    format->excludes(c.get_option(other));
  add_leaves(c, args->file);
  return [args] {
    args->index = args->indices.front();
    return proof_command(*args);
  };
}

command_runner add_verify(CLI::App &app) {
  auto args = std::make_shared<verify_arguments>();
  CLI::App &c = add_command(
      app, "verify",
      "Check on the host that PROOF proves leaf LEAFHEX under root ROOTHEX: exit status 0 if it "
      "does, 1 if not (or if anything is malformed).",
      "A root binds neither the hash, shape, depth, arity nor leaf count of its tree, and a "
      "proof's header is only its claim: a proof relabelled with other values can verify (a "
      "sha256 zero-shape tree's inner node passes as a leaf of a promote proof). Give what you "
      "know of the tree, --hash, --pad, --depth, --arity and --leaves, and a proof that claims "
      "otherwise is refused (docs/PROOFS.md, \"What a proof binds\"). PROOF is at most 64 MiB "
      "of JSON, refused once past it.");
  add_parsed(c, "--hash", args->expect.hash, parse_hash, "H", "require a proof for this hash");
  add_parsed(c, "--pad", args->expect.shape, parse_pad, "P", "require a proof for this shape");
  add_parsed(c, "--leaves", args->expect.leaf_count, parse_count, "N",
             "require a proof for a tree of N leaves");
  add_parsed(c, "--depth", args->expect.depth, parse_depth, "D",
             "require a proof for a root of depth D (a k-ary tree's height)");
  add_parsed(
      c, "--arity", args->expect.arity,
      [](const std::string &name, const std::string &text) {
        const std::uint64_t k = parse_count(name, text);
        if (k < 2 || k > 128)
          throw usage_error(name + " takes the tree's children per node, 2 to 128, not " + text);
        return static_cast<unsigned>(k);
      },
      "K", "require a proof for a tree of arity K (2: a binary tree)");
  auto &expect = args->expect;
  c.add_flag_callback(
       "--log",
       [&expect] {
         expect.hash = merklize::hash_kind::rfc6962;
         expect.shape = merklize::shape::promote;
       },
       "require a proof of an RFC 6962 log (--hash rfc6962 --pad promote): LEAFHEX is the "
       "entry's leaf hash, SHA-256(0x00 || entry)")
      ->excludes(c.get_option("--hash"))
      ->excludes(c.get_option("--pad"));
  add_proof_format(c, args->format, "the proof's text (ct needs --leaves)");
  add_json(c, args->json,
           "print the verdict as one JSON object, {\"valid\":true,...} or {\"valid\":false,"
           "\"reason\":...} (exit status 0 or 1 as without it)");
  c.add_option("PROOF", args->proof, "the proof, or - for stdin")->required()->type_name("");
  c.add_option("LEAFHEX", args->leaf,
               "the leaf, 64 hex digits; a multiproof's leaves HEX,HEX,... in its indices' "
               "order, or @FILE: FILE holds them, 32 raw bytes each")
      ->required()
      ->type_name("");
  c.add_option("ROOTHEX", args->root, "the root, 64 hex digits")->required()->type_name("");
  return [args] { return verify_command(*args); };
}

command_runner add_consistency(CLI::App &app) {
  auto args = std::make_shared<consistency_arguments>();
  CLI::App &c = add_command(
      app, "consistency",
      "Print the heads of the tree of FILE's first M leaves and of the tree of all of them "
      "(\"old tree head: M leaves, root HEX\", then \"new tree head: N leaves, root HEX\"), then "
      "the consistency proof (RFC 9162 2.1.4) that the first is a prefix of the second, as one "
      "line of JSON (docs/PROOFS.md).",
      "Shape promote: hashes " + merklize::consistency_hash_names() +
          ". With -o the proof goes to PROOF and stdout holds the two heads.");
  add_parsed(c, "--old-size", args->old_size, parse_count, "M",
             "the leaves (with --log: entries) of the old tree, 0 to FILE's count")
      ->required();
  add_parsed(c, "--hash", args->hash, parse_hash, "H",
             "node hash over FILE's N x 32 bytes of leaves: " + merklize::consistency_hash_names() +
                 " (default rfc6962: consistency proofs are RFC 9162's, a log's)");
  add_device(c, args->device);
  add_output(c, args->output, "PROOF");
  add_progress(c, args->progress);
  add_proof_format(c, args->format, "the proof's text (merklize or ct)");
  add_presets(c, args->preset, false, "the proof and heads", {});
  c.add_option("FILE", args->file,
               "N x 32 bytes of leaves (with --log: the log's entries), or - "
               "for stdin")
      ->required()
      ->type_name("");
  return [args] { return consistency_command(*args); };
}

command_runner add_verify_consistency(CLI::App &app) {
  auto args = std::make_shared<verify_consistency_arguments>();
  CLI::App &c = add_command(app, "verify-consistency",
                            "Check on the host that PROOF shows the tree whose root is OLDROOT to "
                            "be a prefix of the tree whose root is NEWROOT: exit status 0 if it "
                            "does, 1 if not (or if anything is malformed).");
  const auto hash =
      add_parsed(c, "--hash", args->hash, parse_hash, "H", "require a proof for this hash");
  auto &required_hash = args->hash;
  c.add_flag_callback(
       "--log", [&required_hash] { required_hash = merklize::hash_kind::rfc6962; },
       "require a proof between two heads of an RFC 6962 log (--hash rfc6962)")
      ->excludes(hash);
  add_parsed(c, "--old-size", args->old_size, parse_count, "M",
             "require a proof from a tree of M leaves");
  add_parsed(c, "--new-size", args->new_size, parse_count, "N",
             "require a proof to a tree of N leaves");
  add_proof_format(c, args->format, "the proof's text (merklize or ct; ct needs both sizes)");
  add_json(c, args->json,
           "print the verdict as one JSON object, {\"consistent\":true,...} or "
           "{\"consistent\":false,\"reason\":...} (exit status 0 or 1 as without it)");
  c.add_option("PROOF", args->proof, "the proof, or - for stdin")->required()->type_name("");
  c.add_option("OLDROOT", args->old_root, "the old tree's root, 64 hex digits")
      ->required()
      ->type_name("");
  c.add_option("NEWROOT", args->new_root, "the new tree's root, 64 hex digits")
      ->required()
      ->type_name("");
  return [args] { return verify_consistency_command(*args); };
}

command_runner add_leaf_hash(CLI::App &app) {
  auto args = std::make_shared<leaf_hash_arguments>();
  CLI::App &c = add_command(app, "leaf-hash",
                            "Write the leaves of a log: RFC 6962's leaf hash SHA-256(0x00 || "
                            "entry) of each entry of the FILEs, in order, hashed on the host "
                            "engine or a device (--device), 32 raw bytes each (the leaves of "
                            "`merklize root --hash rfc6962`).");
  add_parsed(c, "--hash", args->hash, parse_hash, "H",
             "the leaf hash: rfc6962 (the default and the only one)");
  add_parsed(c, "--entries", args->entries, parse_entries, "F",
             std::string("required: how the FILEs hold entries, ") + entries_help);
  add_device(c, args->device);
  add_output(c, args->output, "LEAVES");
  c.add_option("FILE", args->files, "files of entries, or - for stdin")->required()->type_name("");
  return [args] { return leaf_hash_command(*args); };
}

command_runner add_tiles(CLI::App &app) {
  auto args = std::make_shared<tiles_arguments>();
  CLI::App &c = add_command(
      app, "tiles",
      "Build the log's tree on the device and write it under DIR as C2SP tlog-tiles "
      "(c2sp.org/tlog-tiles): tile/L/N[.p/W] for every tile a log of its size serves, and with "
      "--log the entry bundles tile/entries/N[.p/W]; print the checkpoint's body (origin, size, "
      "base 64 root: c2sp.org/tlog-checkpoint), for the log to sign.",
      "Without --log, FILE holds the log's leaf hashes, N x 32 bytes (no entry bundles).");
  c.add_option("-o,--output", args->output, "required: the folder to write the tiles in")
      ->required()
      ->type_name("DIR");
  c.add_option("--origin", args->origin,
               "required: the checkpoint's origin line, the log's name (example.com/log)")
      ->required()
      ->type_name("ORIGIN");
  add_device(c, args->device);
  add_progress(c, args->progress);
  add_presets(c, args->preset, false, "the tiles", {});
  c.add_option("FILE", args->file,
               "the log's N x 32 bytes of leaf hashes (with --log: its entries, each at most "
               "65535 bytes), or - for stdin")
      ->required()
      ->type_name("");
  return [args] { return tiles_command(*args); };
}

command_runner add_tiles_read(CLI::App &app) {
  auto args = std::make_shared<tiles_read_arguments>();
  CLI::App &c = add_command(
      app, "tiles-read",
      "Read the C2SP tiles under DIR (as merklize tiles writes them, or a log serves them) of "
      "the log of --size N entries, or of --checkpoint's size, and print its root (checked "
      "against the checkpoint's), or with -i I entry I's inclusion proof, or with --old-size M "
      "the consistency proof from its first M entries, on the host.");
  c.add_option("DIR", args->folder, "the folder holding tile/...")->required()->type_name("");
  const auto size = add_parsed(c, "--size", args->size, parse_count, "N", "the log's size");
  const auto checkpoint =
      add_text(c, "--checkpoint", args->checkpoint, "FILE",
               "the log's checkpoint (its body, or the signed note, whose signatures are not "
               "verified here): its size, and the root the tiles must lead to");
  const auto index = add_parsed(c, "-i,--index", args->index, parse_count, "I",
                                "print the inclusion proof of entry I");
  const auto old_size = add_parsed(c, "--old-size", args->old_size, parse_count, "M",
                                   "print the consistency proof from the first M entries");
  index->excludes(old_size);
  add_proof_format(c, args->format, "the proof's text (with -i or --old-size)");
  add_json(c, args->json, "print the root as {\"size\":N,\"root\":\"HEX\"}");
  add_output(c, args->output, "PROOF");
  return [args, size, checkpoint] {
    if (size->empty() && checkpoint->empty())
      throw usage_error("tiles-read needs --size N or --checkpoint FILE",
                        "Try 'merklize tiles-read --help' for the options.");
    if (args->format == proof_format::tlog_proof && !args->checkpoint)
      throw usage_error("--proof-format tlog-proof needs --checkpoint FILE: the log's signed "
                        "checkpoint, which the proof embeds",
                        "Try 'merklize tiles-read --help' for the options.");
    return tiles_read_command(*args);
  };
}

command_runner add_b3sum(CLI::App &app) {
  auto args = std::make_shared<b3sum_arguments>();
  CLI::App &c = add_command(
      app, "b3sum",
      "Print or check BLAKE3 checksums, hashed on the device: a drop-in for the b3sum program "
      "(1.x), whose output it prints byte for byte.",
      "A file that cannot be read is reported and skipped (exit status 1); with --check, a "
      "file that does not match or cannot be read is FAILED (exit status 1).");
  const auto files = c.add_option("FILE", args->files,
                                  "files to hash, or check files to check; none, or -, "
                                  "for stdin")
                         ->type_name("");
  const auto check =
      c.add_flag("-c,--check", args->check, "read BLAKE3 sums from the FILEs and check them");
  const auto keyed = c.add_flag("--keyed", args->keyed,
                                "keyed mode; the secret key, exactly 32 raw bytes, is read from "
                                "stdin (so FILEs are needed, and - is refused)");
  const auto derive = add_text(c, "--derive-key", args->derive_key, "CONTEXT",
                               "key derivation mode, with the context string CONTEXT");
  const auto length = add_parsed(c, "-l,--length", args->length, parse_count, "LEN",
                                 "the number of output bytes, before hex encoding (default 32)");
  add_parsed(c, "--num-threads", args->num_threads, parse_threads, "NUM",
             "the threads reading a file of more than 1 MiB (0 or none: up to 8)");
  c.add_flag("--no-mmap", "accepted, as b3sum accepts it: files are read, never mapped");
  const auto no_names = c.add_flag("--no-names", args->no_names, "omit the file names");
  const auto raw = c.add_flag("--raw", args->raw,
                              "write the output's raw bytes, not hex, and no name (one input "
                              "only)");
  c.add_flag("--quiet", args->quiet, "with --check: print nothing for a file that is OK")
      ->needs(check);
  keyed->excludes(derive)->needs(files);
  check->excludes(keyed)->excludes(derive)->excludes(length)->excludes(raw)->excludes(no_names);
  add_device(c, args->device);
  add_progress(c, args->progress);
  return [args] { return b3sum_command(*args); };
}

command_runner add_bench(CLI::App &app) {
  auto args = std::make_shared<bench_arguments>();
  CLI::App &c = add_command(
      app, "bench",
      "Say whether merklize pays on this machine for FILE: each task (BLAKE3 of the file, a "
      "Merkle root, a SHA-256 tree of 4 KiB blocks, fs-verity, dm-verity) timed as whole "
      "processes, merklize's command beside the CPU tool that does it (b3sum, sha256sum, "
      "fsverity digest, veritysetup format: those installed), their outputs checked to agree.",
      "Times include the device's start-up and reading FILE, as a user waits for them; run it "
      "on a file of the size you use (the page cache warm: it is read once first). merklize_bench "
      "(built with the benchmarks) times the kernels alone.");
  add_parsed(c, "--runs", args->runs, parse_runs, "N",
             "time each command N times, 1 to 1000 (default 5), alternating with its CPU tool");
  add_device(c, args->device);
  c.add_option("FILE", args->file, "a regular file: your data")->required()->type_name("");
  return [args] { return bench_command(*args); };
}

const char *const matrix_footer =
    "A MATRIX is row-major canonical little-endian field elements: 4 bytes each for BabyBear "
    "and KoalaBear, 8 for Goldilocks. Heights may differ if each is ceil(H / 2^k) for the "
    "tallest height H, as Plonky3 requires (docs/LIBRARY.md, \"Matrix commitments\"). A matrix "
    "of H rows with ceil(log2 H) below --cap-height enters above the cap's layer and is bound by "
    "nothing, as in Plonky3: a warning names it.";

// An option given once or more, one count each time (CLI11 would take the words after it too),
// every value kept in order; required.
void add_repeated_count(CLI::App &c, const std::string &name, std::vector<std::uint64_t> &target,
                        const std::string &value_name, const std::string &description) {
  c.add_option_function<std::vector<std::string>>(
       name,
       [&target, name](const std::vector<std::string> &texts) {
         for (const std::string &text : texts)
           target.push_back(parse_count(name, text));
       },
       description)
      ->type_name(value_name)
      ->required()
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// The options of merklize commit, which merklize open shares.
void add_commit_options(CLI::App &c, commit_arguments &args) {
  add_parsed(c, "--hash", args.hash, parse_hash, "H",
             "poseidon2-babybear (default), poseidon2-koalabear or poseidon2-goldilocks: "
             "Plonky3's sponge over the rows and 2-to-1 compression of Poseidon2 width 16, or 8");
  add_repeated_count(
      c, "--width", args.widths, "W",
      "required: the elements a row, once for all the MATRIX files or once for each, in order");
  add_parsed(c, "--cap-height", args.cap_height, parse_depth, "C",
             "the cap: the 2^C digests C layers below the root (fewer where the tree is "
             "shorter), default 0");
  add_device(c, args.device);
  c.add_option("MATRIX", args.files, "matrix files, or - for stdin")->required()->type_name("");
}

command_runner add_commit(CLI::App &app) {
  auto args = std::make_shared<commit_arguments>();
  CLI::App &c = add_command(
      app, "commit",
      "Print the cap of Plonky3's matrix commitment (MerkleTreeMmcs) over the MATRIX files, "
      "committed on the device: its digests one per line as 64 hex digits (the root alone at "
      "--cap-height 0).",
      matrix_footer);
  add_commit_options(c, *args);
  return [args] { return commit_command(*args); };
}

command_runner add_open(CLI::App &app) {
  auto args = std::make_shared<open_arguments>();
  CLI::App &c = add_command(
      app, "open",
      "Print the openings of rows I,J,... of Plonky3's matrix commitment over the MATRIX files "
      "(committed on the device), a line of JSON each: {\"index\": I, \"rows\": [[E, ...], "
      "...], \"path\": [\"HEX\", ...]}, each matrix's row at I scaled to its height (I >> k "
      "for one injected k layers up), and the siblings from the leaves up to the cap.",
      matrix_footer);
  add_parsed(c, "-i,--index", args->indices, parse_indices, "I[,J,...]",
             "required: the row indices, below the tallest MATRIX's height")
      ->required();
  add_parsed(c, "--drop-layers", args->drop_layers, parse_depth, "D",
             "keep the digest layers from D up only (about 2^-D of them), the siblings below "
             "recomputed from the MATRIX rows of each opening; no higher than the cap's layer; "
             "default 0");
  add_commit_options(c, *args);
  return [args] { return open_command(*args); };
}

command_runner add_verify_opening(CLI::App &app) {
  auto args = std::make_shared<verify_opening_arguments>();
  CLI::App &c = add_command(
      app, "verify-opening",
      "Check openings of Plonky3's matrix commitment, as merklize open prints them (OPENINGS, "
      "a line of JSON each), against its cap (CAP, as merklize commit prints it), on the host: "
      "\"valid: N openings\", or \"merklize: invalid opening ...\" and exit status 1.",
      "As Plonky3's verify_batch: the rows of matrices injected above the cap's layer are not "
      "replayed, and the cap, read below their layer, does not depend on them: nothing binds "
      "them, and a warning names each (a --cap-height of at most ceil(log2) of the smallest "
      "height binds every matrix; docs/LIBRARY.md, \"What the cap binds\"). A limb of p or more, "
      "in a row or a sibling, is refused. Each OPENINGS line and CAP line is at most 64 MiB, CAP "
      "at most the cap's digests, refused once past either.");
  add_parsed(c, "--hash", args->hash, parse_hash, "H",
             "poseidon2-babybear (default), poseidon2-koalabear or poseidon2-goldilocks");
  add_repeated_count(c, "--height", args->heights, "H",
                     "required: each committed matrix's height, once for each, in order");
  add_repeated_count(c, "--width", args->widths, "W",
                     "required: the elements a row, once for all the matrices or once for each");
  add_parsed(c, "--cap-height", args->cap_height, parse_depth, "C",
             "the cap height the commitment was made with, default 0");
  c.add_option("CAP", args->cap, "the cap's digests, a line of 64 hex digits each")
      ->required()
      ->type_name("");
  c.add_option("OPENINGS", args->openings, "the openings, a line of JSON each, or - for stdin")
      ->required()
      ->type_name("");
  return [args] { return verify_opening_command(*args); };
}

command_runner add_devices(CLI::App &app) {
  add_command(app, "devices", "List the OpenCL devices and the specs that select them.");
  return [] { return devices_command(); };
}

// `merklize help [COMMAND]`: the usage of one command, or of merklize.
void add_help(CLI::App &app, std::string &topic) {
  add_command(app, "help", "Print the usage of COMMAND, or of merklize.")
      .add_option("COMMAND", topic, "a command")
      ->type_name("");
}

std::string usage_of(const CLI::App &app, const std::string &topic) {
  // (App::help() would give the usage of `help` itself, the command chosen.)
  if (topic.empty())
    return app.get_formatter()->make_help(&app, "merklize", CLI::AppFormatMode::Normal);
  const auto found = app.get_subcommands([&](const CLI::App *c) { return c->get_name() == topic; });
  if (found.empty() || topic == "help")
    throw usage_error("help: unknown command " + quote(topic, 64),
                      "Try 'merklize --help' for the commands.");
  return found.front()->help("merklize");
}

} // namespace

command_runner parse_merklize_command_line(int argc, char **argv) {
  CLI::App app("Merkle trees and BLAKE3 on OpenCL devices.", "merklize");
  // Before the commands, which inherit them:
  app.formatter(std::make_shared<help_formatter>());
  app.set_help_flag("-h,--help", "print this help and exit");
  app.set_version_flag("--version", std::string("merklize ") + version(),
                       "print the version and exit");
  app.require_subcommand(1);
  app.footer(std::string(exit_statuses) +
             "\n`merklize help COMMAND` or `merklize COMMAND --help` prints a command's usage.");
  const std::pair<const char *, command_runner> commands[] = {
      {"root", add_root(app)},
      {"proof", add_proof(app)},
      {"verify", add_verify(app)},
      {"consistency", add_consistency(app)},
      {"verify-consistency", add_verify_consistency(app)},
      {"leaf-hash", add_leaf_hash(app)},
      {"tiles", add_tiles(app)},
      {"tiles-read", add_tiles_read(app)},
      {"commit", add_commit(app)},
      {"open", add_open(app)},
      {"verify-opening", add_verify_opening(app)},
      {"b3sum", add_b3sum(app)},
      {"devices", add_devices(app)},
      {"bench", add_bench(app)},
  };
  std::string topic;
  add_help(app, topic);
  if (!parse_command_line(app, argc, argv)) return [] { return 0; };
  for (const auto &[name, run] : commands)
    if (app.got_subcommand(name)) return run;
  return [usage = usage_of(app, topic)] { // `merklize help [COMMAND]`
    write_stdout(usage);
    return 0;
  };
}

} // namespace cli
