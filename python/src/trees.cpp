// SPDX-License-Identifier: Apache-2.0 OR MIT
// _Builder (merklize_builder: a tree configuration bound to a device) and _Tree (a built tree,
// whose levels are numpy arrays over the tree's own memory).
#include "common.hpp"

#include <optional>
#include <vector>

namespace merklize_python {
namespace {

struct tree_object {
  tree_ptr handle;
};

// The configuration as merklize/_trees.py normalised it; the library checks it.
struct tree_config {
  std::optional<std::string> hash, shape, leaf_hash;
  std::int32_t depth = -1;
  std::uint32_t arity = 2;
  std::uint64_t leaf_size = 0;
  nb::bytes salt;
  std::optional<std::uint64_t> mix_in_length;
  std::uint32_t keep = MERKLIZE_KEEP_ALL;
};

void create_builder(builder_object *self, const device_object &device, const tree_config &c) {
  merklize_tree_config config;
  merklize_tree_config_init(&config);
  config.hash = c.hash ? c.hash->c_str() : nullptr;
  config.shape = c.shape ? c.shape->c_str() : nullptr;
  config.leaf_hash = c.leaf_hash ? c.leaf_hash->c_str() : nullptr;
  config.depth = c.depth;
  config.arity = c.arity;
  config.leaf_size = c.leaf_size;
  if (c.salt.size() > 0) {
    config.salt = reinterpret_cast<const std::uint8_t *>(c.salt.c_str());
    config.salt_size = c.salt.size();
  }
  config.mix_in_length = c.mix_in_length ? 1 : 0;
  config.length = c.mix_in_length.value_or(0);
  config.keep = c.keep;
  merklize_builder *builder = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_builder_create(device.handle.get(), &config, &builder));
  }
  new (self) builder_object{builder_ptr(builder)};
}

nb::bytes root_of(builder_object &self, int kind, nb::handle payload) {
  const held_source source(kind, payload);
  digest_array root;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_root(self.handle.get(), source.get(), root));
  }
  return to_bytes(root, sizeof root);
}

tree_object build(builder_object &self, int kind, nb::handle payload) {
  const held_source source(kind, payload);
  merklize_tree *tree = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_build(self.handle.get(), source.get(), &tree));
  }
  return tree_object{tree_ptr(tree)};
}

proof_object prove_source(builder_object &self, int kind, nb::handle payload, std::uint64_t index) {
  const held_source source(kind, payload);
  merklize_proof *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_prove_source(self.handle.get(), source.get(), index, &proof));
  }
  return proof_object{proof_ptr(proof)};
}

void bind_builder(nb::module_ &m) {
  nb::class_<tree_config>(m, "_TreeConfig",
                          "merklize_tree_config's members, as merklize/_trees.py checked them.")
      .def(nb::init<>())
      .def_rw("hash", &tree_config::hash, nb::arg("value").none())
      .def_rw("shape", &tree_config::shape, nb::arg("value").none())
      .def_rw("leaf_hash", &tree_config::leaf_hash, nb::arg("value").none())
      .def_rw("depth", &tree_config::depth)
      .def_rw("arity", &tree_config::arity)
      .def_rw("leaf_size", &tree_config::leaf_size)
      .def_rw("salt", &tree_config::salt)
      .def_rw("mix_in_length", &tree_config::mix_in_length, nb::arg("value").none())
      .def_rw("keep", &tree_config::keep);
  nb::class_<builder_object>(m, "_Builder", "merklize_builder: merklize.Builder's handle.")
      .def("__init__", &create_builder, nb::arg("device"), nb::arg("config"),
           "merklize_builder_create(device, config).")
      .def("root", &root_of, nb::arg("kind"), nb::arg("payload"), "merklize_root(source).")
      .def("build", &build, nb::arg("kind"), nb::arg("payload"), "merklize_build(source).")
      .def("prove", &prove_source, nb::arg("kind"), nb::arg("payload"), nb::arg("index"),
           "merklize_prove_source(source, index).");
}

// Proofs from a built tree, on the host (the GIL released: a multiproof may be long).
template <class Prove> proof_object proved(const tree_object &t, Prove &&prove) {
  merklize_proof *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(prove(t.handle.get(), &proof));
  }
  return proof_object{proof_ptr(proof)};
}

nb::bytes tree_root(const tree_object &t) {
  digest_array root;
  check(merklize_tree_root(t.handle.get(), root));
  return to_bytes(root, sizeof root);
}

byte_rows level_of(nb::handle self, std::uint32_t level) {
  const tree_object &t = nb::cast<const tree_object &>(self);
  const std::uint8_t *nodes = nullptr;
  std::uint64_t count = 0;
  check(merklize_tree_level(t.handle.get(), level, &nodes, &count));
  return rows_of(nodes, count, MERKLIZE_DIGEST_SIZE, self);
}

nb::bytes node_of(const tree_object &t, std::uint32_t level, std::uint64_t index) {
  digest_array node;
  check(merklize_tree_node(t.handle.get(), level, index, node));
  return to_bytes(node, sizeof node);
}

proof_object prove(const tree_object &t, std::uint64_t index) {
  return proved(
      t, [&](const merklize_tree *h, merklize_proof **p) { return merklize_prove(h, index, p); });
}

proof_object prove_multi(const tree_object &t, const std::vector<std::uint64_t> &indices) {
  return proved(t, [&](const merklize_tree *h, merklize_proof **p) {
    return merklize_prove_multi(h, indices.data(), indices.size(), p);
  });
}

proof_object prove_consistency(const tree_object &t, std::uint64_t old_size) {
  return proved(t, [&](const merklize_tree *h, merklize_proof **p) {
    return merklize_prove_consistency(h, old_size, p);
  });
}

void bind_tree(nb::module_ &m) {
  nb::class_<tree_object>(m, "_Tree", nb::is_weak_referenceable(),
                          "merklize_tree: merklize.Tree's handle.")
      .def("root", &tree_root, "merklize_tree_root().")
      .def(
          "leaf_count",
          [](const tree_object &t) { return merklize_tree_leaf_count(t.handle.get()); },
          "merklize_tree_leaf_count().")
      .def(
          "depth", [](const tree_object &t) { return merklize_tree_depth(t.handle.get()); },
          "merklize_tree_depth().")
      .def(
          "first_level",
          [](const tree_object &t) { return merklize_tree_first_level(t.handle.get()); },
          "merklize_tree_first_level().")
      .def("level", &level_of, nb::arg("level"),
           "merklize_tree_level(level): a read-only (n, 32) uint8 array over the tree's memory.")
      .def("node", &node_of, nb::arg("level"), nb::arg("index"), "merklize_tree_node().")
      .def("prove", &prove, nb::arg("index"), "merklize_prove(index).")
      .def("prove_multi", &prove_multi, nb::arg("indices"), "merklize_prove_multi(indices).")
      .def("prove_consistency", &prove_consistency, nb::arg("old_size"),
           "merklize_prove_consistency(old_size).");
}

} // namespace

void bind_trees(nb::module_ &m) {
  bind_builder(m);
  bind_tree(m);
}

} // namespace merklize_python
