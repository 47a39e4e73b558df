// SPDX-License-Identifier: Apache-2.0 OR MIT
// _DeviceTree (merklize_device_tree: a tree kept on the device, updated in place and appended
// to). Leaves and indices are read in place through the buffer protocol (merklize/_device_trees.py
// hands the indices over as a C-contiguous uint64 array); levels come back as numpy arrays that own
// what was read from the device. _UpdateBatch (merklize_update_batch): page-locked memory whose
// indices and leaves are numpy arrays viewing it, written in place, each view keeping the batch
// alive. _TreeSnapshot (merklize_tree_snapshot): a copy of the tree on the device to roll back to.
#include "common.hpp"

#include <utility>

namespace merklize_python {
namespace {

struct device_tree_object {
  device_tree_ptr handle;
};

void create(device_tree_object *self, builder_object &builder, nb::handle leaves) {
  const buffer_view view(leaves, "leaves");
  merklize_device_tree *tree = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_create(builder.handle.get(), view.data(), view.size(), &tree));
  }
  new (self) device_tree_object{device_tree_ptr(tree)};
}

// A batch's indices (uint64, native order) and leaves, checked against each other here: the
// library takes one count for both, so a mismatch is refused before it is called.
struct batch {
  batch(nb::handle indices, nb::handle leaves)
      : index_view(indices, "indices"), leaf_view(leaves, "new_leaves") {
    if (index_view.size() % sizeof(std::uint64_t) != 0)
      argument_failure("indices: " + std::to_string(index_view.size()) +
                       " bytes is not whole uint64 indices");
    count = index_view.size() / sizeof(std::uint64_t);
    if (leaf_view.size() != count * MERKLIZE_DIGEST_SIZE)
      argument_failure("new_leaves is " + std::to_string(leaf_view.size()) + " bytes, and " +
                       std::to_string(count) + " indices need " +
                       std::to_string(count * MERKLIZE_DIGEST_SIZE) +
                       " (32 bytes a leaf, a leaf for each index)");
  }
  const std::uint64_t *indices() const {
    return reinterpret_cast<const std::uint64_t *>(index_view.data());
  }

  buffer_view index_view, leaf_view;
  std::uint64_t count = 0;
};

nb::bytes root(device_tree_object &t) {
  digest_array root;
  check(merklize_device_tree_root(t.handle.get(), root));
  return to_bytes(root, sizeof root);
}

nb::bytes update(device_tree_object &t, nb::handle indices, nb::handle leaves) {
  const batch b(indices, leaves);
  digest_array root;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_update(t.handle.get(), b.indices(), b.leaf_view.data(), b.count,
                                      root));
  }
  return to_bytes(root, sizeof root);
}

std::pair<nb::bytes, proof_object> update_proved(device_tree_object &t, nb::handle indices,
                                                 nb::handle leaves) {
  const batch b(indices, leaves);
  digest_array root;
  merklize_proof *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_update_proved(t.handle.get(), b.indices(), b.leaf_view.data(),
                                             b.count, root, &proof));
  }
  return {to_bytes(root, sizeof root), proof_object{proof_ptr(proof)}};
}

// Appended leaves, read in place: whole 32-byte leaves, checked here so that the library is
// given a count.
nb::bytes append(device_tree_object &t, nb::handle leaves) {
  const buffer_view view(leaves, "leaves");
  if (view.size() % MERKLIZE_DIGEST_SIZE != 0)
    argument_failure("leaves: " + std::to_string(view.size()) +
                     " bytes is not whole 32-byte leaves");
  digest_array root;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_append(t.handle.get(), view.data(),
                                      view.size() / MERKLIZE_DIGEST_SIZE, root));
  }
  return to_bytes(root, sizeof root);
}

proof_object prove_consistency(device_tree_object &t, std::uint64_t old_size) {
  merklize_proof *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_prove_consistency(t.handle.get(), old_size, &proof));
  }
  return proof_object{proof_ptr(proof)};
}

proof_object prove(device_tree_object &t, std::uint64_t index) {
  merklize_proof *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_prove(t.handle.get(), index, &proof));
  }
  return proof_object{proof_ptr(proof)};
}

struct update_batch_object {
  update_batch_ptr handle;
};

update_batch_object make_update_batch(device_tree_object &t, std::uint64_t capacity) {
  merklize_update_batch *batch = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_batch_create(t.handle.get(), capacity, &batch));
  }
  return update_batch_object{update_batch_ptr(batch)};
}

nb::bytes update_batch(device_tree_object &t, const update_batch_object &b, std::uint64_t count) {
  digest_array root;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_update_batch(t.handle.get(), b.handle.get(), count, root));
  }
  return to_bytes(root, sizeof root);
}

using index_view = nb::ndarray<nb::numpy, std::uint64_t, nb::ndim<1>>;
using leaf_view = nb::ndarray<nb::numpy, std::uint8_t, nb::ndim<2>>;

// The batch's indices and leaves as writable arrays over its memory, `self` their owner.
index_view batch_indices(nb::handle self) {
  merklize_update_batch *b = nb::cast<update_batch_object &>(self).handle.get();
  return index_view(merklize_update_batch_indices(b),
                    {static_cast<std::size_t>(merklize_update_batch_capacity(b))}, self);
}

leaf_view batch_leaves(nb::handle self) {
  merklize_update_batch *b = nb::cast<update_batch_object &>(self).handle.get();
  return leaf_view(merklize_update_batch_leaves(b),
                   {static_cast<std::size_t>(merklize_update_batch_capacity(b)),
                    std::size_t(MERKLIZE_DIGEST_SIZE)},
                   self);
}

struct snapshot_object {
  snapshot_ptr handle;
};

snapshot_object snapshot(device_tree_object &t) {
  merklize_tree_snapshot *s = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_snapshot(t.handle.get(), &s));
  }
  return snapshot_object{snapshot_ptr(s)};
}

nb::bytes rollback(device_tree_object &t, const snapshot_object &s) {
  digest_array root;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_rollback(t.handle.get(), s.handle.get(), root));
  }
  return to_bytes(root, sizeof root);
}

// Level `level` read back from the device into an array that owns its bytes.
byte_rows level(device_tree_object &t, std::uint32_t level) {
  std::uint64_t count = 0;
  check(merklize_device_tree_level_size(t.handle.get(), level, &count));
  auto *nodes = new std::uint8_t[static_cast<std::size_t>(count) * MERKLIZE_DIGEST_SIZE + 1];
  nb::capsule owner(nodes, [](void *p) noexcept { delete[] static_cast<std::uint8_t *>(p); });
  {
    nb::gil_scoped_release unlocked;
    check(merklize_device_tree_read_level(t.handle.get(), level, 0, count, nodes));
  }
  return rows_of(nodes, count, MERKLIZE_DIGEST_SIZE, owner);
}

} // namespace

void bind_device_trees(nb::module_ &m) {
  nb::class_<device_tree_object>(m, "_DeviceTree",
                                 "merklize_device_tree: merklize.DeviceTree's handle.")
      .def("__init__", &create, nb::arg("builder"), nb::arg("leaves"),
           "merklize_device_tree_create(builder, leaves).")
      .def("root", &root, "merklize_device_tree_root().")
      .def(
          "leaf_count",
          [](const device_tree_object &t) {
            return merklize_device_tree_leaf_count(t.handle.get());
          },
          "merklize_device_tree_leaf_count().")
      .def(
          "depth",
          [](const device_tree_object &t) { return merklize_device_tree_depth(t.handle.get()); },
          "merklize_device_tree_depth().")
      .def("update", &update, nb::arg("indices"), nb::arg("leaves"),
           "merklize_device_tree_update(indices, leaves): the new root.")
      .def("update_proved", &update_proved, nb::arg("indices"), nb::arg("leaves"),
           "merklize_device_tree_update_proved(indices, leaves): the new root and the "
           "multiproof.")
      .def("append", &append, nb::arg("leaves"),
           "merklize_device_tree_append(leaves): the new root.")
      .def("prove_consistency", &prove_consistency, nb::arg("old_size"),
           "merklize_device_tree_prove_consistency(old_size).")
      .def("prove", &prove, nb::arg("index"), "merklize_device_tree_prove(index).")
      .def("level", &level, nb::arg("level"),
           "merklize_device_tree_read_level(level): an (n, 32) uint8 array read back.")
      .def("make_update_batch", &make_update_batch, nb::arg("capacity"),
           "merklize_device_tree_batch_create(capacity).")
      .def("update_batch", &update_batch, nb::arg("batch"), nb::arg("count"),
           "merklize_device_tree_update_batch(batch, count): the new root.")
      .def("snapshot", &snapshot, "merklize_device_tree_snapshot().")
      .def("rollback", &rollback, nb::arg("snapshot"),
           "merklize_device_tree_rollback(snapshot): the root rolled back to.");
  nb::class_<snapshot_object>(m, "_TreeSnapshot",
                              "merklize_tree_snapshot: merklize.TreeSnapshot's handle.")
      .def(
          "leaf_count",
          [](const snapshot_object &s) {
            return merklize_tree_snapshot_leaf_count(s.handle.get());
          },
          "merklize_tree_snapshot_leaf_count().");
  nb::class_<update_batch_object>(m, "_UpdateBatch",
                                  "merklize_update_batch: merklize.UpdateBatch's handle.")
      .def(
          "capacity",
          [](const update_batch_object &b) {
            return merklize_update_batch_capacity(b.handle.get());
          },
          "merklize_update_batch_capacity().")
      .def("indices", &batch_indices,
           "merklize_update_batch_indices(): a writable uint64 array over the batch's memory.")
      .def("leaves", &batch_leaves,
           "merklize_update_batch_leaves(): a writable (capacity, 32) uint8 array over it.");
}

} // namespace merklize_python
