// SPDX-License-Identifier: Apache-2.0 OR MIT
// Failed calls as Python exceptions: a `failure` becomes the class that merklize._errors gives
// for its status (ArgumentError, DeviceError, ...), with the library's message. Also the
// library's version and the names its configuration takes.
#include "common.hpp"

namespace merklize_python {
namespace {

void raise(const failure &f) {
  try {
    const nb::object cls =
        nb::module_::import_("merklize._errors").attr("error_class")(static_cast<int>(f.status));
    PyErr_SetString(cls.ptr(), f.message.c_str());
  } catch (nb::python_error &e) { // merklize._errors could not be imported: say so
    e.restore();
  }
}

} // namespace

void bind_errors(nb::module_ &m) {
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const failure &f) {
      raise(f);
    }
  });
  m.def(
      "version", [] { return std::string(merklize_version()); }, "merklize_version().");
  m.def(
      "abi_version", [] { return merklize_abi_version(); }, "merklize_abi_version().");
  m.def(
      "status_name",
      [](int status) {
        return std::string(merklize_status_name(static_cast<merklize_status>(status)));
      },
      nb::arg("status"), "merklize_status_name(status).");
  m.def(
      "hash_names", [] { return std::string(merklize_hash_names()); }, "merklize_hash_names().");
  m.def(
      "shape_names", [] { return std::string(merklize_shape_names()); }, "merklize_shape_names().");
  m.def(
      "leaf_hash_names", [] { return std::string(merklize_leaf_hash_names()); },
      "merklize_leaf_hash_names().");
}

} // namespace merklize_python
