/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Appends and consistency proofs of trees kept on the device through the C ABI
 * (merklize_device_tree_append, merklize_device_tree_prove_consistency). Trees grow by appends
 * through the sizes 1, 2, 3, 2^k - 1, 2^k and 2^k + 1 up to 257 (the device memory regrown on
 * the way), for sha256 and rfc6962 (against the SHA-256 trees of OpenSSL made here) and blake3,
 * keccak256 and blake3-parent (against merklize_build). After each append the returned root,
 * merklize_device_tree_root, the leaf count and every level equal a fresh merklize_build of all
 * the leaves; then, where the tree has consistency proofs, the proof from every earlier size
 * equals merklize_prove_consistency's of the fresh tree (proofs/consistency.hpp, the host's) and
 * verifies with merklize_verify_consistency between the roots the tree had, and not against
 * another old root. Outputs are poisoned first. Then the refusals (past a fixed depth, NULL
 * pointers, an old size past the tree, configurations without consistency proofs), each leaving
 * the tree as it was. */
#include "c_test.h"

#include <stdio.h>
#include <string.h>

struct tree_case {
  const char *hash, *shape;
  int depth;       /* -1: natural */
  int consistency; /* whether the tree has consistency proofs */
};

static const struct tree_case cases[] = {
    {"sha256", "promote", -1, 1},       {"rfc6962", "promote", -1, 1}, {"blake3", "promote", -1, 1},
    {"keccak256", "promote", -1, 1},    {"sha256", "zero", -1, 0},     {"keccak256", "zero", 9, 0},
    {"blake3-parent", "promote", -1, 0}};
/* The sizes the trees grow through, one append each (the first is the tree created). */
static const uint64_t sizes[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 255, 256, 257};
#define SIZES (sizeof sizes / sizeof sizes[0])
#define MAX_LEAVES 257

static uint32_t seed = 33;
static void random_leaves(uint8_t *leaves, uint64_t count) {
  uint64_t i;
  for (i = 0; i < count * 32; ++i) {
    seed = seed * 1103515245u + 12345u;
    leaves[i] = (uint8_t)(seed >> 16);
  }
}

static int is_sha256(const struct tree_case *c) {
  return strcmp(c->hash, "sha256") == 0 || strcmp(c->hash, "rfc6962") == 0;
}

/* The device tree equal to `fresh`, a tree built over its leaves: root (and the oracle's for
 * SHA-256 trees), the returned root, the leaf count, every level read back and the last proof. */
static void check_grown(merklize_device_tree *t, const merklize_tree *fresh,
                        const struct tree_case *c, const uint8_t *leaves, uint64_t n,
                        const uint8_t *returned) {
  static uint8_t nodes[MAX_LEAVES * 32];
  uint8_t root[32], expected[32];
  CHECK_OK(merklize_tree_root(fresh, expected));
  if (is_sha256(c)) {
    test_sha256_root(leaves, n, c->hash[0] == 'r' ? 1 : -1, strcmp(c->shape, "zero") == 0, c->depth,
                     root);
    CHECK(memcmp(root, expected, 32) == 0, "merklize_build differs from the oracle");
  }
  CHECK(memcmp(returned, expected, 32) == 0, "the appended root differs from a fresh build");
  test_same_device_tree(t, fresh, nodes);
}

/* The proofs from each earlier size s (roots[s]: the tree's root then) to the tree now. */
static void check_consistency(merklize_device_tree *t, const merklize_tree *fresh, size_t grown,
                              uint8_t roots[][32]) {
  const uint8_t *now = roots[grown];
  size_t s;
  for (s = 0; s <= grown; ++s) {
    merklize_proof *got = NULL, *want = NULL;
    int valid = -1;
    CHECK_OK(merklize_device_tree_prove_consistency(t, sizes[s], &got));
    CHECK_OK(merklize_prove_consistency(fresh, sizes[s], &want));
    test_same_proof(got, want, "merklize_device_tree_prove_consistency");
    CHECK_OK(merklize_verify_consistency(got, roots[s], now, &valid));
    CHECK(valid == 1, "the proof from %llu leaves does not verify: %s",
          (unsigned long long)sizes[s], merklize_last_error());
    if (s > 0 && s < grown) { /* another old root (a size with nodes to check it by) */
      valid = -1;
      CHECK_OK(merklize_verify_consistency(got, roots[s - 1], now, &valid));
      CHECK(valid == 0, "the proof from %llu leaves verifies another old root",
            (unsigned long long)sizes[s]);
    }
    merklize_proof_free(got);
    merklize_proof_free(want);
  }
}

/* A refused call: its root not written, and the tree as it was (root, size and leaves). */
static void check_unchanged(merklize_device_tree *t, const uint8_t *leaves, uint64_t n,
                            const uint8_t *root_before, const uint8_t *written) {
  static uint8_t nodes[MAX_LEAVES * 32];
  uint8_t root[32];
  CHECK(test_is_poisoned(written, 32), "a refused call wrote the root");
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, root_before, 32) == 0, "a refused call changed the root");
  CHECK(merklize_device_tree_leaf_count(t) == n, "a refused call changed the leaf count");
  CHECK_OK(merklize_device_tree_read_level(t, 0, 0, n, nodes));
  CHECK(memcmp(nodes, leaves, n * 32) == 0, "a refused call changed the leaves");
}

static void check_refusals(merklize_device_tree *t, const struct tree_case *c,
                           const uint8_t *leaves, uint64_t n) {
  static uint8_t more[1024 * 32];
  uint8_t before[32], root[32];
  merklize_proof *proof = NULL;
  /* Past a fixed depth's 2^depth leaves, or else past 2^32: 2^32 - n + 1 leaves are never read. */
  const uint64_t past = c->depth >= 0 ? ((uint64_t)1 << c->depth) - n + 1 : 0x100000000ull - n + 1;
  CHECK_OK(merklize_device_tree_root(t, before));
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_append(t, more, past, root), MERKLIZE_ERROR_ARGUMENT,
              "would pass its");
  check_unchanged(t, leaves, n, before, root);
  CHECK_FAILS(merklize_device_tree_append(t, NULL, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`leaves` is NULL");
  CHECK_FAILS(merklize_device_tree_append(NULL, more, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`tree` is NULL");
  check_unchanged(t, leaves, n, before, root);
  CHECK_OK(merklize_device_tree_append(t, NULL, 0, root)); /* nothing to do */
  CHECK(memcmp(root, before, 32) == 0, "an empty append changed the root");
  CHECK_FAILS(merklize_device_tree_prove_consistency(t, 1, NULL), MERKLIZE_ERROR_ARGUMENT,
              "`proof` is NULL");
  if (!c->consistency)
    CHECK_FAILS(merklize_device_tree_prove_consistency(t, 1, &proof), MERKLIZE_ERROR_ARGUMENT,
                strcmp(c->shape, "zero") == 0 ? "consistency proofs are for shape promote"
                                              : "has no consistency proofs");
  else
    CHECK_FAILS(merklize_device_tree_prove_consistency(t, n + 1, &proof), MERKLIZE_ERROR_ARGUMENT,
                "is more than the tree's");
  CHECK(proof == NULL, "a refused proof was written");
}

/* A tree grown through `sizes` by appends, checked after each; then an update of its last leaf
 * (the grown tree takes updates) and the refusals. */
static void check_case(merklize_device *device, const struct tree_case *c) {
  static uint8_t leaves[MAX_LEAVES * 32];
  static uint8_t roots[SIZES][32];
  merklize_tree_config config = test_config(c->hash, c->shape);
  merklize_builder *builder;
  merklize_device_tree *t = NULL;
  const uint64_t last_index = MAX_LEAVES - 1;
  uint64_t n = sizes[0];
  size_t s;
  config.depth = c->depth;
  builder = test_builder(device, &config);
  random_leaves(leaves, MAX_LEAVES);
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &t));
  for (s = 0; s < SIZES; ++s) {
    merklize_tree *fresh = NULL;
    const merklize_source source = merklize_source_memory(leaves, sizes[s] * 32);
    test_poison(roots[s], 32);
    if (s == 0)
      CHECK_OK(merklize_device_tree_root(t, roots[s]));
    else
      CHECK_OK(merklize_device_tree_append(t, leaves + n * 32, sizes[s] - n, roots[s]));
    n = sizes[s];
    CHECK_OK(merklize_build(builder, &source, &fresh));
    check_grown(t, fresh, c, leaves, n, roots[s]);
    if (c->consistency) check_consistency(t, fresh, s, roots);
    merklize_tree_free(fresh);
  }
  random_leaves(leaves + last_index * 32, 1);
  CHECK_OK(merklize_device_tree_update(t, &last_index, leaves + last_index * 32, 1, roots[0]));
  {
    merklize_tree *fresh = NULL;
    const merklize_source source = merklize_source_memory(leaves, n * 32);
    CHECK_OK(merklize_build(builder, &source, &fresh));
    check_grown(t, fresh, c, leaves, n, roots[0]);
    merklize_tree_free(fresh);
  }
  check_refusals(t, c, leaves, n);
  merklize_device_tree_free(t);
  merklize_builder_free(builder);
}

int main(void) {
  merklize_device *device = test_device();
  size_t c;
  for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    printf("%s %s depth %d\n", cases[c].hash, cases[c].shape, cases[c].depth);
    check_case(device, &cases[c]);
  }
  merklize_device_free(device);
  printf("ok\n");
  return 0;
}
