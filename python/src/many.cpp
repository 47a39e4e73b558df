// SPDX-License-Identifier: Apache-2.0 OR MIT
// Many small trees at once (merklize_roots_many): the roots of consecutive trees of tree_size
// leaves, built with a _Builder's configuration.
#include "common.hpp"

#include <vector>

namespace merklize_python {
namespace {

nb::bytes roots_many(builder_object &builder, nb::handle leaves, std::uint64_t tree_size) {
  const buffer_view view(leaves, "leaves");
  // The count is checked by the library; this only sizes the output of a well-formed call.
  const std::uint64_t trees = tree_size == 0 ? 0 : view.size() / MERKLIZE_DIGEST_SIZE / tree_size;
  std::vector<std::uint8_t> roots(static_cast<std::size_t>(trees) * MERKLIZE_DIGEST_SIZE);
  {
    nb::gil_scoped_release unlocked;
    check(merklize_roots_many(builder.handle.get(), view.data(), view.size(), tree_size,
                              roots.data(), roots.size()));
  }
  return to_bytes(roots.data(), roots.size());
}

} // namespace

void bind_many(nb::module_ &m) {
  m.def("roots_many", &roots_many, nb::arg("builder"), nb::arg("leaves"), nb::arg("tree_size"),
        "merklize_roots_many(builder, leaves, tree_size): the roots as bytes, 32 each.");
}

} // namespace merklize_python
