// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize tiles: a log's tree built on the engine --device picks (whole_tree.hpp) and published as
// C2SP tlog-tiles
// (<merklize/formats/tlog_tiles.hpp>): every tile a snapshot of the log's size has, and with
// --log the entry bundles, written under a folder; the checkpoint's body on stdout.
// merklize tiles-read: such a folder read back, its tiles checked against the checkpoint: the
// root, an entry's inclusion proof, a consistency proof (<merklize/proofs/subtree_proofs.hpp>).
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "presets.hpp"
#include "proof_formats.hpp"
#include "quote.hpp"
#include "sizes.hpp"
#include "whole_tree.hpp"

#include <merklize/formats/tlog_tiles.hpp>
#include <merklize/io/replace_file.hpp>
#include <merklize/merklize.hpp>
#include <merklize/proofs/subtree_proofs.hpp>

#include <filesystem>
#include <map>

namespace cli {
namespace {

namespace fs = std::filesystem;
namespace tlog = merklize::tlog;

void write_under(const fs::path &folder, const std::string &path, const std::uint8_t *data,
                 std::size_t size) {
  const fs::path file = folder / path;
  std::error_code failed;
  fs::create_directories(file.parent_path(), failed);
  if (failed)
    throw merklize::file_error(file.parent_path().string(), "create", failed.message(),
                               failed.value());
  merklize::replace_file(file, data, size);
}

// The entries of level-0 tile `t`, each framed by its length as 2 bytes big-endian.
std::vector<std::uint8_t> entry_bundle(const log_entries &entries, const tlog::tile &t) {
  std::vector<std::uint8_t> bundle;
  for (std::uint64_t i = t.index * tlog::tile_width; i < t.index * tlog::tile_width + t.width;
       ++i) {
    const merklize::entry_span &e = entries.spans[i];
    bundle.push_back(static_cast<std::uint8_t>(e.size >> 8));
    bundle.push_back(static_cast<std::uint8_t>(e.size));
    bundle.insert(bundle.end(), entries.data.begin() + e.first,
                  entries.data.begin() + e.first + e.size);
  }
  return bundle;
}

// An entry bundle frames an entry by 2 bytes: a longer one is refused before any work.
void check_bundle_entries(const tiles_arguments &args, const log_entries &entries) {
  for (std::size_t i = 0; i < entries.spans.size(); ++i)
    if (entries.spans[i].size > tlog::max_bundle_entry_bytes)
      throw merklize::error(quote(args.file) + ": entry " + std::to_string(i) + " is " +
                            std::to_string(entries.spans[i].size) +
                            " bytes; C2SP's entry bundles hold entries of at most 65535");
}

} // namespace

int tiles_command(const tiles_arguments &args) {
  check_preset(args.preset, "tiles");
  const merklize::tree_options options{merklize::hash_kind::rfc6962};
  std::optional<log_entries> entries; // --log: the leaves are its entries'
  std::vector<std::uint8_t> leaves;
  if (args.preset.log) {
    entries = read_log_entries(args.file, *args.preset.entries, args.progress);
    check_bundle_entries(args, *entries);
  } else {
    leaves = read_input(args.file, args.progress);
    if (leaves.size() % merklize::node_bytes) check_leaves(args.file, leaves.size());
  }
  whole_tree_engine engine(args.device, options, entries ? entries->data.size() : leaves.size(),
                           entries.has_value());
  if (entries) leaves = engine.log_leaves(*entries);
  const std::uint64_t n = leaves.size() / merklize::node_bytes;
  merklize::digest root = *merklize::empty_tree_root(options);
  if (n) {
    const merklize::tree t =
        engine.build(leaves, "building the tree of " + std::to_string(n) + " leaves");
    root = t.root();
    tlog::for_each_tile(n, [&](const tlog::tile &tile) {
      const tlog::tile_nodes at = tlog::nodes_of(tile);
      write_under(args.output, tlog::tile_path(tile),
                  t.level_data(at.tree_level) + at.first_node * merklize::node_bytes,
                  tile.width * merklize::node_bytes);
      if (entries && tile.level == 0) {
        const auto bundle = entry_bundle(*entries, tile);
        write_under(args.output, tlog::entry_bundle_path(tile), bundle.data(), bundle.size());
      }
    });
  }
  write_stdout(merklize::checkpoint_body({args.origin, n, root, {}}));
  return 0;
}

namespace {

// The tiles of a folder for a tree of `size` leaves, each read once, when first needed.
class tile_folder {
public:
  tile_folder(std::string folder, std::uint64_t size) : folder_(std::move(folder)), size_(size) {}

  // The root of the complete subtree (level, index), from the hashes of its tile.
  merklize::digest complete(unsigned level, std::uint64_t index) {
    const tlog::node_in_tiles at = tlog::locate_node(level, index);
    const std::vector<std::uint8_t> &hashes = tile_hashes(at.level, at.tile_index);
    if ((at.first + at.hashes) * merklize::node_bytes > hashes.size())
      throw merklize::error("the tiles of " + quote(folder_) + " hold no node " +
                            std::to_string(index) + " of level " + std::to_string(level));
    return tlog::tile_subtree_hash(hashes.data() + at.first * merklize::node_bytes, at.hashes);
  }

private:
  // A partial tile's hashes are the full tile's first ones: a log may serve it in its place.
  const std::vector<std::uint8_t> &tile_hashes(unsigned level, std::uint64_t index) {
    const auto key = std::make_pair(level, index);
    if (auto found = tiles_.find(key); found != tiles_.end()) return found->second;
    const std::optional<tlog::tile> t = tlog::tile_of(size_, level, index);
    if (!t)
      throw merklize::error("a tree of " + std::to_string(size_) + " entries has no tile " +
                            std::to_string(index) + " at level " + std::to_string(level));
    const std::string path = (fs::path(folder_) / tlog::tile_path(*t)).string();
    const std::string full = (fs::path(folder_) / tlog::tile_path({level, index, 256})).string();
    const bool use_full = !t->full() && !fs::exists(path) && fs::exists(full);
    // A tile is at most 256 hashes: anything longer is refused before it is read whole.
    const text_limit tile_limit{tlog::tile_width * merklize::node_bytes, "of a tile"};
    std::vector<std::uint8_t> bytes = read_input(use_full ? full : path, false, tile_limit);
    const std::size_t expected = (use_full ? tlog::tile_width : t->width) * merklize::node_bytes;
    if (bytes.size() != expected)
      throw merklize::error(quote(use_full ? full : path) + " is " + std::to_string(bytes.size()) +
                            " bytes, a tile of its width " + std::to_string(expected));
    bytes.resize(t->width * merklize::node_bytes);
    return tiles_.emplace(key, std::move(bytes)).first->second;
  }

  std::string folder_;
  std::uint64_t size_;
  std::map<std::pair<unsigned, std::uint64_t>, std::vector<std::uint8_t>> tiles_;
};

// The result with one newline at its end (a tlog-proof ends with its checkpoint's own).
void write_result(const tiles_read_arguments &args, const std::string &text) {
  const std::string line = !text.empty() && text.back() == '\n' ? text : text + "\n";
  if (args.output)
    write_file_replacing(*args.output, line);
  else
    write_stdout(line);
}

// The proof of entry I, checked against the root before it is written: a tile that the root does
// not account for fails here, as the verifier would fail it.
std::string inclusion_from_tiles(const tiles_read_arguments &args, tile_folder &tiles,
                                 std::uint64_t size, const merklize::digest &root) {
  const auto complete = [&](unsigned level, std::uint64_t i) { return tiles.complete(level, i); };
  if (*args.index >= size)
    throw merklize::error("entry index " + std::to_string(*args.index) + " out of range: the " +
                          "log has " + std::to_string(size) + " entries");
  const merklize::inclusion_proof proof =
      merklize::prove_from_subtrees(size, *args.index, complete);
  if (!merklize::verify(proof, tiles.complete(0, *args.index), root))
    throw merklize::error("the tiles of " + quote(args.folder) + " are inconsistent: entry " +
                          std::to_string(*args.index) + "'s proof does not lead to the root");
  return inclusion_text(proof, {args.format, args.checkpoint}, root);
}

} // namespace

int tiles_read_command(const tiles_read_arguments &args) {
  std::string note;
  std::optional<merklize::checkpoint> head;
  if (args.checkpoint) head = read_checkpoint(*args.checkpoint, note);
  if (head && args.size && *args.size != head->size)
    throw merklize::error("--size " + std::to_string(*args.size) + " is not the checkpoint's " +
                          std::to_string(head->size));
  const std::uint64_t size = head ? head->size : *args.size;
  tile_folder tiles(args.folder, size);
  const auto complete = [&](unsigned level, std::uint64_t i) { return tiles.complete(level, i); };
  const merklize::digest root =
      size ? merklize::subtree_root(complete, {0, size})
           : *merklize::empty_tree_root(merklize::tree_options{merklize::hash_kind::rfc6962});
  if (head && head->root != root)
    throw merklize::error("the tiles of " + quote(args.folder) + " lead to root " +
                          merklize::to_hex(root) + ", the checkpoint says " +
                          merklize::to_hex(head->root));
  if (args.index) {
    write_result(args, inclusion_from_tiles(args, tiles, size, root));
  } else if (args.old_size) {
    if (*args.old_size > size)
      throw merklize::error("--old-size " + std::to_string(*args.old_size) +
                            " is more than the log's " + std::to_string(size) + " entries");
    write_result(args, consistency_text(merklize::prove_consistency_from_subtrees(*args.old_size,
                                                                                  size, complete),
                                        args.format));
  } else {
    write_result(args, args.json ? "{\"size\":" + std::to_string(size) + ",\"root\":\"" +
                                       merklize::to_hex(root) + "\"}"
                                 : merklize::to_hex(root));
  }
  return 0;
}

} // namespace cli
