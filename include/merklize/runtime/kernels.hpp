// SPDX-License-Identifier: Apache-2.0 OR MIT
// Which kernel files and build options make each program; a node hash's come from its row in
// the table of hashes (core/hashes.hpp).
#pragma once

#include "../formats/pair_rules.hpp"
#include "../plan/launch_plan.hpp"
#include "program_spec.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

// The options every program is built with: OpenCL C 1.2, which every device here takes, and no
// warnings: a compiler's warnings are for the kernels' authors, and PoCL prints clang's on the
// user's terminal ("224 warnings generated.", the ABI notes of the 16-lane vectors on AVX2).
constexpr const char *base_build_options = "-cl-std=CL1.2 -w";

// The build options that make a tree kernel call a node hash's function (its row in hashes.hpp:
// -DMERKLIZE_NODE and the options the function needs).
inline std::string node_options(const node_hash_row &node) {
  return std::string(base_build_options) + " -DMERKLIZE_NODE=" + node.kernel_function +
         node.kernel_options;
}

// The kernel files of a node hash's program: the row's kernel_file, which may name several
// separated by spaces (a Poseidon2 field family's arithmetic, then poseidon2.cl over it), then
// `kernel`, the tree kernel's file that calls the node function.
inline std::vector<std::string> node_files(const node_hash_row &node, const char *kernel) {
  std::vector<std::string> files;
  const std::string names = node.kernel_file;
  for (std::size_t at = 0; at < names.size();) {
    const std::size_t end = std::min(names.find(' ', at), names.size());
    if (end > at) files.push_back(names.substr(at, end - at));
    at = end + 1;
  }
  files.push_back(kernel);
  return files;
}

// The program holding the Merkle kernels (merkle.cl) for one node hash and work-group size.
// lanes > 1 adds the kernel that hashes that many nodes per work-item in vector lanes
// (merkle_lanes.cl), which only the node hashes whose row names a lanes node have.
inline program_spec merkle_program(hash_kind hash, std::size_t work_group_size,
                                   unsigned lanes = 1) {
  const node_hash_row &node = row_of(hash);
  program_spec spec{node_files(node, "merkle.cl"),
                    node_options(node) + " -DMERKLIZE_WG=" + std::to_string(work_group_size),
                    std::string(node.program_name) + "-wg" + std::to_string(work_group_size)};
  if (lanes > 1) {
    if (!node.lanes_node) throw error(std::string(node.name) + " has no lanes kernel");
    if (node.lanes_file) spec.files.push_back(node.lanes_file);
    spec.options += std::string(" -DMERKLIZE_LANES_NODE=") + node.lanes_node;
    spec.files.push_back("merkle_lanes.cl");
    spec.options += " -DMERKLIZE_LANES=" + std::to_string(lanes) +
                    " -DMERKLIZE_NODE_FLAGS=" + node.kernel_function + "_flags";
    spec.name += "-lanes" + std::to_string(lanes);
  }
  return spec;
}

// The program holding merkle_level (merkle_level.cl), one level per launch, for one node hash,
// work-group size and number of nodes per work-item (1, 2 or 4), with 32-bit node indices or,
// with wide_index, 64-bit ones.
inline program_spec merkle_level_program(hash_kind hash, std::size_t work_group_size,
                                         unsigned nodes_per_item, bool wide_index) {
  const node_hash_row &node = row_of(hash);
  return {node_files(node, "merkle_level.cl"),
          node_options(node) + " -DMERKLIZE_WG=" + std::to_string(work_group_size) +
              " -DMERKLIZE_NODES_PER_ITEM=" + std::to_string(nodes_per_item) +
              " -DMERKLIZE_INDEX=" + (wide_index ? "ulong" : "uint"),
          std::string(node.program_name) + "-level-wg" + std::to_string(work_group_size) + "-n" +
              std::to_string(nodes_per_item) + (wide_index ? "-wide" : "")};
}

// The program holding merkle_levels (merkle_levels.cl), `levels` levels per launch with each
// work-item's subtree in registers, for one node hash and work-group size, with 32-bit node
// indices or, with wide_index, 64-bit ones.
inline program_spec merkle_levels_program(hash_kind hash, std::size_t work_group_size,
                                          unsigned levels, bool wide_index) {
  const node_hash_row &node = row_of(hash);
  return {node_files(node, "merkle_levels.cl"),
          node_options(node) + " -DMERKLIZE_WG=" + std::to_string(work_group_size) +
              " -DMERKLIZE_LEVELS=" + std::to_string(levels) +
              " -DMERKLIZE_INDEX=" + (wide_index ? "ulong" : "uint"),
          std::string(node.program_name) + "-levels-wg" + std::to_string(work_group_size) + "-h" +
              std::to_string(levels) + (wide_index ? "-wide" : "")};
}

// The program holding the kernels that change a binary tree in place (update_elect.cl:
// update_elect, update_reset; merkle_indexed.cl: update_write, merkle_listed_level,
// merkle_range_level; tree_updater.hpp) for one node hash.
inline program_spec merkle_indexed_program(hash_kind hash) {
  const node_hash_row &node = row_of(hash);
  std::vector<std::string> files = node_files(node, "update_elect.cl");
  files.push_back("merkle_indexed.cl");
  return {files, node_options(node), std::string(node.program_name) + "-indexed"};
}

// The program changing a k-ary tree in place (update_elect.cl: update_elect,
// update_write_elected, update_reset; kary_listed.cl: kary_gather, kary_scatter;
// resident_kary_tree.hpp): no hash, the block-leaf kernels hash the groups.
inline program_spec kary_listed_program() {
  return {{"update_elect.cl", "kary_listed.cl"}, base_build_options, "kary-listed"};
}

// The program holding the kernels of a sparse tree (sparse.cl: sparse_leaf_edges,
// sparse_branches, sparse_scatter; sparse_tree.hpp) for one node hash.
inline program_spec sparse_program(hash_kind hash) {
  const node_hash_row &node = row_of(hash);
  return {node_files(node, "sparse.cl"), node_options(node),
          std::string(node.program_name) + "-sparse"};
}

// The program holding merkle_many_level (merkle_many.cl: many small trees a level a launch;
// many_trees.hpp) for one node hash.
inline program_spec merkle_many_program(hash_kind hash) {
  const node_hash_row &node = row_of(hash);
  return {node_files(node, "merkle_many.cl"), node_options(node),
          std::string(node.program_name) + "-many"};
}

// The program holding the SHA-256 layer kernels (sha256_layer, sha256_layer_prefixed) of
// layer.hpp.
inline program_spec sha256_layer_program() {
  return {{"sha256.cl", "sha256_layer.cl"}, base_build_options, "sha256-layer"};
}

// The program hashing entries of any length with a prefix byte (sha256_entries, leaf_hash.hpp).
inline program_spec sha256_entries_program() {
  return {{"sha256.cl", "sha256_entries.cl"}, base_build_options, "sha256-entries"};
}

// The programs hashing data blocks into leaves (block_hasher.hpp), one a leaf hash, so that a
// command compiles only the one it runs (PoCL compiles every kernel of a program it caches:
// fs-verity's first use paid for BLAKE3's too): SHA-256 of L-byte blocks
// (sha256_block_leaves.cl), and BLAKE3 of them and BLAKE3 chunk chaining values
// (blake3_block_leaves.cl).
inline program_spec sha256_block_leaves_program() {
  return {{"sha256.cl", "sha256_block_leaves.cl"}, base_build_options, "sha256-block-leaves"};
}
inline program_spec blake3_block_leaves_program() {
  return {{"blake3.cl", "blake3_block_leaves.cl"}, base_build_options, "blake3-block-leaves"};
}

// keccak.cl alone: Keccak-256 and SHA3-256 leaves of L-byte blocks (keccak_block_leaves,
// block_hasher.hpp) and the permutation-only kernel (keccak_permutations), the bound of the
// Keccak trees (bench/keccak_bench.cpp). A program of its own, built on first use, so that
// the other block leaves' users (dm-verity, fs-verity, Bao) compile no Keccak.
inline program_spec keccak_program() { return {{"keccak.cl"}, base_build_options, "keccak"}; }

// A Poseidon2 permutation alone (kernels/poseidon2_31.cl or poseidon2_goldilocks.cl, then
// poseidon2.cl; poseidon2_bn254.cl alone): the kernels permuting states in memory
// (poseidon2_permute: the known answers' test and the bench) and hashing a matrix's rows
// (poseidon2_rows; at widths 16 and 8, not BN254). `field`: "babybear", "koalabear",
// "goldilocks" or "bn254"; `width`: 16 or 24, 8 or 12, 3.
inline program_spec poseidon2_program(const std::string &field, unsigned width) {
  if (field == "bn254") {
    if (width != 3) throw error("Poseidon2 over BN254 has width 3 only");
    return {{"poseidon2_bn254.cl"}, base_build_options, "poseidon2-bn254-w3"};
  }
  const bool goldilocks = field == "goldilocks";
  if (!goldilocks && field != "babybear" && field != "koalabear")
    throw error("no Poseidon2 over " + field + " (babybear, koalabear, goldilocks or bn254)");
  std::string options =
      std::string(base_build_options) + " -DMERKLIZE_POSEIDON2_WIDTH=" + std::to_string(width);
  if (!goldilocks)
    options += std::string(" -DMERKLIZE_POSEIDON2_FIELD=") + (field == "babybear" ? "1" : "2");
  return {{goldilocks ? "poseidon2_goldilocks.cl" : "poseidon2_31.cl", "poseidon2.cl"},
          options,
          "poseidon2-" + field + "-w" + std::to_string(width)};
}

// The program laying Bao's outboard out on the device (bao_outboard.cl, block_tree.hpp).
inline program_spec bao_outboard_program() {
  return {{"blake3.cl", "bao_outboard.cl"}, base_build_options, "bao-outboard"};
}

// The program hashing whole inputs with BLAKE3 (blake3_chunks.cl, blake3_device), `lanes`
// chunks per work-item.
inline program_spec hash_program(unsigned lanes) {
  return {{"blake3.cl", "blake3_chunks.cl"},
          std::string(base_build_options) + " -DMERKLIZE_LANES=" + std::to_string(lanes),
          "blake3-hash-lanes" + std::to_string(lanes)};
}

// The program holding the proof kernels (proof.cl, proof_device.hpp) for one node hash: the hash
// file, then proof.cl, which hashes with its node function.
inline program_spec proof_program(hash_kind hash) {
  const node_hash_row &node = row_of(hash);
  return {node_files(node, "proof.cl"), node_options(node),
          std::string("proof-") + to_string(hash)};
}

// The node function of a pair hash (formats/pair_rules.hpp) and the files that define it, in
// their order.
struct pair_node_kernel {
  std::vector<std::string> files;
  const char *function;
};

inline pair_node_kernel pair_node_kernel_of(pair_hash hash) {
  switch (hash) {
  case pair_hash::sha256d:
    return {{"sha256.cl", "pair_nodes.cl"}, "sha256d_node"};
  case pair_hash::sha256_trunc254:
    return {{"sha256.cl", "pair_nodes.cl"}, "sha256_trunc254_node"};
  case pair_hash::keccak256_sorted:
    return {{"keccak.cl", "sorted_pairs.cl"}, "keccak256_sorted_node"};
  }
  throw error("no kernels for this pair hash");
}

// Whether this build embeds every kernel file of a pair hash (keccak256_sorted: keccak.cl and
// sorted_pairs.cl); where one is missing, OpenZeppelin's pairs are hashed on the host.
inline bool has_pair_kernels(pair_hash hash) {
  const pair_node_kernel node = pair_node_kernel_of(hash);
  return std::all_of(node.files.begin(), node.files.end(), has_embedded_kernel);
}

// The program holding the shapes of the pair rules (pair_levels.cl: pair_level, heap_level) over
// one pair hash (pair_tree.hpp).
inline program_spec pair_levels_program(pair_hash hash) {
  pair_node_kernel node = pair_node_kernel_of(hash);
  node.files.push_back("pair_levels.cl");
  return {node.files, std::string(base_build_options) + " -DMERKLIZE_PAIR_NODE=" + node.function,
          std::string("pair-levels-") + to_string(hash)};
}

// The program of Filecoin's Fr32 padding (fr32.cl, pair_tree.hpp).
inline program_spec fr32_program() { return {{"fr32.cl"}, base_build_options, "fr32"}; }

// Every program variant the library builds: `make aot` compiles each of these ahead of time
// (tools/aot.cpp), so a new program_spec belongs in this list, with a unique name.
inline std::vector<program_spec> all_program_specs() {
  // What CPUs run (only PoCL takes ahead-of-time kernels): 256-wide work-groups without lanes,
  // 16 with 4, 8 or 16 lanes; merkle_level and merkle_levels with 32-bit indices at each number
  // of nodes or levels per work-item.
  std::vector<program_spec> specs;
  for (const node_hash_row &row : node_hash_table) {
    const hash_kind hash = row.kind;
    specs.push_back(merkle_program(hash, 256));
    for (unsigned nodes_per_item : {1u, 2u, 4u})
      specs.push_back(merkle_level_program(hash, 256, nodes_per_item, false));
    for (unsigned levels : {2u, 3u})
      specs.push_back(merkle_levels_program(hash, 256, levels, false));
    specs.push_back(proof_program(hash));
    specs.push_back(merkle_indexed_program(hash));
    specs.push_back(sparse_program(hash));
    specs.push_back(merkle_many_program(hash));
    if (row.lanes_node)
      for (unsigned lanes : {4u, 8u, 16u})
        specs.push_back(merkle_program(hash, 16, lanes));
  }
  for (unsigned lanes : {1u, 2u, 4u, 8u, 16u}) // every chunk_strategy of blake3_device
    specs.push_back(hash_program(lanes));
  specs.push_back(sha256_layer_program());
  specs.push_back(sha256_entries_program());
  specs.push_back(sha256_block_leaves_program());
  specs.push_back(blake3_block_leaves_program());
  specs.push_back(kary_listed_program());
  for (const char *field : {"babybear", "koalabear"})
    for (unsigned width : {16u, 24u})
      specs.push_back(poseidon2_program(field, width));
  for (unsigned width : {8u, 12u})
    specs.push_back(poseidon2_program("goldilocks", width));
  specs.push_back(poseidon2_program("bn254", 3));
  specs.push_back(keccak_program());
  specs.push_back(bao_outboard_program());
  for (pair_hash hash :
       {pair_hash::sha256d, pair_hash::sha256_trunc254, pair_hash::keccak256_sorted})
    if (has_pair_kernels(hash)) specs.push_back(pair_levels_program(hash));
  specs.push_back(fr32_program());
  return specs;
}

} // namespace detail
} // namespace merklize
