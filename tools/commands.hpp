// SPDX-License-Identifier: Apache-2.0 OR MIT
// The merklize commands: what each is given, parsed from the command line by command_line.cpp
// (the only file that knows the options' spellings), and the functions that run them (one
// <name>_command.cpp each). Each returns its exit status.
#pragma once

#include <merklize/core/block_leaves.hpp>
#include <merklize/core/entries.hpp>
#include <merklize/core/kary.hpp>
#include <merklize/core/tree.hpp>
#include <merklize/proofs/proof.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace merklize {
class input;
}

namespace cli {

// Leaves hashed from FILE's data blocks: `merklize root|proof --leaf-size L`.
struct leaf_block_arguments {
  std::optional<std::uint64_t> leaf_size;
  std::optional<std::string> leaf_hash; // sha256, blake3, keccak256 or sha3-256
  std::optional<std::string> salt;      // hex: SHA-256 leaves' prefix, or a format's salt
  bool leaf_domain = false;             // leaves separated from nodes (separated_leaves)
};

// --leaf-size L with --leaf-hash and --salt, over a tree of node hash `tree_hash` (which picks the
// leaf hash where --leaf-hash does not): the rule of the blocks' leaves, checked (a usage error
// names what is wrong and `command`'s help).
merklize::leaf_rule leaf_rule_of(const leaf_block_arguments &blocks, merklize::hash_kind tree_hash,
                                 const std::string &command);

// The commitments other systems publish (commitment_command.cpp): --format oz-standard, bitcoin,
// filecoin-tree-d, each with options of its own.
struct commitment_arguments {
  bool display_order = false;      // bitcoin: txids as hex lines, reversed as explorers show them
  bool cid = false;                // filecoin-tree-d: the piece CID, not the hex commitment
  bool no_sort_leaves = false;     // oz-standard: leaves in the values' order (sortLeaves: false)
  std::optional<std::string> dump; // oz-standard: write OpenZeppelin's dump of the tree there
  bool given() const { return display_order || cid || no_sort_leaves || dump; }
};

// Trees over data blocks (block_command.cpp): `merklize root --leaf-size L` or `--format F`.
struct block_arguments : leaf_block_arguments {
  std::optional<std::string> format; // a --format row of <merklize/formats/presets.hpp>
  std::optional<std::uint64_t> data_block_size, hash_block_size, block_size;
  std::optional<std::string> hash_output, tree_output, outboard; // files to write
  bool no_superblock = false;         // dm-verity: the hash device without veritysetup's superblock
  std::optional<std::string> uuid;    // dm-verity: the superblock's UUID (default: a random one)
  std::optional<std::uint64_t> arity; // a k-ary tree (kary_command.cpp)
  commitment_arguments commitment;
  bool given() const { return leaf_size || format || arity || salt; }
};

// The trees that real systems publish, by name (presets.cpp): each sets the node hash, shape and
// depth, and says what FILE holds.
struct preset_arguments {
  std::optional<std::uint64_t> ssz_list;          // SSZ List[Bytes32, LIMIT]: the limit in chunks
  bool ssz_vector = false;                        // SSZ Vector[Bytes32, N], N the file's chunks
  bool log = false;                               // RFC 6962: FILE holds the log's entries
  std::optional<merklize::entry_framing> entries; // how FILE holds them (with --log)
  bool given() const { return ssz_list || ssz_vector || log; }
};

// --proof-format: the text a proof is written in and read from (proof_formats.cpp): merklize's
// JSON, CT v1's JSON (RFC 6962 4.5, 4.4) or C2SP's tlog-proof, which embeds --checkpoint's note.
enum class proof_format { merklize, ct, tlog_proof };
struct proof_format_arguments {
  proof_format format = proof_format::merklize;
  std::optional<std::string> checkpoint; // tlog-proof: the signed checkpoint to embed
};

struct root_arguments {
  merklize::tree_options tree;
  std::optional<std::uint64_t> mix_in_length; // SSZ: the root of a list of this many elements
  preset_arguments preset;
  std::optional<std::string> device;
  std::optional<std::string> devices; // several devices, SPEC,SPEC...
  std::optional<unsigned> shard_log2;
  std::optional<unsigned> chunk_log2; // the input streams in chunks of 2^S leaves
  bool verbose = false, progress = false;
  bool json = false; // {"root":"HEX"} instead of the bare root
  block_arguments blocks;
  std::string file;
};
// The request read from `args` (tree_request.hpp), run by its runner (dispatch.hpp).
int root_command(const root_arguments &args);

// Refuses, as mistakes in the command line naming `command`'s --help, a hash and shape that do
// not go together (rfc6962 with --pad zero), --depth without --pad zero, and --mix-in-length
// (SSZ's list root) where the tree is not SSZ's: sha256, shape zero, a fixed depth.
void check_tree_arguments(const merklize::tree_options &tree,
                          const std::optional<std::uint64_t> &mix_in_length,
                          const std::string &command);

struct proof_arguments {
  std::uint64_t index = 0;            // the first of `indices`
  std::vector<std::uint64_t> indices; // -i I,J,...: several for a multiproof
  merklize::tree_options tree;
  std::optional<std::uint64_t> mix_in_length; // SSZ: the proof against the list's root
  preset_arguments preset;
  std::optional<std::string> device;
  std::optional<std::string> output; // a file, else stdout
  std::optional<unsigned> chunk_log2;
  std::optional<std::uint64_t> arity; // a k-ary tree's proof (kary_command.cpp)
  leaf_block_arguments blocks;        // --leaf-size: the tree over FILE's data blocks
  std::optional<std::string> format;  // a commitment's proof: oz-standard or bitcoin
  commitment_arguments commitment;
  proof_format_arguments written; // --proof-format, --checkpoint
  bool progress = false;
  std::string file;
};
int proof_command(const proof_arguments &args);
// A regular file's block count is known from its size: an empty file or an index past its
// blocks is refused, naming it, before a device is opened (a pipe's once it is read).
void check_block_index_of_file(const merklize::input &in, std::uint64_t index,
                               const merklize::leaf_rule &rule);
// The proof's JSON line, to --output or stdout.
void write_proof(const proof_arguments &args, const std::string &json);
// --arity K with --hash and --pad, checked: a usage error names what is wrong and `command`'s
// help.
merklize::kary_options kary_options_of(std::uint64_t arity, const merklize::tree_options &tree,
                                       const std::string &command);

struct verify_arguments {
  merklize::proof_expectations expect; // --log sets rfc6962, promote
  proof_format format = proof_format::merklize;
  bool json = false; // the verdict as one JSON object
  std::string proof, leaf, root; // leaf: HEX, HEX,HEX,... (a multiproof's) or @FILE
};
int verify_command(const verify_arguments &args);
// A k-ary proof (kary_command.cpp): `text` is its JSON.
int kary_verify_command(const verify_arguments &args, const std::string &text);

// A digest given on the command line (LEAFHEX, ROOTHEX, OLDROOT, NEWROOT): 64 hex digits, else an
// error naming the operand.
merklize::digest digest_operand(const char *name, const std::string &hex);

struct consistency_arguments {
  std::uint64_t old_size = 0;
  // Consistency proofs are RFC 9162's: a log's tree unless --hash says otherwise.
  merklize::hash_kind hash = merklize::hash_kind::rfc6962;
  preset_arguments preset; // --log: FILE holds entries
  std::optional<std::string> device;
  std::optional<std::string> output; // a file, else stdout
  proof_format format = proof_format::merklize;
  bool progress = false;
  std::string file;
};
int consistency_command(const consistency_arguments &args);

struct verify_consistency_arguments {
  std::optional<merklize::hash_kind> hash; // --log sets rfc6962
  std::optional<std::uint64_t> old_size, new_size;
  proof_format format = proof_format::merklize;
  bool json = false; // the verdict as one JSON object
  std::string proof, old_root, new_root;
};
int verify_consistency_command(const verify_consistency_arguments &args);

struct leaf_hash_arguments {
  merklize::hash_kind hash = merklize::hash_kind::rfc6962;
  std::optional<merklize::entry_framing> entries; // --entries, required
  std::optional<std::string> device;
  std::optional<std::string> output; // a file, else stdout
  std::vector<std::string> files;
};
int leaf_hash_command(const leaf_hash_arguments &args);

// As the b3sum program takes them (b3sum 1.x), and --device and --progress.
struct b3sum_arguments {
  std::vector<std::string> files; // empty: stdin
  bool check = false, keyed = false, no_names = false, raw = false, quiet = false;
  bool progress = false;
  std::optional<std::string> derive_key, device;
  std::uint64_t length = 32;
  unsigned num_threads = 0; // file-read threads; 0: automatic
};
int b3sum_command(const b3sum_arguments &args);

// merklize commit: the cap of Plonky3's MMCS over matrices of field elements (commit_command.cpp).
struct commit_arguments {
  merklize::hash_kind hash = merklize::hash_kind::poseidon2_babybear;
  std::vector<std::uint64_t> widths; // one for all the files, or one each
  unsigned cap_height = 0;
  std::optional<std::string> device;
  std::vector<std::string> files;
};
int commit_command(const commit_arguments &args);

// merklize open: the openings of rows -i I,J,... of the same commitment, a line of JSON each.
struct open_arguments : commit_arguments {
  std::vector<std::uint64_t> indices;
  unsigned drop_layers = 0; // layers below this one recomputed for each opening, not kept
};
int open_command(const open_arguments &args);

// merklize verify-opening: openings (merklize open's lines) against a cap, on the host.
struct verify_opening_arguments {
  merklize::hash_kind hash = merklize::hash_kind::poseidon2_babybear;
  std::vector<std::uint64_t> heights, widths; // widths: one for all, or one each
  unsigned cap_height = 0;
  std::string cap, openings; // files
};
int verify_opening_command(const verify_opening_arguments &args);

// merklize tiles: a log's C2SP tiles (and entry bundles) written to a folder, its checkpoint's
// body printed (tiles_command.cpp).
struct tiles_arguments {
  preset_arguments preset; // --log --entries F: FILE holds entries; else N x 32 leaf hashes
  std::string origin;
  std::string output; // the folder
  std::optional<std::string> device;
  bool progress = false;
  std::string file;
};
int tiles_command(const tiles_arguments &args);

// merklize tiles-read: a tiles folder read back: its root, an entry's inclusion proof (-i) or a
// consistency proof (--old-size), the tiles checked against the checkpoint (tiles_command.cpp).
struct tiles_read_arguments {
  std::string folder;
  std::optional<std::uint64_t> size; // else the checkpoint's
  std::optional<std::string> checkpoint;
  std::optional<std::uint64_t> index, old_size;
  proof_format format = proof_format::merklize;
  bool json = false;
  std::optional<std::string> output;
};
int tiles_read_command(const tiles_read_arguments &args);

int devices_command();

// merklize bench: merklize's commands against the CPU tools, whole processes, on FILE.
struct bench_arguments {
  std::string file;
  unsigned runs = 5;
  std::optional<std::string> device;
};
int bench_command(const bench_arguments &args);

} // namespace cli
