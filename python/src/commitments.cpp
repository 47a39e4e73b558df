// SPDX-License-Identifier: Apache-2.0 OR MIT
// The commitments other systems publish: OpenZeppelin's StandardMerkleTree (its root, dump,
// proofs and multiproofs of a JSON text), Bitcoin's merkle root and branches, Filecoin's piece
// commitment and piece CID.
#include "common.hpp"

#include <utility>
#include <vector>

namespace merklize_python {
namespace {

// The text of bytes the library made, or None where it made none.
nb::object text_of(merklize_bytes *bytes) {
  const bytes_ptr held(bytes);
  if (!held) return nb::none();
  return nb::str(static_cast<const char *>(static_cast<const void *>(merklize_bytes_data(bytes))),
                 merklize_bytes_size(bytes));
}

std::pair<nb::bytes, nb::object> oz_standard_tree(device_object &device, nb::handle json,
                                                  bool sort_leaves, bool want_dump) {
  const buffer_view text(json, "json");
  digest_array root;
  merklize_bytes *dump = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_oz_standard_tree(device.handle.get(),
                                    reinterpret_cast<const char *>(text.data()), text.size(),
                                    sort_leaves, root, want_dump ? &dump : nullptr));
  }
  nb::object written = text_of(dump);
  return {to_bytes(root, sizeof root), written};
}

nb::object oz_standard_proof(device_object &device, nb::handle json, bool sort_leaves,
                             const std::vector<std::uint64_t> &indices) {
  const buffer_view text(json, "json");
  merklize_bytes *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_oz_standard_proof(device.handle.get(),
                                     reinterpret_cast<const char *>(text.data()), text.size(),
                                     sort_leaves, indices.data(), indices.size(), &proof));
  }
  return text_of(proof);
}

std::pair<nb::bytes, bool> bitcoin_root(device_object &device, int kind, nb::handle payload,
                                        bool display_order) {
  const held_source source(kind, payload);
  digest_array root;
  int mutated = 0;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_bitcoin_root(device.handle.get(), source.get(), display_order, root, &mutated));
  }
  return {to_bytes(root, sizeof root), mutated != 0};
}

nb::object bitcoin_proof(device_object &device, int kind, nb::handle payload, bool display_order,
                         std::uint64_t index) {
  const held_source source(kind, payload);
  merklize_bytes *proof = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_bitcoin_proof(device.handle.get(), source.get(), display_order, index, &proof));
  }
  return text_of(proof);
}

std::pair<nb::bytes, std::uint64_t> filecoin_commitment(device_object &device, int kind,
                                                        nb::handle payload) {
  const held_source source(kind, payload);
  digest_array commitment;
  std::uint64_t padded = 0;
  {
    nb::gil_scoped_release unlocked;
    check(merklize_filecoin_commitment(device.handle.get(), source.get(), commitment, &padded));
  }
  return {to_bytes(commitment, sizeof commitment), padded};
}

std::string filecoin_piece_cid(nb::handle commitment) {
  digest_array c;
  copy_digest(commitment, "commitment", c);
  char cid[MERKLIZE_PIECE_CID_SIZE];
  check(merklize_filecoin_piece_cid(c, cid, sizeof cid));
  return cid;
}

} // namespace

void bind_commitments(nb::module_ &m) {
  m.def("oz_standard_tree", &oz_standard_tree, nb::arg("device"), nb::arg("json"),
        nb::arg("sort_leaves"), nb::arg("want_dump"),
        "merklize_oz_standard_tree(): (root, dump or None).");
  m.def("oz_standard_proof", &oz_standard_proof, nb::arg("device"), nb::arg("json"),
        nb::arg("sort_leaves"), nb::arg("indices"),
        "merklize_oz_standard_proof(): the proof, or multiproof, as JSON.");
  m.def("bitcoin_root", &bitcoin_root, nb::arg("device"), nb::arg("kind"), nb::arg("payload"),
        nb::arg("display_order"), "merklize_bitcoin_root(): (root, mutated).");
  m.def("bitcoin_proof", &bitcoin_proof, nb::arg("device"), nb::arg("kind"), nb::arg("payload"),
        nb::arg("display_order"), nb::arg("index"),
        "merklize_bitcoin_proof(): the branch as JSON.");
  m.def("filecoin_commitment", &filecoin_commitment, nb::arg("device"), nb::arg("kind"),
        nb::arg("payload"), "merklize_filecoin_commitment(): (commitment, padded size).");
  m.def("filecoin_piece_cid", &filecoin_piece_cid, nb::arg("commitment"),
        "merklize_filecoin_piece_cid().");
}

} // namespace merklize_python
