/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Many small trees at once through the C ABI (merklize_roots_many): for every node hash and
 * shape (and a fixed depth), at tree sizes 1, 2, 3, 7, 8, 9, 255, 256, 257 and 1, 2, 3 trees
 * (and 1000 trees of 8 leaves), each root equal to merklize_root of its own leaves and, for
 * sha256 and rfc6962, to a tree of OpenSSL's SHA-256 made here. The roots buffer is poisoned
 * before each call, and left so by each refusal. */
#include "c_test.h"

#include <stdlib.h>
#include <string.h>

struct many_case {
  const char *hash, *shape;
  int depth; /* -1: natural */
};

static const struct many_case cases[] = {
    {"blake3", "promote", -1},     {"blake3", "zero", 10},     {"blake3-parent", "promote", -1},
    {"blake3-parent", "zero", -1}, {"sha256", "promote", -1},  {"sha256", "zero", -1},
    {"sha256", "zero", 10},        {"rfc6962", "promote", -1}, {"keccak256", "zero", -1},
    {"sha3-256", "promote", -1}};

static uint8_t *random_leaves(uint64_t count) {
  uint8_t *leaves = malloc(count * 32);
  uint64_t i;
  CHECK(leaves != NULL, "out of memory");
  for (i = 0; i < count * 32; ++i)
    leaves[i] = (uint8_t)(rand() >> 7);
  return leaves;
}

static void check_case(merklize_device *device, const struct many_case *c, uint64_t n,
                       uint64_t trees) {
  merklize_tree_config config = test_config(c->hash, c->shape);
  merklize_builder *builder;
  uint8_t *leaves = random_leaves(n * trees), *roots = malloc(trees * 32 + 32);
  uint64_t k;
  CHECK(roots != NULL, "out of memory");
  config.depth = c->depth;
  builder = test_builder(device, &config);
  test_poison(roots, trees * 32 + 32);
  CHECK_OK(merklize_roots_many(builder, leaves, n * trees * 32, n, roots, trees * 32 + 32));
  CHECK(test_is_poisoned(roots + trees * 32, 32), "%s %s n=%lu: wrote past the roots", c->hash,
        c->shape, (unsigned long)n);
  for (k = 0; k < trees; ++k) {
    const merklize_source source = merklize_source_memory(leaves + k * n * 32, n * 32);
    uint8_t root[32], oracle[32];
    CHECK_OK(merklize_root(builder, &source, root));
    CHECK(memcmp(root, roots + k * 32, 32) == 0, "%s %s depth %d n=%lu B=%lu: root %lu differs",
          c->hash, c->shape, c->depth, (unsigned long)n, (unsigned long)trees, (unsigned long)k);
    if (strcmp(c->hash, "sha256") == 0 || strcmp(c->hash, "rfc6962") == 0) {
      test_sha256_root(leaves + k * n * 32, n, strcmp(c->hash, "rfc6962") == 0 ? 1 : -1,
                       strcmp(c->shape, "zero") == 0, c->depth, oracle);
      CHECK(memcmp(oracle, roots + k * 32, 32) == 0, "%s %s n=%lu: root %lu is not OpenSSL's",
            c->hash, c->shape, (unsigned long)n, (unsigned long)k);
    }
  }
  merklize_builder_free(builder);
  free(leaves);
  free(roots);
}

/* Refusals: a clear message, the roots untouched. */
static void refusals(merklize_device *device) {
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config), *kary;
  uint8_t leaves[10 * 32] = {0}, roots[64];
  test_poison(roots, sizeof roots);
  CHECK_FAILS(merklize_roots_many(builder, leaves, 320, 0, roots, 64), MERKLIZE_ERROR_ARGUMENT,
              "tree_size is 0");
  CHECK_FAILS(merklize_roots_many(builder, leaves, 319, 5, roots, 64), MERKLIZE_ERROR_ARGUMENT,
              "31 bytes left over");
  CHECK_FAILS(merklize_roots_many(builder, leaves, 320, 3, roots, 64), MERKLIZE_ERROR_ARGUMENT,
              "3 trees and 1 leaves left over");
  CHECK_FAILS(merklize_roots_many(builder, leaves, 320, 1, roots, 64), MERKLIZE_ERROR_ARGUMENT,
              "too small for 10 roots");
  CHECK_FAILS(merklize_roots_many(builder, NULL, 320, 5, roots, 64), MERKLIZE_ERROR_ARGUMENT,
              "`leaves` is NULL");
  CHECK_FAILS(merklize_roots_many(NULL, leaves, 320, 5, roots, 64), MERKLIZE_ERROR_ARGUMENT,
              "`builder` is NULL");
  CHECK_FAILS(merklize_roots_many(builder, leaves, 320, 5, NULL, 64), MERKLIZE_ERROR_ARGUMENT,
              "`roots` is NULL");
  config.arity = 4;
  kary = test_builder(device, &config);
  CHECK_FAILS(merklize_roots_many(kary, leaves, 320, 5, roots, 64), MERKLIZE_ERROR_ARGUMENT,
              "arity 4");
  CHECK(test_is_poisoned(roots, sizeof roots), "a refused call wrote the roots");
  merklize_builder_free(kary);
  merklize_builder_free(builder);
}

int main(void) {
  static const uint64_t sizes[] = {1, 2, 3, 7, 8, 9, 255, 256, 257};
  merklize_device *device = test_device();
  size_t c, s;
  uint64_t trees;
  srand(31);
  for (c = 0; c < sizeof cases / sizeof cases[0]; ++c)
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      for (trees = 1; trees <= 3; ++trees)
        check_case(device, &cases[c], sizes[s], trees);
  check_case(device, &cases[4], 8, 1000);
  check_case(device, &cases[1], 9, 1000);
  refusals(device);
  merklize_device_free(device);
  return 0;
}
