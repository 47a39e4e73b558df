// SPDX-License-Identifier: Apache-2.0 OR MIT
// The formats of trees over data blocks: dm-verity's hash device, fs-verity's file digest and
// Merkle tree, and Bao's outboard, each with its root.
#include "common.hpp"

#include <utility>

namespace merklize_python {
namespace {

// The root and, where asked for, the bytes the format writes (None where not).
using rooted = std::pair<nb::bytes, nb::object>;

// Runs `call(source, root, bytes or NULL)` without the GIL: the root, and the bytes it wrote
// where `want_bytes` asked for them.
template <class Call>
rooted rooted_call(int kind, nb::handle payload, bool want_bytes, Call &&call) {
  const held_source source(kind, payload);
  digest_array root;
  merklize_bytes *bytes = nullptr;
  {
    nb::gil_scoped_release unlocked;
    check(call(source.get(), root, want_bytes ? &bytes : nullptr));
  }
  const bytes_ptr held(bytes);
  nb::object written = nb::none();
  if (held) written = to_bytes(merklize_bytes_data(bytes), merklize_bytes_size(bytes));
  return {to_bytes(root, sizeof root), written};
}

merklize_verity_config verity_config(std::uint32_t data_block_size, std::uint32_t hash_block_size,
                                     const nb::bytes &salt) {
  merklize_verity_config config;
  merklize_verity_config_init(&config);
  config.data_block_size = data_block_size;
  config.hash_block_size = hash_block_size;
  if (salt.size() > 0) {
    config.salt = reinterpret_cast<const std::uint8_t *>(salt.c_str());
    config.salt_size = salt.size();
  }
  return config;
}

rooted dm_verity(device_object &device, int kind, nb::handle payload, std::uint32_t data_block_size,
                 std::uint32_t hash_block_size, const nb::bytes &salt, bool want_tree) {
  const merklize_verity_config config = verity_config(data_block_size, hash_block_size, salt);
  return rooted_call(kind, payload, want_tree,
                     [&](const merklize_source *s, uint8_t *root, merklize_bytes **tree) {
                       return merklize_dm_verity(device.handle.get(), &config, s, root, tree);
                     });
}

rooted fs_verity(device_object &device, int kind, nb::handle payload, std::uint32_t block_size,
                 const nb::bytes &salt, bool want_tree) {
  const merklize_verity_config config = verity_config(block_size, block_size, salt);
  return rooted_call(kind, payload, want_tree,
                     [&](const merklize_source *s, uint8_t *digest, merklize_bytes **tree) {
                       return merklize_fs_verity(device.handle.get(), &config, s, digest, tree);
                     });
}

rooted bao_outboard(device_object &device, int kind, nb::handle payload, bool want_outboard) {
  return rooted_call(kind, payload, want_outboard,
                     [&](const merklize_source *s, uint8_t *root, merklize_bytes **outboard) {
                       return merklize_bao_outboard(device.handle.get(), s, root, outboard);
                     });
}

} // namespace

void bind_formats(nb::module_ &m) {
  m.def("dm_verity", &dm_verity, nb::arg("device"), nb::arg("kind"), nb::arg("payload"),
        nb::arg("data_block_size"), nb::arg("hash_block_size"), nb::arg("salt"),
        nb::arg("want_tree"), "merklize_dm_verity(): (root, hash tree or None).");
  m.def("fs_verity", &fs_verity, nb::arg("device"), nb::arg("kind"), nb::arg("payload"),
        nb::arg("block_size"), nb::arg("salt"), nb::arg("want_tree"),
        "merklize_fs_verity(): (file digest, Merkle tree or None).");
  m.def("bao_outboard", &bao_outboard, nb::arg("device"), nb::arg("kind"), nb::arg("payload"),
        nb::arg("want_outboard"), "merklize_bao_outboard(): (root, outboard or None).");
}

} // namespace merklize_python
