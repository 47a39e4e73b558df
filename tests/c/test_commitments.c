/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* OpenZeppelin's StandardMerkleTree, Bitcoin's merkle root and Filecoin's piece commitment
 * through the C ABI: roots, dumps, proofs and piece CIDs are those `merklize root|proof --format`
 * prints and writes (its own tests hold it against eth-abi, python-bitcoinlib, a model of
 * Filecoin's rules and the published data of tests/vectors/commitments/), from memory, paths and
 * descriptors; bad input is refused, naming it, the outputs untouched. */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* merklize_bytes as a NUL-terminated string (malloc'd), the bytes freed. */
static char *text_of(merklize_bytes *bytes) {
  const size_t size = merklize_bytes_size(bytes);
  char *text = malloc(size + 1);
  CHECK(text != NULL, "out of memory");
  memcpy(text, merklize_bytes_data(bytes), size);
  text[size] = '\0';
  merklize_bytes_free(bytes);
  return text;
}

static const char oz_values[] =
    "{\"leafEncoding\": [\"address\", \"uint256\", \"string\"], \"values\": [\n"
    "  [\"0x1111111111111111111111111111111111111111\", \"5000000000000000000\", \"a\"],\n"
    "  [\"0x2222222222222222222222222222222222222222\", 2500, \"b\\\"c\"],\n"
    "  [\"0x3333333333333333333333333333333333333333\", \"0x10\", \"\"],\n"
    "  [\"0x4444444444444444444444444444444444444444\", \"7\", \"d\\u00e9\"],\n"
    "  [\"0x5555555555555555555555555555555555555555\", \"8\", \"e\"]]}";

static void oz_standard(merklize_device *device) {
  const char *path = test_path("oz.json");
  static const uint64_t several[] = {4, 0, 2};
  int sort;
  test_write_file(path, oz_values, strlen(oz_values));
  for (sort = 0; sort < 2; ++sort) {
    const char *unsorted = sort ? "" : "--no-sort-leaves";
    uint8_t root[32];
    merklize_bytes *dump = NULL, *proof = NULL;
    char hex[67], line[128], *text;
    size_t dump_size;
    uint8_t *expected;
    uint64_t v;
    strcpy(line, test_cli("root --format oz-standard %s --dump '%s' '%s'", unsorted,
                          test_path("dump.json"), path));
    expected = test_read_file(test_path("dump.json"), &dump_size);
    test_poison(root, sizeof root);
    CHECK_OK(merklize_oz_standard_tree(device, oz_values, strlen(oz_values), sort, root, &dump));
    strcpy(hex, "0x");
    test_hex(root, 32, hex + 2);
    CHECK(strcmp(line, hex) == 0, "sortLeaves %d: root %s, the CLI printed %s", sort, hex, line);
    text = text_of(dump);
    CHECK(strlen(text) + 1 == dump_size && memcmp(text, expected, dump_size - 1) == 0,
          "sortLeaves %d: the dump is not the CLI's:\n%s", sort, text);
    /* The dump read back (sortLeaves then has no say) is the same tree. */
    test_poison(root, sizeof root);
    CHECK_OK(merklize_oz_standard_tree(device, text, strlen(text), 1, root, NULL));
    test_hex(root, 32, hex + 2);
    CHECK(strcmp(line, hex) == 0, "the dump read back has the root %s", hex);
    free(text);
    free(expected);
    for (v = 0; v < 5; ++v) {
      CHECK_OK(
          merklize_oz_standard_proof(device, oz_values, strlen(oz_values), sort, &v, 1, &proof));
      text = text_of(proof);
      CHECK(strcmp(text, test_cli("proof --format oz-standard %s -i %u '%s'", unsorted, (unsigned)v,
                                  path)) == 0,
            "sortLeaves %d, value %u: proof %s", sort, (unsigned)v, text);
      free(text);
    }
    CHECK_OK(
        merklize_oz_standard_proof(device, oz_values, strlen(oz_values), sort, several, 3, &proof));
    text = text_of(proof);
    CHECK(strcmp(text, test_cli("proof --format oz-standard %s -i 4,0,2 '%s'", unsorted, path)) ==
              0,
          "sortLeaves %d: multiproof %s", sort, text);
    CHECK(strstr(text, "\"proofFlags\":[") != NULL, "no proofFlags in %s", text);
    free(text);
  }
  printf("ok: OpenZeppelin's root, dump, proofs and multiproof are the CLI's, leaves sorted and "
         "not\n");
}

/* Bitcoin's root (and mutation flag) of `n` txids through each source, in internal order and in
 * display order, against the CLI. */
static void bitcoin_list(merklize_device *device, const uint8_t *txids, size_t n) {
  const char *binary = test_path("txids"), *lines = test_path("txids.txt");
  char *text = malloc(65 * n + 1), hex[65], line[128];
  merklize_source sources[4];
  size_t i, s;
  int fd, mutated = -1;
  uint8_t root[32];
  CHECK(text != NULL, "out of memory");
  for (i = 0; i < n; ++i) { /* display order: each txid's bytes reversed, then hex */
    uint8_t reversed[32];
    size_t b;
    for (b = 0; b < 32; ++b)
      reversed[b] = txids[32 * i + 31 - b];
    test_hex(reversed, 32, text + 65 * i);
    text[65 * i + 64] = '\n';
  }
  text[65 * n] = '\0';
  test_write_file(binary, txids, 32 * n);
  test_write_file(lines, text, 65 * n);
  fd = open(binary, O_RDONLY);
  CHECK(fd >= 0, "cannot open %s", binary);
  sources[0] = merklize_source_memory(txids, 32 * n);
  sources[1] = merklize_source_path(binary);
  sources[2] = merklize_source_fd(fd);
  sources[3] = merklize_source_memory(text, 65 * n);
  strcpy(line, test_cli("root --format bitcoin '%s'", binary));
  for (s = 0; s < 4; ++s) {
    const int display = s == 3;
    test_poison(root, sizeof root);
    CHECK_OK(merklize_bitcoin_root(device, &sources[s], display, root, &mutated));
    test_hex(root, 32, hex);
    if (display) strcpy(line, test_cli("root --format bitcoin --display-order '%s'", lines));
    CHECK(strcmp(line, hex) == 0 && mutated == 0, "%zu txids, source %zu: %s, the CLI printed %s",
          n, s, hex, line);
  }
  for (i = 0; i < n; i += n / 3 + 1) {
    merklize_bytes *proof = NULL;
    char *json;
    CHECK_OK(merklize_bitcoin_proof(device, &sources[3], 1, i, &proof));
    json = text_of(proof);
    CHECK(strcmp(json, test_cli("proof --format bitcoin --display-order -i %zu '%s'", i, lines)) ==
              0,
          "%zu txids: branch %zu: %s", n, i, json);
    free(json);
  }
  close(fd);
  free(text);
}

static void bitcoin(merklize_device *device, const uint8_t *data) {
  static const size_t sizes[] = {1, 2, 3, 7, 8, 9, 255, 256, 257};
  uint8_t doubled[32 * 4], first[32], second[32];
  merklize_source source;
  size_t s;
  int mutated = 0;
  for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    bitcoin_list(device, data, sizes[s]);
  /* CVE-2012-2459: [a, b, c, c] has the root of [a, b, c], and the flag says so. */
  memcpy(doubled, data, 32 * 3);
  memcpy(doubled + 32 * 3, data + 32 * 2, 32);
  source = merklize_source_memory(data, 32 * 3);
  CHECK_OK(merklize_bitcoin_root(device, &source, 0, first, &mutated));
  CHECK(mutated == 0, "three txids flagged as mutated");
  source = merklize_source_memory(doubled, sizeof doubled);
  CHECK_OK(merklize_bitcoin_root(device, &source, 0, second, &mutated));
  CHECK(mutated == 1 && memcmp(first, second, 32) == 0, "the doubled list: mutated %d", mutated);
  printf("ok: Bitcoin's roots and branches are the CLI's, internal and display order, 1 to 257 "
         "txids; a doubled last txid is flagged\n");
}

static void filecoin(merklize_device *device, const uint8_t *data) {
  static const size_t sizes[] = {1, 126, 127, 128, 254, 255, 1016, 1017, 100000};
  size_t s;
  for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const char *path = test_path("piece");
    merklize_source sources[2];
    uint8_t commitment[32];
    uint64_t padded = 0;
    char hex[65], line[128], cid[MERKLIZE_PIECE_CID_SIZE];
    size_t k;
    test_write_file(path, data, sizes[s]);
    strcpy(line, test_cli("root --format filecoin-tree-d '%s'", path));
    sources[0] = merklize_source_memory(data, sizes[s]);
    sources[1] = merklize_source_path(path);
    for (k = 0; k < 2; ++k) {
      test_poison(commitment, sizeof commitment);
      CHECK_OK(merklize_filecoin_commitment(device, &sources[k], commitment, &padded));
      test_hex(commitment, 32, hex);
      CHECK(strcmp(line, hex) == 0, "%zu bytes, source %zu: %s, the CLI printed %s", sizes[s], k,
            hex, line);
      CHECK(padded >= 128 && (padded & (padded - 1)) == 0 && padded / 128 * 127 >= sizes[s] &&
                (padded == 128 || padded / 256 * 127 < sizes[s]),
            "%zu bytes: padded size %llu", sizes[s], (unsigned long long)padded);
    }
    CHECK_OK(merklize_filecoin_piece_cid(commitment, cid, sizeof cid));
    CHECK(strcmp(cid, test_cli("root --format filecoin-tree-d --cid '%s'", path)) == 0,
          "%zu bytes: CID %s", sizes[s], cid);
  }
  printf("ok: Filecoin's commitments and piece CIDs are the CLI's, 1 byte to 100,000\n");
}

static void refusals(merklize_device *device, const uint8_t *data) {
  static const char malformed[] = "{\"leafEncoding\": [\"bool\"], \"values\": [[true]";
  static const char wrong_type[] = "{\"leafEncoding\": [\"uint7\"], \"values\": [[1]]}";
  static const char too_large[] = "{\"leafEncoding\": [\"uint8\"], \"values\": [[1], [256]]}";
  const merklize_source empty = merklize_source_memory(data, 0);
  const merklize_source partial = merklize_source_memory(data, 33);
  const merklize_source bad_hex = merklize_source_memory("zz\n", 3);
  const uint64_t index = 5;
  uint8_t root[32];
  uint64_t padded = 7;
  merklize_bytes *bytes = (merklize_bytes *)root;
  char cid[MERKLIZE_PIECE_CID_SIZE];
  test_poison(root, sizeof root);
  test_poison(cid, sizeof cid);
  CHECK_FAILS(merklize_oz_standard_tree(device, malformed, strlen(malformed), 1, root, &bytes),
              MERKLIZE_ERROR_DECODE, "JSON");
  CHECK_FAILS(merklize_oz_standard_tree(device, wrong_type, strlen(wrong_type), 1, root, NULL),
              MERKLIZE_ERROR_DECODE, "ABI type \"uint7\"");
  CHECK_FAILS(merklize_oz_standard_tree(device, too_large, strlen(too_large), 1, root, NULL),
              MERKLIZE_ERROR_DECODE, "\"values\"[1][0]: \"256\" does not fit uint8");
  CHECK_FAILS(
      merklize_oz_standard_proof(device, oz_values, strlen(oz_values), 1, &index, 1, &bytes),
      MERKLIZE_ERROR_ARGUMENT, "value 5 is past");
  CHECK_FAILS(merklize_bitcoin_root(device, &empty, 0, root, NULL), MERKLIZE_ERROR_ARGUMENT,
              "holds no txid");
  CHECK_FAILS(merklize_bitcoin_root(device, &partial, 0, root, NULL), MERKLIZE_ERROR_ARGUMENT,
              "not a whole number of 32-byte txids");
  CHECK_FAILS(merklize_bitcoin_root(device, &bad_hex, 1, root, NULL), MERKLIZE_ERROR_ARGUMENT,
              "line 1: not a txid");
  CHECK_FAILS(merklize_bitcoin_proof(device, &partial, 0, 0, &bytes), MERKLIZE_ERROR_ARGUMENT,
              "not a whole number");
  CHECK_FAILS(merklize_filecoin_commitment(device, &empty, root, &padded), MERKLIZE_ERROR_ARGUMENT,
              "no commitment");
  CHECK_FAILS(merklize_filecoin_piece_cid(root, cid, MERKLIZE_PIECE_CID_SIZE - 1),
              MERKLIZE_ERROR_ARGUMENT, "cid_size");
  CHECK(test_is_poisoned(root, sizeof root) && test_is_poisoned(cid, sizeof cid) &&
            bytes == (merklize_bytes *)root && padded == 7,
        "a failed call wrote its outputs");
  printf("ok: malformed JSON, unknown types, values that do not fit, empty and partial txids, bad "
         "hex, no data and a short CID buffer are refused, outputs untouched\n");
}

int main(void) {
  merklize_device *device = test_device();
  uint8_t *data = malloc(100000);
  uint64_t state = 0x9E3779B97F4A7C15u;
  size_t i;
  CHECK(data != NULL, "out of memory");
  for (i = 0; i < 100000; ++i) { /* xorshift64: no two txids equal, so no tree looks mutated */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    data[i] = (uint8_t)(state >> 32);
  }
  oz_standard(device);
  bitcoin(device, data);
  filecoin(device, data);
  refusals(device, data);
  free(data);
  merklize_device_free(device);
  return 0;
}
