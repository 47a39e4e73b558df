/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Trees kept on the device through the C ABI (merklize_device_tree_*), at 1, 2, 3, 255, 256 and
 * 257 leaves, for sha256 and rfc6962 (against the SHA-256 trees of OpenSSL made here) and blake3
 * and keccak256 (against merklize_build): batches of one leaf, the last leaf, every leaf (in
 * reverse) and repeats of one index (the last value wins), one after another on one tree. After
 * each, the returned root and merklize_device_tree_root equal a fresh merklize_build of the
 * updated leaves, the multiproof equals merklize_prove_multi's of it, a proof merklize_prove's,
 * and every level read back its levels. Outputs are poisoned first. Then the refusals (an index
 * out of range, NULL pointers, a level out of range, configurations it does not keep), each
 * leaving the tree as it was. */
#include "tree_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct tree_case cases[] = {{"sha256", "promote", -1}, {"sha256", "zero", -1},
                                         {"sha256", "zero", 10},    {"rfc6962", "promote", -1},
                                         {"blake3", "promote", -1}, {"keccak256", "zero", 9}};
static const uint64_t sizes[] = {1, 2, 3, 255, 256, 257};
#define MAX_LEAVES 257

static uint32_t seed = 31;
static void random_leaf(uint8_t *leaf) { tree_case_random_leaf(&seed, leaf); }

/* The device tree equal to a fresh build of `leaves`: root (and the oracle's for SHA-256 trees),
 * every level read back, the last leaf's proof; the multiproof of `indices` if given. */
static void check_tree(merklize_builder *builder, merklize_device_tree *t,
                       const struct tree_case *c, const uint8_t *leaves, uint64_t n,
                       const uint8_t *returned, const merklize_proof *multi,
                       const uint64_t *indices, size_t count) {
  static uint8_t nodes[MAX_LEAVES * 32];
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  merklize_tree *fresh = NULL;
  merklize_proof *want = NULL;
  uint8_t root[32], expected[32];
  CHECK_OK(merklize_build(builder, &source, &fresh));
  CHECK_OK(merklize_tree_root(fresh, expected));
  if (strcmp(c->hash, "sha256") == 0 || strcmp(c->hash, "rfc6962") == 0) {
    test_sha256_root(leaves, n, c->hash[0] == 'r' ? 1 : -1, strcmp(c->shape, "zero") == 0, c->depth,
                     root);
    CHECK(memcmp(root, expected, 32) == 0, "merklize_build differs from the oracle");
  }
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, expected, 32) == 0, "merklize_device_tree_root differs from a fresh build");
  CHECK(memcmp(returned, expected, 32) == 0, "the returned root differs from a fresh build");
  CHECK(merklize_device_tree_leaf_count(t) == n, "leaf count");
  test_same_device_tree(t, fresh, nodes);
  if (multi) {
    CHECK_OK(merklize_prove_multi(fresh, indices, count, &want));
    test_same_proof(multi, want, "merklize_device_tree_update_proved");
    merklize_proof_free(want);
  }
  merklize_tree_free(fresh);
}

/* Applies a batch to the host copy and the tree, proved or not, then checks. */
static void apply(merklize_builder *builder, merklize_device_tree *t, const struct tree_case *c,
                  uint8_t *leaves, uint64_t n, const uint64_t *indices, size_t count, int proved) {
  static uint8_t values[2 * MAX_LEAVES * 32];
  merklize_proof *proof = NULL;
  uint8_t root[32];
  size_t k;
  for (k = 0; k < count; ++k) {
    random_leaf(values + k * 32);
    memcpy(leaves + indices[k] * 32, values + k * 32, 32); /* in order: the last value wins */
  }
  test_poison(root, sizeof root);
  if (proved)
    CHECK_OK(merklize_device_tree_update_proved(t, indices, values, count, root, &proof));
  else
    CHECK_OK(merklize_device_tree_update(t, indices, values, count, root));
  check_tree(builder, t, c, leaves, n, root, proof, indices, count);
  merklize_proof_free(proof);
}

/* A refused call: its status, its message, and the tree as it was (root and leaves). */
static void check_unchanged(merklize_device_tree *t, const uint8_t *leaves, uint64_t n,
                            const uint8_t *root_before) {
  static uint8_t nodes[MAX_LEAVES * 32];
  uint8_t root[32];
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, root_before, 32) == 0, "a refused call changed the root");
  CHECK_OK(merklize_device_tree_read_level(t, 0, 0, n, nodes));
  CHECK(memcmp(nodes, leaves, n * 32) == 0, "a refused call changed the leaves");
}

static void check_refusals(merklize_device_tree *t, const uint8_t *leaves, uint64_t n) {
  uint8_t root[32], before[32], values[64], node[32];
  uint64_t indices[2] = {0, n}, size;
  merklize_proof *proof = NULL;
  random_leaf(values);
  random_leaf(values + 32);
  CHECK_OK(merklize_device_tree_root(t, before));
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_update(t, indices, values, 2, root), MERKLIZE_ERROR_ARGUMENT,
              "leaf index");
  CHECK(test_is_poisoned(root, sizeof root), "a refused update wrote the root");
  check_unchanged(t, leaves, n, before);
  CHECK_FAILS(merklize_device_tree_update_proved(t, indices, values, 2, root, &proof),
              MERKLIZE_ERROR_ARGUMENT, "leaf index");
  CHECK(proof == NULL, "a refused update wrote the proof");
  check_unchanged(t, leaves, n, before);
  CHECK_FAILS(merklize_device_tree_update(t, indices, NULL, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`leaves` is NULL");
  CHECK_FAILS(merklize_device_tree_update(t, NULL, values, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`indices` is NULL");
  CHECK_FAILS(merklize_device_tree_update(NULL, indices, values, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`tree` is NULL");
  check_unchanged(t, leaves, n, before);
  CHECK_FAILS(merklize_device_tree_prove(t, n, &proof), MERKLIZE_ERROR_ARGUMENT, "out of range");
  CHECK_FAILS(merklize_device_tree_level_size(t, merklize_device_tree_depth(t) + 1, &size),
              MERKLIZE_ERROR_ARGUMENT, "out of range");
  CHECK_FAILS(merklize_device_tree_read_level(t, 0, n, 1, node), MERKLIZE_ERROR_ARGUMENT,
              "out of range");
  CHECK_OK(merklize_device_tree_update(t, NULL, NULL, 0, root)); /* nothing to do */
  CHECK(memcmp(root, before, 32) == 0, "an empty batch changed the root");
}

static void check_case(merklize_device *device, const struct tree_case *c, uint64_t n) {
  static uint8_t leaves[MAX_LEAVES * 32];
  uint64_t every[MAX_LEAVES], last = n - 1, first = 0, i;
  const uint64_t repeats[] = {0, n / 2, 0, n - 1, 0};
  merklize_builder *builder = tree_case_builder(device, c);
  merklize_device_tree *t = NULL;
  uint8_t root[32];
  for (i = 0; i < n; ++i) {
    random_leaf(leaves + i * 32);
    every[i] = n - 1 - i;
  }
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &t));
  CHECK_OK(merklize_device_tree_root(t, root));
  check_tree(builder, t, c, leaves, n, root, NULL, NULL, 0);
  apply(builder, t, c, leaves, n, &first, 1, 0);
  apply(builder, t, c, leaves, n, &last, 1, 1);
  apply(builder, t, c, leaves, n, every, (size_t)n, 1);
  apply(builder, t, c, leaves, n, repeats, 5, 1);
  apply(builder, t, c, leaves, n, repeats, 5, 0);
  check_refusals(t, leaves, n);
  merklize_builder_free(builder); /* the tree outlives its builder */
  builder = tree_case_builder(device, c);
  apply(builder, t, c, leaves, n, &last, 1, 0);
  merklize_device_tree_free(t);
  merklize_builder_free(builder);
}

static void check_create_refusals(merklize_device *device) {
  const uint8_t leaves[64] = {0};
  merklize_tree_config config = test_config("sha256", "promote");
  merklize_builder *builder = test_builder(device, &config);
  merklize_device_tree *t = NULL;
  CHECK_FAILS(merklize_device_tree_create(builder, leaves, 33, &t), MERKLIZE_ERROR_ARGUMENT,
              "leaves");
  CHECK_FAILS(merklize_device_tree_create(builder, leaves, 0, &t), MERKLIZE_ERROR_ARGUMENT,
              "leaves");
  CHECK_FAILS(merklize_device_tree_create(builder, NULL, 64, &t), MERKLIZE_ERROR_ARGUMENT,
              "`leaves` is NULL");
  merklize_builder_free(builder);
  config.leaf_size = 64;
  builder = test_builder(device, &config);
  CHECK_FAILS(merklize_device_tree_create(builder, leaves, 64, &t), MERKLIZE_ERROR_ARGUMENT,
              "config.leaf_size");
  merklize_builder_free(builder);
  CHECK(t == NULL, "a refused create wrote the tree");
}

int main(void) {
  return tree_cases_main(cases, sizeof cases / sizeof cases[0], sizes,
                         sizeof sizes / sizeof sizes[0], check_create_refusals, check_case);
}
