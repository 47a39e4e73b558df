/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The k-ary multiproof (MERKLIZE_PROOF_KARY_MULTI) through the C ABI: sha256 and blake3, shapes
 * promote and zero, arities 4, 8 and 16, at 1, k - 1, k + 1, k^2 + 1 and 300 leaves. A batch with
 * repeats (the last value wins) goes through merklize_device_tree_update_proved; its proof equals
 * node for node merklize_prove_multi's of a tree built over the updated leaves, verifies under
 * that tree's root, and, for sha256, under a verifier written here (OpenSSL's SHA-256 over the
 * children, docs/PROOFS.md's climb) that computes the same root. Its JSON decodes to the same
 * proof and encodes to the same text; the binary encoding is refused; a change to any one node
 * (through the JSON) or any one leaf makes it invalid. Then the decoder's refusals of hostile
 * JSON, each naming what is wrong, and merklize_prove_multi's of a tree that kept its root alone.
 */
#include "tree_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hashes[] = {"sha256", "blake3"};
static const char *const shapes[] = {"promote", "zero"};
static const uint32_t arities[] = {4, 8, 16};
#define MAX_LEAVES 300
#define MAX_TEXT (64 * 1024)
#define HEX64 "0000000000000000000000000000000000000000000000000000000000000000"

static uint32_t seed = 39;
static void random_leaf(uint8_t *leaf) { tree_case_random_leaf(&seed, leaf); }

/* The root a sha256 k-ary multiproof shows for `leaves` (in its index order), computed here:
 * level by level, each group of k (shape zero) or of the children present (promote) holding a
 * known node takes its other members from the proof in order, a lone child moving up. 0 where
 * the proof has too few or too many nodes. */
static int independent_root(const merklize_proof *proof, uint32_t k, int zero,
                            const uint8_t *leaves, uint8_t root[32]) {
  static uint64_t at[MAX_LEAVES];
  static uint8_t known[MAX_LEAVES * 32], group[128 * 32];
  const uint64_t *indices;
  const uint8_t *nodes;
  size_t count, node_count, next = 0, i, parents;
  uint64_t size = merklize_proof_leaf_count(proof);
  CHECK_OK(merklize_proof_indices(proof, &indices, &count));
  CHECK_OK(merklize_proof_nodes(proof, &nodes, &node_count));
  memcpy(at, indices, count * sizeof *at);
  memcpy(known, leaves, count * 32);
  for (; size > 1; size = (size + k - 1) / k) {
    for (i = 0, parents = 0; i < count; ++parents) {
      const uint64_t first = at[i] - at[i] % k;
      const uint64_t width = zero || size - first >= k ? k : size - first;
      uint64_t c;
      for (c = 0; c < width; ++c) {
        if (i < count && at[i] == first + c) {
          memcpy(group + c * 32, known + i++ * 32, 32);
        } else {
          if (next == node_count) return 0;
          memcpy(group + c * 32, nodes + next++ * 32, 32);
        }
      }
      at[parents] = first / k;
      if (width == 1)
        memcpy(known + parents * 32, group, 32);
      else
        test_sha256(group, width * 32, known + parents * 32);
    }
    count = parents;
  }
  memcpy(root, known, 32);
  return next == node_count;
}

static int verifies(const merklize_proof *proof, const uint8_t *leaves, const uint8_t *root) {
  const uint64_t *indices;
  size_t count;
  int valid = -1;
  CHECK_OK(merklize_proof_indices(proof, &indices, &count));
  CHECK_OK(merklize_proof_verify(proof, leaves, count, root, &valid));
  CHECK(valid == 0 || valid == 1, "verify wrote %d", valid);
  return valid;
}

/* The proof's JSON in `text` (NUL-terminated). */
static size_t json_of(const merklize_proof *proof, char *text) {
  merklize_bytes *encoded = NULL;
  size_t size;
  CHECK_OK(merklize_proof_encode(proof, MERKLIZE_ENCODING_JSON, &encoded));
  size = merklize_bytes_size(encoded);
  CHECK(size < MAX_TEXT, "the JSON is %zu bytes", size);
  memcpy(text, merklize_bytes_data(encoded), size);
  text[size] = '\0';
  merklize_bytes_free(encoded);
  return size;
}

static merklize_proof *decoded(const char *text) {
  merklize_proof *proof = NULL;
  CHECK_OK(merklize_proof_decode(text, strlen(text), MERKLIZE_ENCODING_JSON, &proof));
  return proof;
}

/* The JSON round trip, the binary refusal, and each node's and each leaf's change refused. */
static void check_encoding(const merklize_proof *proof, const uint8_t *leaves,
                           const uint8_t *root) {
  static char text[MAX_TEXT], again[MAX_TEXT];
  static uint8_t changed[MAX_LEAVES * 32];
  const uint64_t *indices;
  size_t count, node_count, i;
  const uint8_t *nodes;
  merklize_bytes *binary = NULL;
  merklize_proof *back;
  size_t first_node;
  json_of(proof, text);
  back = decoded(text);
  test_same_proof(back, proof, "the decoded JSON");
  json_of(back, again);
  CHECK(strcmp(text, again) == 0, "the decoded proof encodes to other JSON");
  merklize_proof_free(back);
  CHECK_FAILS(merklize_proof_encode(proof, MERKLIZE_ENCODING_BINARY, &binary),
              MERKLIZE_ERROR_ARGUMENT, "JSON encoding only");
  CHECK(binary == NULL, "a refused encoding wrote its bytes");
  CHECK_OK(merklize_proof_indices(proof, &indices, &count));
  CHECK_OK(merklize_proof_nodes(proof, &nodes, &node_count));
  first_node = (size_t)(strstr(text, "\"nodes\":[") - text) + 10; /* its first hex digit */
  for (i = 0; i < node_count; ++i) { /* "<64 hex>","<64 hex>": a node every 67 characters */
    char *digit = text + first_node + i * 67 + 5, was = *digit;
    *digit = was == '0' ? '1' : '0';
    back = decoded(text);
    CHECK(!verifies(back, leaves, root), "node %zu changed still verifies", i);
    merklize_proof_free(back);
    *digit = was;
  }
  for (i = 0; i < count; ++i) {
    memcpy(changed, leaves, count * 32);
    changed[i * 32 + 31] ^= 1;
    CHECK(!verifies(proof, changed, root), "leaf %zu changed still verifies", i);
  }
}

/* An update_proved batch with repeats against prove_multi of a fresh build. */
static void check_case(merklize_device *device, const char *hash, const char *shape, uint32_t k,
                       uint64_t n) {
  static uint8_t leaves[MAX_LEAVES * 32], values[8 * 32], proven[8 * 32];
  const uint64_t batch[] = {n - 1, 0, n / 2, n / 3, 0, n - 1, n / 2};
  const size_t count = sizeof batch / sizeof batch[0];
  merklize_builder *builder = tree_case_kary_builder(device, hash, shape, k);
  merklize_device_tree *t = NULL;
  merklize_tree *fresh = NULL;
  merklize_proof *proof = NULL, *want = NULL;
  merklize_source source;
  uint8_t root[32], expected[32], computed[32];
  const uint64_t *indices;
  size_t proven_count, i;
  printf("%s %s arity %u, %llu leaves\n", hash, shape, k, (unsigned long long)n);
  for (i = 0; i < n; ++i)
    random_leaf(leaves + i * 32);
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &t));
  for (i = 0; i < count; ++i) {
    random_leaf(values + i * 32);
    memcpy(leaves + batch[i] * 32, values + i * 32, 32); /* in order: the last value wins */
  }
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_update_proved(t, batch, values, count, root, &proof));
  CHECK(merklize_proof_get_kind(proof) == MERKLIZE_PROOF_KARY_MULTI, "another kind");
  source = merklize_source_memory(leaves, n * 32);
  CHECK_OK(merklize_build(builder, &source, &fresh));
  CHECK_OK(merklize_tree_root(fresh, expected));
  CHECK(memcmp(root, expected, 32) == 0, "the returned root differs from a fresh build");
  CHECK_OK(merklize_prove_multi(fresh, batch, count, &want));
  test_same_proof(proof, want, "merklize_device_tree_update_proved");
  CHECK_OK(merklize_proof_indices(proof, &indices, &proven_count));
  for (i = 0; i < proven_count; ++i)
    memcpy(proven + i * 32, leaves + indices[i] * 32, 32);
  CHECK(verifies(proof, proven, expected), "the proof does not verify: %s", merklize_last_error());
  if (strcmp(hash, "sha256") == 0) {
    CHECK(independent_root(proof, k, strcmp(shape, "zero") == 0, proven, computed),
          "the proof's node count differs from the independent climb's");
    CHECK(memcmp(computed, expected, 32) == 0, "the independent verifier's root differs");
  }
  check_encoding(proof, proven, expected);
  merklize_proof_free(want);
  merklize_proof_free(proof);
  merklize_tree_free(fresh);
  merklize_device_tree_free(t);
  merklize_builder_free(builder);
}

/* `text` with its first `from` replaced by `to`, decoded: refused, naming `part`. */
static void check_refused(const char *text, const char *from, const char *to, const char *part) {
  static char hostile[MAX_TEXT];
  const char *at = strstr(text, from);
  merklize_proof *proof = NULL;
  CHECK(at != NULL, "no %s in %s", from, text);
  memcpy(hostile, text, (size_t)(at - text));
  strcpy(hostile + (at - text), to);
  strcat(hostile, at + strlen(from));
  CHECK_FAILS(merklize_proof_decode(hostile, strlen(hostile), MERKLIZE_ENCODING_JSON, &proof),
              MERKLIZE_ERROR_DECODE, part);
  CHECK(proof == NULL, "a refused decode wrote the proof");
}

/* merklize_prove_multi of a k-ary tree that kept its root alone: refused, the proof untouched. */
static void check_root_only_refused(merklize_device *device, const uint8_t *leaves) {
  merklize_tree_config config = test_config("sha256", "promote");
  const merklize_source source = merklize_source_memory(leaves, 20 * 32);
  const uint64_t indices[] = {1};
  merklize_builder *builder;
  merklize_tree *tree = NULL;
  merklize_proof *proof = NULL;
  config.arity = 4;
  config.keep = MERKLIZE_KEEP_ROOT_ONLY;
  builder = test_builder(device, &config);
  CHECK_OK(merklize_build(builder, &source, &tree));
  CHECK_FAILS(merklize_prove_multi(tree, indices, 1, &proof), MERKLIZE_ERROR_ARGUMENT,
              "MERKLIZE_KEEP_ALL");
  CHECK(proof == NULL, "a refused proof was written");
  merklize_tree_free(tree);
  merklize_builder_free(builder);
}

/* Hostile JSON, from a proof of leaves 1 and 6 of 20 at arity 4 (shape promote). */
static void check_decode_refusals(merklize_device *device) {
  static uint8_t leaves[20 * 32];
  static char text[MAX_TEXT];
  const uint64_t indices[] = {6, 1};
  merklize_builder *builder = tree_case_kary_builder(device, "sha256", "promote", 4);
  const merklize_source source = merklize_source_memory(leaves, sizeof leaves);
  merklize_tree *tree = NULL;
  merklize_proof *proof = NULL;
  char *last;
  size_t i;
  for (i = 0; i < 20; ++i)
    random_leaf(leaves + i * 32);
  CHECK_OK(merklize_build(builder, &source, &tree));
  CHECK_OK(merklize_prove_multi(tree, indices, 2, &proof));
  json_of(proof, text);
  printf("refusals of %s\n", text);
  CHECK(strstr(text, "\"indices\":[1,6],") != NULL, "the indices are not sorted in %s", text);
  check_refused(text, "kary-multiproof", "kary-inclusion", "\"indices\"");
  check_refused(text, "\"indices\":[1,6]", "\"indices\":[6,1]", "strictly increasing");
  check_refused(text, "\"indices\":[1,6]", "\"indices\":[1,1]", "strictly increasing");
  check_refused(text, "\"indices\":[1,6]", "\"indices\":[1,20]", "below the leaf count");
  check_refused(text, "\"indices\":[1,6]", "\"indices\":[1,6,7]", "nodes");
  check_refused(text, "\"indices\":[1,6]", "\"indices\":[1]", "nodes");
  check_refused(text, "\"leaf_count\":20", "\"leaf_count\":0", "leaf_count");
  check_refused(text, "\"leaf_count\":20", "\"leaf_count\":18446744073709551615", "nodes");
  check_refused(text, "\"leaf_count\":20", "\"leaf_count\":18446744073709551616", "leaf_count");
  check_refused(text, "\"arity\":4", "\"arity\":3", "arity");
  check_refused(text, "\"arity\":4", "\"arity\":4294967300", "arity");
  check_refused(text, "\"arity\":4", "\"arity\":-4", "arity");
  check_refused(text, "\"hash\":\"sha256\"", "\"hash\":\"md5\"", "md5");
  check_refused(text, "\"pad\":\"promote\"", "\"pad\":\"odd\"", "odd");
  check_refused(text, "\"nodes\":[\"", "\"nodes\":[\"zz", "nodes");
  check_refused(text, "\"nodes\":[\"", "\"nodes\":[\"00\",\"", "nodes");
  check_refused(text, "\"nodes\":[", "\"nodes\":[\"" HEX64 "\",", "nodes");
  check_refused(text, "\"kind\"", "\"extra\":1,\"kind\"", "unknown member");
  check_refused(text, "\"arity\":4,", "\"arity\":4,\"arity\":4,", "given twice");
  check_refused(text, "\"arity\":4,", "", "no \"arity\"");
  last = strrchr(text, ',');
  check_refused(text, last, "]}", "nodes"); /* the last node gone */
  merklize_proof_free(proof);
  merklize_tree_free(tree);
  merklize_builder_free(builder);
  check_root_only_refused(device, leaves);
}

int main(void) {
  merklize_device *device = test_device();
  size_t h, s, a, i;
  check_decode_refusals(device);
  for (h = 0; h < sizeof hashes / sizeof hashes[0]; ++h)
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
      for (a = 0; a < sizeof arities / sizeof arities[0]; ++a) {
        const uint64_t k = arities[a];
        const uint64_t sizes[] = {1, k - 1, k + 1, k * k + 1, 300};
        for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
          check_case(device, hashes[h], shapes[s], arities[a], sizes[i]);
      }
  merklize_device_free(device);
  printf("ok\n");
  return 0;
}
