// SPDX-License-Identifier: Apache-2.0 OR MIT
// The table of named tree kinds: every tree the CLI names, each a row with what every user of it
// needs: its name as the CLI spells it, the option that picks it, the commands it serves, its
// help, the options it takes, and its tree as a specification (core/tree_spec.hpp) of the user's
// parameters. The CLI's --format help and errors, its refusals of options a kind has no use
// for, its dispatch and the presets --ssz-list, --ssz-vector and --log read these rows; none asks
// which kind it is by its name. A new kind is a row here (docs/ARCHITECTURE.md). No OpenCL.
#pragma once

#include "../core/hashes.hpp"
#include "../core/quote.hpp"
#include "../core/tree_spec.hpp"
#include "dm_verity.hpp"
#include "fs_verity.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

// The named tree kinds, in the order of preset_table.
enum class tree_kind {
  binary,
  kary,
  ssz_vector,
  ssz_list,
  log,
  dm_verity,
  fs_verity,
  bao_outboard,
  oz_standard,
  bitcoin,
  filecoin_tree_d,
};

// How the CLI takes a kind: which command file runs it and how its --format help groups it.
enum class preset_group {
  tree,       // a tree over FILE's leaves (or blocks), picked by its options, not --format
  data,       // --format over FILE's data blocks: a file system's or BLAKE3's tree
  commitment, // --format: a commitment another system publishes, printed as it prints it
};

// What the user says of a tree beyond its kind (the CLI's options; defaults as the CLI's).
struct preset_parameters {
  tree_options tree;             // --hash, --pad, --depth (binary; k-ary: hash and pad)
  std::optional<leaf_rule> leaf; // --leaf-size with --leaf-hash and --salt: leaves of blocks
  unsigned arity = 4;            // --arity K
  std::uint64_t ssz_limit = 0;   // --ssz-list LIMIT
  entry_framing framing = entry_framing::lines; // --log --entries F
  dm_verity_options dm_verity;                  // --data-block-size, --hash-block-size, --salt
  fs_verity_options fs_verity;                  // --block-size, --salt
  bool sort_leaves = true;                      // oz-standard: false with --no-sort-leaves
};

// Room for the options of the kind that takes most, nullptr after the last.
constexpr std::size_t max_preset_options = 8;

struct preset_row {
  tree_kind kind;
  const char *name;   // as the CLI spells it: --format's value, else the kind's name in docs
  const char *option; // the option that picks it ("--format": `name` is its value); nullptr for
                      // the default tree
  preset_group group;
  bool root, proof; // the commands that take it: merklize root, merklize proof
  const char *help; // what merklize root prints of it (its --format help), nullptr outside --format
  const char *proof_help; // what merklize proof prints of it, nullptr where --format has no proof
  // The options it takes beyond FILE, the device and the progress; --format refuses the others
  // that only some kinds take, "OPTION has no use with --format NAME".
  const char *options[max_preset_options];
  tree_spec (*spec)(const preset_parameters &);
};

namespace detail {

inline tree_spec over_leaves(const preset_parameters &p, tree_spec spec) {
  if (p.leaf) {
    spec.leaves = leaf_source::blocks;
    spec.leaf = p.leaf;
  }
  return spec;
}

inline tree_spec binary_spec(const preset_parameters &p) { return over_leaves(p, spec_of(p.tree)); }

inline tree_spec kary_spec(const preset_parameters &p) {
  tree_spec s = binary_spec(p);
  s.arity = p.arity;
  s.depth.reset();
  return s;
}

// SSZ's Vector[Bytes32, N]: its chunks padded to a power of two, shape zero's natural depth.
inline tree_spec ssz_vector_spec(const preset_parameters &) {
  tree_spec s;
  s.node = hash_kind::sha256;
  s.shape = shape::zero;
  return s;
}

// SSZ's List[Bytes32, LIMIT]: room for LIMIT chunks, depth ceil(log2 LIMIT) (0 for limits 0 and
// 1; 64 past 2^63, where ceil_log2's shifts would run out), the chunk count mixed in.
inline tree_spec ssz_list_spec(const preset_parameters &p) {
  tree_spec s = ssz_vector_spec(p);
  s.depth = p.ssz_limit > (std::uint64_t(1) << 63) ? 64u : ceil_log2(p.ssz_limit);
  s.mix_in_length = true;
  return s;
}

inline tree_spec log_spec(const preset_parameters &p) {
  tree_spec s;
  s.leaves = leaf_source::entries;
  s.framing = p.framing;
  s.node = hash_kind::rfc6962;
  return s;
}

// dm-verity's and fs-verity's hash blocks: every level's digests packed a block at a time.
inline tree_spec verity_spec(const leaf_rule &data, const leaf_rule &hash_block) {
  tree_spec s;
  s.leaves = leaf_source::blocks;
  s.leaf = data;
  s.node = hash_kind::sha256;
  s.arity = static_cast<unsigned>(hash_block.block_bytes / node_bytes);
  s.shape = shape::hash_blocks;
  s.hash_block_rule = hash_block;
  return s;
}

inline tree_spec dm_verity_spec(const preset_parameters &p) {
  return verity_spec(dm_verity_data_rule(p.dm_verity), dm_verity_hash_rule(p.dm_verity));
}

inline tree_spec fs_verity_spec(const preset_parameters &p) {
  return verity_spec(fs_verity_rule(p.fs_verity), fs_verity_rule(p.fs_verity));
}

inline tree_spec bao_spec(const preset_parameters &) {
  tree_spec s;
  s.leaves = leaf_source::blake3_chunks;
  s.node = hash_kind::blake3_parent;
  return s;
}

inline tree_spec pair_spec(leaf_source leaves, pair_hash pair, merklize::shape shape) {
  tree_spec s;
  s.leaves = leaves;
  s.pair = pair;
  s.shape = shape;
  return s;
}

// OpenZeppelin's StandardMerkleTree.of: leaves sorted by hash, unless --no-sort-leaves.
inline tree_spec oz_spec(const preset_parameters &p) {
  tree_spec s = pair_spec(leaf_source::abi_values, pair_hash::keccak256_sorted, shape::heap);
  s.sort_leaves = p.sort_leaves;
  return s;
}
inline tree_spec bitcoin_spec(const preset_parameters &) {
  return pair_spec(leaf_source::digests, pair_hash::sha256d, shape::duplicate_odd);
}
inline tree_spec filecoin_spec(const preset_parameters &) {
  return pair_spec(leaf_source::fr32_chunks, pair_hash::sha256_trunc254, shape::power_of_two);
}

} // namespace detail

// clang-format off
inline constexpr preset_row preset_table[] = {
  {tree_kind::binary, "binary", nullptr, preset_group::tree, true, true, nullptr, nullptr,
   {"--hash", "--pad", "--depth", "--mix-in-length", "--leaf-size", "--leaf-hash", "--salt"},
   detail::binary_spec},
  {tree_kind::kary, "k-ary", "--arity", preset_group::tree, true, true, nullptr, nullptr,
   {"--arity", "--hash", "--pad", "--leaf-size", "--leaf-hash", "--salt"},
   detail::kary_spec},
  {tree_kind::ssz_vector, "ssz-vector", "--ssz-vector", preset_group::tree, true, true, nullptr,
   nullptr, {"--ssz-vector"}, detail::ssz_vector_spec},
  {tree_kind::ssz_list, "ssz-list", "--ssz-list", preset_group::tree, true, true, nullptr, nullptr,
   {"--ssz-list"}, detail::ssz_list_spec},
  {tree_kind::log, "log", "--log", preset_group::tree, true, true, nullptr, nullptr,
   {"--log", "--entries"}, detail::log_spec},
  {tree_kind::dm_verity, "dm-verity", "--format", preset_group::data, true, false,
   "prints what veritysetup format prints: the superblock's fields, the salt and the root hash",
   nullptr,
   {"--salt", "--data-block-size", "--hash-block-size", "--hash-output", "--no-superblock",
    "--uuid"},
   detail::dm_verity_spec},
  {tree_kind::fs_verity, "fs-verity", "--format", preset_group::data, true, false,
   "the line fsverity digest prints", nullptr,
   {"--salt", "--block-size", "--tree-output"}, detail::fs_verity_spec},
  {tree_kind::bao_outboard, "bao-outboard", "--format", preset_group::data, true, false,
   "BLAKE3's root, as b3sum prints", nullptr, {"--outboard"}, detail::bao_spec},
  {tree_kind::oz_standard, "oz-standard", "--format", preset_group::commitment, true, true,
   "FILE: OpenZeppelin's StandardMerkleTree JSON, its dump or {\"leafEncoding\": [...], "
   "\"values\": [[...], ...]}; prints the root as OpenZeppelin does, 0x and hex",
   "FILE as `merklize root --format oz-standard` takes it; prints {\"value\", \"leaf\", "
   "\"proof\"}, or for several values OpenZeppelin's multiproof {\"leaves\", \"proof\", "
   "\"proofFlags\"}",
   {"--dump", "--no-sort-leaves"}, detail::oz_spec},
  {tree_kind::bitcoin, "bitcoin", "--format", preset_group::commitment, true, true,
   "FILE: txids, 32 bytes each in internal byte order; prints the merkle root so",
   "FILE as `merklize root --format bitcoin` takes it; prints txid I's branch as Electrum does, "
   "{\"txid\", \"pos\", \"merkle\", \"root\"}",
   {"--display-order"}, detail::bitcoin_spec},
  {tree_kind::filecoin_tree_d, "filecoin-tree-d", "--format", preset_group::commitment, true,
   false, "FILE: a piece's data; prints its commitment, CommP, in hex", nullptr,
   {"--cid"}, detail::filecoin_spec},
};
// clang-format on

static_assert(detail::in_enum_order(preset_table), "preset_table is in tree_kind's order");

inline const preset_row &row_of(tree_kind kind) {
  return preset_table[static_cast<std::size_t>(kind)];
}

inline const char *to_string(tree_kind kind) { return row_of(kind).name; }

// Whether `row` takes `option` ("--salt").
inline bool takes(const preset_row &row, const std::string &option) {
  for (const char *taken : row.options)
    if (taken && option == taken) return true;
  return false;
}

namespace detail {

inline bool is_format(const preset_row &row) { return std::string("--format") == row.option; }
inline bool is_root_format(const preset_row &row) {
  return row.option && is_format(row) && row.root;
}
inline bool is_proof_format(const preset_row &row) {
  return row.option && is_format(row) && row.proof;
}

} // namespace detail

// The --format names `command` takes ("root" or "proof"), "dm-verity, fs-verity, ...".
inline std::string format_names(const std::string &command = "root", const char *separator = ", ") {
  return command == "proof" ? detail::listed(preset_table, detail::is_proof_format,
                                             detail::name_of<preset_row>, separator, separator)
                            : detail::listed(preset_table, detail::is_root_format,
                                             detail::name_of<preset_row>, separator, separator);
}

// The --format kinds of `group` with what each prints, for the help: "dm-verity (prints ...),
// fs-verity (...) or bao-outboard (...)"; with `proof`, the proofs' lines of those with proofs.
inline std::string format_help(preset_group group, bool proof = false) {
  return detail::listed(
      preset_table,
      [&](const preset_row &row) {
        return row.group == group && (proof ? detail::is_proof_format(row) && row.proof_help
                                            : detail::is_root_format(row));
      },
      [&](const preset_row &row) {
        return std::string(row.name) + " (" + (proof ? row.proof_help : row.help) + ")";
      },
      ", ", " or ");
}

// The --format row named `name` that `command` takes, nullptr where none is.
inline const preset_row *find_format(const std::string &name, const std::string &command = "root") {
  for (const preset_row &row : preset_table)
    if ((command == "proof" ? detail::is_proof_format(row) : detail::is_root_format(row)) &&
        name == row.name)
      return &row;
  return nullptr;
}

// The same, refusing an unknown name with the names known.
inline const preset_row &parse_format(const std::string &name,
                                      const std::string &command = "root") {
  if (const preset_row *row = find_format(name, command)) return *row;
  throw error("unknown format " + detail::quoted(name) + " (known: " + format_names(command) + ")");
}

// The tree of the kind picked by `option` (--ssz-list, --ssz-vector, --log).
inline const preset_row &preset_of_option(const std::string &option) {
  for (const preset_row &row : preset_table)
    if (row.option && option == row.option) return row;
  throw error("no tree kind is picked by " + detail::quoted(option));
}

} // namespace merklize
