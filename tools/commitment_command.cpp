// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root|proof --format oz-standard|bitcoin|filecoin-tree-d: the commitments other systems
// publish (formats/, docs/FORMATS.md), their trees built on the device (pair_tree.hpp) and printed
// as those systems print them.
#include "cli.hpp"
#include "commands.hpp"
#include "dispatch.hpp"
#include "input.hpp"
#include "output.hpp"
#include "presets.hpp"
#include "quote.hpp"

#include <merklize/engine/pair_tree.hpp>
#include <merklize/formats/oz_values.hpp>

#include <cstring>
#include <utility>

namespace cli {
namespace {

[[noreturn]] void refuse(const std::string &message, const std::string &command) {
  throw usage_error(message, "Try 'merklize " + command + " --help' for the options.");
}

std::string name_of(const std::string &file) { return file == "-" ? "stdin" : quote(file); }

// The commitments' options that the format's row does not take are refused, naming them.
void refuse_unused(const commitment_arguments &c, const merklize::preset_row &row,
                   const std::string &command) {
  cli::refuse_unused(row,
                     {
                         {"--display-order", c.display_order},
                         {"--cid", c.cid},
                         {"--dump", c.dump.has_value()},
                         {"--no-sort-leaves", c.no_sort_leaves},
                     },
                     command);
}

// The options of the formats over data blocks, which no commitment's row takes.
void refuse_block_options(const block_arguments &b, const merklize::preset_row &row) {
  cli::refuse_unused(row,
                     {
                         {"--salt", b.salt.has_value()},
                         {"--data-block-size", b.data_block_size.has_value()},
                         {"--hash-block-size", b.hash_block_size.has_value()},
                         {"--block-size", b.block_size.has_value()},
                         {"--hash-output", b.hash_output.has_value()},
                         {"--no-superblock", b.no_superblock},
                         {"--uuid", b.uuid.has_value()},
                         {"--tree-output", b.tree_output.has_value()},
                         {"--outboard", b.outboard.has_value()},
                     },
                     "root");
}

std::string as_text(const std::vector<std::uint8_t> &bytes) {
  return std::string(bytes.begin(), bytes.end());
}

// ---- OpenZeppelin's StandardMerkleTree ----

merklize::oz::standard_tree oz_tree(const std::string &file, bool progress, bool sort_leaves,
                                    const std::optional<std::string> &device,
                                    const std::string &command) {
  const std::string name = name_of(file);
  const text_limit limit{merklize::oz::max_json_bytes, "of OpenZeppelin's JSON"};
  auto in = merklize::oz::read_standard_json(as_text(read_input(file, progress, limit)), name);
  if (in.is_dump && !sort_leaves)
    refuse("--no-sort-leaves has no use with a dump: its tree says where each leaf lies", command);
  merklize::pair_tree_device d(chosen_device(device));
  return merklize::oz::standard_tree_of(std::move(in), sort_leaves, name, [&](const auto &leaves) {
    return merklize::oz_standard_array(d, leaves);
  });
}

int oz_root(const root_arguments &args) {
  const commitment_arguments &c = args.blocks.commitment;
  const auto t = oz_tree(args.file, args.progress, !c.no_sort_leaves, args.device, "root");
  if (c.dump) write_file_replacing(*c.dump, merklize::oz::dump_json(t) + "\n");
  write_stdout(merklize::oz::node_text(t.root()) + "\n");
  return 0;
}

// ---- Bitcoin ----

// FILE's txids in internal order: 32 bytes each, or with --display-order hex lines.
std::vector<merklize::digest> txids_of(const std::string &file, bool display_order, bool progress) {
  if (display_order)
    return merklize::bitcoin::parse_display_txids(as_text(read_input(file, progress)),
                                                  name_of(file));
  const auto bytes = read_leaves(file, progress);
  std::vector<merklize::digest> txids(bytes.size() / merklize::node_bytes);
  std::memcpy(txids.data(), bytes.data(), bytes.size());
  return txids;
}

std::string txid_text(const merklize::digest &d, bool display_order) {
  return merklize::to_hex(display_order ? merklize::bitcoin::reversed(d) : d);
}

merklize::bitcoin::tree bitcoin_tree(const std::string &file, bool display_order, bool progress,
                                     const std::optional<std::string> &device) {
  const auto txids = txids_of(file, display_order, progress);
  if (txids.empty()) throw merklize::error(name_of(file) + " holds no txid");
  merklize::pair_tree_device d(chosen_device(device));
  auto t = merklize::bitcoin_levels(d, txids);
  if (t.mutated)
    print_error("merklize", "warning: " + name_of(file) +
                                ": a level pairs two equal nodes (CVE-2012-2459): Bitcoin Core "
                                "rejects such a block, and a shorter txid list has this root");
  return t;
}

int bitcoin_root(const root_arguments &args) {
  const bool display = args.blocks.commitment.display_order;
  const auto t = bitcoin_tree(args.file, display, args.progress, args.device);
  write_stdout(txid_text(t.root(), display) + "\n");
  return 0;
}

// ---- Filecoin ----

int filecoin_root(const root_arguments &args) {
  library_input in(args.file, args.progress); // opened before the device: a bad FILE fails at once
  merklize::pair_tree_device d(chosen_device(args.device));
  const auto piece = merklize::filecoin_commitment(d, in.get());
  in.finish();
  write_stdout((args.blocks.commitment.cid ? merklize::filecoin::piece_cid(piece.commitment)
                                           : merklize::to_hex(piece.commitment)) +
               "\n");
  return 0;
}

} // namespace

int commitment_root(const root_arguments &args, const tree_request &request) {
  const merklize::preset_row &row = *request.row;
  refuse_unused(args.blocks.commitment, row, "root");
  refuse_block_options(args.blocks, row);
  switch (row.kind) {
  case merklize::tree_kind::oz_standard:
    return oz_root(args);
  case merklize::tree_kind::bitcoin:
    return bitcoin_root(args);
  case merklize::tree_kind::filecoin_tree_d:
    return filecoin_root(args);
  default:
    throw merklize::error(std::string("--format ") + row.name + " is not a commitment");
  }
}

int commitment_proof(const proof_arguments &args, const tree_request &request) {
  const merklize::preset_row *row = request.row; // nullptr: a format without proofs
  if (!row)
    refuse("--format: " + quote(*args.format, 64) +
               " has no proofs here (known: " + merklize::format_names("proof") + ")",
           "proof");
  const commitment_arguments &c = args.commitment;
  refuse_unused(c, *row, "proof");
  if (row->kind == merklize::tree_kind::bitcoin) {
    if (args.indices.size() > 1)
      refuse("-i with several indices is a multiproof, which only --format oz-standard has",
             "proof");
    const auto t = bitcoin_tree(args.file, c.display_order, args.progress, args.device);
    if (args.index >= t.levels.front().size())
      throw merklize::error("txid index " + std::to_string(args.index) +
                            " out of range: " + name_of(args.file) + " holds " +
                            std::to_string(t.levels.front().size()) + " txids");
    write_proof(args, merklize::bitcoin::branch_json(t, args.index, c.display_order));
    return 0;
  }
  const auto t = oz_tree(args.file, args.progress, !c.no_sort_leaves, args.device, "proof");
  for (const std::uint64_t v : args.indices)
    if (v >= t.values.size())
      throw merklize::error("value index " + std::to_string(v) +
                            " out of range: " + name_of(args.file) + " holds " +
                            std::to_string(t.values.size()) + " values");
  write_proof(args, args.indices.size() == 1 ? merklize::oz::proof_json(t, args.index)
                                             : merklize::oz::multiproof_json(t, args.indices));
  return 0;
}

} // namespace cli
