/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Trees over data blocks (config.leaf_size), k-ary trees (config.arity 4 and 16) and SSZ list
 * roots (config.mix_in_length) through the C ABI, from memory, a path and a descriptor, each
 * equal to `merklize root --leaf-size / --arity / --mix-in-length` of the same file and, for
 * SHA-256, to the tree computed here with OpenSSL (leaves SHA-256(salt || block), k-ary nodes
 * SHA-256 of their children, the list root SHA-256(root || length as 32 bytes LE)). */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint64_t counts[] = {1, 2, 3, 15, 16, 17, 255, 256, 257, 1023, 1024, 1025};
#define COUNTS (sizeof counts / sizeof counts[0])

/* The root through every source and call: memory, path, descriptor; merklize_root, and
 * merklize_build keeping every level and keeping the root alone. Each must equal `expected`. */
static void check_sources(merklize_device *device, merklize_tree_config config, const uint8_t *data,
                          uint64_t size, const char *expected) {
  const char *path = test_path("data");
  merklize_builder *builders[2];
  merklize_source sources[3];
  uint8_t root[32];
  int b, s, fd;
  test_write_file(path, data, size);
  fd = open(path, O_RDONLY);
  CHECK(fd >= 0, "cannot open %s", path);
  sources[0] = merklize_source_memory(data, size);
  sources[1] = merklize_source_path(path);
  sources[2] = merklize_source_fd(fd);
  builders[0] = test_builder(device, &config);
  config.keep = MERKLIZE_KEEP_ROOT_ONLY;
  builders[1] = test_builder(device, &config);
  for (b = 0; b < 2; ++b)
    for (s = 0; s < 3; ++s) {
      merklize_tree *tree = NULL;
      CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
      test_poison(root, sizeof root);
      CHECK_OK(merklize_root(builders[b], &sources[s], root));
      CHECK(test_digest_is(root, expected), "merklize_root, source %d, builder %d: not %s", s, b,
            expected);
      CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
      CHECK_OK(merklize_build(builders[b], &sources[s], &tree));
      test_poison(root, sizeof root);
      CHECK_OK(merklize_tree_root(tree, root));
      CHECK(test_digest_is(root, expected), "merklize_build, source %d, builder %d: not %s", s, b,
            expected);
      merklize_tree_free(tree);
    }
  close(fd);
  merklize_builder_free(builders[0]);
  merklize_builder_free(builders[1]);
}

/* Level 0 of a block tree keeping every level: the leaves the blocks hash to. */
static void check_block_leaves(merklize_device *device, const merklize_tree_config *config,
                               const uint8_t *data, uint64_t size, const uint8_t *leaves,
                               uint64_t n) {
  merklize_builder *builder = test_builder(device, config);
  const merklize_source source = merklize_source_memory(data, size);
  merklize_tree *tree = NULL;
  const uint8_t *nodes;
  uint64_t count;
  CHECK_OK(merklize_build(builder, &source, &tree));
  CHECK(merklize_tree_leaf_count(tree) == n, "%llu leaves, expected %llu blocks",
        (unsigned long long)merklize_tree_leaf_count(tree), (unsigned long long)n);
  CHECK_OK(merklize_tree_level(tree, 0, &nodes, &count));
  CHECK(count == n && memcmp(nodes, leaves, n * 32) == 0, "level 0 is not the blocks' leaves");
  merklize_tree_free(tree);
  merklize_builder_free(builder);
}

/* SHA-256 leaves of blocks of `block` bytes with a salt (dm-verity's kind of leaf). */
static void sha256_block_tree(merklize_device *device, const uint8_t *data, uint64_t block,
                              const char *shape, int depth) {
  static const uint8_t salt[3] = {0xde, 0xad, 0x01};
  size_t c;
  for (c = 0; c < COUNTS; ++c) {
    const uint64_t n = counts[c], size = n * block - (n > 1 ? block / 2 : 0);
    uint8_t *leaves = malloc(n * 32), *message = malloc(sizeof salt + block), root[32];
    char expected[65], depth_option[32] = "";
    uint64_t i;
    merklize_tree_config config = test_config("sha256", shape);
    CHECK(leaves && message, "out of memory");
    for (i = 0; i < n; ++i) {
      const uint64_t take = i + 1 < n ? block : size - i * block;
      memcpy(message, salt, sizeof salt);
      memcpy(message + sizeof salt, data + i * block, take);
      test_sha256(message, sizeof salt + take, leaves + i * 32);
    }
    test_sha256_root(leaves, n, -1, strcmp(shape, "zero") == 0, depth, root);
    test_hex(root, 32, expected);
    test_write_file(test_path("blocks"), data, size);
    if (depth >= 0) snprintf(depth_option, sizeof depth_option, "--depth %d", depth);
    CHECK(strcmp(test_cli("root --leaf-size %llu --salt dead01 --hash sha256 --pad %s %s '%s'",
                          (unsigned long long)block, shape, depth_option, test_path("blocks")),
                 expected) == 0,
          "merklize root --leaf-size: not OpenSSL's %s", expected);
    config.leaf_size = block;
    config.salt = salt;
    config.salt_size = sizeof salt;
    config.depth = depth;
    check_sources(device, config, data, size, expected);
    check_block_leaves(device, &config, data, size, leaves, n);
    free(leaves);
    free(message);
  }
  printf("ok: sha256 %s depth %d over %llu-byte blocks with a salt: OpenSSL, the CLI, memory, "
         "path, descriptor\n",
         shape, depth, (unsigned long long)block);
}

/* BLAKE3 leaves (and rfc6962 nodes over SHA-256 leaves): the CLI is the oracle. */
static void cli_block_tree(merklize_device *device, const uint8_t *data, const char *hash,
                           const char *leaf_hash, uint64_t block, unsigned arity) {
  size_t c;
  for (c = 0; c < COUNTS; c += 2) {
    const uint64_t size = counts[c] * block - 1;
    merklize_tree_config config = test_config(hash, NULL);
    /* --arity takes sha256 or blake3 alone: binary trees of any hash go without it */
    char expected[65], arity_option[32] = "";
    test_write_file(test_path("blocks"), data, size);
    if (arity > 2) snprintf(arity_option, sizeof arity_option, "--arity %u", arity);
    strcpy(expected,
           test_cli("root --leaf-size %llu --leaf-hash %s --hash %s %s '%s'",
                    (unsigned long long)block, leaf_hash, hash, arity_option, test_path("blocks")));
    config.leaf_size = block;
    config.leaf_hash = leaf_hash;
    config.arity = arity;
    check_sources(device, config, data, size, expected);
  }
  printf("ok: %s arity %u over %llu-byte blocks, %s leaves: the CLI, memory, path, descriptor\n",
         hash, arity, (unsigned long long)block, leaf_hash);
}

/* The k-ary tree of SHA-256 nodes over n leaves, computed here (kary.hpp's rule): a group of
 * children is hashed as their bytes; a short last group of shape promote is hashed as it is
 * (one child moves up), of shape zero padded with all-zero subtrees. */
static void sha256_kary_root(const uint8_t *leaves, uint64_t n, unsigned k, int zero,
                             uint8_t out[32]) {
  uint8_t *level = malloc(n * 32), zeros[32], *group = malloc(k * 32);
  uint64_t size = n, i, j;
  CHECK(level && group, "out of memory");
  memcpy(level, leaves, n * 32);
  memset(zeros, 0, 32);
  for (; size > 1; size = (size + k - 1) / k) {
    for (i = 0; i < size; i += k) {
      const uint64_t present = size - i < k ? size - i : k, count = zero ? k : present;
      memcpy(group, level + i * 32, present * 32);
      for (j = present; j < count; ++j)
        memcpy(group + j * 32, zeros, 32);
      if (count == 1)
        memmove(level + i / k * 32, group, 32);
      else
        test_sha256(group, count * 32, level + i / k * 32);
    }
    for (j = 0; j < k; ++j)
      memcpy(group + j * 32, zeros, 32);
    test_sha256(group, k * 32, zeros);
  }
  memcpy(out, level, 32);
  free(level);
  free(group);
}

/* A k-ary tree keeping every level: ceil(size / k) nodes a level, the leaves first. */
static void check_kary_levels(merklize_device *device, const merklize_tree_config *config,
                              const uint8_t *leaves, uint64_t n) {
  merklize_builder *builder = test_builder(device, config);
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  merklize_tree *tree = NULL;
  const uint8_t *nodes;
  uint64_t count, size = n;
  uint32_t level;
  CHECK_OK(merklize_build(builder, &source, &tree));
  CHECK_OK(merklize_tree_level(tree, 0, &nodes, &count));
  CHECK(count == n && memcmp(nodes, leaves, n * 32) == 0, "level 0 is not the leaves");
  for (level = 1; size > 1; ++level) {
    size = (size + config->arity - 1) / config->arity;
    CHECK_OK(merklize_tree_level(tree, level, &nodes, &count));
    CHECK(count == size, "level %u of arity %u holds %llu nodes, not %llu", level, config->arity,
          (unsigned long long)count, (unsigned long long)size);
  }
  CHECK(merklize_tree_depth(tree) == level - 1, "depth %u, expected %u", merklize_tree_depth(tree),
        level - 1);
  merklize_tree_free(tree);
  merklize_builder_free(builder);
}

static void kary_trees(merklize_device *device, const uint8_t *leaves, unsigned k, const char *hash,
                       const char *shape) {
  size_t c;
  for (c = 0; c < COUNTS; ++c) {
    const uint64_t n = counts[c];
    merklize_tree_config config = test_config(hash, shape);
    char expected[65];
    test_write_file(test_path("leaves"), leaves, n * 32);
    strcpy(expected, test_cli("root --arity %u --hash %s --pad %s '%s'", k, hash, shape,
                              test_path("leaves")));
    if (strcmp(hash, "sha256") == 0) {
      uint8_t root[32];
      sha256_kary_root(leaves, n, k, strcmp(shape, "zero") == 0, root);
      CHECK(test_digest_is(root, expected), "merklize root --arity %u: %s, OpenSSL's differs", k,
            expected);
    }
    config.arity = k;
    check_sources(device, config, leaves, n * 32, expected);
    check_kary_levels(device, &config, leaves, n);
  }
  printf("ok: arity %u, %s %s: the CLI%s, memory, path, descriptor\n", k, hash, shape,
         strcmp(hash, "sha256") == 0 ? ", OpenSSL" : "");
}

/* SSZ List[Bytes32, 2048]: the root of its chunks at depth 11, the length mixed in. */
static void ssz_lists(merklize_device *device, const uint8_t *leaves) {
  size_t c;
  for (c = 0; c < COUNTS; ++c) {
    const uint64_t n = counts[c];
    merklize_tree_config config = test_config("sha256", "zero");
    uint8_t pair[64], root[32];
    int b;
    char expected[65];
    test_sha256_root(leaves, n, -1, 1, 11, pair);
    memset(pair + 32, 0, 32);
    for (b = 0; b < 8; ++b)
      pair[32 + b] = (uint8_t)(n >> (8 * b));
    test_sha256(pair, 64, root);
    test_hex(root, 32, expected);
    test_write_file(test_path("leaves"), leaves, n * 32);
    CHECK(strcmp(test_cli("root --hash sha256 --pad zero --depth 11 --mix-in-length %llu '%s'",
                          (unsigned long long)n, test_path("leaves")),
                 expected) == 0,
          "merklize root --mix-in-length: not OpenSSL's %s", expected);
    config.depth = 11;
    config.mix_in_length = 1;
    config.length = n;
    check_sources(device, config, leaves, n * 32, expected);
  }
  printf("ok: SSZ lists of up to 2048 chunks, the length mixed in: OpenSSL, the CLI, memory, "
         "path, descriptor\n");
}

int main(void) {
  merklize_device *device = test_device();
  uint8_t *data = malloc(1025 * 4096);
  uint8_t *leaves = test_vector_leaves(device, 0, 1025);
  size_t i;
  CHECK(data != NULL, "out of memory");
  for (i = 0; i < 1025 * 4096; ++i)
    data[i] = (uint8_t)(i * 7 + i / 251);
  sha256_block_tree(device, data, 64, "promote", -1);
  sha256_block_tree(device, data, 64, "zero", -1);
  sha256_block_tree(device, data, 100, "zero", 12);
  sha256_block_tree(device, data, 4096, "promote", -1);
  cli_block_tree(device, data, "blake3", "blake3", 1024, 2);
  cli_block_tree(device, data, "blake3-parent", "blake3", 96, 2);
  cli_block_tree(device, data, "rfc6962", "sha256", 512, 2);
  cli_block_tree(device, data, "sha256", "sha256", 64, 4);
  cli_block_tree(device, data, "blake3", "blake3", 200, 16);
  kary_trees(device, leaves, 4, "sha256", "promote");
  kary_trees(device, leaves, 4, "sha256", "zero");
  kary_trees(device, leaves, 16, "sha256", "promote");
  kary_trees(device, leaves, 16, "blake3", "zero");
  kary_trees(device, leaves, 16, "blake3", "promote");
  ssz_lists(device, leaves);
  free(data);
  free(leaves);
  merklize_device_free(device);
  return 0;
}
