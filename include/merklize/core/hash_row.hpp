// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a row of the table of hashes (hashes.hpp) says of a hash, and the builder that writes one
// by naming its fields: a row reads `hash_row(kind, name, about).on_device(...).in_lanes(...)`,
// each call one thing the layers need, everything unsaid at its default (32-byte digests, no root
// flag, no lanes kernel, the standard tuning, any 32 bytes a leaf, no matrix commitment). No
// OpenCL.
#pragma once

#include "digest.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace merklize {

namespace poseidon2 {
struct instance;
}

namespace detail {
// The host engine's hasher of many pairs: hashes `pairs` nodes from `in` (2 * pairs digests) into
// `out` (pairs digests). `out` may be `in` itself: each node is written after the children it is
// made from are read.
using pair_hash_fn = void (*)(const std::uint8_t *in, std::uint8_t *out, std::uint64_t pairs);
} // namespace detail

// The node hashes, in the order of node_hash_table.
enum class hash_kind {
  blake3,        // node = BLAKE3(left || right), the standard hash of the 64 bytes
  blake3_parent, // node = BLAKE3 parent compression; ROOT on the root only
  sha256,        // node = SHA-256(left || right), as SSZ
  rfc6962,       // node = SHA-256(0x01 || left || right), RFC 6962 / 9162's interior node;
                 // shape promote only (the RFC's tree), leaves are the RFC's leaf hashes
  keccak256,     // node = Keccak-256(left || right), Ethereum's keccak256 (padding byte 0x01)
  sha3_256,      // node = SHA3-256(left || right), FIPS 202 (padding byte 0x06)
  // Plonky3's 2-to-1 compression of Poseidon2 (a truncated permutation, poseidon2.hpp): a digest
  // is 8 canonical BabyBear or KoalaBear elements (u32 little-endian), or 4 Goldilocks ones (u64).
  poseidon2_babybear,
  poseidon2_koalabear,
  poseidon2_goldilocks,
  // HorizenLabs' Poseidon2 over BN254 Fr, width 3 (poseidon2_bn254.hpp): a digest is one
  // canonical element (32 bytes little-endian), a node element 0 of the permutation of
  // [left, right, 0].
  poseidon2_bn254,
};

// The hashes of data blocks (block_leaves.hpp) and of a k-ary node's children, in the order of
// leaf_hash_table.
enum class leaf_hash { sha256, blake3, keccak256, sha3_256 };

// How the launch planner tunes a node hash's tree kernels: by its class's entry in a device's
// tuning row (tuning.hpp), where the row has one, else by the row's default, which is what a new
// hash gets until someone measures it.
enum class tuning_class {
  standard, // one heavy compression or permutation a node (SHA-256, Keccak): the default
  light,    // one light compression a node (BLAKE3): more nodes and levels per work-item
};

// One node hash. The fields are read by name; the calls below write them.
struct node_hash_row {
  hash_kind kind{};
  const char *name = nullptr;  // as the CLI, the C ABI and the bindings spell it
  const char *about = nullptr; // what it is, for the CLI's help
  std::size_t digest_bytes = 32;
  // The root is hashed apart (blake3-parent's ROOT flag): no consistency proofs, no parts of a
  // tree hashed without knowing where its root is.
  bool root_flag = false;
  // The device: the kernel file that defines the node function merkle*.cl calls (as
  // -DMERKLIZE_NODE=<function>; several separated by spaces, in their order, where the function
  // is built over another file: runtime/kernels.hpp's node_files), the function, the stem of
  // its programs' names, and build options the function needs.
  const char *kernel_file = nullptr, *kernel_function = nullptr, *program_name = nullptr,
             *kernel_options = "";
  // The lanes kernel (merkle_lanes.cl), hashing several nodes a work-item in vector lanes:
  // the stem of its node function <stem>_two_to_one<lanes>, nullptr where the hash has none, and
  // the file defining it with <function>_flags, nullptr where kernel_file does.
  const char *lanes_node = nullptr, *lanes_file = nullptr;
  tuning_class tuning = tuning_class::standard;
  // The leaf hash of the same function: a tree's data blocks and a k-ary node's children (none
  // where no_blocks says why: the row's value is not read).
  leaf_hash leaf = leaf_hash::sha256;
  // Why a k-ary tree does not take it (nullptr: it does, with `leaf` over the children).
  const char *not_kary = nullptr;
  // The host reference: the node of two children (is_root: the root, for the ROOT flag).
  digest (*node)(const digest &left, const digest &right, bool is_root) = nullptr;
  // The host engine (host_tree.hpp): many pairs at once, portably and on the SHA extensions
  // (nullptr: none; no portable one: the host engine does not build its trees).
  detail::pair_hash_fn host_pairs = nullptr, host_pairs_sha_ni = nullptr;
  // A hash over field elements: why a leaf is not one of its digests, its first limb that is not
  // a canonical element ("limb 3 (2013265921) is not a canonical BabyBear element (below p =
  // 2013265921)"), or "" where it is one (leaf_refusal); nullptr: any 32 bytes are a leaf.
  std::string (*non_canonical)(const digest &leaf) = nullptr;
  // Why it hashes no data blocks (leaf_hash_of and tree specifications refuse them), nullptr
  // where `leaf` does.
  const char *no_blocks = nullptr;
  // The Poseidon2 instance of its matrix commitment (Plonky3's MerkleTreeMmcs, mmcs.hpp), as
  // Plonky3's tests configure it; nullptr: it has none (mmcs_refusal says why).
  const poseidon2::instance *mmcs = nullptr;

  constexpr node_hash_row root_flagged() const {
    node_hash_row row = *this;
    row.root_flag = true;
    return row;
  }
  constexpr node_hash_row on_device(const char *file, const char *function, const char *program,
                                    const char *options = "") const {
    node_hash_row row = *this;
    row.kernel_file = file;
    row.kernel_function = function;
    row.program_name = program;
    row.kernel_options = options;
    return row;
  }
  constexpr node_hash_row in_lanes(const char *node_stem, const char *file = nullptr) const {
    node_hash_row row = *this;
    row.lanes_node = node_stem;
    row.lanes_file = file;
    return row;
  }
  constexpr node_hash_row tuned_as(tuning_class tuning_of) const {
    node_hash_row row = *this;
    row.tuning = tuning_of;
    return row;
  }
  // The leaf hash of blocks and children, and why a k-ary tree refuses it (nullptr: it does not).
  constexpr node_hash_row leaves_by(leaf_hash leaf_of, const char *why_not_kary = nullptr) const {
    node_hash_row row = *this;
    row.leaf = leaf_of;
    row.not_kary = why_not_kary;
    return row;
  }
  constexpr node_hash_row on_host(digest (*reference)(const digest &, const digest &, bool),
                                  detail::pair_hash_fn pairs = nullptr,
                                  detail::pair_hash_fn pairs_sha_ni = nullptr) const {
    node_hash_row row = *this;
    row.node = reference;
    row.host_pairs = pairs;
    row.host_pairs_sha_ni = pairs_sha_ni;
    return row;
  }
  // A hash over field elements: its leaves' check, and why it hashes no data blocks.
  constexpr node_hash_row over_field(std::string (*non_canonical_of)(const digest &),
                                     const char *why_no_blocks) const {
    node_hash_row row = *this;
    row.non_canonical = non_canonical_of;
    row.no_blocks = why_no_blocks;
    return row;
  }
  constexpr node_hash_row committing_matrices(const poseidon2::instance &instance) const {
    node_hash_row row = *this;
    row.mmcs = &instance;
    return row;
  }
};

// A row's start: what it is called and what it is; the calls above say the rest.
constexpr node_hash_row hash_row(hash_kind kind, const char *name, const char *about) {
  node_hash_row row;
  row.kind = kind;
  row.name = name;
  row.about = about;
  return row;
}

// How a leaf hash reads a block, which decides its kernel and what it takes besides the block
// (block_leaves.hpp, block_hasher.hpp).
enum class leaf_family {
  sha256,        // SHA-256, after a prefix (a salt) where the rule has one
  blake3,        // BLAKE3, keyed where the rule has a key
  keccak_sponge, // a Keccak-f[1600] sponge of rate 136 with the row's padding byte
};

// One leaf hash: its name, how it reads a block, and its host reference over bytes (no salt, no
// key: block_leaves.hpp adds those where the family takes them).
struct leaf_hash_row {
  leaf_hash kind;
  const char *name;
  leaf_family family;
  std::uint8_t keccak_pad; // keccak_sponge: the padding byte (keccak.hpp)
  digest (*hash)(const void *data, std::size_t size);
};

} // namespace merklize
