// SPDX-License-Identifier: Apache-2.0 OR MIT
// The table of hashes: every node hash and leaf hash the library knows, each written once with
// what every layer needs of it (hash_row.hpp names the fields): its name, digest size, the kernel
// file and function that compute it on a device, whether it has the lanes kernel, its tuning
// class, the leaf hash of the same function, its host reference (and the host engine's pair
// hashers), and for a hash over field elements its leaves' check and its matrix commitment. The
// planners, the program builder, the parsers and the CLI's help, the C ABI's name lists, the block
// leaves, the k-ary trees, the matrix commitments and the host engine read these rows; none asks
// which hash it is. A new hash is a kernel file defining its node function (kernels/) and a row
// here (docs/ARCHITECTURE.md). No OpenCL.
#pragma once

#include "blake3.hpp"
#include "digest.hpp"
#include "error_type.hpp"
#include "hash_row.hpp"
#include "host_blake3_simd.hpp"
#include "keccak.hpp"
#include "keccak_lanes.hpp"
#include "poseidon2.hpp"
#include "poseidon2_bn254.hpp"
#include "quote.hpp"
#include "sha256.hpp"
#include "sha256_pairs.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

namespace detail {

inline digest blake3_pair_node(const digest &l, const digest &r, bool) {
  return blake3::pair_node(l, r);
}
inline digest blake3_parent_node(const digest &l, const digest &r, bool is_root) {
  return blake3::parent_node(l, r, is_root);
}
inline digest sha256_node(const digest &l, const digest &r, bool) {
  return sha256::hash_pair(l, r);
}
inline digest rfc6962_node(const digest &l, const digest &r, bool) {
  return sha256_prefixed_pair(rfc6962_node_prefix, l, r);
}
inline digest keccak256_node(const digest &l, const digest &r, bool) {
  return keccak::hash_pair(keccak::keccak_pad, l, r);
}
inline digest sha3_256_node(const digest &l, const digest &r, bool) {
  return keccak::hash_pair(keccak::sha3_pad, l, r);
}
// Keccak-256 and SHA3-256 nodes for the host engine, in vector lanes where the CPU has them
// (keccak_lanes.hpp).
template <std::uint8_t pad>
void keccak_pairs(const std::uint8_t *in, std::uint8_t *out, std::uint64_t pairs) {
  keccak_pairs_on(keccak_isa_used(), pad, in, out, pairs);
}
inline digest poseidon2_babybear_node(const digest &l, const digest &r, bool) {
  return poseidon2::compress(l, r, poseidon2::babybear_16);
}
inline digest poseidon2_koalabear_node(const digest &l, const digest &r, bool) {
  return poseidon2::compress(l, r, poseidon2::koalabear_16);
}
inline digest poseidon2_goldilocks_node(const digest &l, const digest &r, bool) {
  return poseidon2::compress(l, r, poseidon2::goldilocks_8);
}
inline digest poseidon2_bn254_node(const digest &l, const digest &r, bool) {
  return poseidon2::bn254::compress(l, r);
}
// The first limb of a leaf that is not a canonical element of the instance's field, named.
template <const poseidon2::instance &field> std::string non_canonical_limb(const digest &leaf) {
  const int limb = poseidon2::first_non_canonical(leaf, field);
  if (limb < 0) return "";
  return "limb " + std::to_string(limb) + " (" +
         std::to_string(poseidon2::limb_value(leaf, field, static_cast<unsigned>(limb))) +
         ") is not a canonical " + field.field_name +
         " element (below p = " + std::to_string(field.prime) + ")";
}
// The Poseidon2 trees' leaves are digests: Plonky3's leaf hash, a sponge over a matrix's rows of
// field elements, is not a hash of data blocks.
inline constexpr const char *poseidon2_no_blocks =
    "a Poseidon2 tree's leaves are digests of field elements, not hashes of data blocks";
inline digest keccak256_bytes(const void *data, std::size_t size) {
  return keccak::hasher(keccak::keccak_pad).update(data, size).finalize();
}
inline digest sha3_256_bytes(const void *data, std::size_t size) {
  return keccak::hasher(keccak::sha3_pad).update(data, size).finalize();
}

} // namespace detail

// clang-format off
inline constexpr node_hash_row node_hash_table[] = {
  hash_row(hash_kind::blake3, "blake3", "BLAKE3 of left || right, the default")
      .on_device("blake3.cl", "blake3_node", "merkle-blake3")
      .in_lanes("blake3")
      .tuned_as(tuning_class::light)
      .leaves_by(leaf_hash::blake3)
      .on_host(detail::blake3_pair_node, detail::blake3_node_pairs),
  hash_row(hash_kind::blake3_parent, "blake3-parent",
            "BLAKE3's parent compression, ROOT on the root")
      .root_flagged()
      .on_device("blake3.cl", "blake3_parent_node", "merkle-blake3-parent")
      .in_lanes("blake3")
      .tuned_as(tuning_class::light)
      .leaves_by(leaf_hash::blake3, "blake3-parent compresses two children only")
      .on_host(detail::blake3_parent_node),
  hash_row(hash_kind::sha256, "sha256", "SHA-256 of left || right, as SSZ")
      .on_device("sha256.cl", "sha256_node", "merkle-sha256")
      .in_lanes("sha256", "sha256_lanes.cl")
      .leaves_by(leaf_hash::sha256)
      .on_host(detail::sha256_node, detail::portable_sha256_pairs, detail::sha_ni_sha256_pairs),
  hash_row(hash_kind::rfc6962, "rfc6962", "RFC 6962's SHA-256(0x01 || left || right), shape "
            "promote; an empty FILE is the empty log")
      .on_device("sha256.cl", "rfc6962_node", "merkle-rfc6962")
      .leaves_by(leaf_hash::sha256, "rfc6962 is RFC 6962's binary tree")
      .on_host(detail::rfc6962_node, detail::portable_rfc6962_pairs,
               detail::sha_ni_rfc6962_pairs),
  hash_row(hash_kind::keccak256, "keccak256", "Ethereum's Keccak-256 of left || right")
      .on_device("keccak.cl", "keccak_node", "merkle-keccak256", " -DMERKLIZE_KECCAK_PAD=0x01")
      .leaves_by(leaf_hash::keccak256)
      .on_host(detail::keccak256_node, detail::keccak_pairs<keccak::keccak_pad>),
  hash_row(hash_kind::sha3_256, "sha3-256", "FIPS 202's SHA3-256 of left || right")
      .on_device("keccak.cl", "keccak_node", "merkle-sha3-256", " -DMERKLIZE_KECCAK_PAD=0x06")
      .leaves_by(leaf_hash::sha3_256)
      .on_host(detail::sha3_256_node, detail::keccak_pairs<keccak::sha3_pad>),
  hash_row(hash_kind::poseidon2_babybear, "poseidon2-babybear", "Plonky3's Poseidon2 2-to-1 "
            "compression over BabyBear, width 16; leaves are 8 canonical u32 limbs")
      .on_device("poseidon2_31.cl poseidon2.cl", "poseidon2_31_node", "merkle-poseidon2-babybear",
                 " -DMERKLIZE_POSEIDON2_FIELD=1")
      .leaves_by(leaf_hash::sha256, "poseidon2-babybear compresses two children only")
      .on_host(detail::poseidon2_babybear_node)
      .over_field(detail::non_canonical_limb<poseidon2::babybear_16>, detail::poseidon2_no_blocks)
      .committing_matrices(poseidon2::babybear_16),
  hash_row(hash_kind::poseidon2_koalabear, "poseidon2-koalabear", "Plonky3's Poseidon2 2-to-1 "
            "compression over KoalaBear, width 16; leaves are 8 canonical u32 limbs")
      .on_device("poseidon2_31.cl poseidon2.cl", "poseidon2_31_node",
                 "merkle-poseidon2-koalabear", " -DMERKLIZE_POSEIDON2_FIELD=2")
      .leaves_by(leaf_hash::sha256, "poseidon2-koalabear compresses two children only")
      .on_host(detail::poseidon2_koalabear_node)
      .over_field(detail::non_canonical_limb<poseidon2::koalabear_16>, detail::poseidon2_no_blocks)
      .committing_matrices(poseidon2::koalabear_16),
  hash_row(hash_kind::poseidon2_goldilocks, "poseidon2-goldilocks", "Plonky3's Poseidon2 2-to-1 "
            "compression over Goldilocks, width 8; leaves are 4 canonical u64 limbs")
      .on_device("poseidon2_goldilocks.cl poseidon2.cl", "poseidon2_goldilocks_node",
                 "merkle-poseidon2-goldilocks")
      .leaves_by(leaf_hash::sha256, "poseidon2-goldilocks compresses two children only")
      .on_host(detail::poseidon2_goldilocks_node)
      .over_field(detail::non_canonical_limb<poseidon2::goldilocks_8>, detail::poseidon2_no_blocks)
      .committing_matrices(poseidon2::goldilocks_8),
  hash_row(hash_kind::poseidon2_bn254, "poseidon2-bn254", "HorizenLabs' Poseidon2 over BN254 Fr, "
            "width 3, element 0 of the permutation of [left, right, 0]; leaves are canonical "
            "32-byte little-endian elements")
      .on_device("poseidon2_bn254.cl", "poseidon2_bn254_node", "merkle-poseidon2-bn254")
      .leaves_by(leaf_hash::sha256, "poseidon2-bn254 compresses two children only")
      .on_host(detail::poseidon2_bn254_node)
      .over_field(poseidon2::bn254::non_canonical, detail::poseidon2_no_blocks),
};

inline constexpr leaf_hash_row leaf_hash_table[] = {
  {leaf_hash::sha256, "sha256", leaf_family::sha256, 0, sha256::hash},
  {leaf_hash::blake3, "blake3", leaf_family::blake3, 0, blake3::hash},
  {leaf_hash::keccak256, "keccak256", leaf_family::keccak_sponge, keccak::keccak_pad,
   detail::keccak256_bytes},
  {leaf_hash::sha3_256, "sha3-256", leaf_family::keccak_sponge, keccak::sha3_pad,
   detail::sha3_256_bytes},
};
// clang-format on

namespace detail {

// Each table is in the order of its enum, so a row is found by index; checked at compile time.
template <class Row, std::size_t N> constexpr bool in_enum_order(const Row (&rows)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (static_cast<std::size_t>(rows[i].kind) != i) return false;
  return true;
}
static_assert(in_enum_order(node_hash_table), "node_hash_table is in hash_kind's order");
static_assert(in_enum_order(leaf_hash_table), "leaf_hash_table is in leaf_hash's order");

// `text` of each row `take` keeps, joined by `separator` and `last` before the last item: "a, b, c
// or d" for help and errors, "a,b,c,d" for the C ABI's lists.
template <class Row, std::size_t N, class Take, class Text>
std::string listed(const Row (&rows)[N], Take take, Text text, const char *separator,
                   const char *last) {
  std::vector<std::string> items;
  for (const Row &row : rows)
    if (take(row)) items.push_back(text(row));
  std::string list;
  for (std::size_t i = 0; i < items.size(); ++i)
    list += (i == 0 ? "" : i + 1 == items.size() ? last : separator) + items[i];
  return list;
}

template <class Row> bool every_row(const Row &) { return true; }
template <class Row> std::string name_of(const Row &row) { return row.name; }

} // namespace detail

inline const node_hash_row &row_of(hash_kind hash) {
  return node_hash_table[static_cast<std::size_t>(hash)];
}
inline const leaf_hash_row &row_of(leaf_hash hash) {
  return leaf_hash_table[static_cast<std::size_t>(hash)];
}

inline const char *to_string(hash_kind h) { return row_of(h).name; }
inline const char *to_string(leaf_hash h) { return row_of(h).name; }

// "blake3, blake3-parent, ..., poseidon2-bn254" (separator ", "), the CLI's and errors' list, or
// the C ABI's "blake3,blake3-parent,...": every node hash of the table.
inline std::string hash_names(const char *separator = ", ") {
  return detail::listed(node_hash_table, detail::every_row<node_hash_row>,
                        detail::name_of<node_hash_row>, separator, separator);
}

inline std::string leaf_hash_names(const char *separator = ", ") {
  return detail::listed(leaf_hash_table, detail::every_row<leaf_hash_row>,
                        detail::name_of<leaf_hash_row>, separator, separator);
}

// The node hashes `take` keeps, "sha256, blake3, keccak256 or sha3-256" (`last`: " or ").
template <class Take> std::string hash_list(Take take, const char *last = " or ") {
  return detail::listed(node_hash_table, take, detail::name_of<node_hash_row>, ", ", last);
}

// Every node hash with what it is, for the CLI's --hash: "blake3 (BLAKE3 of ...), ... or ...".
inline std::string hash_help() {
  return detail::listed(
      node_hash_table, detail::every_row<node_hash_row>,
      [](const node_hash_row &row) { return std::string(row.name) + " (" + row.about + ")"; }, ", ",
      " or ");
}

// Every leaf hash, "sha256, blake3, keccak256 or sha3-256".
inline std::string leaf_hash_list() {
  return detail::listed(leaf_hash_table, detail::every_row<leaf_hash_row>,
                        detail::name_of<leaf_hash_row>, ", ", " or ");
}

// Any row's name; an unknown one is refused listing them all.
inline hash_kind parse_hash_kind(const std::string &name) {
  for (const node_hash_row &row : node_hash_table)
    if (name == row.name) return row.kind;
  throw error("unknown hash " + detail::quoted(name) + " (known: " + hash_names() + ")");
}

inline leaf_hash parse_leaf_hash(const std::string &name) {
  for (const leaf_hash_row &row : leaf_hash_table)
    if (name == row.name) return row.kind;
  throw error("unknown leaf hash " + detail::quoted(name) + " (known: " + leaf_hash_names() + ")");
}

// The leaf hash of the same function as a tree's node hash (the row's `leaf`); refused for a hash
// of field elements (the row's no_blocks).
inline leaf_hash leaf_hash_of(hash_kind hash) {
  const node_hash_row &row = row_of(hash);
  if (row.no_blocks) throw error(std::string(row.name) + ": " + row.no_blocks);
  return row.leaf;
}

// Why `leaf`, the leaf at `index`, is not a leaf of `hash`'s trees ("leaf 5, limb 3 (2013265921)
// is not a canonical BabyBear element (below p = 2013265921)", "leaf 5, element 0x30644e... is
// not a canonical BN254 Fr element (below p = 0x30644e...)"), or "" where it is one: a hash over
// field elements takes canonical elements only, as Plonky3's digests are.
// The same of any digest a verifier takes (a proof's sibling, a node), named by `what`.
inline std::string digest_refusal(hash_kind hash, const digest &d, const std::string &what) {
  const node_hash_row &row = row_of(hash);
  const std::string why = row.non_canonical ? row.non_canonical(d) : "";
  return why.empty() ? why : what + ", " + why;
}
inline std::string leaf_refusal(hash_kind hash, const digest &leaf, std::uint64_t index) {
  const node_hash_row &row = row_of(hash);
  if (!row.non_canonical) return ""; // no string made for the hashes of bytes
  return digest_refusal(hash, leaf, "leaf " + std::to_string(index));
}

// The matrix commitments (Plonky3's MMCS, mmcs.hpp): the Poseidon2 instance of `hash`'s (the
// command line's merklize commit, open and verify-opening and the C ABI's merklize_mmcs_* pick it
// here, so that they take and refuse the same hashes), or nullptr where it has none.
inline const poseidon2::instance *mmcs_instance_of(hash_kind hash) { return row_of(hash).mmcs; }

// Why `hash` has no matrix commitment: "poseidon2-bn254 has no matrix commitment here yet",
// "sha256 is not a hash over field elements".
inline std::string mmcs_refusal(hash_kind hash) {
  const node_hash_row &row = row_of(hash);
  return std::string(row.name) + (row.non_canonical ? " has no matrix commitment here yet"
                                                    : " is not a hash over field elements");
}

// The hashes that have one, for refusals: "poseidon2-babybear, poseidon2-koalabear or
// poseidon2-goldilocks".
inline std::string mmcs_hash_names() {
  return hash_list([](const node_hash_row &row) { return row.mmcs != nullptr; });
}

} // namespace merklize
