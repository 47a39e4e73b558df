/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * hashtree.h for libmerklize: OffchainLabs/hashtree's header (src/hashtree.h) over libmerklize's
 * merklize_hashtree_hash (merklize.h), so that a program written for hashtree builds and links
 * against libmerklize unchanged: put this folder first on the include path and link -lmerklize,
 * e.g.
 *
 *   cc prog.c -I$(pkg-config --variable=includedir merklize)/merklize $(pkg-config --cflags --libs merklize)
 *
 * hashtree_hash, hashtree_init and hashtree_sha256_generic are hashtree's calls with its contract
 * (count 64-byte blocks in, count SHA-256 digests out, no status); the host engine computes them
 * (its SHA extensions where the CPU has them), no device. hashtree's per-instruction-set entry
 * points (hashtree_sha256_avx2_x8, ...) are not provided: hashtree_hash picks for the CPU. One
 * difference: hashtree_init's override holds for the calls of the source file that gave it (it
 * is kept in this header's static state), where hashtree's holds for the whole process.
 */
#ifndef HASHTREE_H
#define HASHTREE_H

#include "../merklize.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*hashtree_hash_fcn)(unsigned char *, const unsigned char *, uint64_t);

static hashtree_hash_fcn hashtree_override_of_this_file;

/* The given function for every later hashtree_hash of this source file, or NULL: the host
 * engine's SHA-256. Optional, as hashtree's. */
static inline void hashtree_init(hashtree_hash_fcn override) {
  hashtree_override_of_this_file = override;
}

/* hashtree's portable implementation: the same digests, never an override. */
static inline void hashtree_sha256_generic(unsigned char *output, const unsigned char *input,
                                           uint64_t count) {
  merklize_hashtree_hash(output, input, count);
}

static inline void hashtree_hash(unsigned char *output, const unsigned char *input,
                                 uint64_t count) {
  if (hashtree_override_of_this_file)
    hashtree_override_of_this_file(output, input, count);
  else
    merklize_hashtree_hash(output, input, count);
}

#ifdef __cplusplus
}
#endif

#endif /* HASHTREE_H */
