// SPDX-License-Identifier: Apache-2.0 OR MIT
// _Proof: a proof's facts (the nodes a numpy array over the proof's own memory), its encodings,
// and its verification, which answers whether it holds and, if not, the library's reason.
#include "common.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize_python {
namespace {

// Whether a proof holds, and the library's reason where it does not.
using verdict = std::pair<bool, std::string>;

std::vector<std::uint64_t> indices_of(const proof_object &p) {
  const std::uint64_t *indices = nullptr;
  std::size_t count = 0;
  check(merklize_proof_indices(p.handle.get(), &indices, &count));
  return std::vector<std::uint64_t>(indices, indices + count);
}

byte_rows nodes_of(nb::handle self) {
  const proof_object &p = nb::cast<const proof_object &>(self);
  const std::uint8_t *nodes = nullptr;
  std::size_t count = 0;
  check(merklize_proof_nodes(p.handle.get(), &nodes, &count));
  return rows_of(nodes, count, MERKLIZE_DIGEST_SIZE, self);
}

nb::bytes encode(const proof_object &p, int encoding) {
  merklize_bytes *encoded = nullptr;
  check(merklize_proof_encode(p.handle.get(), static_cast<merklize_encoding>(encoding), &encoded));
  const bytes_ptr held(encoded);
  return to_bytes(merklize_bytes_data(encoded), merklize_bytes_size(encoded));
}

proof_object decode(nb::handle data, int encoding) {
  const buffer_view view(data, "the encoded proof");
  merklize_proof *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_proof_decode(view.data(), view.size(), static_cast<merklize_encoding>(encoding),
                                &proof));
  }
  return proof_object{proof_ptr(proof)};
}

// What the verifier pinned (merklize_proof_expectations), each member None for any.
struct pins {
  std::optional<int> kind;
  std::optional<std::string> hash, shape;
  std::optional<std::int32_t> depth;
  std::optional<std::uint32_t> arity;
  std::optional<std::uint64_t> leaf_count;
};

merklize_proof_expectations expectations_of(const pins &p) {
  merklize_proof_expectations e;
  merklize_proof_expectations_init(&e);
  if (p.kind) e.kind = *p.kind;
  if (p.hash) e.hash = p.hash->c_str();
  if (p.shape) e.shape = p.shape->c_str();
  if (p.depth) e.depth = *p.depth;
  if (p.arity) e.arity = *p.arity;
  if (p.leaf_count) e.leaf_count = *p.leaf_count;
  return e;
}

verdict verify(const proof_object &p, nb::handle leaves, nb::handle root, const pins &pinned) {
  const buffer_view view(leaves, "the leaves");
  if (view.size() % MERKLIZE_DIGEST_SIZE != 0)
    argument_failure("the leaves are " + std::to_string(view.size()) +
                     " bytes: a leaf is 32 bytes");
  digest_array root_bytes;
  copy_digest(root, "root", root_bytes);
  int valid = 0;
  std::string reason;
  {
    nb::gil_scoped_release unlocked;
    const merklize_proof_expectations expect = expectations_of(pinned);
    check(merklize_proof_verify_pinned(p.handle.get(), view.data(),
                                       view.size() / MERKLIZE_DIGEST_SIZE, root_bytes, &expect,
                                       &valid));
    if (!valid) reason = merklize_last_error();
  }
  return {valid != 0, reason};
}

verdict verify_consistency(const proof_object &p, nb::handle old_root, nb::handle new_root,
                           const pins &pinned) {
  digest_array old_bytes, new_bytes;
  copy_digest(old_root, "old_root", old_bytes);
  copy_digest(new_root, "new_root", new_bytes);
  int valid = 0;
  const merklize_proof_expectations expect = expectations_of(pinned);
  check(merklize_verify_consistency_pinned(p.handle.get(), old_bytes, new_bytes, &expect, &valid));
  return {valid != 0, valid ? std::string() : std::string(merklize_last_error())};
}

} // namespace

void bind_proofs(nb::module_ &m) {
  nb::class_<proof_object>(m, "_Proof", nb::is_weak_referenceable(),
                           "merklize_proof: merklize.Proof's handle.")
      .def(
          "kind",
          [](const proof_object &p) {
            return static_cast<int>(merklize_proof_get_kind(p.handle.get()));
          },
          "merklize_proof_get_kind(): 1 inclusion, 2 multi, 3 consistency, 4 k-ary, 5 k-ary multi.")
      .def(
          "leaf_count",
          [](const proof_object &p) { return merklize_proof_leaf_count(p.handle.get()); },
          "merklize_proof_leaf_count().")
      .def("indices", &indices_of, "merklize_proof_indices().")
      .def("nodes", &nodes_of,
           "merklize_proof_nodes(): a read-only (n, 32) uint8 array over the proof's memory.")
      .def("encode", &encode, nb::arg("encoding"), "merklize_proof_encode(encoding).")
      .def_static("decode", &decode, nb::arg("data"), nb::arg("encoding"),
                  "merklize_proof_decode(data, encoding).")
      .def("hash", [](const proof_object &p) { return std::string(merklize_proof_hash(p.handle.get())); },
           "merklize_proof_hash().")
      .def("shape", [](const proof_object &p) { return std::string(merklize_proof_shape(p.handle.get())); },
           "merklize_proof_shape().")
      .def("depth", [](const proof_object &p) { return merklize_proof_depth(p.handle.get()); },
           "merklize_proof_depth().")
      .def("arity", [](const proof_object &p) { return merklize_proof_arity(p.handle.get()); },
           "merklize_proof_arity().")
      .def(
          "mixed_length",
          [](const proof_object &p) -> std::optional<std::uint64_t> {
            std::uint64_t length = 0;
            if (!merklize_proof_mixed_length(p.handle.get(), &length)) return std::nullopt;
            return length;
          },
          "merklize_proof_mixed_length(): the length, or None.")
      .def(
          "verify",
          [](const proof_object &p, nb::handle leaves, nb::handle root, std::optional<int> kind,
             std::optional<std::string> hash, std::optional<std::string> shape,
             std::optional<std::int32_t> depth, std::optional<std::uint32_t> arity,
             std::optional<std::uint64_t> leaf_count) {
            return verify(p, leaves, root, {kind, hash, shape, depth, arity, leaf_count});
          },
          nb::arg("leaves"), nb::arg("root"), nb::arg("kind").none(), nb::arg("hash").none(),
          nb::arg("shape").none(), nb::arg("depth").none(), nb::arg("arity").none(),
          nb::arg("leaf_count").none(),
          "merklize_proof_verify_pinned(leaves, root, expectations): (valid, the reason if not).")
      .def(
          "verify_consistency",
          [](const proof_object &p, nb::handle old_root, nb::handle new_root,
             std::optional<std::string> hash, std::optional<std::uint64_t> leaf_count) {
            return verify_consistency(p, old_root, new_root,
                                      {std::nullopt, hash, std::nullopt, std::nullopt,
                                       std::nullopt, leaf_count});
          },
          nb::arg("old_root"), nb::arg("new_root"), nb::arg("hash").none(),
          nb::arg("leaf_count").none(),
          "merklize_verify_consistency_pinned(old_root, new_root, expectations): (valid, the "
          "reason if not).");
}

} // namespace merklize_python
