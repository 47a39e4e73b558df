/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The calls of merklize.h that take a merklize_source, made from plain arguments here in C:
 * cgo may not pass C a Go struct holding a Go pointer (the bytes of a memory source), so the
 * source is built on the C stack from its parts. kind is a merklize_source_kind. */
#ifndef MERKLIZE_GO_SHIM_H
#define MERKLIZE_GO_SHIM_H

#include <merklize.h>

merklize_status merklize_go_build(merklize_builder *builder, int kind, const void *data,
                                  uint64_t size, const char *path, int fd, merklize_tree **tree);
merklize_status merklize_go_root(merklize_builder *builder, int kind, const void *data,
                                 uint64_t size, const char *path, int fd, uint8_t *root);
merklize_status merklize_go_prove(merklize_builder *builder, int kind, const void *data,
                                  uint64_t size, const char *path, int fd, uint64_t index,
                                  merklize_proof **proof);
/* mode: a merklize_blake3_kind; key (KEYED, 32 bytes) and context (DERIVE_KEY) as its. */
merklize_status merklize_go_blake3(merklize_device *device, int mode, const uint8_t *key,
                                   const char *context, int kind, const void *data, uint64_t size,
                                   const char *path, int fd, uint8_t *out, size_t out_size);
/* The commitments of other systems (merklize.h: Bitcoin, Filecoin). */
merklize_status merklize_go_bitcoin_root(merklize_device *device, int kind, const void *data,
                                         uint64_t size, const char *path, int fd, int display_order,
                                         uint8_t *root, int *mutated);
merklize_status merklize_go_bitcoin_proof(merklize_device *device, int kind, const void *data,
                                          uint64_t size, const char *path, int fd,
                                          int display_order, uint64_t index,
                                          merklize_bytes **proof);
merklize_status merklize_go_filecoin_commitment(merklize_device *device, int kind, const void *data,
                                                uint64_t size, const char *path, int fd,
                                                uint8_t *commitment, uint64_t *padded_size);

#endif
