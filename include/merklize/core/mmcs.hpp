// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host reference of Plonky3's MerkleTreeMmcs over Poseidon2: a commitment to the rows of one
// or several matrices of field elements, its cap, openings of a row index across every matrix,
// and their verification, bit for bit as Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217
// builds them (merkle-tree/src/merkle_tree.rs, merkle-tree/src/mmcs/batch.rs) with its tests'
// configurations: PaddingFreeSponge<Perm, 16, 8, 8> and TruncatedPermutation<Perm, 2, 8, 16> for
// BabyBear and KoalaBear, PaddingFreeSponge<Perm, 8, 4, 4> and TruncatedPermutation<Perm, 2, 4,
// 8> for Goldilocks. Digests are the library's 32 bytes (canonical little-endian limbs). Written
// for clarity, it checks the device engine (engine/mmcs.hpp) and tests/mmcs_model.py checks it.
// The rules are in docs/LIBRARY.md ("Matrix commitments"); the shape in mmcs_geometry.hpp. No
// OpenCL.
#pragma once

#include "digest.hpp"
#include "error_type.hpp"
#include "mmcs_geometry.hpp"
#include "poseidon2.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace merklize {
namespace mmcs {

// A row-major matrix of canonical little-endian field elements (4 bytes each for BabyBear and
// KoalaBear, 8 for Goldilocks: poseidon2::limb_bytes); `bytes` holds height * width of them and
// must outlive the trees made of it.
struct matrix_view {
  const std::uint8_t *bytes;
  std::size_t height, width;
};

struct dimensions {
  std::size_t height, width;
};

// One opened row index: each matrix's row (in the matrices' order) and the siblings from the
// leaves' layer up to the cap's.
struct opening {
  std::vector<std::vector<std::uint64_t>> rows;
  std::vector<digest> path;
};

// Refuses instances other than the MMCS configurations above (whose digests are 32 bytes).
inline void check_instance(const poseidon2::instance &in) {
  const bool small = in.prime < (std::uint64_t{1} << 32);
  if (in.width != (small ? 16u : 8u))
    throw error(std::string("no MMCS configuration for Poseidon2 ") + in.name +
                ": the MMCS uses width 16 for BabyBear and KoalaBear, width 8 for Goldilocks");
}

// Element `i` of a matrix's bytes.
inline std::uint64_t element(const std::uint8_t *bytes, std::size_t i,
                             const poseidon2::instance &in) {
  return poseidon2::limb_value(bytes + i * poseidon2::limb_bytes(in), in, 0);
}

// Why `value` cannot be an element (empty: it can), naming where it is.
inline std::string element_refusal(std::uint64_t value, const std::string &where,
                                   const poseidon2::instance &in) {
  if (value < in.prime) return "";
  return where + ": " + std::to_string(value) + " is not a canonical " + in.field_name +
         " element (below p = " + std::to_string(in.prime) + ")";
}

// The first of `count` elements (little-endian limbs of L bytes) at or above `prime`, or count.
// A scan at memory speed: the matrices' check must cost less than their commitment on a GPU.
template <unsigned L> struct limb_type;
template <> struct limb_type<4> { using type = std::uint32_t; };
template <> struct limb_type<8> { using type = std::uint64_t; };

template <unsigned L> typename limb_type<L>::type limb_at(const std::uint8_t *bytes) {
  typename limb_type<L>::type v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(&v, bytes, L); // one load, which the scan's vector code needs
#else
  for (unsigned b = 0; b < L; ++b)
    v |= static_cast<typename limb_type<L>::type>(bytes[b]) << (8 * b);
#endif
  return v;
}

template <unsigned L>
std::size_t first_at_or_above(const std::uint8_t *bytes, std::size_t count, std::uint64_t prime) {
  // The largest limb of a block without a branch, which compilers turn into vector code (an
  // early exit per element kept the scan at 4 GB/s), and the block searched only if it fails.
  constexpr std::size_t block = 4096;
  for (std::size_t start = 0; start < count; start += block) {
    const std::size_t end = std::min(count, start + block);
    typename limb_type<L>::type largest = 0;
    for (std::size_t i = start; i < end; ++i)
      largest = std::max(largest, limb_at<L>(bytes + i * L));
    if (largest < prime) continue;
    for (std::size_t i = start;; ++i)
      if (limb_at<L>(bytes + i * L) >= prime) return i;
  }
  return count;
}
inline std::size_t first_at_or_above(const std::uint8_t *bytes, std::size_t count,
                                     const poseidon2::instance &in) {
  return poseidon2::limb_bytes(in) == 4 ? first_at_or_above<4>(bytes, count, in.prime)
                                        : first_at_or_above<8>(bytes, count, in.prime);
}

// The refusal of the element at `bytes`, element e of matrix m (of `width` elements a row).
inline error element_error(const std::uint8_t *bytes, std::size_t m, std::size_t e,
                           std::size_t width, const poseidon2::instance &in) {
  return error(element_refusal(element(bytes, 0, in),
                               "matrix " + std::to_string(m) + ", row " +
                                   std::to_string(e / width) + ", column " +
                                   std::to_string(e % width),
                               in));
}

// Refuses a matrix list Plonky3 would not commit to, or elements that are not canonical.
inline std::size_t check_matrices(const std::vector<matrix_view> &matrices,
                                  const poseidon2::instance &in) {
  std::vector<std::size_t> heights;
  for (const matrix_view &m : matrices)
    heights.push_back(m.height);
  const std::size_t tallest = tallest_height(heights);
  for (std::size_t m = 0; m < matrices.size(); ++m) {
    const std::size_t count = matrices[m].height * matrices[m].width;
    if (matrices[m].width && count / matrices[m].width != matrices[m].height)
      throw error("matrix " + std::to_string(m) + " is too large");
    const std::size_t i = first_at_or_above(matrices[m].bytes, count, in);
    if (i < count)
      throw element_error(matrices[m].bytes + i * poseidon2::limb_bytes(in), m, i,
                          matrices[m].width, in);
  }
  return tallest;
}

// The sponge of the rows `r` of the matrices listed, concatenated in their order (Plonky3's
// hash_iter over the flattened rows: one sponge, not one per matrix).
inline digest hash_rows(const std::vector<std::vector<std::uint64_t>> &rows,
                        const poseidon2::instance &in) {
  std::vector<std::uint64_t> joined;
  for (const auto &row : rows)
    joined.insert(joined.end(), row.begin(), row.end());
  return poseidon2::sponge(joined.data(), joined.size(), in);
}

// Row r of a matrix, its elements as integers.
inline std::vector<std::uint64_t> row_of(const matrix_view &m, std::size_t r,
                                         const poseidon2::instance &in) {
  std::vector<std::uint64_t> out(m.width);
  for (std::size_t c = 0; c < out.size(); ++c)
    out[c] = element(m.bytes, r * m.width + c, in);
  return out;
}

// Whether a matrix enters at layer k, and the sponge of row r of every one that does (their
// heights checked: rung k of the tallest).
inline bool enters(const std::vector<matrix_view> &matrices, std::size_t tallest, unsigned k) {
  for (const matrix_view &m : matrices)
    if (m.height == rung(tallest, k)) return true;
  return false;
}

inline digest hash_at(const std::vector<matrix_view> &matrices, std::size_t tallest, unsigned k,
                      std::size_t r, const poseidon2::instance &in) {
  std::vector<std::vector<std::uint64_t>> rows;
  for (const matrix_view &m : matrices)
    if (m.height == rung(tallest, k)) rows.push_back(row_of(m, r, in));
  return hash_rows(rows, in);
}

// Node i of layer k > 0 from its children in the layer below (below(j): digest j there).
template <typename Below>
digest node_at(const std::vector<matrix_view> &matrices, std::size_t tallest, unsigned k,
               std::size_t i, Below below, const poseidon2::instance &in) {
  const digest node = poseidon2::compress(below(2 * i), below(2 * i + 1), in);
  return enters(matrices, tallest, k)
             ? poseidon2::compress(node, hash_at(matrices, tallest, k, i, in), in)
             : node;
}

// Layers 0 .. d - 1 of the block of 2^d rows of the tallest matrices that holds row `index`,
// recomputed from the matrices: layer k its 2^(d - k) digests from (index >> d) << (d - k), zero
// past the layer's nodes (the padding's, or none).
inline std::vector<std::vector<digest>> block_layers(const std::vector<matrix_view> &matrices,
                                                     std::size_t tallest, unsigned d,
                                                     std::size_t index,
                                                     const poseidon2::instance &in) {
  std::vector<std::vector<digest>> out;
  for (unsigned k = 0; k < d; ++k) {
    const std::size_t size = std::size_t{1} << (d - k), first = (index >> d) << (d - k);
    std::vector<digest> layer(size);
    for (std::size_t j = 0; j < size && first + j < rung(tallest, k); ++j)
      layer[j] = k == 0 ? hash_at(matrices, tallest, 0, first + j, in)
                        : node_at(
                              matrices, tallest, k, first + j,
                              [&](std::size_t c) { return out[k - 1][c - 2 * first]; }, in);
    out.push_back(std::move(layer));
  }
  return out;
}

// The opening of row `index` of a commitment to `matrices` (checked) from its digest layers
// (mmcs::tree's, or the device's: engine/mmcs.hpp) from layer `dropped` up (layers[0] is layer
// `dropped`): each matrix's row index >> k, k the layer it enters, and the siblings
// layer k [(index >> k) ^ 1] below the cap's layer, those below `dropped` recomputed from the
// matrices (2^dropped rows' sponges and their subtree: a commitment that keeps only the layers
// from `dropped` up holds about 2^-dropped of the digests).
inline opening open_at(const std::vector<matrix_view> &matrices,
                       const std::vector<std::vector<digest>> &layers, unsigned cap_height,
                       std::size_t index, const poseidon2::instance &in, unsigned dropped = 0) {
  std::size_t tallest = 0;
  for (const matrix_view &m : matrices)
    tallest = std::max(tallest, m.height);
  if (index >= tallest)
    throw error("row index " + std::to_string(index) + " is out of range: the tallest matrix has " +
                std::to_string(tallest) + " rows");
  const unsigned cap_at = cap_layer(tallest, cap_height);
  if (dropped > cap_at)
    throw error("the layers below " + std::to_string(dropped) + " are dropped, but the cap is " +
                "layer " + std::to_string(cap_at) + ": a commitment keeps its cap's layer");
  opening out;
  for (const matrix_view &m : matrices)
    out.rows.push_back(row_of(m, index >> layer_of(tallest, m.height), in));
  const std::vector<std::vector<digest>> block =
      block_layers(matrices, tallest, dropped, index, in);
  for (unsigned k = 0; k < cap_at; ++k) {
    const std::size_t sibling = (index >> k) ^ 1;
    out.path.push_back(k < dropped ? block[k][sibling - ((index >> dropped) << (dropped - k))]
                                   : layers.at(k - dropped).at(sibling));
  }
  return out;
}

// A commitment (Plonky3's MerkleTree, the prover's data): every digest layer, layer 0 the
// leaves' (one digest a row of the tallest matrices), the last the root.
class tree {
public:
  tree(std::vector<matrix_view> matrices, const poseidon2::instance &in, unsigned cap_height)
      : in_((check_instance(in), in)), matrices_(std::move(matrices)), cap_height_(cap_height),
        tallest_(check_matrices(matrices_, in)) {
    build();
    const std::vector<digest> &layer = layers_[cap_layer(tallest_, cap_height_)];
    const std::size_t length = std::size_t{1}
                               << (depth(tallest_) - cap_layer(tallest_, cap_height_));
    cap_.assign(layer.begin(), layer.begin() + std::min(length, layer.size()));
  }

  const std::vector<digest> &cap() const { return cap_; }
  const std::vector<std::vector<digest>> &layers() const { return layers_; }
  std::size_t tallest() const { return tallest_; }

  // Row `index` of the tallest matrices, row index >> k of those injected k layers up, and the
  // siblings below the cap (open_at).
  opening open(std::size_t index) const;

private:
  // Layer 0 the rows' sponges; layer k + 1 the compressions of layer k's pairs, each compressed
  // again with the sponge of its row of the matrices entering there; zero digests pad to even.
  void build() {
    std::vector<digest> layer(padded_length(tallest_));
    for (std::size_t r = 0; r < tallest_; ++r)
      layer[r] = hash_at(matrices_, tallest_, 0, r, in_);
    layers_.push_back(layer);
    for (unsigned k = 1; k <= depth(tallest_); ++k) {
      const std::vector<digest> &below = layers_.back();
      std::vector<digest> up(padded_length(rung(tallest_, k)));
      for (std::size_t i = 0; i < rung(tallest_, k); ++i)
        up[i] = node_at(
            matrices_, tallest_, k, i, [&](std::size_t c) { return below[c]; }, in_);
      layers_.push_back(std::move(up));
    }
  }

  const poseidon2::instance &in_;
  std::vector<matrix_view> matrices_;
  unsigned cap_height_;
  std::size_t tallest_;
  std::vector<std::vector<digest>> layers_;
  std::vector<digest> cap_;
};

inline opening tree::open(std::size_t index) const {
  return open_at(matrices_, layers_, cap_height_, index, in_);
}

// Why `proof` does not open `cap` at `index` for matrices of `dims` (empty: it does), checked
// in the order of Plonky3's verify_batch: the number of rows, the heights, the path's length,
// the rows' widths, the index; then (ours) each element and each sibling's every limb canonical
// (a limb x + p would hash as x: the opening would be malleable); then the path replayed, with
// the rows of the matrices entering at each layer, against the cap. As in Plonky3, rows of
// matrices entering above the cap's layer are not replayed, and the cap, read below their
// layer, does not depend on them: nothing binds them (unbound_matrices, mmcs_geometry.hpp).
inline std::string verify_refusal(const std::vector<digest> &cap, unsigned cap_height,
                                  const std::vector<dimensions> &dims, std::size_t index,
                                  const opening &proof, const poseidon2::instance &in) {
  check_instance(in);
  if (proof.rows.size() != dims.size())
    return "the opening has " + std::to_string(proof.rows.size()) + " rows for " +
           std::to_string(dims.size()) + " matrices";
  std::vector<std::size_t> heights;
  for (const dimensions &d : dims)
    heights.push_back(d.height);
  std::size_t tallest = 0;
  try {
    tallest = tallest_height(heights);
  } catch (const error &e) {
    return e.what();
  }
  const unsigned levels = cap_layer(tallest, cap_height);
  if (proof.path.size() != levels)
    return "the path has " + std::to_string(proof.path.size()) + " siblings, the shape " +
           std::to_string(levels);
  for (std::size_t m = 0; m < dims.size(); ++m)
    if (proof.rows[m].size() != dims[m].width)
      return "matrix " + std::to_string(m) + "'s row has " + std::to_string(proof.rows[m].size()) +
             " elements, its width " + std::to_string(dims[m].width);
  if (index >= tallest)
    return "row index " + std::to_string(index) + " is out of range: the tallest matrix has " +
           std::to_string(tallest) + " rows";
  for (std::size_t m = 0; m < dims.size(); ++m)
    for (std::size_t c = 0; c < dims[m].width; ++c) {
      const std::string refusal = element_refusal(
          proof.rows[m][c], "opened matrix " + std::to_string(m) + ", column " + std::to_string(c),
          in);
      if (!refusal.empty()) return refusal;
    }
  for (std::size_t k = 0; k < proof.path.size(); ++k) {
    const int limb = poseidon2::first_non_canonical(proof.path[k], in);
    if (limb >= 0)
      return element_refusal(
          poseidon2::limb_value(proof.path[k], in, static_cast<unsigned>(limb)),
          "sibling " + std::to_string(k) + ", limb " + std::to_string(limb), in);
  }
  auto rows_entering = [&](unsigned k) {
    std::vector<std::vector<std::uint64_t>> rows;
    for (std::size_t m = 0; m < dims.size(); ++m)
      if (dims[m].height == rung(tallest, k)) rows.push_back(proof.rows[m]);
    return rows;
  };
  digest node = hash_rows(rows_entering(0), in);
  for (unsigned k = 0; k < levels; ++k) {
    node = (index >> k) & 1 ? poseidon2::compress(proof.path[k], node, in)
                            : poseidon2::compress(node, proof.path[k], in);
    const auto rows = rows_entering(k + 1);
    if (!rows.empty()) node = poseidon2::compress(node, hash_rows(rows, in), in);
  }
  const std::size_t at = index >> levels;
  if (at >= cap.size() || cap[at] != node) return "the opening does not match the cap";
  return "";
}

} // namespace mmcs
} // namespace merklize
