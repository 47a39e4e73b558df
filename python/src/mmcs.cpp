// SPDX-License-Identifier: Apache-2.0 OR MIT
// _Mmcs (merklize_mmcs: Plonky3's MerkleTreeMmcs committed on a device, opened on the host) and
// mmcs_verify (merklize_mmcs_verify, on the host). The matrices are read in place through the
// buffer protocol (merklize/_mmcs.py hands over C-contiguous arrays of the field's dtype with
// their shapes); openings come back as arrays that own the library's bytes.
#include "common.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace merklize_python {
namespace {

using mmcs_ptr = std::unique_ptr<merklize_mmcs, freer<merklize_mmcs, merklize_mmcs_free>>;

struct mmcs_object {
  mmcs_ptr handle;
};

// The matrices as merklize/_mmcs.py hands them over: arrays, and their heights and widths.
void create(mmcs_object *self, device_object &device, const char *hash,
            const std::vector<nb::handle> &arrays, const std::vector<std::uint64_t> &heights,
            const std::vector<std::uint64_t> &widths, std::uint32_t cap_height,
            std::uint32_t drop_layers) {
  if (heights.size() != arrays.size() || widths.size() != arrays.size())
    argument_failure("matrices: " + std::to_string(arrays.size()) + " arrays, " +
                     std::to_string(heights.size()) + " heights and " +
                     std::to_string(widths.size()) + " widths");
  std::vector<std::unique_ptr<buffer_view>> views;
  std::vector<merklize_matrix> list;
  for (std::size_t m = 0; m < arrays.size(); ++m) {
    views.push_back(std::make_unique<buffer_view>(arrays[m], "matrices"));
    list.push_back({views.back()->data(), heights[m], widths[m]});
  }
  merklize_mmcs *mmcs = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_mmcs_commit_dropping(device.handle.get(), hash, list.data(), list.size(),
                                        cap_height, drop_layers, &mmcs));
  }
  new (self) mmcs_object{mmcs_ptr(mmcs)};
}

nb::bytes cap(const mmcs_object &c) {
  std::vector<std::uint8_t> out(merklize_mmcs_cap_count(c.handle.get()) * MERKLIZE_DIGEST_SIZE);
  check(merklize_mmcs_cap(c.handle.get(), out.data(), out.size()));
  return to_bytes(out.data(), out.size());
}

// The openings of `indices` (a C-contiguous uint64 array): each index's rows (row_size bytes)
// and siblings (path_length x 32 bytes), as (count, bytes) arrays.
std::pair<byte_rows, byte_rows> open(const mmcs_object &c, nb::handle indices) {
  const buffer_view view(indices, "indices");
  merklize_bytes *rows = nullptr, *paths = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_mmcs_open(c.handle.get(), reinterpret_cast<const std::uint64_t *>(view.data()),
                             view.size() / sizeof(std::uint64_t), &rows, &paths));
  }
  bytes_ptr rows_owned(rows), paths_owned(paths);
  const std::size_t row_size = merklize_mmcs_row_size(c.handle.get());
  const std::size_t path_size = merklize_mmcs_path_length(c.handle.get()) * MERKLIZE_DIGEST_SIZE;
  return {rows_owning(std::move(rows_owned), row_size ? row_size : 1),
          rows_owning(std::move(paths_owned), path_size ? path_size : 1)};
}

std::pair<bool, std::string>
verify(const char *hash, std::uint32_t cap_height, nb::handle cap,
       const std::vector<std::pair<std::uint64_t, std::uint64_t>> &shapes, std::uint64_t index,
       nb::handle rows, nb::handle path) {
  const buffer_view cap_view(cap, "cap"), row_view(rows, "rows"), path_view(path, "path");
  if (cap_view.size() % MERKLIZE_DIGEST_SIZE != 0)
    argument_failure("cap: " + std::to_string(cap_view.size()) +
                     " bytes is not whole 32-byte digests");
  std::vector<merklize_matrix_shape> list;
  for (const auto &[height, width] : shapes)
    list.push_back({height, width});
  int valid = 0;
  check(merklize_mmcs_verify(hash, cap_height, cap_view.data(),
                             cap_view.size() / MERKLIZE_DIGEST_SIZE, list.data(), list.size(),
                             index, row_view.data(), row_view.size(), path_view.data(),
                             path_view.size(), &valid));
  return {valid != 0, valid ? std::string() : std::string(merklize_last_error())};
}

} // namespace

void bind_mmcs(nb::module_ &m) {
  nb::class_<mmcs_object>(m, "_Mmcs", "merklize_mmcs: merklize.MmcsCommitment's handle.")
      .def("__init__", &create, nb::arg("device"), nb::arg("hash"), nb::arg("arrays"),
           nb::arg("heights"), nb::arg("widths"), nb::arg("cap_height"), nb::arg("drop_layers"),
           "merklize_mmcs_commit_dropping(device, hash, arrays, heights, widths, cap_height, "
           "drop_layers).")
      .def("cap", &cap, "merklize_mmcs_cap(): the cap's digests as bytes, 32 each.")
      .def(
          "height", [](const mmcs_object &c) { return merklize_mmcs_height(c.handle.get()); },
          "merklize_mmcs_height().")
      .def(
          "path_length",
          [](const mmcs_object &c) { return merklize_mmcs_path_length(c.handle.get()); },
          "merklize_mmcs_path_length().")
      .def("open", &open, nb::arg("indices"),
           "merklize_mmcs_open(indices): (rows, paths) as (count, bytes) uint8 arrays.");
  m.def(
      "mmcs_element_size",
      [](const char *hash) {
        size_t size = 0;
        check(merklize_mmcs_element_size(hash, &size));
        return size;
      },
      nb::arg("hash"), "merklize_mmcs_element_size(hash).");
  m.def("mmcs_verify", &verify, nb::arg("hash"), nb::arg("cap_height"), nb::arg("cap"),
        nb::arg("shapes"), nb::arg("index"), nb::arg("rows"), nb::arg("path"),
        "merklize_mmcs_verify(hash, cap_height, cap, [(height, width)], index, rows, path): "
        "(valid, the reason if not).");
}

} // namespace merklize_python
