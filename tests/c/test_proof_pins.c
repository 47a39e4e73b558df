/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What a proof binds through the C ABI: a proof's header read back (merklize_proof_hash, _shape,
 * _depth, _arity, _mixed_length), and proofs relabelled from real sha256 zero-shape trees (made
 * here with OpenSSL's SHA-256) as shape promote, which merklize_proof_verify accepts, as
 * docs/PROOFS.md says, and merklize_proof_verify_pinned refuses once the shape is pinned: the
 * tree of 3 leaves whose inner node SHA-256(leaf 2 || 0^32) passes as "leaf 2", and every such
 * forgery of the trees of 1 to 40 leaves. Then a Poseidon2 proof's sibling with a limb raised by
 * p is refused, naming it, of a binary tree and of a sparse tree (a device builds those). */
#include "c_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEAVES 40
#define MAX_DEPTH 6

/* A sha256 zero-shape tree of n leaves (leaf i: SHA-256 of i's byte), every level. */
typedef struct zero_tree {
  uint64_t n;
  unsigned depth;
  uint64_t sizes[MAX_DEPTH + 1];
  uint8_t nodes[MAX_DEPTH + 1][MAX_LEAVES][32];
} zero_tree;

static void build_zero_tree(zero_tree *t, uint64_t n) {
  static const uint8_t zero[32];
  uint64_t i;
  unsigned k;
  t->n = n;
  t->depth = 0;
  while (((uint64_t)1 << t->depth) < n)
    ++t->depth;
  t->sizes[0] = n;
  for (i = 0; i < n; ++i) {
    const uint8_t byte = (uint8_t)i;
    test_sha256(&byte, 1, t->nodes[0][i]);
  }
  for (k = 1; k <= t->depth; ++k) {
    t->sizes[k] = (t->sizes[k - 1] + 1) / 2;
    for (i = 0; i < t->sizes[k]; ++i) {
      const uint8_t *right = 2 * i + 1 < t->sizes[k - 1] ? t->nodes[k - 1][2 * i + 1] : NULL;
      /* The lone last node is hashed with the zero subtree of its height. */
      uint8_t zeros[32];
      if (!right) {
        unsigned z;
        memcpy(zeros, zero, 32);
        for (z = 0; z + 1 < k; ++z)
          test_sha256_pair(-1, zeros, zeros, zeros);
        right = zeros;
      }
      test_sha256_pair(-1, t->nodes[k - 1][2 * i], right, t->nodes[k][i]);
    }
  }
}

/* The promote proof of "leaf" `index` of t's leaf count whose siblings are t's nodes where a
 * promote tree has them, decoded from its JSON. */
static merklize_proof *relabelled(const zero_tree *t, uint64_t index) {
  char json[4096], hex[65];
  size_t used;
  uint64_t size = t->n;
  unsigned k;
  int first = 1;
  merklize_proof *proof = NULL;
  used = (size_t)snprintf(json, sizeof json,
                          "{\"format\":\"merklize-proof\",\"version\":1,\"kind\":\"inclusion\","
                          "\"hash\":\"sha256\",\"shape\":\"promote\",\"leaf_count\":%llu,"
                          "\"depth\":%u,\"index\":%llu,\"siblings\":[",
                          (unsigned long long)t->n, t->depth, (unsigned long long)index);
  for (k = 0; k < t->depth; ++k, size = (size + 1) / 2) {
    const uint64_t sibling = (index >> k) ^ 1;
    if (sibling >= size) continue;
    test_hex(t->nodes[k][sibling], 32, hex);
    used += (size_t)snprintf(json + used, sizeof json - used, "%s\"%s\"", first ? "" : ",", hex);
    first = 0;
  }
  used += (size_t)snprintf(json + used, sizeof json - used, "]}");
  CHECK_OK(merklize_proof_decode(json, used, MERKLIZE_ENCODING_JSON, &proof));
  return proof;
}

static int verifies(const merklize_proof *proof, const uint8_t leaf[32], const uint8_t root[32],
                    const merklize_proof_expectations *expect) {
  int valid = 7;
  if (expect)
    CHECK_OK(merklize_proof_verify_pinned(proof, leaf, 1, root, expect, &valid));
  else
    CHECK_OK(merklize_proof_verify(proof, leaf, 1, root, &valid));
  CHECK(valid == 0 || valid == 1, "valid is %d", valid);
  return valid;
}

/* What the verifier of t knows: everything. */
static merklize_proof_expectations pinned_to(const zero_tree *t) {
  merklize_proof_expectations expect;
  merklize_proof_expectations_init(&expect);
  expect.kind = MERKLIZE_PROOF_INCLUSION;
  expect.hash = "sha256";
  expect.shape = "zero";
  expect.depth = (int32_t)t->depth;
  expect.arity = 2;
  expect.leaf_count = t->n;
  return expect;
}

static void three_leaves(void) {
  zero_tree t;
  merklize_proof *forged;
  merklize_proof_expectations expect;
  build_zero_tree(&t, 3);
  forged = relabelled(&t, 2);
  CHECK(strcmp(merklize_proof_hash(forged), "sha256") == 0, "hash %s", merklize_proof_hash(forged));
  CHECK(strcmp(merklize_proof_shape(forged), "promote") == 0, "shape %s",
        merklize_proof_shape(forged));
  CHECK(merklize_proof_depth(forged) == 2 && merklize_proof_arity(forged) == 2 &&
            merklize_proof_leaf_count(forged) == 3,
        "depth %u, arity %u", merklize_proof_depth(forged), merklize_proof_arity(forged));
  /* The proof alone: the inner node SHA-256(leaf 2 || 0^32) passes as leaf 2. */
  CHECK(verifies(forged, t.nodes[1][1], t.nodes[2][0], NULL) == 1,
        "the relabelled proof no longer verifies unpinned: %s (update docs/PROOFS.md)",
        merklize_last_error());
  /* Kind, hash, depth, arity and leaf count pinned: all true of it, it still passes. */
  expect = pinned_to(&t);
  expect.shape = NULL;
  CHECK(verifies(forged, t.nodes[1][1], t.nodes[2][0], &expect) == 1, "%s", merklize_last_error());
  expect = pinned_to(&t);
  CHECK(verifies(forged, t.nodes[1][1], t.nodes[2][0], &expect) == 0,
        "the forgery verifies with the shape pinned");
  CHECK(strstr(merklize_last_error(), "the proof is for shape promote, not zero") != NULL, "%s",
        merklize_last_error());
  merklize_proof_free(forged);
}

/* Every relabelled forgery of the trees of 1 to MAX_LEAVES leaves: an inner node taken as a
 * leaf. Accepted unpinned, refused pinned. */
static void search(void) {
  unsigned forgeries = 0;
  uint64_t n, index, j;
  unsigned level;
  static zero_tree t;
  for (n = 1; n <= MAX_LEAVES; ++n) {
    merklize_proof_expectations expect;
    build_zero_tree(&t, n);
    expect = pinned_to(&t);
    for (index = 0; index < n; ++index) {
      merklize_proof *proof = relabelled(&t, index);
      for (level = 1; level < t.depth; ++level)
        for (j = 0; j < t.sizes[level]; ++j) {
          if (!verifies(proof, t.nodes[level][j], t.nodes[t.depth][0], NULL)) continue;
          ++forgeries;
          CHECK(verifies(proof, t.nodes[level][j], t.nodes[t.depth][0], &expect) == 0,
                "a forgery of %llu leaves, index %llu, verifies pinned", (unsigned long long)n,
                (unsigned long long)index);
        }
      merklize_proof_free(proof);
    }
  }
  /* One in each tree whose last leaf is alone on its lowest levels and on none above them: 3, 5,
   * 7, 9, 13, 15, 17, 25, 29, 31 and 33 leaves. */
  CHECK(forgeries == 11, "%u forgeries found, not 11", forgeries);
  printf("%u relabelled forgeries of trees of 1 to %d leaves, each refused pinned\n", forgeries,
         MAX_LEAVES);
}

static void bad_expectations(void) {
  zero_tree t;
  merklize_proof *proof;
  merklize_proof_expectations expect;
  int valid = 7;
  build_zero_tree(&t, 3);
  proof = relabelled(&t, 0);
  expect = pinned_to(&t);
  expect.hash = "sha257";
  CHECK_FAILS(merklize_proof_verify_pinned(proof, t.nodes[0][0], 1, t.nodes[2][0], &expect, &valid),
              MERKLIZE_ERROR_ARGUMENT, "expect.hash");
  expect = pinned_to(&t);
  expect.size = 4;
  CHECK_FAILS(merklize_proof_verify_pinned(proof, t.nodes[0][0], 1, t.nodes[2][0], &expect, &valid),
              MERKLIZE_ERROR_ARGUMENT, "expect->size is 4");
  CHECK_FAILS(merklize_proof_verify_pinned(proof, t.nodes[0][0], 1, t.nodes[2][0], NULL, &valid),
              MERKLIZE_ERROR_ARGUMENT, "`expect` is NULL");
  expect = pinned_to(&t);
  expect.kind = MERKLIZE_PROOF_MULTI;
  expect.shape = "promote";
  CHECK(verifies(proof, t.nodes[0][0], t.nodes[2][0], &expect) == 0 &&
            strstr(merklize_last_error(), "of kind inclusion, not multiproof"),
        "%s", merklize_last_error());
  CHECK(valid == 7, "a failed call wrote *valid");
  merklize_proof_free(proof);
}

/* A Poseidon2 proof whose sibling's limb 0 is raised by p: the same element, refused. */
static void canonical_siblings(void) {
  merklize_device *device = test_device();
  merklize_tree_config config;
  merklize_builder *builder = NULL;
  merklize_tree *tree = NULL;
  merklize_proof *proof = NULL, *raised = NULL;
  merklize_bytes *encoded = NULL;
  uint8_t leaves[4 * 32] = {0}, root[32], *copy;
  const uint8_t *nodes;
  size_t count, size, i;
  uint32_t limb;
  int valid = 7;
  for (i = 0; i < sizeof leaves; i += 4)
    leaves[i] = (uint8_t)i;
  merklize_tree_config_init(&config);
  config.hash = "poseidon2-babybear";
  CHECK_OK(merklize_builder_create(device, &config, &builder));
  {
    const merklize_source source = merklize_source_memory(leaves, sizeof leaves);
    CHECK_OK(merklize_build(builder, &source, &tree));
  }
  CHECK_OK(merklize_tree_root(tree, root));
  CHECK_OK(merklize_prove(tree, 0, &proof));
  CHECK_OK(merklize_proof_nodes(proof, &nodes, &count));
  CHECK_OK(merklize_proof_encode(proof, MERKLIZE_ENCODING_BINARY, &encoded));
  size = merklize_bytes_size(encoded);
  copy = malloc(size);
  CHECK(copy != NULL, "out of memory");
  memcpy(copy, merklize_bytes_data(encoded), size);
  /* The binary encoding ends with the siblings: the first is 64 bytes from the end. */
  memcpy(&limb, copy + size - 64, 4);
  CHECK(memcmp(copy + size - 64, nodes, 32) == 0, "the siblings do not end the encoding");
  limb += 2013265921u;
  memcpy(copy + size - 64, &limb, 4);
  CHECK_OK(merklize_proof_decode(copy, size, MERKLIZE_ENCODING_BINARY, &raised));
  CHECK_OK(merklize_proof_verify(proof, leaves, 1, root, &valid));
  CHECK(valid == 1, "%s", merklize_last_error());
  CHECK_OK(merklize_proof_verify(raised, leaves, 1, root, &valid));
  CHECK(valid == 0 && strstr(merklize_last_error(), "sibling 0, limb 0 (") &&
            strstr(merklize_last_error(), "is not a canonical BabyBear element"),
        "a sibling's limb x + p verifies: %s", merklize_last_error());
  free(copy);
  merklize_bytes_free(encoded);
  merklize_proof_free(raised);
  merklize_proof_free(proof);
  merklize_tree_free(tree);
  merklize_builder_free(builder);
  merklize_device_free(device);
}

/* A Poseidon2 sparse proof whose sibling's limb 0 is raised by p: refused, naming it. */
static void canonical_sparse_siblings(void) {
  merklize_device *device = test_device();
  merklize_sparse_tree *tree = NULL;
  merklize_bytes *siblings = NULL;
  uint8_t key[32] = {0}, value[32] = {0}, proven[32], root[32], *raised;
  uint32_t limb;
  int valid = 7;
  key[31] = 3;
  value[0] = 9;
  CHECK_OK(merklize_sparse_tree_create(device, "poseidon2-babybear", 8, &tree));
  CHECK_OK(merklize_sparse_tree_update(tree, key, value, 1, root));
  CHECK_OK(merklize_sparse_tree_prove(tree, key, proven, &siblings));
  CHECK_OK(merklize_sparse_verify("poseidon2-babybear", 8, root, key, proven,
                                  merklize_bytes_data(siblings), merklize_bytes_size(siblings),
                                  &valid));
  CHECK(valid == 1, "the sparse proof does not verify: %s", merklize_last_error());
  raised = malloc(merklize_bytes_size(siblings));
  CHECK(raised != NULL, "out of memory");
  memcpy(raised, merklize_bytes_data(siblings), merklize_bytes_size(siblings));
  memcpy(&limb, raised, 4);
  limb += 2013265921u;
  memcpy(raised, &limb, 4);
  CHECK_OK(merklize_sparse_verify("poseidon2-babybear", 8, root, key, proven, raised,
                                  merklize_bytes_size(siblings), &valid));
  CHECK(valid == 0 && strstr(merklize_last_error(), "sibling 0, limb 0 ("),
        "a sparse sibling's limb x + p verifies: %s", merklize_last_error());
  free(raised);
  merklize_bytes_free(siblings);
  merklize_sparse_tree_free(tree);
  merklize_device_free(device);
}

int main(void) {
  three_leaves();
  search();
  bad_expectations();
  canonical_siblings();
  canonical_sparse_siblings();
  return 0;
}
