// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize._merklize: the extension module under the Python package merklize (python/merklize).
#include "common.hpp"

NB_MODULE(_merklize, m) {
  using namespace merklize_python;
  m.doc() = "The C ABI of libmerklize (include/merklize.h) for the package merklize: use merklize.";
  bind_errors(m);
  bind_devices(m);
  bind_trees(m);
  bind_device_trees(m);
  bind_proofs(m);
  bind_hashing(m);
  bind_formats(m);
  bind_commitments(m);
  bind_many(m);
  bind_sparse(m);
  bind_mmcs(m);
}
