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

} // namespace

void bind_hashing(nb::module_ &m) {
  m.def("blake3", &blake3, nb::arg("device"), nb::arg("kind"), nb::arg("payload"), nb::arg("mode"),
        nb::arg("key").none(), nb::arg("context").none(), nb::arg("length"),
        "merklize_blake3(device, mode, source, length bytes out).");
  m.def("sha256_layer", &sha256_layer, nb::arg("device"), nb::arg("chunks"),
        "merklize_sha256_layer(device, chunks): the digests as bytes.");
  m.def("log_leaves", &log_leaves, nb::arg("device"), nb::arg("kind"), nb::arg("payload"),
        nb::arg("framing"), "merklize_log_leaves(device, source, framing): an (n, 32) array.");
}

} // namespace merklize_python
