// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize_mmcs: the C ABI of Plonky3's MerkleTreeMmcs, committed on a device by
// mmcs::commit_on (engine/mmcs.hpp), opened by mmcs::open_at and verified by
// mmcs::verify_refusal (core/mmcs.hpp) as `merklize commit`, `open` and `verify-opening` do. The
// handle owns a copy of the matrices and every digest layer on the host (an opening reads rows
// and siblings from them), so it needs no device after the commitment and is never changed:
// it is read concurrently without a mutex. Elements cross the ABI as canonical little-endian
// limbs (4 bytes for BabyBear and KoalaBear, 8 for Goldilocks: poseidon2::limb_bytes).
#include "capi.hpp"
#include "handles.hpp"

#include <merklize/core/hashes.hpp>
#include <merklize/engine/mmcs.hpp>

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct merklize_mmcs : merklize_capi::tagged<merklize_mmcs> {
  const merklize::poseidon2::instance *instance = nullptr;
  unsigned cap_height = 0;
  std::vector<std::vector<std::uint8_t>> data; // the matrices' elements, copied
  std::vector<merklize::mmcs::matrix_view> views;
  merklize::mmcs::device_commitment commitment; // the cap and every layer
  std::size_t tallest = 0;
  std::size_t row_elements = 0; // the sum of the widths: the elements of one opening's rows
};

using namespace merklize_capi;

namespace {

// The MMCS instance of a hash name, refusals naming the argument and the hashes that have one.
const merklize::poseidon2::instance &instance_named(const char *hash, const char *function) {
  const char *name = &required(hash, function, "hash");
  const hash_kind kind = for_field("hash", [&] { return parse_hash_kind(name); });
  if (const merklize::poseidon2::instance *in = merklize::mmcs_instance_of(kind)) return *in;
  throw argument_error(std::string(function) + ": hash " + merklize::mmcs_refusal(kind) +
                       ": a matrix commitment takes " + merklize::mmcs_hash_names());
}

// a * b, refused where it overflows (a matrix or a row run too large to address).
std::size_t product(std::uint64_t a, std::uint64_t b, const std::string &what,
                    const char *function) {
  if (a != 0 && b > SIZE_MAX / a)
    throw argument_error(std::string(function) + ": " + what + " is too large to address");
  return static_cast<std::size_t>(a * b);
}

// The caller's matrices as views of their bytes (checked after: mmcs::check_matrices).
std::vector<merklize::mmcs::matrix_view> views_of(const merklize_matrix *matrices, size_t count,
                                                  const merklize::poseidon2::instance &in,
                                                  const char *function) {
  if (count > 0) required(matrices, function, "matrices");
  std::vector<merklize::mmcs::matrix_view> out;
  for (std::size_t m = 0; m < count; ++m) {
    const std::string what = "matrices[" + std::to_string(m) + "]";
    const std::size_t bytes =
        product(product(matrices[m].height, matrices[m].width, what, function),
                merklize::poseidon2::limb_bytes(in), what, function);
    if (bytes > 0 && !matrices[m].data)
      throw argument_error(std::string(function) + ": `" + what + ".data` is NULL");
    out.push_back({static_cast<const std::uint8_t *>(matrices[m].data),
                   static_cast<std::size_t>(matrices[m].height),
                   static_cast<std::size_t>(matrices[m].width)});
  }
  return out;
}

// An element as `bytes` little-endian bytes.
void put_element(std::uint8_t *out, std::uint64_t value, unsigned bytes) {
  for (unsigned b = 0; b < bytes; ++b)
    out[b] = static_cast<std::uint8_t>(value >> (8 * b));
}

// The opening of `rows` (the elements of each matrix's row, matrix after matrix, as the caller
// gave them) and `path` (32-byte siblings), split by the matrices' widths; refuses runs of the
// wrong length, which could not be split.
merklize::mmcs::opening opening_of(const std::vector<merklize::mmcs::dimensions> &dims,
                                   const std::uint8_t *rows, std::size_t rows_size,
                                   const std::uint8_t *path, std::size_t path_size,
                                   const merklize::poseidon2::instance &in) {
  const char *function = "merklize_mmcs_verify";
  const unsigned limb = merklize::poseidon2::limb_bytes(in);
  std::size_t elements = 0;
  for (const merklize::mmcs::dimensions &d : dims)
    elements += d.width;
  if (elements > SIZE_MAX / limb || rows_size != elements * limb)
    throw argument_error(std::string(function) + ": rows_size is " + std::to_string(rows_size) +
                         " bytes: the matrices' rows hold " + std::to_string(elements) +
                         " elements of " + std::to_string(limb) + " bytes");
  if (path_size % node_bytes != 0)
    throw argument_error(std::string(function) + ": path_size is " + std::to_string(path_size) +
                         " bytes, not a whole number of 32-byte siblings");
  merklize::mmcs::opening out;
  std::size_t at = 0;
  for (const merklize::mmcs::dimensions &d : dims) {
    out.rows.emplace_back(d.width);
    for (std::uint64_t &e : out.rows.back())
      e = merklize::poseidon2::limb_value(rows, in, static_cast<unsigned>(at++));
  }
  out.path.resize(path_size / node_bytes);
  if (path_size > 0) std::memcpy(out.path.data(), path, path_size);
  return out;
}

// merklize_mmcs_commit and _dropping, refusals naming `function`, the one called.
merklize_status committed(merklize_device *device, const char *hash,
                          const merklize_matrix *matrices, size_t matrix_count, uint32_t cap_height,
                          uint32_t drop_layers, merklize_mmcs **mmcs, const char *function) {
  return guarded([&] {
    merklize_device &d = required(device, function, "device");
    required(mmcs, function, "mmcs");
    auto out = std::make_unique<merklize_mmcs>();
    out->instance = &instance_named(hash, function);
    out->cap_height = cap_height;
    const std::vector<merklize::mmcs::matrix_view> views =
        views_of(matrices, matrix_count, *out->instance, function);
    out->tallest = for_field("matrices",
                             [&] { return merklize::mmcs::check_matrices(views, *out->instance); });
    for (const merklize::mmcs::matrix_view &v : views) {
      const std::size_t bytes =
          v.height * v.width * merklize::poseidon2::limb_bytes(*out->instance);
      out->data.emplace_back(v.bytes, v.bytes + bytes);
      out->views.push_back({out->data.back().data(), v.height, v.width});
      out->row_elements += v.width;
    }
    const std::lock_guard<std::mutex> lock(d.mutex);
    const unsigned cap_at = merklize::mmcs::cap_layer(out->tallest, cap_height);
    if (drop_layers > cap_at)
      throw argument_error(std::string(function) + ": drop_layers " + std::to_string(drop_layers) +
                           " is above the cap's layer " + std::to_string(cap_at) +
                           ": a commitment keeps its cap's layer");
    out->commitment = merklize::mmcs::commit_on(d.queue(), out->views, *out->instance, cap_height,
                                                true, drop_layers);
    *mmcs = out.release();
  });
}

} // namespace

extern "C" {

merklize_status merklize_mmcs_element_size(const char *hash, size_t *size) {
  return guarded([&] {
    const merklize::poseidon2::instance &in = instance_named(hash, "merklize_mmcs_element_size");
    required(size, "merklize_mmcs_element_size", "size") = merklize::poseidon2::limb_bytes(in);
  });
}

merklize_status merklize_mmcs_commit_dropping(merklize_device *device, const char *hash,
                                              const merklize_matrix *matrices, size_t matrix_count,
                                              uint32_t cap_height, uint32_t drop_layers,
                                              merklize_mmcs **mmcs) {
  return committed(device, hash, matrices, matrix_count, cap_height, drop_layers, mmcs,
                   "merklize_mmcs_commit_dropping");
}

merklize_status merklize_mmcs_commit(merklize_device *device, const char *hash,
                                     const merklize_matrix *matrices, size_t matrix_count,
                                     uint32_t cap_height, merklize_mmcs **mmcs) {
  return committed(device, hash, matrices, matrix_count, cap_height, 0, mmcs,
                   "merklize_mmcs_commit");
}

void merklize_mmcs_free(merklize_mmcs *mmcs) { free_handle(mmcs, "merklize_mmcs_free", "mmcs"); }

uint64_t merklize_mmcs_cap_count(const merklize_mmcs *mmcs) {
  const merklize_mmcs *c = live_or_null(mmcs, "merklize_mmcs_cap_count", "mmcs");
  return c ? c->commitment.cap.size() : 0;
}

uint64_t merklize_mmcs_height(const merklize_mmcs *mmcs) {
  const merklize_mmcs *c = live_or_null(mmcs, "merklize_mmcs_height", "mmcs");
  return c ? c->tallest : 0;
}

uint32_t merklize_mmcs_path_length(const merklize_mmcs *mmcs) {
  const merklize_mmcs *c = live_or_null(mmcs, "merklize_mmcs_path_length", "mmcs");
  return c ? merklize::mmcs::cap_layer(c->tallest, c->cap_height) : 0;
}

uint64_t merklize_mmcs_row_size(const merklize_mmcs *mmcs) {
  const merklize_mmcs *c = live_or_null(mmcs, "merklize_mmcs_row_size", "mmcs");
  return c ? c->row_elements * merklize::poseidon2::limb_bytes(*c->instance) : 0;
}

merklize_status merklize_mmcs_cap(const merklize_mmcs *mmcs, uint8_t *cap, size_t cap_size) {
  const char *function = "merklize_mmcs_cap";
  return guarded([&] {
    const merklize_mmcs &c = required(mmcs, function, "mmcs");
    const std::size_t bytes = c.commitment.cap.size() * node_bytes;
    if (cap_size < bytes)
      throw argument_error(std::string(function) + ": cap_size is " + std::to_string(cap_size) +
                           " bytes: the cap has " + std::to_string(c.commitment.cap.size()) +
                           " digests of 32 bytes (" + std::to_string(bytes) + ")");
    std::memcpy(&required(cap, function, "cap"), c.commitment.cap.data(), bytes);
  });
}

merklize_status merklize_mmcs_open(const merklize_mmcs *mmcs, const uint64_t *indices,
                                   uint64_t count, merklize_bytes **rows, merklize_bytes **paths) {
  const char *function = "merklize_mmcs_open";
  return guarded([&] {
    const merklize_mmcs &c = required(mmcs, function, "mmcs");
    required(rows, function, "rows");
    required(paths, function, "paths");
    if (count > 0) required(indices, function, "indices");
    const unsigned limb = merklize::poseidon2::limb_bytes(*c.instance);
    auto rows_out = std::make_unique<merklize_bytes>(),
         paths_out = std::make_unique<merklize_bytes>();
    for (uint64_t i = 0; i < count; ++i) {
      const merklize::mmcs::opening o = for_field("indices", [&] {
        return merklize::mmcs::open_at(c.views, c.commitment.layers, c.cap_height,
                                       static_cast<std::size_t>(indices[i]), *c.instance,
                                       c.commitment.dropped);
      });
      for (const std::vector<std::uint64_t> &row : o.rows)
        for (const std::uint64_t e : row) {
          rows_out->data.resize(rows_out->data.size() + limb);
          put_element(rows_out->data.data() + rows_out->data.size() - limb, e, limb);
        }
      for (const merklize::digest &sibling : o.path)
        paths_out->data.insert(paths_out->data.end(), sibling.begin(), sibling.end());
    }
    *rows = rows_out.release();
    *paths = paths_out.release();
  });
}

merklize_status merklize_mmcs_verify(const char *hash, uint32_t cap_height, const uint8_t *cap,
                                     uint64_t cap_count, const merklize_matrix_shape *shapes,
                                     size_t matrix_count, uint64_t index, const void *rows,
                                     size_t rows_size, const uint8_t *path, size_t path_size,
                                     int *valid) {
  const char *function = "merklize_mmcs_verify";
  return guarded([&] {
    const merklize::poseidon2::instance &in = instance_named(hash, function);
    required(valid, function, "valid");
    if (cap_count > 0) required(cap, function, "cap");
    if (matrix_count > 0) required(shapes, function, "shapes");
    if (rows_size > 0) required(rows, function, "rows");
    if (path_size > 0) required(path, function, "path");
    if (cap_count > SIZE_MAX / node_bytes)
      throw argument_error(std::string(function) + ": cap_count is too large to address");
    std::vector<merklize::mmcs::dimensions> dims;
    for (std::size_t m = 0; m < matrix_count; ++m)
      dims.push_back(
          {static_cast<std::size_t>(shapes[m].height), static_cast<std::size_t>(shapes[m].width)});
    const merklize::mmcs::opening proof =
        opening_of(dims, static_cast<const std::uint8_t *>(rows), rows_size, path, path_size, in);
    std::vector<digest> caps(static_cast<std::size_t>(cap_count));
    if (cap_count > 0) std::memcpy(caps.data(), cap, caps.size() * node_bytes);
    const std::string refusal = merklize::mmcs::verify_refusal(
        caps, cap_height, dims, static_cast<std::size_t>(index), proof, in);
    if (!refusal.empty())
      set_last_error("invalid opening of row " + std::to_string(index) + ": " + refusal);
    *valid = refusal.empty() ? 1 : 0;
  });
}

} // extern "C"
