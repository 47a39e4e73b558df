// SPDX-License-Identifier: Apache-2.0 OR MIT
// What the files of the extension module merklize._merklize share. The module is a thin layer
// over the C ABI of include/merklize.h: every call takes its Python arguments (buffer views,
// paths, descriptors) while it holds the GIL, releases the GIL for the library's work, and
// turns a failed status into the exception of merklize/_errors.py with merklize_last_error()'s
// message. The Pythonic API (names, defaults, docstrings) is merklize/*.py's.
#pragma once

#include <merklize.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
// The casters of the standard types the module passes, in every file alike.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <string>

namespace merklize_python {

namespace nb = nanobind;

// A call of the library that failed: its status and merklize_last_error(), read on the thread of
// the call. Translated into merklize.Error's subclass for the status (errors.cpp).
struct failure {
  merklize_status status;
  std::string message;
};

// Throws the failure of `status` unless it is MERKLIZE_OK. Needs no GIL.
inline void check(merklize_status status) {
  if (status != MERKLIZE_OK) throw failure{status, merklize_last_error()};
}

// A bad argument found here, before the library is called.
[[noreturn]] inline void argument_failure(std::string message) {
  throw failure{MERKLIZE_ERROR_ARGUMENT, std::move(message)};
}

// The handles of the C ABI, each freed by its own function.
template <class T, void (*Free)(T *)> struct freer {
  void operator()(T *p) const noexcept { Free(p); }
};
using device_ptr = std::unique_ptr<merklize_device, freer<merklize_device, merklize_device_free>>;
using builder_ptr =
    std::unique_ptr<merklize_builder, freer<merklize_builder, merklize_builder_free>>;
using tree_ptr = std::unique_ptr<merklize_tree, freer<merklize_tree, merklize_tree_free>>;
using proof_ptr = std::unique_ptr<merklize_proof, freer<merklize_proof, merklize_proof_free>>;
using bytes_ptr = std::unique_ptr<merklize_bytes, freer<merklize_bytes, merklize_bytes_free>>;
using device_tree_ptr =
    std::unique_ptr<merklize_device_tree, freer<merklize_device_tree, merklize_device_tree_free>>;
using update_batch_ptr = std::unique_ptr<merklize_update_batch,
                                         freer<merklize_update_batch, merklize_update_batch_free>>;
using snapshot_ptr = std::unique_ptr<merklize_tree_snapshot,
                                     freer<merklize_tree_snapshot, merklize_tree_snapshot_free>>;

// A read-only view of an object's bytes through the buffer protocol, without a copy: held while
// the library reads them (the exporter keeps them alive and unresized meanwhile). `what` names
// the argument in the error of an object that has no C-contiguous buffer.
class buffer_view {
public:
  buffer_view(nb::handle object, const char *what);
  ~buffer_view();
  buffer_view(const buffer_view &) = delete;
  buffer_view &operator=(const buffer_view &) = delete;

  const std::uint8_t *data() const { return static_cast<const std::uint8_t *>(view_.buf); }
  std::uint64_t size() const { return static_cast<std::uint64_t>(view_.len); }

private:
  Py_buffer view_{};
};

// An input of the library as merklize/_sources.py hands it over: (kind, payload), where kind is
// MERKLIZE_SOURCE_MEMORY with an object of the buffer protocol, MERKLIZE_SOURCE_PATH with the
// path as bytes (os.fsencode), or MERKLIZE_SOURCE_FD with an int.
class held_source {
public:
  held_source(int kind, nb::handle payload);
  const merklize_source *get() const { return &source_; }

private:
  std::unique_ptr<buffer_view> memory_;
  std::string path_;
  merklize_source source_{};
};

// The objects of the module that hold a handle: _Device, _Builder (device_trees.cpp and
// many.cpp's roots_many take it too), and _Proof, which trees.cpp and device_trees.cpp make too.
struct device_object {
  device_ptr handle;
};
struct builder_object {
  builder_ptr handle;
};
struct proof_object {
  proof_ptr handle;
};

// The digest type of the module: 32 bytes in, as Python's bytes out.
using digest_array = std::uint8_t[MERKLIZE_DIGEST_SIZE];
nb::bytes to_bytes(const std::uint8_t *data, std::size_t size);
// A 32-byte argument (a root, a key): refused, naming `what`, if of another size.
void copy_digest(nb::handle object, const char *what, digest_array &out);

// A read-only numpy array of `count` rows of `width` bytes at `data`, which `owner` keeps alive.
using byte_rows = nb::ndarray<nb::numpy, const std::uint8_t, nb::ndim<2>>;
byte_rows rows_of(const std::uint8_t *data, std::uint64_t count, std::size_t width,
                  nb::handle owner);
// The same over bytes the library made, the array owning them.
byte_rows rows_owning(bytes_ptr bytes, std::size_t width);

// The parts of the module, one a file.
void bind_errors(nb::module_ &m);
void bind_devices(nb::module_ &m);
void bind_trees(nb::module_ &m);
void bind_device_trees(nb::module_ &m);
void bind_proofs(nb::module_ &m);
void bind_hashing(nb::module_ &m);
void bind_formats(nb::module_ &m);
void bind_commitments(nb::module_ &m);
void bind_many(nb::module_ &m);
void bind_sparse(nb::module_ &m);
void bind_mmcs(nb::module_ &m);

} // namespace merklize_python
