// SPDX-License-Identifier: Apache-2.0 OR MIT
// Hashing on a device: full BLAKE3 (hash, keyed, derive_key, any output length), the SHA-256
// layer of 64-byte blocks, and RFC 6962 leaf hashes of log entries.
#include "common.hpp"

#include <optional>

namespace merklize_python {
namespace {

// A new bytes object of `size` bytes, and where to write them: written once, before Python
// sees it, so the GIL need not be held meanwhile.
nb::bytes new_bytes(std::size_t size, std::uint8_t *&data) {
  PyObject *bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(size));
  if (!bytes) throw nb::python_error();
  data = reinterpret_cast<std::uint8_t *>(PyBytes_AsString(bytes));
  return nb::steal<nb::bytes>(bytes);
}

nb::bytes blake3(device_object &device, int kind, nb::handle payload, int mode_kind,
                 std::optional<nb::bytes> key, std::optional<std::string> context,
                 std::size_t length) {
  const held_source source(kind, payload);
  merklize_blake3_mode mode{static_cast<merklize_blake3_kind>(mode_kind), nullptr, nullptr};
  digest_array key_bytes;
  if (key) {
    copy_digest(*key, "key", key_bytes);
    mode.key = key_bytes;
  }
  if (context) mode.context = context->c_str();
  std::uint8_t *out = nullptr;
  nb::bytes result = new_bytes(length, out);
  {
    nb::gil_scoped_release unlocked;
    check(merklize_blake3(device.handle.get(), &mode, source.get(), out, length));
  }
  return result;
}

nb::bytes sha256_layer(device_object &device, nb::handle chunks) {
  const buffer_view view(chunks, "chunks");
  if (view.size() % 64 != 0)
    argument_failure("chunks are " + std::to_string(view.size()) +
                     " bytes: the layer hashes blocks of 64 bytes (two 32-byte nodes)");
  const std::uint64_t count = view.size() / 64;
  std::uint8_t *out = nullptr;
  nb::bytes digests = new_bytes(count * MERKLIZE_DIGEST_SIZE, out);
  {
    nb::gil_scoped_release unlocked;
    check(merklize_sha256_layer(device.handle.get(), out, view.data(), count));
  }
  return digests;
}

byte_rows log_leaves(device_object &device, int kind, nb::handle payload,
                     const std::string &framing) {
  const held_source source(kind, payload);
  merklize_bytes *leaves = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_log_leaves(device.handle.get(), source.get(), framing.c_str(), &leaves));
  }
  return rows_owning(bytes_ptr(leaves), MERKLIZE_DIGEST_SIZE);
}

using blake3_hasher_ptr =
    std::unique_ptr<merklize_blake3_hasher,
                    freer<merklize_blake3_hasher, merklize_blake3_hasher_free>>;

// merklize.blake3's state: BLAKE3 in pieces on the host, no device.
struct blake3_hasher_object {
  blake3_hasher_ptr handle;
};

void create_hasher(blake3_hasher_object *self, int mode_kind, std::optional<nb::bytes> key,
                   std::optional<std::string> context) {
  merklize_blake3_mode mode{static_cast<merklize_blake3_kind>(mode_kind), nullptr, nullptr};
  digest_array key_bytes;
  if (key) {
    copy_digest(*key, "key", key_bytes);
    mode.key = key_bytes;
  }
  if (context) mode.context = context->c_str();
  merklize_blake3_hasher *hasher = nullptr;
  check(merklize_blake3_hasher_create(&mode, &hasher));
  new (self) blake3_hasher_object{blake3_hasher_ptr(hasher)};
}

// Large inputs are hashed without the GIL (the handle serialises its own calls).
void update_hasher(blake3_hasher_object &h, nb::handle data) {
  const buffer_view view(data, "data");
  if (view.size() >= (std::size_t(1) << 16)) {
    nb::gil_scoped_release unlocked;
    check(merklize_blake3_hasher_update(h.handle.get(), view.data(), view.size()));
  } else {
    check(merklize_blake3_hasher_update(h.handle.get(), view.data(), view.size()));
  }
}

nb::bytes finalize_hasher(blake3_hasher_object &h, std::size_t length, std::uint64_t seek) {
  std::uint8_t *out = nullptr;
  nb::bytes result = new_bytes(length, out);
  check(merklize_blake3_hasher_finalize(h.handle.get(), seek, out, length));
  return result;
}

blake3_hasher_object copy_hasher(blake3_hasher_object &h) {
  merklize_blake3_hasher *copy = nullptr;
  check(merklize_blake3_hasher_copy(h.handle.get(), &copy));
  return blake3_hasher_object{blake3_hasher_ptr(copy)};
}

} // namespace

void bind_hashing(nb::module_ &m) {
  nb::class_<blake3_hasher_object>(m, "_Blake3Hasher",
                                   "merklize_blake3_hasher: merklize.blake3's state.")
      .def("__init__", &create_hasher, nb::arg("mode"), nb::arg("key").none(),
           nb::arg("context").none(), "merklize_blake3_hasher_create(mode).")
      .def("update", &update_hasher, nb::arg("data"), "merklize_blake3_hasher_update(data).")
      .def("finalize", &finalize_hasher, nb::arg("length"), nb::arg("seek"),
           "merklize_blake3_hasher_finalize(seek, length bytes out).")
      .def("copy", &copy_hasher, "merklize_blake3_hasher_copy().")
      .def(
          "reset",
          [](blake3_hasher_object &h) { check(merklize_blake3_hasher_reset(h.handle.get())); },
          "merklize_blake3_hasher_reset().");
  m.def("blake3_device", &blake3, nb::arg("device"), nb::arg("kind"), nb::arg("payload"), nb::arg("mode"),
        nb::arg("key").none(), nb::arg("context").none(), nb::arg("length"),
        "merklize_blake3(device, mode, source, length bytes out).");
  m.def("sha256_layer", &sha256_layer, nb::arg("device"), nb::arg("chunks"),
        "merklize_sha256_layer(device, chunks): the digests as bytes.");
  m.def("log_leaves", &log_leaves, nb::arg("device"), nb::arg("kind"), nb::arg("payload"),
        nb::arg("framing"), "merklize_log_leaves(device, source, framing): an (n, 32) array.");
}

} // namespace merklize_python
