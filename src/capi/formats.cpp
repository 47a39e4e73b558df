// SPDX-License-Identifier: Apache-2.0 OR MIT
// The formats of trees over data blocks (block_tree.hpp): dm-verity's hash device, fs-verity's
// file digest and Merkle tree, Bao's outboard, as `merklize root --format` writes them. The
// data's leaves stream to the device (from memory as from a file) and only the tree comes back.
#include "handles.hpp"
#include "sources.hpp"

#include <merklize/engine/block_tree.hpp>

#include <cstring>

namespace merklize_capi {
namespace {

// A merklize_verity_config checked, or its defaults for NULL.
struct verity_settings {
  std::uint64_t data_block, hash_block;
  std::vector<std::uint8_t> salt;
};

verity_settings settings_of(const merklize_verity_config *config) {
  merklize_verity_config defaults;
  merklize_verity_config_init(&defaults);
  if (!config) config = &defaults;
  check_struct_size(config->size, sizeof *config, "config");
  if (!config->salt && config->salt_size > 0)
    throw argument_error("config->salt is NULL and config->salt_size is " +
                         std::to_string(config->salt_size));
  verity_settings s{config->data_block_size, config->hash_block_size, {}};
  if (config->salt) s.salt.assign(config->salt, config->salt + config->salt_size);
  return s;
}

// The outputs, written once everything succeeded.
void write_outputs(const digest &root, uint8_t *root_out, std::vector<std::uint8_t> bytes,
                   merklize_bytes **bytes_out) {
  std::unique_ptr<merklize_bytes> held;
  if (bytes_out) {
    held = std::make_unique<merklize_bytes>();
    held->data = std::move(bytes);
  }
  std::memcpy(root_out, root.data(), root.size());
  if (bytes_out) *bytes_out = held.release();
}

} // namespace
} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

void merklize_verity_config_init(merklize_verity_config *config) {
  if (!config) return;
  std::memset(config, 0, sizeof *config);
  config->size = sizeof *config;
  config->data_block_size = 4096;
  config->hash_block_size = 4096;
}

merklize_status merklize_dm_verity(merklize_device *device, const merklize_verity_config *config,
                                   const merklize_source *source,
                                   uint8_t root[MERKLIZE_DIGEST_SIZE], merklize_bytes **hash_tree) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_dm_verity", "device");
    required(root, "merklize_dm_verity", "root");
    verity_settings s = settings_of(config);
    const merklize::dm_verity_options options{s.data_block, s.hash_block, std::move(s.salt)};
    for_field("config", [&] { merklize::check_dm_verity(options); });
    const std::lock_guard<std::mutex> lock(d.mutex);
    opened_source opened(source, "merklize_dm_verity");
    // A size known before reading is checked before: data of partial blocks fails at once.
    const std::optional<std::uint64_t> size =
        opened.in_memory() ? std::optional<std::uint64_t>(opened.size()) : opened.input().size();
    if (size) merklize::check_dm_verity(options, *size, opened.name());
    merklize::block_hasher &h = d.blocks();
    const auto leaves = leaves_of(h, opened, merklize::dm_verity_data_rule(options));
    auto tree = merklize::dm_verity_tree(h, leaves, options, hash_tree != nullptr, opened.name());
    write_outputs(tree.root, root, std::move(tree.levels), hash_tree);
  });
}

merklize_status merklize_fs_verity(merklize_device *device, const merklize_verity_config *config,
                                   const merklize_source *source,
                                   uint8_t file_digest[MERKLIZE_DIGEST_SIZE],
                                   merklize_bytes **tree) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_fs_verity", "device");
    required(file_digest, "merklize_fs_verity", "file_digest");
    verity_settings s = settings_of(config); // data_block: dm-verity's alone
    const merklize::fs_verity_options options{s.hash_block, std::move(s.salt)};
    for_field("config", [&] { merklize::check_fs_verity(options); });
    const std::lock_guard<std::mutex> lock(d.mutex);
    opened_source opened(source, "merklize_fs_verity");
    merklize::block_hasher &h = d.blocks();
    const auto leaves = leaves_of(h, opened, merklize::fs_verity_rule(options));
    auto result = merklize::fs_verity_tree(h, leaves, options, tree != nullptr);
    write_outputs(result.file_digest, file_digest, std::move(result.tree.levels), tree);
  });
}

merklize_status merklize_bao_outboard(merklize_device *device, const merklize_source *source,
                                      uint8_t root[MERKLIZE_DIGEST_SIZE],
                                      merklize_bytes **outboard) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_bao_outboard", "device");
    required(root, "merklize_bao_outboard", "root");
    const std::lock_guard<std::mutex> lock(d.mutex);
    opened_source opened(source, "merklize_bao_outboard");
    merklize::block_hasher &h = d.blocks();
    auto out = merklize::bao_outboard_of(h, chunk_cvs_of(h, opened), opened.name());
    write_outputs(out.root, root, std::move(out.bytes), outboard);
  });
}

} // extern "C"
