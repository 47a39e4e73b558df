// SPDX-License-Identifier: Apache-2.0 OR MIT
// Bytes in and out of the module: buffer views of the caller's objects, the sources the library
// reads, digests, and numpy arrays over memory that the library owns.
#include "common.hpp"

#include <cstring>

namespace merklize_python {

buffer_view::buffer_view(nb::handle object, const char *what) {
  // PyBUF_ND: a C-contiguous buffer of any item format (numpy arrays of any dtype, bytes,
  // memoryviews), read as its bytes.
  if (PyObject_GetBuffer(object.ptr(), &view_, PyBUF_ND) != 0) {
    PyErr_Clear();
    const std::string type = nb::type_name(object.type()).c_str();
    argument_failure(std::string(what) + ": a " + type +
                     " has no C-contiguous buffer of bytes (pass bytes, a bytes-like object, or "
                     "a C-contiguous numpy array: numpy.ascontiguousarray makes one)");
  }
}

buffer_view::~buffer_view() { PyBuffer_Release(&view_); }

held_source::held_source(int kind, nb::handle payload) {
  if (kind == MERKLIZE_SOURCE_MEMORY) {
    memory_ = std::make_unique<buffer_view>(payload, "data");
    source_ = merklize_source_memory(memory_->data(), memory_->size());
  } else if (kind == MERKLIZE_SOURCE_PATH) {
    const nb::bytes path = nb::cast<nb::bytes>(payload);
    path_.assign(path.c_str(), path.size());
    if (path_.find('\0') != std::string::npos)
      argument_failure("data: a path with a NUL byte names no file");
    source_ = merklize_source_path(path_.c_str());
  } else if (kind == MERKLIZE_SOURCE_FD) {
    source_ = merklize_source_fd(nb::cast<int>(payload));
  } else {
    argument_failure("data: source kind " + std::to_string(kind) + " is none of the library's");
  }
}

nb::bytes to_bytes(const std::uint8_t *data, std::size_t size) { return nb::bytes(data, size); }

void copy_digest(nb::handle object, const char *what, digest_array &out) {
  const buffer_view view(object, what);
  if (view.size() != MERKLIZE_DIGEST_SIZE)
    argument_failure(std::string(what) + " is " + std::to_string(view.size()) +
                     " bytes: a digest is 32 bytes");
  std::memcpy(out, view.data(), MERKLIZE_DIGEST_SIZE);
}

namespace {
// Where an array of no rows points: numpy wants an address, if none of its bytes is read.
const std::uint8_t no_rows[1] = {0};
} // namespace

byte_rows rows_of(const std::uint8_t *data, std::uint64_t count, std::size_t width,
                  nb::handle owner) {
  return byte_rows(count ? data : no_rows, {static_cast<std::size_t>(count), width}, owner);
}

byte_rows rows_owning(bytes_ptr bytes, std::size_t width) {
  const std::uint8_t *data = merklize_bytes_data(bytes.get());
  const std::size_t count = merklize_bytes_size(bytes.get()) / width;
  nb::capsule owner(
      bytes.get(), [](void *p) noexcept { merklize_bytes_free(static_cast<merklize_bytes *>(p)); });
  bytes.release(); // the capsule frees it now
  return rows_of(data, count, width, owner);
}

} // namespace merklize_python
