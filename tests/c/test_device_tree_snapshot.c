/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Snapshots of device trees and rollbacks through the C ABI (merklize_tree_snapshot,
 * merklize_device_tree_rollback), at 1, 2, 3, 255, 256 and 257 leaves, for sha256 (against the
 * SHA-256 trees of OpenSSL made here), blake3 and keccak256 with a fixed depth: after updates and
 * appends (the device memory grown), the rolled back tree equals the tree at the snapshot (root,
 * leaf count, depth, every level read back, the last leaf's proof a fresh merklize_build's), and
 * updates from there equal a fresh build's. The refusals (another tree's snapshot, NULL) change
 * nothing; a snapshot outlives its tree. */
#include "tree_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct tree_case cases[] = {
    {"sha256", "promote", -1}, {"blake3", "promote", -1}, {"keccak256", "zero", 10}};
static const uint64_t sizes[] = {1, 2, 3, 255, 256, 257};
#define MAX_LEAVES 257
#define MAX_NODES (2 * (2 * MAX_LEAVES + 8))

static uint32_t seed = 17;
static void random_leaf(uint8_t *leaf) { tree_case_random_leaf(&seed, leaf); }

/* The device tree equal to a fresh build of `leaves`: root, size, every level, the last proof. */
static void check_tree(merklize_builder *builder, merklize_device_tree *t,
                       const struct tree_case *c, const uint8_t *leaves, uint64_t n) {
  static uint8_t nodes[MAX_NODES * 32];
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  merklize_tree *fresh = NULL;
  uint8_t root[32], expected[32];
  CHECK_OK(merklize_build(builder, &source, &fresh));
  CHECK_OK(merklize_tree_root(fresh, expected));
  if (strcmp(c->hash, "sha256") == 0) {
    test_sha256_root(leaves, n, -1, 0, -1, root);
    CHECK(memcmp(root, expected, 32) == 0, "merklize_build differs from the oracle");
  }
  test_same_device_tree(t, fresh, nodes);
  merklize_tree_free(fresh);
}

/* Random updates of `count` leaves (indices spread over the tree), to the tree and `leaves`. */
static void update(merklize_device_tree *t, uint8_t *leaves, uint64_t n, uint64_t count) {
  static uint8_t values[MAX_LEAVES * 32];
  uint64_t indices[MAX_LEAVES], k;
  for (k = 0; k < count; ++k) {
    indices[k] = (k * 7919 + 3) % n;
    random_leaf(values + k * 32);
    memcpy(leaves + indices[k] * 32, values + k * 32, 32);
  }
  CHECK_OK(merklize_device_tree_update(t, indices, values, count, NULL));
}

static void check_case(merklize_device *device, const struct tree_case *c, uint64_t n) {
  static uint8_t leaves[2 * MAX_LEAVES * 32 + 64], at_snapshot[MAX_LEAVES * 32];
  merklize_builder *builder = tree_case_builder(device, c);
  merklize_device_tree *t = NULL, *other = NULL;
  merklize_tree_snapshot *s = NULL, *theirs = NULL;
  uint8_t root[32], before[32];
  uint64_t i;
  for (i = 0; i < n; ++i)
    random_leaf(leaves + i * 32);
  memcpy(at_snapshot, leaves, n * 32);
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &t));
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &other));
  CHECK_OK(merklize_device_tree_snapshot(t, &s));
  CHECK(merklize_tree_snapshot_leaf_count(s) == n, "the snapshot's leaf count");
  CHECK_OK(merklize_device_tree_root(t, before));
  update(t, leaves, n, n / 2 + 1);
  for (i = n; i < 2 * n + 2; ++i)
    random_leaf(leaves + i * 32);
  CHECK_OK(merklize_device_tree_append(t, leaves + n * 32, n + 2, NULL)); /* the room grows */
  check_tree(builder, t, c, leaves, 2 * n + 2);
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_rollback(t, s, root));
  CHECK(memcmp(root, before, 32) == 0, "the rollback's root is not the snapshot's");
  check_tree(builder, t, c, at_snapshot, n);
  memcpy(leaves, at_snapshot, n * 32);
  update(t, leaves, n, n); /* on from the snapshot */
  check_tree(builder, t, c, leaves, n);
  /* Refusals: another tree's snapshot, NULL; nothing changes. */
  CHECK_OK(merklize_device_tree_snapshot(other, &theirs));
  CHECK_OK(merklize_device_tree_root(t, before));
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_rollback(t, theirs, root), MERKLIZE_ERROR_ARGUMENT,
              "another tree");
  CHECK_FAILS(merklize_device_tree_rollback(t, NULL, root), MERKLIZE_ERROR_ARGUMENT,
              "`snapshot` is NULL");
  CHECK_FAILS(merklize_device_tree_snapshot(NULL, &theirs), MERKLIZE_ERROR_ARGUMENT,
              "`tree` is NULL");
  CHECK(test_is_poisoned(root, sizeof root), "a refused rollback wrote the root");
  check_tree(builder, t, c, leaves, n);
  CHECK(merklize_tree_snapshot_leaf_count(NULL) == 0, "a NULL snapshot's leaf count");
  merklize_device_tree_free(other); /* snapshots outlive their trees */
  CHECK_OK(merklize_device_tree_rollback(t, s, NULL));
  check_tree(builder, t, c, at_snapshot, n);
  merklize_device_tree_free(t);
  merklize_tree_snapshot_free(theirs);
  merklize_tree_snapshot_free(s);
  merklize_builder_free(builder);
}

int main(void) {
  return tree_cases_main(cases, sizeof cases / sizeof cases[0], sizes,
                         sizeof sizes / sizeof sizes[0], NULL, check_case);
}
