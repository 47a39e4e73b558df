// SPDX-License-Identifier: Apache-2.0 OR MIT
// _SparseTree (merklize_sparse_tree: a sparse Merkle tree on the device, changed by batches) and
// sparse_verify (merklize_sparse_verify, on the host). Keys and values are read in place through
// the buffer protocol; a proof's siblings come back as an array that owns the library's bytes.
#include "common.hpp"

#include <string>
#include <tuple>
#include <utility>

namespace merklize_python {
namespace {

using sparse_tree_ptr =
    std::unique_ptr<merklize_sparse_tree, freer<merklize_sparse_tree, merklize_sparse_tree_free>>;

struct sparse_tree_object {
  sparse_tree_ptr handle;
};

void create(sparse_tree_object *self, device_object &device, const char *hash,
            std::uint32_t depth) {
  merklize_sparse_tree *tree = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_sparse_tree_create(device.handle.get(), hash, depth, &tree));
  }
  new (self) sparse_tree_object{sparse_tree_ptr(tree)};
}

nb::bytes root(sparse_tree_object &t) {
  digest_array root;
  check(merklize_sparse_tree_root(t.handle.get(), root));
  return to_bytes(root, sizeof root);
}

// A batch's keys and values: whole 32-byte digests, as many of each, checked here since the
// library takes one count for both.
nb::bytes update(sparse_tree_object &t, nb::handle keys, nb::handle values) {
  const buffer_view key_view(keys, "keys"), value_view(values, "values");
  if (key_view.size() % MERKLIZE_DIGEST_SIZE != 0)
    argument_failure("keys: " + std::to_string(key_view.size()) +
                     " bytes is not whole 32-byte keys");
  const std::uint64_t count = key_view.size() / MERKLIZE_DIGEST_SIZE;
  if (value_view.size() != key_view.size())
    argument_failure("values is " + std::to_string(value_view.size()) + " bytes, and " +
                     std::to_string(count) + " keys need " + std::to_string(key_view.size()) +
                     " (32 bytes a value, a value for each key)");
  digest_array root;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_sparse_tree_update(t.handle.get(), key_view.data(), value_view.data(), count,
                                      root));
  }
  return to_bytes(root, sizeof root);
}

nb::bytes value(sparse_tree_object &t, nb::handle key) {
  digest_array key_bytes, out;
  copy_digest(key, "key", key_bytes);
  check(merklize_sparse_tree_value(t.handle.get(), key_bytes, out));
  return to_bytes(out, sizeof out);
}

// The key's value and its siblings, bottom up, as a (depth, 32) array of their own.
std::pair<nb::bytes, byte_rows> prove(sparse_tree_object &t, nb::handle key) {
  digest_array key_bytes, out;
  copy_digest(key, "key", key_bytes);
  merklize_bytes *siblings = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_sparse_tree_prove(t.handle.get(), key_bytes, out, &siblings));
  }
  return {to_bytes(out, sizeof out), rows_owning(bytes_ptr(siblings), MERKLIZE_DIGEST_SIZE)};
}

std::pair<bool, std::string> verify(const char *hash, std::uint32_t depth, nb::handle root,
                                    nb::handle key, nb::handle value, nb::handle siblings) {
  digest_array root_bytes, key_bytes, value_bytes;
  copy_digest(root, "root", root_bytes);
  copy_digest(key, "key", key_bytes);
  copy_digest(value, "value", value_bytes);
  const buffer_view view(siblings, "siblings");
  int valid = 0;
  check(merklize_sparse_verify(hash, depth, root_bytes, key_bytes, value_bytes, view.data(),
                               view.size(), &valid));
  return {valid != 0, valid ? std::string() : std::string(merklize_last_error())};
}

} // namespace

void bind_sparse(nb::module_ &m) {
  nb::class_<sparse_tree_object>(m, "_SparseTree",
                                 "merklize_sparse_tree: merklize.SparseTree's handle.")
      .def("__init__", &create, nb::arg("device"), nb::arg("hash"), nb::arg("depth"),
           "merklize_sparse_tree_create(device, hash, depth).")
      .def("root", &root, "merklize_sparse_tree_root().")
      .def(
          "size",
          [](const sparse_tree_object &t) { return merklize_sparse_tree_size(t.handle.get()); },
          "merklize_sparse_tree_size().")
      .def("update", &update, nb::arg("keys"), nb::arg("values"),
           "merklize_sparse_tree_update(keys, values): the new root.")
      .def("value", &value, nb::arg("key"), "merklize_sparse_tree_value(key).")
      .def("prove", &prove, nb::arg("key"),
           "merklize_sparse_tree_prove(key): (value, siblings as a (depth, 32) uint8 array).");
  m.def("sparse_verify", &verify, nb::arg("hash"), nb::arg("depth"), nb::arg("root"),
        nb::arg("key"), nb::arg("value"), nb::arg("siblings"),
        "merklize_sparse_verify(hash, depth, root, key, value, siblings): (valid, the reason if "
        "not).");
}

} // namespace merklize_python
