/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What every device-tree test (test_device_tree*.c) checks after a change: the tree kept on the
 * device against a fresh merklize_build of the same leaves. */
#ifndef MERKLIZE_TESTS_C_DEVICE_TREE_CHECK_H
#define MERKLIZE_TESTS_C_DEVICE_TREE_CHECK_H

#include "c_test.h"

#include <stdlib.h>
#include <string.h>

/* The tree kept on the device equal to `fresh`, a tree built over its n leaves: its root, leaf
 * count and depth, every level read back (each output poisoned first), and the last leaf's
 * proof. */
static inline void check_device_tree(merklize_device_tree *t, const merklize_tree *fresh,
                                     uint64_t n) {
  uint8_t root[32], expected[32], *nodes;
  const uint8_t *level_nodes;
  uint64_t level_count, size;
  uint32_t level;
  merklize_proof *got = NULL, *want = NULL;
  CHECK_OK(merklize_tree_root(fresh, expected));
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, expected, 32) == 0, "merklize_device_tree_root differs from a fresh build");
  CHECK(merklize_device_tree_leaf_count(t) == n, "leaf count %llu, expected %llu",
        (unsigned long long)merklize_device_tree_leaf_count(t), (unsigned long long)n);
  CHECK(merklize_device_tree_depth(t) == merklize_tree_depth(fresh), "depth %u, expected %u",
        merklize_device_tree_depth(t), merklize_tree_depth(fresh));
  for (level = 0; level <= merklize_tree_depth(fresh); ++level) {
    CHECK_OK(merklize_tree_level(fresh, level, &level_nodes, &level_count));
    CHECK_OK(merklize_device_tree_level_size(t, level, &size));
    CHECK(size == level_count, "level %u: %llu nodes, expected %llu", level,
          (unsigned long long)size, (unsigned long long)level_count);
    nodes = (uint8_t *)malloc(size * 32);
    CHECK(nodes != NULL, "no memory for level %u", level);
    test_poison(nodes, size * 32);
    CHECK_OK(merklize_device_tree_read_level(t, level, 0, size, nodes));
    CHECK(memcmp(nodes, level_nodes, size * 32) == 0, "level %u differs", level);
    free(nodes);
  }
  CHECK_OK(merklize_device_tree_prove(t, n - 1, &got));
  CHECK_OK(merklize_prove(fresh, n - 1, &want));
  test_same_proof(got, want, "merklize_device_tree_prove");
  merklize_proof_free(got);
  merklize_proof_free(want);
}

#endif
