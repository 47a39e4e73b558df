/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Sparse Merkle trees through the C ABI (merklize_sparse_tree_*, merklize_sparse_verify), at
 * depths 256 and 8, for sha256 and rfc6962 against tests/sparse_model.py (the independent Python
 * model of the rule, hashlib's) and for blake3 and keccak256 against their own proofs: batches of
 * new keys, changed keys, deletions (a zero value) and a repeated key (the last value wins),
 * each followed by the root, the size, every key's value and proofs of present and absent keys,
 * which merklize_sparse_verify accepts and refuses once a sibling or the value is changed. Then
 * the refusals (a key past the depth, NULL pointers, a bad depth or hash, a proof of another
 * length), each leaving the tree as it was. */
#include "c_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 16

struct sparse_case {
  const char *hash;
  uint32_t depth;
  int modelled; /* whether tests/sparse_model.py has the hash */
};

static const struct sparse_case cases[] = {{"sha256", 256, 1},
                                           {"rfc6962", 256, 1},
                                           {"sha256", 8, 1},
                                           {"blake3", 256, 0},
                                           {"keccak256", 8, 0}};

/* The keys set so far and their values, as the model's input (one batch after another). */
struct host_tree {
  uint8_t keys[MAX_KEYS][32], values[MAX_KEYS][32];
  size_t count;
  char model_input[16384];
};

static uint32_t seed = 33;
static void random_bytes(uint8_t *out, size_t size) {
  size_t i;
  for (i = 0; i < size; ++i) {
    seed = seed * 1103515245u + 12345u;
    out[i] = (uint8_t)(seed >> 16);
  }
}

/* A random key below 2^depth (depth 8 or 256). */
static void random_key(uint8_t *key, uint32_t depth) {
  random_bytes(key, 32);
  if (depth == 8) memset(key, 0, 31);
}

static int is_zero(const uint8_t *digest) {
  static const uint8_t zero[32];
  return memcmp(digest, zero, 32) == 0;
}

/* The host's copy: key takes value (appended to the model's input too). */
static void host_set(struct host_tree *h, const uint8_t *key, const uint8_t *value) {
  char hex[65];
  size_t k, at = strlen(h->model_input);
  for (k = 0; k < h->count && memcmp(h->keys[k], key, 32) != 0; ++k)
    ;
  if (k == h->count) {
    CHECK(h->count < MAX_KEYS, "too many keys for the test");
    memcpy(h->keys[h->count++], key, 32);
  }
  memcpy(h->values[k], value, 32);
  test_hex(key, 32, hex);
  at += (size_t)sprintf(h->model_input + at, "%s ", hex);
  test_hex(value, 32, hex);
  sprintf(h->model_input + at, "%s\n", hex);
}

/* The model's root of the batches so far: the last line it prints. */
static void model_root(const struct sparse_case *c, struct host_tree *h, uint8_t root[32]) {
  const char *path = test_path("sparse_model.in"), *out, *last;
  char text[16600];
  sprintf(text, "%s %u\n%send\n", c->hash, c->depth, h->model_input);
  test_write_file(path, text, strlen(text));
  out = test_run("python3 '%s/../sparse_model.py' '%s'", MERKLIZE_TEST_VECTOR_DIR, path);
  last = strrchr(out, '\n');
  CHECK(test_unhex(last ? last + 1 : out, root, 32) == 32, "the model printed %s", out);
}

/* A proof of `key` (holding `value`) verifies under `root`, and not with a sibling or the value
 * changed. */
static void check_proof(merklize_sparse_tree *t, const struct sparse_case *c, const uint8_t *root,
                        const uint8_t *key, const uint8_t *value) {
  merklize_bytes *siblings = NULL;
  uint8_t got[32], changed[256 * 32], other[32];
  size_t size;
  int valid = -1;
  test_poison(got, sizeof got);
  CHECK_OK(merklize_sparse_tree_prove(t, key, got, &siblings));
  CHECK(memcmp(got, value, 32) == 0, "the proof's value differs");
  size = merklize_bytes_size(siblings);
  CHECK(size == c->depth * 32u, "%zu bytes of siblings, expected %u", size, c->depth * 32u);
  CHECK_OK(merklize_sparse_verify(c->hash, c->depth, root, key, got, merklize_bytes_data(siblings),
                                  size, &valid));
  CHECK(valid == 1, "the proof does not verify: %s", merklize_last_error());
  memcpy(changed, merklize_bytes_data(siblings), size);
  changed[size - 1] ^= 1; /* the top sibling */
  CHECK_OK(merklize_sparse_verify(c->hash, c->depth, root, key, got, changed, size, &valid));
  CHECK(valid == 0, "a proof with a changed sibling verifies");
  memcpy(other, got, 32);
  other[0] ^= 0x80;
  CHECK_OK(merklize_sparse_verify(c->hash, c->depth, root, key, other,
                                  merklize_bytes_data(siblings), size, &valid));
  CHECK(valid == 0, "a proof of another value verifies");
  merklize_bytes_free(siblings);
}

/* The tree equal to the host's copy: root (the model's, where it has the hash), size, values,
 * proofs of every key and of an absent one. */
static void check_tree(merklize_sparse_tree *t, const struct sparse_case *c, struct host_tree *h,
                       const uint8_t *returned) {
  uint8_t root[32], expected[32], value[32], absent[32];
  uint64_t present = 0;
  size_t k;
  test_poison(root, sizeof root);
  CHECK_OK(merklize_sparse_tree_root(t, root));
  CHECK(memcmp(root, returned, 32) == 0, "merklize_sparse_tree_root differs from the returned");
  if (c->modelled) {
    model_root(c, h, expected);
    CHECK(memcmp(root, expected, 32) == 0, "the root differs from tests/sparse_model.py's");
  }
  for (k = 0; k < h->count; ++k) {
    present += !is_zero(h->values[k]);
    test_poison(value, sizeof value);
    CHECK_OK(merklize_sparse_tree_value(t, h->keys[k], value));
    CHECK(memcmp(value, h->values[k], 32) == 0, "key %zu's value differs", k);
    check_proof(t, c, root, h->keys[k], h->values[k]);
  }
  CHECK(merklize_sparse_tree_size(t) == present, "size %llu, expected %llu",
        (unsigned long long)merklize_sparse_tree_size(t), (unsigned long long)present);
  random_key(absent, c->depth);
  for (k = 0; k < h->count; ++k)
    CHECK(memcmp(absent, h->keys[k], 32) != 0, "the absent key is present: change the seed");
  memset(value, 0, sizeof value);
  check_proof(t, c, root, absent, value);
}

/* A batch on the tree and the host copy, checked. */
static void apply(merklize_sparse_tree *t, const struct sparse_case *c, struct host_tree *h,
                  const uint8_t *keys, const uint8_t *values, size_t count) {
  uint8_t root[32];
  size_t k;
  for (k = 0; k < count; ++k)
    host_set(h, keys + k * 32, values + k * 32); /* in order: the last value wins */
  test_poison(root, sizeof root);
  CHECK_OK(merklize_sparse_tree_update(t, keys, values, count, root));
  check_tree(t, c, h, root);
}

static void check_refusals(merklize_sparse_tree *t, const struct sparse_case *c,
                           struct host_tree *h) {
  uint8_t before[32], root[32], keys[64], values[64], value[32];
  const uint64_t size = merklize_sparse_tree_size(t);
  int valid = -1;
  random_key(keys, c->depth);
  random_bytes(values, sizeof values);
  memset(keys + 32, 0, 32);
  keys[32 + 31 - c->depth / 8] = 1; /* bit `depth`, past the tree's keys (depth 8) */
  CHECK_OK(merklize_sparse_tree_root(t, before));
  test_poison(root, sizeof root);
  if (c->depth < 256) {
    CHECK_FAILS(merklize_sparse_tree_update(t, keys, values, 2, root), MERKLIZE_ERROR_ARGUMENT,
                "has bit 8 set");
    CHECK_FAILS(merklize_sparse_tree_value(t, keys + 32, value), MERKLIZE_ERROR_ARGUMENT,
                "has bit 8 set");
    CHECK_OK(merklize_sparse_verify(c->hash, c->depth, before, keys + 32, values,
                                    (const uint8_t *)h->model_input, c->depth * 32u, &valid));
    CHECK(valid == 0, "a proof of a key past the depth verifies");
  }
  CHECK_FAILS(merklize_sparse_tree_update(t, NULL, values, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`keys` is NULL");
  CHECK_FAILS(merklize_sparse_tree_update(t, keys, NULL, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`values` is NULL");
  CHECK_FAILS(merklize_sparse_tree_update(NULL, keys, values, 1, root), MERKLIZE_ERROR_ARGUMENT,
              "`tree` is NULL");
  CHECK(test_is_poisoned(root, sizeof root), "a refused update wrote the root");
  CHECK_FAILS(merklize_sparse_verify(c->hash, c->depth, before, keys, values, values, 64, &valid),
              MERKLIZE_ERROR_ARGUMENT, "siblings_size is 64 bytes");
  CHECK_OK(merklize_sparse_tree_root(t, root));
  CHECK(memcmp(root, before, 32) == 0 && merklize_sparse_tree_size(t) == size,
        "a refused call changed the tree");
  CHECK_OK(merklize_sparse_tree_update(t, NULL, NULL, 0, root)); /* nothing to do */
  CHECK(memcmp(root, before, 32) == 0, "an empty batch changed the root");
}

static void check_case(merklize_device *device, const struct sparse_case *c) {
  static struct host_tree h;
  uint8_t keys[6 * 32], values[6 * 32], root[32];
  merklize_sparse_tree *t = NULL;
  size_t k;
  memset(&h, 0, sizeof h);
  CHECK_OK(merklize_sparse_tree_create(device, c->hash, c->depth, &t));
  CHECK_OK(merklize_sparse_tree_root(t, root));
  check_tree(t, c, &h, root); /* the empty tree: z[depth] */
  for (k = 0; k < 5; ++k)
    random_key(keys + k * 32, c->depth);
  random_bytes(values, sizeof values);
  apply(t, c, &h, keys, values, 5); /* new keys */
  memcpy(keys + 32, keys, 32);      /* key 0 changed, key 0 again (the last value wins), */
  memset(values + 2 * 32, 0, 32);   /* key 2 deleted, and a new key */
  memcpy(keys + 3 * 32, keys + 2 * 32, 32);
  memset(values + 3 * 32, 0, 32);
  random_key(keys + 4 * 32, c->depth);
  random_bytes(values, 32);
  random_bytes(values + 32, 32);
  apply(t, c, &h, keys, values, 5);
  check_refusals(t, c, &h);
  merklize_sparse_tree_free(t);
}

static void check_create_refusals(merklize_device *device) {
  merklize_sparse_tree *t = NULL;
  CHECK_FAILS(merklize_sparse_tree_create(device, "sha256", 0, &t), MERKLIZE_ERROR_ARGUMENT,
              "depth: sparse tree depth 0 is out of range");
  CHECK_FAILS(merklize_sparse_tree_create(device, "sha256", 257, &t), MERKLIZE_ERROR_ARGUMENT,
              "depth");
  CHECK_FAILS(merklize_sparse_tree_create(device, "md5", 256, &t), MERKLIZE_ERROR_ARGUMENT,
              "hash: unknown hash");
  CHECK_FAILS(merklize_sparse_tree_create(NULL, "sha256", 256, &t), MERKLIZE_ERROR_ARGUMENT,
              "`device` is NULL");
  CHECK(t == NULL, "a refused create wrote the tree");
}

int main(void) {
  merklize_device *device = test_device();
  size_t c;
  if (system("python3 -c pass > /dev/null 2>&1") != 0)
    test_skip("python3 not found: tests/sparse_model.py is the oracle");
  check_create_refusals(device);
  for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    printf("%s depth %u\n", cases[c].hash, cases[c].depth);
    check_case(device, &cases[c]);
  }
  merklize_device_free(device); /* after the trees */
  printf("ok\n");
  return 0;
}
