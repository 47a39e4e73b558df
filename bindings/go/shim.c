/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "shim.h"

static merklize_source source_of(int kind, const void *data, uint64_t size, const char *path,
                                 int fd) {
  merklize_source s = merklize_source_memory(data, size);
  s.kind = (merklize_source_kind)kind;
  s.path = path;
  s.fd = fd;
  return s;
}

merklize_status merklize_go_build(merklize_builder *builder, int kind, const void *data,
                                  uint64_t size, const char *path, int fd, merklize_tree **tree) {
  const merklize_source s = source_of(kind, data, size, path, fd);
  return merklize_build(builder, &s, tree);
}

merklize_status merklize_go_root(merklize_builder *builder, int kind, const void *data,
                                 uint64_t size, const char *path, int fd, uint8_t *root) {
  const merklize_source s = source_of(kind, data, size, path, fd);
  return merklize_root(builder, &s, root);
}

merklize_status merklize_go_prove(merklize_builder *builder, int kind, const void *data,
                                  uint64_t size, const char *path, int fd, uint64_t index,
                                  merklize_proof **proof) {
  const merklize_source s = source_of(kind, data, size, path, fd);
  return merklize_prove_source(builder, &s, index, proof);
}

merklize_status merklize_go_blake3(merklize_device *device, int mode, const uint8_t *key,
                                   const char *context, int kind, const void *data, uint64_t size,
                                   const char *path, int fd, uint8_t *out, size_t out_size) {
  const merklize_source s = source_of(kind, data, size, path, fd);
  merklize_blake3_mode m;
  m.kind = (merklize_blake3_kind)mode;
  m.key = key;
  m.context = context;
  return merklize_blake3(device, &m, &s, out, out_size);
}

merklize_status merklize_go_bitcoin_root(merklize_device *device, int kind, const void *data,
                                         uint64_t size, const char *path, int fd, int display_order,
                                         uint8_t *root, int *mutated) {
  const merklize_source s = source_of(kind, data, size, path, fd);
  return merklize_bitcoin_root(device, &s, display_order, root, mutated);
}

merklize_status merklize_go_bitcoin_proof(merklize_device *device, int kind, const void *data,
                                          uint64_t size, const char *path, int fd,
                                          int display_order, uint64_t index,
                                          merklize_bytes **proof) {
  const merklize_source s = source_of(kind, data, size, path, fd);
  return merklize_bitcoin_proof(device, &s, display_order, index, proof);
}

merklize_status merklize_go_filecoin_commitment(merklize_device *device, int kind, const void *data,
                                                uint64_t size, const char *path, int fd,
                                                uint8_t *commitment, uint64_t *padded_size) {
  const merklize_source s = source_of(kind, data, size, path, fd);
  return merklize_filecoin_commitment(device, &s, commitment, padded_size);
}
