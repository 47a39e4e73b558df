/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The trees the device-tree tests (test_device_tree*.c) run each check on: a hash, a shape and a
 * depth a case, at each of a list of sizes; their random leaves; and main()'s loop over cases
 * and sizes, which names each as it starts (static inline: a test may use some of them only). */
#ifndef MERKLIZE_TESTS_C_TREE_CASES_H
#define MERKLIZE_TESTS_C_TREE_CASES_H

#include "c_test.h"

#include <stddef.h>
#include <stdio.h>

struct tree_case {
  const char *hash, *shape;
  int depth; /* -1: natural */
};

/* 32 bytes of a linear congruential sequence from *seed (each test its own seed). */
static inline void tree_case_random_leaf(uint32_t *seed, uint8_t *leaf) {
  int i;
  for (i = 0; i < 32; ++i) {
    *seed = *seed * 1103515245u + 12345u;
    leaf[i] = (uint8_t)(*seed >> 16);
  }
}

/* A builder of the case's trees on `device`. */
static inline merklize_builder *tree_case_builder(merklize_device *device,
                                                  const struct tree_case *c) {
  merklize_tree_config config = test_config(c->hash, c->shape);
  config.depth = c->depth;
  return test_builder(device, &config);
}

/* A builder of k-ary trees of `arity` on `device`. */
static inline merklize_builder *tree_case_kary_builder(merklize_device *device, const char *hash,
                                                       const char *shape, uint32_t arity) {
  merklize_tree_config config = test_config(hash, shape);
  config.arity = arity;
  return test_builder(device, &config);
}

/* A device-tree test's main(): on the default device, first(device) (if not NULL), then
 * check(device, case, size) for every case and size, each named as it starts. */
static inline int
tree_cases_main(const struct tree_case *cases, size_t case_count, const uint64_t *sizes,
                size_t size_count, void (*first)(merklize_device *),
                void (*check)(merklize_device *, const struct tree_case *, uint64_t)) {
  merklize_device *device = test_device();
  size_t c, s;
  if (first) first(device);
  for (c = 0; c < case_count; ++c)
    for (s = 0; s < size_count; ++s) {
      printf("%s %s depth %d, %llu leaves\n", cases[c].hash, cases[c].shape, cases[c].depth,
             (unsigned long long)sizes[s]);
      check(device, &cases[c], sizes[s]);
    }
  merklize_device_free(device); /* the trees were freed; the device last */
  printf("ok\n");
  return 0;
}

#endif
