/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Proofs through the C ABI: inclusion proofs (from a kept tree, and streamed from memory, a path
 * and a descriptor), of SSZ list elements and of data blocks, multiproofs, consistency proofs and
 * k-ary proofs. Each is the CLI's proof to the byte (`merklize proof`, `merklize consistency`),
 * round-trips through JSON and binary, verifies against the root the CLI prints, is accepted by
 * `merklize verify`, and is rejected with a reason once tampered with. Consistency proofs verify
 * between roots of OpenSSL's RFC 6962 trees. */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char json[1 << 16];

/* The proof's JSON, NUL-terminated, in `json`. */
static const char *json_of(const merklize_proof *proof) {
  merklize_bytes *bytes = NULL;
  CHECK_OK(merklize_proof_encode(proof, MERKLIZE_ENCODING_JSON, &bytes));
  CHECK(merklize_bytes_size(bytes) < sizeof json, "a proof of %zu bytes of JSON",
        merklize_bytes_size(bytes));
  memcpy(json, merklize_bytes_data(bytes), merklize_bytes_size(bytes));
  json[merklize_bytes_size(bytes)] = '\0';
  merklize_bytes_free(bytes);
  return json;
}

/* Decoded from its own encoding, the proof encodes to the same bytes again. */
static void check_round_trip(const merklize_proof *proof, merklize_encoding encoding) {
  merklize_bytes *bytes = NULL, *again = NULL;
  merklize_proof *decoded = NULL;
  CHECK_OK(merklize_proof_encode(proof, encoding, &bytes));
  CHECK_OK(merklize_proof_decode(merklize_bytes_data(bytes), merklize_bytes_size(bytes), encoding,
                                 &decoded));
  CHECK(merklize_proof_get_kind(decoded) == merklize_proof_get_kind(proof), "the kind changed");
  CHECK(merklize_proof_leaf_count(decoded) == merklize_proof_leaf_count(proof),
        "the leaf count changed");
  CHECK_OK(merklize_proof_encode(decoded, encoding, &again));
  CHECK(merklize_bytes_size(again) == merklize_bytes_size(bytes) &&
            memcmp(merklize_bytes_data(again), merklize_bytes_data(bytes),
                   merklize_bytes_size(bytes)) == 0,
        "encoding %d does not round-trip", (int)encoding);
  merklize_bytes_free(bytes);
  merklize_bytes_free(again);
  merklize_proof_free(decoded);
}

/* Valid for `leaves` under `root`; invalid, with a reason, with a leaf or a node changed. */
static void check_verifies(const merklize_proof *proof, const uint8_t *leaves, size_t count,
                           const uint8_t root[32]) {
  uint8_t *changed = malloc(count * 32), node[32];
  const uint8_t *nodes;
  size_t node_count;
  merklize_bytes *bytes = NULL;
  merklize_proof *tampered = NULL;
  int valid = 7;
  CHECK(changed != NULL, "out of memory");
  CHECK_OK(merklize_proof_verify(proof, leaves, count, root, &valid));
  CHECK(valid == 1, "a proof does not verify: %s", merklize_last_error());
  memcpy(changed, leaves, count * 32);
  changed[count * 32 - 1] ^= 1;
  CHECK_OK(merklize_proof_verify(proof, changed, count, root, &valid));
  CHECK(valid == 0 && strstr(merklize_last_error(), "invalid proof"),
        "a changed leaf verifies, or no reason: %s", merklize_last_error());
  CHECK_OK(merklize_proof_nodes(proof, &nodes, &node_count));
  if (node_count > 0 && merklize_proof_get_kind(proof) != MERKLIZE_PROOF_KARY) {
    /* The first node, changed in the binary encoding: found by its bytes (its last occurrence:
     * the nodes end the encoding, and a zero node's bytes may start in the count before them),
     * flipped, decoded. */
    uint8_t *copy;
    size_t i, size;
    CHECK_OK(merklize_proof_encode(proof, MERKLIZE_ENCODING_BINARY, &bytes));
    size = merklize_bytes_size(bytes);
    copy = malloc(size);
    CHECK(copy != NULL, "out of memory");
    memcpy(copy, merklize_bytes_data(bytes), size);
    memcpy(node, nodes, 32);
    for (i = size - 32; i > 0 && memcmp(copy + i, node, 32) != 0; --i)
      ;
    CHECK(memcmp(copy + i, node, 32) == 0, "the first node is not in the binary encoding");
    copy[i] ^= 0x80;
    CHECK_OK(merklize_proof_decode(copy, size, MERKLIZE_ENCODING_BINARY, &tampered));
    CHECK_OK(merklize_proof_verify(tampered, leaves, count, root, &valid));
    CHECK(valid == 0 && *merklize_last_error(), "a proof with a changed node verifies");
    merklize_proof_free(tampered);
    merklize_bytes_free(bytes);
    free(copy);
  }
  free(changed);
}

/* `merklize verify` takes the JSON this library wrote. */
static void check_cli_verifies(const merklize_proof *proof, const uint8_t *leaf,
                               const uint8_t *root) {
  char leaf_hex[65], root_hex[65];
  test_write_file(test_path("proof.json"), json_of(proof), strlen(json));
  test_hex(leaf, 32, leaf_hex);
  test_hex(root, 32, root_hex);
  test_cli("verify '%s' %s %s > /dev/null", test_path("proof.json"), leaf_hex, root_hex);
}

static void check_accessors(const merklize_proof *proof, merklize_proof_kind kind,
                            uint64_t leaf_count, uint64_t index) {
  const uint64_t *indices;
  size_t count;
  CHECK(merklize_proof_get_kind(proof) == kind, "kind %d, expected %d",
        (int)merklize_proof_get_kind(proof), (int)kind);
  CHECK(merklize_proof_leaf_count(proof) == leaf_count, "leaf count %llu, expected %llu",
        (unsigned long long)merklize_proof_leaf_count(proof), (unsigned long long)leaf_count);
  CHECK_OK(merklize_proof_indices(proof, &indices, &count));
  CHECK(count == 1 && indices[0] == index, "the proof's index is not %llu",
        (unsigned long long)index);
}

/* Inclusion proofs of a configuration (extra: the CLI options beyond --hash and --pad) at
 * leaves `indices` of n: from the tree, and streamed from memory, a path and a descriptor. */
static void check_inclusion(merklize_device *device, merklize_tree_config config, const char *extra,
                            const uint8_t *leaves, uint64_t n) {
  const char *path = test_path("leaves");
  const uint64_t indices[3] = {0, n / 2, n - 1};
  merklize_builder *builder;
  merklize_tree *tree = NULL;
  merklize_source sources[3];
  uint8_t root[32];
  size_t i, s;
  int fd;
  test_write_file(path, leaves, n * 32);
  fd = open(path, O_RDONLY);
  CHECK(fd >= 0, "cannot open %s", path);
  sources[0] = merklize_source_memory(leaves, n * 32);
  sources[1] = merklize_source_path(path);
  sources[2] = merklize_source_fd(fd);
  builder = test_builder(device, &config);
  CHECK_OK(merklize_build(builder, &sources[0], &tree));
  CHECK_OK(merklize_tree_root(tree, root));
  CHECK(test_digest_is(root, test_cli("root --hash %s --pad %s %s '%s'", config.hash, config.shape,
                                      extra, path)),
        "the tree's root is not merklize root's");
  for (i = 0; i < 3; ++i) {
    char expected[sizeof json];
    merklize_proof *proof = NULL;
    strcpy(expected, test_cli("proof --hash %s --pad %s %s -i %llu '%s'", config.hash, config.shape,
                              extra, (unsigned long long)indices[i], path));
    CHECK_OK(merklize_prove(tree, indices[i], &proof));
    CHECK(strcmp(json_of(proof), expected) == 0, "merklize_prove: %s, merklize proof: %s", json,
          expected);
    check_accessors(proof, MERKLIZE_PROOF_INCLUSION, n, indices[i]);
    check_round_trip(proof, MERKLIZE_ENCODING_JSON);
    check_round_trip(proof, MERKLIZE_ENCODING_BINARY);
    check_verifies(proof, leaves + indices[i] * 32, 1, root);
    check_cli_verifies(proof, leaves + indices[i] * 32, root);
    merklize_proof_free(proof);
    for (s = 0; s < 3; ++s) {
      CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
      CHECK_OK(merklize_prove_source(builder, &sources[s], indices[i], &proof));
      CHECK(strcmp(json_of(proof), expected) == 0, "merklize_prove_source %zu: %s, not %s", s, json,
            expected);
      merklize_proof_free(proof);
    }
  }
  close(fd);
  merklize_tree_free(tree);
  merklize_builder_free(builder);
}

static void inclusion_proofs(merklize_device *device, const uint8_t *leaves) {
  static const char *const hashes[][2] = {{"blake3", "promote"},        {"blake3", "zero"},
                                          {"blake3-parent", "promote"}, {"blake3-parent", "zero"},
                                          {"sha256", "promote"},        {"sha256", "zero"},
                                          {"rfc6962", "promote"}};
  static const uint64_t sizes[] = {1, 3, 257, 1025};
  size_t h, s;
  for (h = 0; h < sizeof hashes / sizeof hashes[0]; ++h)
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      check_inclusion(device, test_config(hashes[h][0], hashes[h][1]), "", leaves, sizes[s]);
  {
    merklize_tree_config config = test_config("sha256", "zero");
    config.depth = 12;
    check_inclusion(device, config, "--depth 12", leaves, 1025);
    config.mix_in_length = 1;
    config.length = 1000;
    check_inclusion(device, config, "--depth 12 --mix-in-length 1000", leaves, 1025);
  }
  printf("ok: inclusion proofs of every hash and shape, a fixed depth and an SSZ list: the CLI's "
         "JSON, both encodings, verified, tampered rejected, from trees, memory, paths, fds\n");
}

/* The proof of a data block's leaf: the CLI's, and it verifies with SHA-256 of the block. */
static void block_proofs(merklize_device *device) {
  static uint8_t data[1000 * 64 + 10];
  merklize_tree_config config = test_config("sha256", "promote");
  merklize_builder *builder;
  const merklize_source memory = merklize_source_memory(data, sizeof data);
  uint8_t root[32], leaf[32];
  uint64_t index;
  for (index = 0; index < sizeof data; ++index)
    data[index] = (uint8_t)(index % 253);
  config.leaf_size = 64;
  builder = test_builder(device, &config);
  test_write_file(test_path("data"), data, sizeof data);
  CHECK_OK(merklize_root(builder, &memory, root));
  for (index = 0; index <= 1000; index += 250) {
    merklize_proof *proof = NULL;
    CHECK_OK(merklize_prove_source(builder, &memory, index, &proof));
    CHECK(strcmp(json_of(proof), test_cli("proof --hash sha256 --leaf-size 64 -i %llu '%s'",
                                          (unsigned long long)index, test_path("data"))) == 0,
          "the proof of block %llu is not the CLI's", (unsigned long long)index);
    test_sha256(data + index * 64, index == 1000 ? 10 : 64, leaf);
    check_verifies(proof, leaf, 1, root);
    merklize_proof_free(proof);
  }
  merklize_builder_free(builder);
  printf("ok: proofs of data blocks' leaves: the CLI's, verified with OpenSSL's leaf\n");
}

static void multiproofs(merklize_device *device, const uint8_t *leaves) {
  static const char *const hashes[] = {"blake3", "sha256", "rfc6962", "blake3-parent"};
  const uint64_t asked[] = {1024, 0, 513, 0, 7, 8};
  const uint64_t sorted[] = {0, 7, 8, 513, 1024};
  uint8_t chosen[5 * 32], root[32];
  size_t h, i, count;
  const uint64_t *indices;
  for (i = 0; i < 5; ++i)
    memcpy(chosen + i * 32, leaves + sorted[i] * 32, 32);
  for (h = 0; h < 4; ++h) {
    merklize_tree_config config = test_config(hashes[h], "promote");
    merklize_builder *builder = test_builder(device, &config);
    const merklize_source source = merklize_source_memory(leaves, 1025 * 32);
    merklize_tree *tree = NULL;
    merklize_proof *proof = NULL;
    CHECK_OK(merklize_build(builder, &source, &tree));
    CHECK_OK(merklize_tree_root(tree, root));
    CHECK_OK(merklize_prove_multi(tree, asked, 6, &proof));
    CHECK(merklize_proof_get_kind(proof) == MERKLIZE_PROOF_MULTI, "not a multiproof");
    CHECK_OK(merklize_proof_indices(proof, &indices, &count));
    CHECK(count == 5 && memcmp(indices, sorted, sizeof sorted) == 0,
          "the indices are not sorted once each");
    check_round_trip(proof, MERKLIZE_ENCODING_JSON);
    check_round_trip(proof, MERKLIZE_ENCODING_BINARY);
    check_verifies(proof, chosen, 5, root);
    merklize_proof_free(proof);
    merklize_tree_free(tree);
    merklize_builder_free(builder);
  }
  printf("ok: multiproofs: indices sorted once each, both encodings, verified, tampered "
         "rejected\n");
}

/* Consistency proofs of rfc6962 trees between OpenSSL's old and new roots, the CLI's JSON. */
static void consistency_proofs(merklize_device *device, const uint8_t *leaves) {
  static const uint64_t old_sizes[] = {0, 1, 3, 256, 257, 1000, 1025};
  merklize_tree_config config = test_config("rfc6962", NULL);
  merklize_builder *builder = test_builder(device, &config);
  const merklize_source source = merklize_source_memory(leaves, 1025 * 32);
  merklize_tree *tree = NULL;
  uint8_t old_root[32], new_root[32];
  char old_hex[65], new_hex[65], expected[8192];
  size_t i;
  int valid = 7;
  test_write_file(test_path("log"), leaves, 1025 * 32);
  CHECK_OK(merklize_build(builder, &source, &tree));
  test_sha256_root(leaves, 1025, 1, 0, -1, new_root);
  for (i = 0; i < sizeof old_sizes / sizeof old_sizes[0]; ++i) {
    merklize_proof *proof = NULL;
    const uint64_t *indices;
    size_t count;
    CHECK_OK(merklize_prove_consistency(tree, old_sizes[i], &proof));
    test_sha256_root(leaves, old_sizes[i], 1, 0, -1, old_root);
    /* The CLI prints both tree heads, then the proof. */
    test_hex(old_root, 32, old_hex);
    test_hex(new_root, 32, new_hex);
    snprintf(expected, sizeof expected,
             "old tree head: %llu leaves, root %s\nnew tree head: 1025 leaves, root %s\n%s",
             (unsigned long long)old_sizes[i], old_hex, new_hex, json_of(proof));
    CHECK(strcmp(expected, test_cli("consistency --hash rfc6962 --old-size %llu '%s'",
                                    (unsigned long long)old_sizes[i], test_path("log"))) == 0,
          "the consistency proof from %llu is not the CLI's", (unsigned long long)old_sizes[i]);
    CHECK(merklize_proof_get_kind(proof) == MERKLIZE_PROOF_CONSISTENCY, "not a consistency proof");
    CHECK(merklize_proof_leaf_count(proof) == 1025, "not the new tree's size");
    CHECK_OK(merklize_proof_indices(proof, &indices, &count));
    CHECK(count == 1 && indices[0] == old_sizes[i], "the old size is not the proof's index");
    check_round_trip(proof, MERKLIZE_ENCODING_JSON);
    check_round_trip(proof, MERKLIZE_ENCODING_BINARY);
    CHECK_OK(merklize_verify_consistency(proof, old_root, new_root, &valid));
    CHECK(valid == 1, "consistency from %llu: %s", (unsigned long long)old_sizes[i],
          merklize_last_error());
    old_root[0] ^= 1;
    CHECK_OK(merklize_verify_consistency(proof, old_root, new_root, &valid));
    CHECK(valid == 0 && strstr(merklize_last_error(), "invalid proof"),
          "a wrong old root is consistent");
    CHECK_FAILS(merklize_proof_verify(proof, leaves, 1, new_root, &valid), MERKLIZE_ERROR_ARGUMENT,
                "merklize_verify_consistency");
    merklize_proof_free(proof);
  }
  CHECK_FAILS(merklize_prove_consistency(tree, 1026, &(merklize_proof *){NULL}),
              MERKLIZE_ERROR_ARGUMENT, "1026");
  merklize_tree_free(tree);
  merklize_builder_free(builder);
  printf("ok: consistency proofs: the CLI's, between OpenSSL's RFC 6962 roots, both encodings\n");
}

static void kary_proofs(merklize_device *device, const uint8_t *leaves) {
  static const struct {
    const char *hash, *shape;
    unsigned arity;
  } cases[] = {{"sha256", "promote", 4}, {"sha256", "zero", 16}, {"blake3", "promote", 16}};
  const merklize_source source = merklize_source_memory(leaves, 1025 * 32);
  const uint64_t indices[] = {0, 513, 1024};
  size_t c, i;
  test_write_file(test_path("leaves"), leaves, 1025 * 32);
  for (c = 0; c < 3; ++c) {
    merklize_tree_config config = test_config(cases[c].hash, cases[c].shape);
    merklize_builder *builder;
    merklize_tree *tree = NULL;
    uint8_t root[32];
    config.arity = cases[c].arity;
    builder = test_builder(device, &config);
    CHECK_OK(merklize_build(builder, &source, &tree));
    CHECK_OK(merklize_tree_root(tree, root));
    for (i = 0; i < 3; ++i) {
      merklize_proof *proof = NULL, *streamed = NULL;
      merklize_bytes *bytes = NULL;
      char expected[sizeof json];
      strcpy(expected, test_cli("proof --arity %u --hash %s --pad %s -i %llu '%s'", cases[c].arity,
                                cases[c].hash, cases[c].shape, (unsigned long long)indices[i],
                                test_path("leaves")));
      CHECK_OK(merklize_prove(tree, indices[i], &proof));
      CHECK(strcmp(json_of(proof), expected) == 0, "k-ary proof %s, CLI %s", json, expected);
      CHECK_OK(merklize_prove_source(builder, &source, indices[i], &streamed));
      CHECK(strcmp(json_of(streamed), expected) == 0, "streamed k-ary proof %s", json);
      check_accessors(proof, MERKLIZE_PROOF_KARY, 1025, indices[i]);
      check_round_trip(proof, MERKLIZE_ENCODING_JSON);
      CHECK_FAILS(merklize_proof_encode(proof, MERKLIZE_ENCODING_BINARY, &bytes),
                  MERKLIZE_ERROR_ARGUMENT, "JSON");
      check_verifies(proof, leaves + indices[i] * 32, 1, root);
      check_cli_verifies(proof, leaves + indices[i] * 32, root);
      merklize_proof_free(proof);
      merklize_proof_free(streamed);
    }
    merklize_tree_free(tree);
    merklize_builder_free(builder);
  }
  printf("ok: k-ary proofs of arity 4 and 16: the CLI's, from trees and streamed, verified\n");
}

/* Encodings that are not proofs fail to decode, saying where, and write no proof. */
static void bad_encodings(void) {
  static const char *const texts[] = {"",
                                      "{",
                                      "[]",
                                      "{\"kind\":\"inclusion\"}",
                                      "{\"kind\":\"sideways\",\"leaf_count\":1}",
                                      "{\"kind\":\"kary-inclusion\",\"arity\":3}"};
  merklize_proof *proof = (merklize_proof *)&json; /* poison: must stay */
  size_t i;
  for (i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
    CHECK_FAILS(merklize_proof_decode(texts[i], strlen(texts[i]), MERKLIZE_ENCODING_JSON, &proof),
                MERKLIZE_ERROR_DECODE, NULL);
    CHECK(proof == (merklize_proof *)&json, "a failed decode wrote its output");
  }
  CHECK_FAILS(merklize_proof_decode(texts[4], strlen(texts[4]), MERKLIZE_ENCODING_JSON, &proof),
              MERKLIZE_ERROR_DECODE, "unknown kind");
  CHECK_FAILS(merklize_proof_decode("MKLP\001\001", 6, MERKLIZE_ENCODING_BINARY, &proof),
              MERKLIZE_ERROR_DECODE, "truncated");
  CHECK_FAILS(merklize_proof_decode("XXXX", 4, MERKLIZE_ENCODING_BINARY, &proof),
              MERKLIZE_ERROR_DECODE, "binary proof");
  printf("ok: malformed encodings fail with MERKLIZE_ERROR_DECODE and a reason\n");
}

/* A tree that keeps fewer levels has no proofs, and says how to get them. */
static void proofs_need_levels(merklize_device *device, const uint8_t *leaves) {
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder;
  merklize_tree *tree = NULL;
  const merklize_source source = merklize_source_memory(leaves, 100 * 32);
  merklize_proof *proof = (merklize_proof *)&json;
  config.keep = MERKLIZE_KEEP_ROOT_ONLY;
  builder = test_builder(device, &config);
  CHECK_OK(merklize_build(builder, &source, &tree));
  CHECK_FAILS(merklize_prove(tree, 3, &proof), MERKLIZE_ERROR_ARGUMENT, "MERKLIZE_KEEP_ALL");
  CHECK(proof == (merklize_proof *)&json, "a failed proof wrote its output");
  merklize_tree_free(tree);
  merklize_builder_free(builder);
  config = test_config("blake3-parent", NULL);
  builder = test_builder(device, &config);
  CHECK_OK(merklize_build(builder, &source, &tree));
  CHECK_FAILS(merklize_prove_consistency(tree, 3, &proof), MERKLIZE_ERROR_ARGUMENT,
              "blake3-parent");
  CHECK_FAILS(merklize_prove(tree, 100, &proof), MERKLIZE_ERROR_ARGUMENT, "out of range");
  CHECK_FAILS(merklize_prove_source(builder, &source, 100, &proof), MERKLIZE_ERROR_ARGUMENT,
              "out of range");
  merklize_tree_free(tree);
  merklize_builder_free(builder);
  printf("ok: proofs of trees without every level, of blake3-parent consistency and of leaves "
         "out of range are refused with the reason\n");
}

int main(void) {
  merklize_device *device = test_device();
  uint8_t *leaves = test_vector_leaves(device, 0, 1025);
  inclusion_proofs(device, leaves);
  block_proofs(device);
  multiproofs(device, leaves);
  consistency_proofs(device, leaves);
  kary_proofs(device, leaves);
  bad_encodings();
  proofs_need_levels(device, leaves);
  free(leaves);
  merklize_device_free(device);
  return 0;
}
