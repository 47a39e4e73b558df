/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Update batches filled in place through the C ABI (merklize_update_batch,
 * merklize_device_tree_update_batch), at 1, 2, 3, 255, 256 and 257 leaves, for sha256 (against
 * the SHA-256 trees of OpenSSL made here) and blake3 and keccak256 with a fixed depth: batches of
 * one leaf, the last leaf, every leaf (in reverse) and repeats of one index (the last value
 * wins) from one batch, reused, beside a twin tree updated by merklize_device_tree_update with
 * the same updates: the same root and every level read back the same, and the root a fresh
 * merklize_build's. Then the refusals (a count past the capacity, an index out of range found on
 * the device, NULL arguments, a capacity of 0), each leaving the tree as it was; and the batch
 * outliving its tree. */
#include "tree_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct tree_case cases[] = {
    {"sha256", "promote", -1}, {"blake3", "promote", -1}, {"keccak256", "zero", 9}};
static const uint64_t sizes[] = {1, 2, 3, 255, 256, 257};
#define MAX_LEAVES 257

static uint32_t seed = 34;
static void random_leaf(uint8_t *leaf) { tree_case_random_leaf(&seed, leaf); }

/* Every level of `t` equal to the twin's, the roots equal to each other, to `returned` and to a
 * fresh build of `leaves` (and for sha256 to OpenSSL's). */
static void check_same(merklize_builder *builder, merklize_device_tree *t,
                       merklize_device_tree *twin, const struct tree_case *c, const uint8_t *leaves,
                       uint64_t n, const uint8_t *returned) {
  static uint8_t nodes[MAX_LEAVES * 32], twin_nodes[MAX_LEAVES * 32];
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  merklize_tree *fresh = NULL;
  uint8_t root[32], expected[32];
  uint64_t size;
  uint32_t level;
  CHECK_OK(merklize_build(builder, &source, &fresh));
  CHECK_OK(merklize_tree_root(fresh, expected));
  merklize_tree_free(fresh);
  if (strcmp(c->hash, "sha256") == 0) {
    test_sha256_root(leaves, n, -1, 0, -1, root);
    CHECK(memcmp(root, expected, 32) == 0, "merklize_build differs from the oracle");
  }
  CHECK(memcmp(returned, expected, 32) == 0, "the batch's root differs from a fresh build");
  CHECK_OK(merklize_device_tree_root(twin, root));
  CHECK(memcmp(root, expected, 32) == 0, "the twin's root differs from a fresh build");
  CHECK(merklize_device_tree_depth(t) == merklize_device_tree_depth(twin), "depth");
  for (level = 0; level <= merklize_device_tree_depth(t); ++level) {
    CHECK_OK(merklize_device_tree_level_size(t, level, &size));
    test_poison(nodes, size * 32);
    CHECK_OK(merklize_device_tree_read_level(t, level, 0, size, nodes));
    CHECK_OK(merklize_device_tree_read_level(twin, level, 0, size, twin_nodes));
    CHECK(memcmp(nodes, twin_nodes, size * 32) == 0, "level %u differs from the twin's", level);
  }
}

/* The updates `indices` with random leaves through the batch and through the twin. */
static void apply(merklize_builder *builder, merklize_device_tree *t, merklize_device_tree *twin,
                  merklize_update_batch *batch, const struct tree_case *c, uint8_t *leaves,
                  uint64_t n, const uint64_t *indices, size_t count) {
  uint64_t *batch_indices = merklize_update_batch_indices(batch);
  uint8_t *batch_leaves = merklize_update_batch_leaves(batch);
  uint8_t root[32], twin_root[32];
  size_t k;
  for (k = 0; k < count; ++k) {
    batch_indices[k] = indices[k];
    random_leaf(batch_leaves + k * 32);
    memcpy(leaves + indices[k] * 32, batch_leaves + k * 32, 32); /* in order: the last wins */
  }
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_update_batch(t, batch, count, root));
  CHECK_OK(merklize_device_tree_update(twin, indices, batch_leaves, count, twin_root));
  CHECK(memcmp(root, twin_root, 32) == 0, "the batch's root differs from the twin's");
  check_same(builder, t, twin, c, leaves, n, root);
}

static void check_refusals(merklize_device_tree *t, merklize_update_batch *batch,
                           const uint8_t *leaves, uint64_t n) {
  static uint8_t nodes[MAX_LEAVES * 32];
  const uint64_t capacity = merklize_update_batch_capacity(batch);
  merklize_update_batch *none = NULL;
  uint8_t root[32], before[32];
  CHECK_OK(merklize_device_tree_root(t, before));
  merklize_update_batch_indices(batch)[0] = 0;
  merklize_update_batch_indices(batch)[1] = n; /* out of range */
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_update_batch(t, batch, 2, root), MERKLIZE_ERROR_ARGUMENT,
              "update 1 of 2: leaf index");
  CHECK_FAILS(merklize_device_tree_update_batch(t, batch, capacity + 1, root),
              MERKLIZE_ERROR_ARGUMENT, "from a batch of room for");
  CHECK_FAILS(merklize_device_tree_update_batch(t, NULL, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`batch` is NULL");
  CHECK_FAILS(merklize_device_tree_update_batch(NULL, batch, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`tree` is NULL");
  CHECK_FAILS(merklize_device_tree_batch_create(t, 0, &none), MERKLIZE_ERROR_ARGUMENT,
              "a capacity of 0");
  CHECK(none == NULL, "a refused batch_create wrote the batch");
  CHECK(test_is_poisoned(root, sizeof root), "a refused update wrote the root");
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, before, 32) == 0, "a refused call changed the root");
  CHECK_OK(merklize_device_tree_read_level(t, 0, 0, n, nodes));
  CHECK(memcmp(nodes, leaves, n * 32) == 0, "a refused call changed the leaves");
  CHECK_OK(merklize_device_tree_update_batch(t, batch, 0, root)); /* nothing to do */
  CHECK(memcmp(root, before, 32) == 0, "an empty batch changed the root");
  CHECK(merklize_update_batch_capacity(NULL) == 0 && merklize_update_batch_indices(NULL) == NULL &&
            merklize_update_batch_leaves(NULL) == NULL,
        "a NULL batch's accessors");
}

static void check_case(merklize_device *device, const struct tree_case *c, uint64_t n) {
  static uint8_t leaves[MAX_LEAVES * 32];
  uint64_t every[MAX_LEAVES], last = n - 1, first = 0, i;
  const uint64_t repeats[] = {0, n / 2, 0, n - 1, 0};
  merklize_builder *builder = tree_case_builder(device, c);
  merklize_device_tree *t = NULL, *twin = NULL;
  merklize_update_batch *batch = NULL;
  uint8_t root[32];
  for (i = 0; i < n; ++i) {
    random_leaf(leaves + i * 32);
    every[i] = n - 1 - i;
  }
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &t));
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &twin));
  CHECK_OK(merklize_device_tree_batch_create(t, n + 5, &batch));
  CHECK(merklize_update_batch_capacity(batch) == n + 5, "capacity");
  apply(builder, t, twin, batch, c, leaves, n, &first, 1);
  apply(builder, t, twin, batch, c, leaves, n, &last, 1);
  apply(builder, t, twin, batch, c, leaves, n, every, (size_t)n);
  apply(builder, t, twin, batch, c, leaves, n, repeats, 5);
  check_refusals(t, batch, leaves, n);
  merklize_device_tree_free(t); /* the batch outlives the tree that made it */
  apply(builder, twin, twin, batch, c, leaves, n, &last, 1);
  CHECK_OK(merklize_device_tree_root(twin, root));
  merklize_update_batch_free(batch);
  merklize_device_tree_free(twin);
  merklize_builder_free(builder);
}

int main(void) {
  return tree_cases_main(cases, sizeof cases / sizeof cases[0], sizes,
                         sizeof sizes / sizeof sizes[0], NULL, check_case);
}
