/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Trees of arity k kept on the device through the C ABI (merklize_device_tree_* of a builder
 * whose config.arity is 4, 8 or 16), sha256 and blake3, shapes promote and zero, at 1, 2, k - 1,
 * k, k + 1, k^2 + 1 and 300 leaves, against merklize_build of the same leaves (the k-ary tree
 * that the C++ tests check against the host reference): batches of one leaf, the last leaf,
 * every leaf (in reverse) and repeats (the last value wins), then appends across k and k^2;
 * after each, the returned root, merklize_device_tree_root, every level read back and the last
 * leaf's proof equal the fresh build's. Outputs are poisoned first. Then the refusals: an index
 * out of range (the tree as it was, no proof written), and what only binary trees do, named
 * (prove_consistency). Batches, device buffers and snapshots: test_device_tree_kary_more.c;
 * update_proved's k-ary multiproofs: test_kary_multiproof.c. */
#include "tree_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hashes[] = {"sha256", "blake3"};
static const char *const shapes[] = {"promote", "zero"};
static const uint32_t arities[] = {4, 8, 16};
#define MAX_LEAVES 700

static uint32_t seed = 36;
static void random_leaf(uint8_t *leaf) { tree_case_random_leaf(&seed, leaf); }

/* The device tree equal to a fresh build of `leaves`: roots, every level, the last proof. */
static void check_tree(merklize_builder *builder, merklize_device_tree *t, const uint8_t *leaves,
                       uint64_t n, const uint8_t *returned) {
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  static uint8_t nodes[MAX_LEAVES * 32];
  merklize_tree *fresh = NULL;
  uint8_t expected[32];
  CHECK_OK(merklize_build(builder, &source, &fresh));
  CHECK_OK(merklize_tree_root(fresh, expected));
  CHECK(memcmp(returned, expected, 32) == 0, "the returned root differs from a fresh build");
  test_same_device_tree(t, fresh, nodes);
  merklize_tree_free(fresh);
}

static void update(merklize_builder *builder, merklize_device_tree *t, uint8_t *leaves, uint64_t n,
                   const uint64_t *indices, size_t count) {
  static uint8_t values[MAX_LEAVES * 32];
  uint8_t root[32];
  size_t k;
  for (k = 0; k < count; ++k) {
    random_leaf(values + k * 32);
    memcpy(leaves + indices[k] * 32, values + k * 32, 32); /* in order: the last value wins */
  }
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_update(t, indices, values, count, root));
  check_tree(builder, t, leaves, n, root);
}

static uint64_t append(merklize_builder *builder, merklize_device_tree *t, uint8_t *leaves,
                       uint64_t n, uint64_t count) {
  uint8_t root[32];
  uint64_t i;
  for (i = n; i < n + count; ++i)
    random_leaf(leaves + i * 32);
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_append(t, leaves + n * 32, count, root));
  check_tree(builder, t, leaves, n + count, root);
  return n + count;
}

/* A refused call leaves the root, the leaves and the proof as they were; what binary trees alone
 * do is named. */
static void check_refusals(merklize_device_tree *t, const uint8_t *leaves, uint64_t n) {
  static uint8_t nodes[MAX_LEAVES * 32];
  uint8_t root[32], before[32];
  uint64_t indices[2] = {0, n};
  merklize_proof *proof = NULL;
  CHECK_OK(merklize_device_tree_root(t, before));
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_update(t, indices, nodes, 2, root), MERKLIZE_ERROR_ARGUMENT,
              "leaf index");
  CHECK(test_is_poisoned(root, sizeof root), "a refused update wrote the root");
  CHECK_FAILS(merklize_device_tree_update_proved(t, indices, nodes, 2, root, &proof),
              MERKLIZE_ERROR_ARGUMENT, "leaf index");
  CHECK(proof == NULL, "a refused update wrote the proof");
  CHECK(test_is_poisoned(root, sizeof root), "a refused update wrote the root");
  CHECK_FAILS(merklize_device_tree_prove_consistency(t, 1, &proof), MERKLIZE_ERROR_ARGUMENT,
              "arity");
  CHECK_FAILS(merklize_device_tree_prove(t, n, &proof), MERKLIZE_ERROR_ARGUMENT, "out of range");
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, before, 32) == 0, "a refused call changed the root");
  CHECK_OK(merklize_device_tree_read_level(t, 0, 0, n, nodes));
  CHECK(memcmp(nodes, leaves, n * 32) == 0, "a refused call changed the leaves");
}

static void check_case(merklize_device *device, const char *hash, const char *shape, uint32_t k,
                       uint64_t n) {
  static uint8_t leaves[MAX_LEAVES * 32];
  uint64_t every[MAX_LEAVES], last = n - 1, i;
  const uint64_t repeats[] = {0, n / 2, 0, n - 1, 0};
  merklize_builder *builder = tree_case_kary_builder(device, hash, shape, k);
  merklize_device_tree *t = NULL;
  uint8_t root[32];
  printf("%s %s arity %u, %llu leaves\n", hash, shape, k, (unsigned long long)n);
  for (i = 0; i < n; ++i) {
    random_leaf(leaves + i * 32);
    every[i] = n - 1 - i;
  }
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &t));
  CHECK_OK(merklize_device_tree_root(t, root));
  check_tree(builder, t, leaves, n, root);
  update(builder, t, leaves, n, &last, 1);
  update(builder, t, leaves, n, every, (size_t)n);
  update(builder, t, leaves, n, repeats, 5);
  check_refusals(t, leaves, n);
  n = append(builder, t, leaves, n, 1);
  n = append(builder, t, leaves, n, k);
  n = append(builder, t, leaves, n, (uint64_t)k * k + 1);
  last = n - 1;
  update(builder, t, leaves, n, &last, 1);
  merklize_device_tree_free(t);
  merklize_builder_free(builder);
}

int main(void) {
  merklize_device *device = test_device();
  size_t h, s, a, i;
  for (h = 0; h < sizeof hashes / sizeof hashes[0]; ++h)
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
      for (a = 0; a < sizeof arities / sizeof arities[0]; ++a) {
        const uint64_t k = arities[a];
        const uint64_t sizes[] = {1, 2, k - 1, k, k + 1, k * k + 1, 300};
        for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
          check_case(device, hashes[h], shapes[s], arities[a], sizes[i]);
      }
  merklize_device_free(device);
  printf("ok\n");
  return 0;
}
