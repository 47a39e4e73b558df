/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Roots and trees of 32-byte leaves through the C ABI, for every node hash and shape (and fixed
 * depths), at 1, 2, 3 leaves and around PoCL's work-group (256), a fused launch (512) and 2^10:
 * merklize_root and merklize_build from memory, from a path (streamed, and read whole for a tree
 * that keeps levels) and from a descriptor, each equal to `merklize root` of the same file and to
 * an independent oracle: tests/vectors/merkle.json's roots, or trees of OpenSSL's SHA-256 made
 * here. Outputs are poisoned before each call; trees are checked level by level where kept. The
 * Poseidon2 hashes of field elements: canonical leaves through every source, as `merklize root`
 * gives them (itself held to tests/poseidon2_model.py), and a non-canonical one refused. */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tree_case {
  const char *hash, *shape;
  int depth; /* -1: natural */
};

static const struct tree_case cases[] = {
    {"blake3", "promote", -1},     {"blake3", "zero", -1},    {"blake3-parent", "promote", -1},
    {"blake3-parent", "zero", -1}, {"sha256", "promote", -1}, {"sha256", "zero", -1},
    {"rfc6962", "promote", -1},    {"sha256", "zero", 11},    {"blake3", "zero", 11},
    {"blake3-parent", "zero", 11}};

static const uint64_t sizes[] = {1, 2, 3, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025};
#define MAX_LEAVES 1025

/* merkle.json's cases: hash, pad, n, root. */
struct vector {
  char hash[16], pad[16], root[65];
  uint64_t n;
};
static struct vector vectors[256];
static size_t vector_count;

static void read_vectors(void) {
  size_t size;
  char *text = (char *)test_read_file(MERKLIZE_TEST_VECTOR_DIR "/merkle.json", &size);
  const char *at;
  text = realloc(text, size + 1);
  text[size] = '\0';
  at = text;
  while (vector_count < 256) {
    struct vector *v = &vectors[vector_count];
    if (!test_json_string(&at, "hash", v->hash, sizeof v->hash)) break;
    CHECK(test_json_string(&at, "pad", v->pad, sizeof v->pad) &&
              test_json_number(&at, "n", &v->n) &&
              test_json_string(&at, "root", v->root, sizeof v->root),
          "merkle.json: case %zu is not hash, pad, n, root", vector_count);
    ++vector_count;
  }
  CHECK(vector_count >= 100, "merkle.json: only %zu cases read", vector_count);
  free(text);
}

/* The independent root of a case, or 0 where there is none here (blake3 at a fixed depth). */
static int oracle_root(const struct tree_case *c, const uint8_t *leaves, uint64_t n, char hex[65]) {
  size_t i;
  uint8_t root[32];
  const int zero = strcmp(c->shape, "zero") == 0;
  if (strcmp(c->hash, "sha256") == 0 || strcmp(c->hash, "rfc6962") == 0) {
    test_sha256_root(leaves, n, strcmp(c->hash, "rfc6962") == 0 ? 1 : -1, zero, c->depth, root);
    test_hex(root, 32, hex);
    return 1;
  }
  for (i = 0; c->depth < 0 && i < vector_count; ++i)
    if (vectors[i].n == n && strcmp(vectors[i].hash, c->hash) == 0 &&
        strcmp(vectors[i].pad, c->shape) == 0) {
      strcpy(hex, vectors[i].root);
      return 1;
    }
  return 0;
}

static merklize_builder *builder_of(merklize_device *device, const struct tree_case *c,
                                    uint32_t keep) {
  merklize_tree_config config = test_config(c->hash, c->shape);
  config.depth = c->depth;
  config.keep = keep;
  return test_builder(device, &config);
}

static unsigned natural_depth(uint64_t n) {
  unsigned d = 0;
  while ((UINT64_C(1) << d) < n)
    ++d;
  return d;
}

/* A tree built keeping every level: its shape, its leaves, and each node of level 1 and above
 * as its two children give it where the hash is SHA-256's. */
static void check_kept_tree(const merklize_tree *tree, const struct tree_case *c,
                            const uint8_t *leaves, uint64_t n) {
  const uint8_t *nodes, *below;
  uint64_t count, below_count, i;
  uint32_t level;
  CHECK(merklize_tree_leaf_count(tree) == n, "leaf count %llu, expected %llu",
        (unsigned long long)merklize_tree_leaf_count(tree), (unsigned long long)n);
  CHECK(merklize_tree_depth(tree) == natural_depth(n), "depth %u for %llu leaves",
        merklize_tree_depth(tree), (unsigned long long)n);
  CHECK(merklize_tree_first_level(tree) == 0, "the leaves are not kept");
  CHECK_OK(merklize_tree_level(tree, 0, &nodes, &count));
  CHECK(count == n && memcmp(nodes, leaves, n * 32) == 0, "level 0 is not the leaves");
  if (strcmp(c->hash, "sha256") != 0) return;
  below = nodes;
  below_count = count;
  for (level = 1; level <= merklize_tree_depth(tree); ++level) {
    uint8_t expected[32], zeros[32];
    CHECK_OK(merklize_tree_level(tree, level, &nodes, &count));
    CHECK(count == (below_count + 1) / 2, "level %u has %llu nodes", level,
          (unsigned long long)count);
    for (i = 0; i < count; ++i) {
      if (2 * i + 1 < below_count)
        test_sha256_pair(-1, below + 2 * i * 32, below + (2 * i + 1) * 32, expected);
      else if (strcmp(c->shape, "zero") == 0) {
        test_sha256_root(NULL, 0, -1, 1, (int)level - 1, zeros);
        test_sha256_pair(-1, below + 2 * i * 32, zeros, expected);
      } else
        memcpy(expected, below + 2 * i * 32, 32);
      CHECK(memcmp(nodes + i * 32, expected, 32) == 0, "node %llu of level %u is wrong",
            (unsigned long long)i, level);
    }
    below = nodes;
    below_count = count;
  }
}

/* The root of a tree built from `source`, compared with `expected`; the tree is then freed. */
static void check_built(merklize_builder *builder, const merklize_source *source,
                        const char *expected, const char *what, uint64_t n) {
  merklize_tree *tree = NULL;
  uint8_t root[32];
  CHECK_OK(merklize_build(builder, source, &tree));
  test_poison(root, sizeof root);
  CHECK_OK(merklize_tree_root(tree, root));
  CHECK(test_digest_is(root, expected), "%s: merklize_build's root differs from merklize root's %s",
        what, expected);
  CHECK(merklize_tree_leaf_count(tree) == n, "%s: leaf count %llu, expected %llu", what,
        (unsigned long long)merklize_tree_leaf_count(tree), (unsigned long long)n);
  merklize_tree_free(tree);
}

static void check_root(merklize_builder *builder, const merklize_source *source,
                       const char *expected, const char *what) {
  uint8_t root[32];
  test_poison(root, sizeof root);
  CHECK_OK(merklize_root(builder, source, root));
  CHECK(test_digest_is(root, expected), "%s: merklize_root differs from merklize root's %s", what,
        expected);
}

static void check_size(merklize_builder *all, merklize_builder *root_only,
                       const struct tree_case *c, const uint8_t *leaves, uint64_t n) {
  const char *path = test_path("leaves");
  char expected[65], oracle[65], depth_option[32] = "";
  merklize_source memory = merklize_source_memory(leaves, n * 32),
                  file = merklize_source_path(path);
  merklize_tree *tree = NULL;
  int fd;
  test_write_file(path, leaves, n * 32);
  if (c->depth >= 0) snprintf(depth_option, sizeof depth_option, "--depth %d", c->depth);
  strcpy(expected,
         test_cli("root --hash %s --pad %s %s '%s'", c->hash, c->shape, depth_option, path));
  if (oracle_root(c, leaves, n, oracle))
    CHECK(strcmp(expected, oracle) == 0, "merklize root %s, the oracle %s", expected, oracle);
  check_root(root_only, &memory, expected, "memory");
  check_root(all, &file, expected, "path");
  CHECK_OK(merklize_build(all, &memory, &tree));
  check_kept_tree(tree, c, leaves, n);
  merklize_tree_free(tree);
  check_built(all, &file, expected, "path, every level (read whole)", n);
  check_built(root_only, &file, expected, "path, streamed", n);
  check_built(root_only, &memory, expected, "memory, root only", n);
  fd = open(path, O_RDONLY);
  CHECK(fd >= 0, "cannot open %s", path);
  memory = merklize_source_fd(fd);
  check_root(all, &memory, expected, "descriptor");
  CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
  check_built(root_only, &memory, expected, "descriptor, streamed", n);
  CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
  check_built(all, &memory, expected, "descriptor, every level", n);
  close(fd);
}

/* N = 0: a root where the tree has one (rfc6962; shape zero at a fixed depth), else refused. */
static void check_empty(merklize_builder *builder, const struct tree_case *c) {
  const char *path = test_path("empty");
  const merklize_source memory = merklize_source_memory(NULL, 0), file = merklize_source_path(path);
  uint8_t root[32];
  char oracle[65];
  test_write_file(path, "", 0);
  test_poison(root, sizeof root);
  if (strcmp(c->hash, "rfc6962") == 0 || c->depth >= 0) {
    if (!oracle_root(c, NULL, 0, oracle))
      strcpy(oracle, test_cli("root --hash %s --pad %s --depth %d '%s'", c->hash, c->shape,
                              c->depth, path));
    check_root(builder, &memory, oracle, "no leaves in memory");
    check_root(builder, &file, oracle, "an empty file");
    check_built(builder, &file, oracle, "an empty file", 0);
    return;
  }
  CHECK_FAILS(merklize_root(builder, &memory, root), MERKLIZE_ERROR_ARGUMENT, "empty");
  CHECK_FAILS(merklize_root(builder, &file, root), MERKLIZE_ERROR_ARGUMENT, "no leaves");
  CHECK(test_is_poisoned(root, sizeof root), "a failed merklize_root wrote its output");
}

/* Each 4-byte word's top byte below 0x20: every limb below p for BabyBear, KoalaBear and
 * Goldilocks, and the 32-byte value below BN254's p (0x30644e...). */
static uint8_t *canonical_copy(const uint8_t *leaves, uint64_t n) {
  uint8_t *out = malloc(n * 32);
  uint64_t i;
  CHECK(out != NULL, "out of memory");
  for (i = 0; i < n * 32; ++i)
    out[i] = i % 4 == 3 ? leaves[i] & 0x1f : leaves[i];
  return out;
}

/* The Poseidon2 trees of both shapes at awkward sizes, from every source, equal the tool's; a leaf
 * whose last 8 bytes are all 0xff (a limb of p or more in every field) refused from memory and
 * from a path (read whole to be checked), naming the leaf, the root left as it was. */
static void check_poseidon2(merklize_device *device, const uint8_t *random_leaves) {
  static const char *const hashes[] = {"poseidon2-babybear", "poseidon2-koalabear",
                                       "poseidon2-goldilocks", "poseidon2-bn254"};
  static const char *const shapes[] = {"promote", "zero"};
  static const uint64_t field_sizes[] = {1, 2, 3, 7, 8, 9, 257};
  uint8_t *leaves = canonical_copy(random_leaves, MAX_LEAVES), root[32];
  const char *path = test_path("leaves");
  const merklize_source memory = merklize_source_memory(leaves, 3 * 32),
                        file = merklize_source_path(path);
  size_t h, k, s;
  for (h = 0; h < sizeof hashes / sizeof hashes[0]; ++h) {
    for (k = 0; k < 2; ++k) {
      const struct tree_case c = {hashes[h], shapes[k], -1};
      merklize_builder *all = builder_of(device, &c, MERKLIZE_KEEP_ALL);
      merklize_builder *root_only = builder_of(device, &c, MERKLIZE_KEEP_ROOT_ONLY);
      for (s = 0; s < sizeof field_sizes / sizeof field_sizes[0]; ++s)
        check_size(all, root_only, &c, leaves, field_sizes[s]);
      merklize_builder_free(all);
      merklize_builder_free(root_only);
    }
    printf("ok: %s, both shapes at %zu sizes: memory, path, descriptor and CLI agree\n", hashes[h],
           sizeof field_sizes / sizeof field_sizes[0]);
  }
  memset(leaves + 2 * 32 + 24, 0xff, 8);
  test_write_file(path, leaves, 3 * 32);
  for (h = 0; h < sizeof hashes / sizeof hashes[0]; ++h) {
    const struct tree_case c = {hashes[h], "promote", -1};
    merklize_builder *root_only = builder_of(device, &c, MERKLIZE_KEEP_ROOT_ONLY);
    test_poison(root, sizeof root);
    CHECK_FAILS(merklize_root(root_only, &memory, root), MERKLIZE_ERROR_ARGUMENT,
                "the data in memory: leaf 2, ");
    CHECK(strstr(merklize_last_error(), "is not a canonical") != NULL, "%s: %s", hashes[h],
          merklize_last_error());
    CHECK_FAILS(merklize_root(root_only, &file, root), MERKLIZE_ERROR_ARGUMENT, "leaf 2, ");
    CHECK(test_is_poisoned(root, sizeof root), "%s: a refused root was written", hashes[h]);
    merklize_builder_free(root_only);
  }
  printf("ok: a non-canonical Poseidon2 leaf refused from memory and from a path\n");
  free(leaves);
}

int main(void) {
  merklize_device *device = test_device();
  uint8_t *sha256_leaves = test_vector_leaves(device, 0, MAX_LEAVES);
  uint8_t *blake3_leaves = test_vector_leaves(device, 1, MAX_LEAVES);
  size_t k, s;
  read_vectors();
  for (k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const struct tree_case *c = &cases[k];
    const int sha = strcmp(c->hash, "sha256") == 0 || strcmp(c->hash, "rfc6962") == 0;
    merklize_builder *all = builder_of(device, c, MERKLIZE_KEEP_ALL);
    merklize_builder *root_only = builder_of(device, c, MERKLIZE_KEEP_ROOT_ONLY);
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      check_size(all, root_only, c, sha ? sha256_leaves : blake3_leaves, sizes[s]);
    check_empty(root_only, c);
    printf("ok: %s %s depth %d at %zu sizes: memory, path, descriptor, CLI and oracle agree\n",
           c->hash, c->shape, c->depth, sizeof sizes / sizeof sizes[0]);
    merklize_builder_free(all);
    merklize_builder_free(root_only);
  }
  check_poseidon2(device, blake3_leaves);
  free(sha256_leaves);
  free(blake3_leaves);
  merklize_device_free(device);
  return 0;
}
