/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Hashing through the C ABI. `test_hashing vectors`: full BLAKE3 against the official vectors
 * (tests/vectors/blake3_official.json: hash, keyed_hash, derive_key, every output length up to
 * 131 bytes) from memory, paths and descriptors; the SHA-256 layer and RFC 6962 leaf hashes
 * against OpenSSL (and the leaves against `merklize leaf-hash`). `test_hashing b3sum`: BLAKE3 of
 * files of a few MiB (read by several threads) against the b3sum program, in its three modes
 * and with a long output. Outputs are poisoned: what a call must not write stays 0xAA. */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XOF_BYTES 131 /* the vectors' output length */

static const char key[] = "whats the Elvish word for friend";
static const char context[] = "BLAKE3 2019-12-27 16:29:52 test vectors context";

/* The `bytes` of output of one mode over a source, checked against `hex`, its first `bytes`
 * bytes; the output buffer's bytes past them must stay as they were. */
static void check_blake3(merklize_device *device, const merklize_blake3_mode *mode,
                         const merklize_source *source, size_t bytes, const char *hex) {
  uint8_t out[XOF_BYTES + 8];
  char got[2 * sizeof out + 1];
  test_poison(out, sizeof out);
  CHECK_OK(merklize_blake3(device, mode, source, out, bytes));
  test_hex(out, bytes, got);
  CHECK(strncmp(got, hex, 2 * bytes) == 0, "BLAKE3 mode %d, %zu bytes: %s, expected %.*s",
        mode ? (int)mode->kind : 0, bytes, got, (int)(2 * bytes), hex);
  CHECK(test_is_poisoned(out + bytes, sizeof out - bytes), "merklize_blake3 wrote past out_size");
}

static void official_vectors(merklize_device *device) {
  size_t size, cases = 0;
  char *text = (char *)test_read_file(MERKLIZE_TEST_VECTOR_DIR "/blake3_official.json", &size);
  const char *at;
  static uint8_t input[102400];
  size_t i, m;
  uint64_t length;
  merklize_blake3_mode modes[3];
  const char *names[3] = {"hash", "keyed_hash", "derive_key"};
  text = realloc(text, size + 1);
  text[size] = '\0';
  at = text;
  for (i = 0; i < sizeof input; ++i)
    input[i] = (uint8_t)(i % 251);
  modes[0].kind = MERKLIZE_BLAKE3_HASH;
  modes[1].kind = MERKLIZE_BLAKE3_KEYED;
  modes[1].key = (const uint8_t *)key;
  modes[2].kind = MERKLIZE_BLAKE3_DERIVE_KEY;
  modes[2].context = context;
  while (test_json_number(&at, "input_len", &length)) {
    const char *path = test_path("input");
    const merklize_source memory = merklize_source_memory(input, length);
    const merklize_source file = merklize_source_path(path);
    CHECK(length <= sizeof input, "an input of %llu bytes", (unsigned long long)length);
    test_write_file(path, input, length);
    for (m = 0; m < 3; ++m) {
      char hex[2 * XOF_BYTES + 1];
      int fd;
      merklize_source descriptor;
      CHECK(test_json_string(&at, names[m], hex, sizeof hex), "no %s for %llu bytes", names[m],
            (unsigned long long)length);
      check_blake3(device, &modes[m], &memory, 32, hex);
      check_blake3(device, &modes[m], &memory, XOF_BYTES, hex);
      check_blake3(device, &modes[m], &memory, 1 + length % XOF_BYTES, hex);
      check_blake3(device, &modes[m], &file, XOF_BYTES, hex);
      fd = open(path, O_RDONLY);
      CHECK(fd >= 0, "cannot open %s", path);
      descriptor = merklize_source_fd(fd);
      check_blake3(device, &modes[m], &descriptor, 64, hex);
      close(fd);
    }
    ++cases;
  }
  CHECK(cases == 35, "%zu cases read from blake3_official.json, expected 35", cases);
  free(text);
  printf("ok: BLAKE3's %zu official vectors, hash, keyed_hash and derive_key, outputs of 1 to 131 "
         "bytes, from memory, paths and descriptors\n",
         cases);
}

static void sha256_layers(merklize_device *device) {
  static const uint64_t counts[] = {1, 2, 255, 256, 257, 1025};
  size_t c;
  uint8_t *chunks = malloc(1026 * 64), *digests = malloc(1026 * 32), expected[32];
  uint64_t i;
  CHECK(chunks && digests, "out of memory");
  for (i = 0; i < 1026 * 64; ++i)
    chunks[i] = (uint8_t)(i * 31 + 5);
  for (c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
    test_poison(digests, 1026 * 32);
    CHECK_OK(merklize_sha256_layer(device, digests, chunks, counts[c]));
    for (i = 0; i < counts[c]; ++i) {
      test_sha256(chunks + i * 64, 64, expected);
      CHECK(memcmp(digests + i * 32, expected, 32) == 0, "digest %llu of a layer of %llu",
            (unsigned long long)i, (unsigned long long)counts[c]);
    }
    CHECK(test_is_poisoned(digests + counts[c] * 32, 32), "the layer wrote past its digests");
  }
  test_poison(digests, 64);
  CHECK_OK(merklize_sha256_layer(device, NULL, NULL, 0));
  /* In place, as gohashtree's callers hash a level: the parents over the level's first half. */
  for (i = 0; i < 8; ++i)
    test_sha256(chunks + i * 64, 64, digests + i * 32);
  CHECK_OK(merklize_sha256_layer(device, chunks, chunks, 8));
  CHECK(memcmp(chunks, digests, 8 * 32) == 0, "a layer hashed in place");
  CHECK_FAILS(merklize_sha256_layer(device, NULL, chunks, 4), MERKLIZE_ERROR_ARGUMENT, "digests");
  free(chunks);
  free(digests);
  printf("ok: the SHA-256 layer of 1 to 1025 blocks is OpenSSL's, in place too\n");
}

/* RFC 6962 leaf hashes of lines and of length-prefixed entries: OpenSSL's SHA-256(0x00 ||
 * entry), and the CLI's leaves. */
static void log_leaves(merklize_device *device) {
  static const char lines[] = "first\nsecond entry\n\nlast, without a newline";
  static const char *const entries[] = {"first", "second entry", "", "last, without a newline"};
  uint8_t prefixed[128], message[64], expected[32], line_leaves[128];
  size_t at = 0, i;
  merklize_bytes *leaves = NULL;
  merklize_source source = merklize_source_memory(lines, strlen(lines));
  for (i = 0; i < 4; ++i) { /* the same entries, each after its length (4 bytes, big-endian) */
    const size_t n = strlen(entries[i]);
    prefixed[at] = prefixed[at + 1] = prefixed[at + 2] = 0;
    prefixed[at + 3] = (uint8_t)n;
    memcpy(prefixed + at + 4, entries[i], n);
    at += 4 + n;
  }
  CHECK_OK(merklize_log_leaves(device, &source, "lines", &leaves));
  CHECK(merklize_bytes_size(leaves) == 4 * 32, "%zu bytes of leaves", merklize_bytes_size(leaves));
  for (i = 0; i < 4; ++i) {
    message[0] = 0;
    memcpy(message + 1, entries[i], strlen(entries[i]));
    test_sha256(message, 1 + strlen(entries[i]), expected);
    CHECK(memcmp(merklize_bytes_data(leaves) + i * 32, expected, 32) == 0, "leaf %zu", i);
  }
  test_write_file(test_path("log"), lines, strlen(lines));
  test_cli("leaf-hash --entries lines -o '%s' '%s'", test_path("cli-leaves"), test_path("log"));
  {
    size_t size;
    uint8_t *cli = test_read_file(test_path("cli-leaves"), &size);
    CHECK(size == 128 && memcmp(cli, merklize_bytes_data(leaves), 128) == 0,
          "merklize leaf-hash wrote other leaves");
    free(cli);
  }
  memcpy(line_leaves, merklize_bytes_data(leaves), 128);
  merklize_bytes_free(leaves);
  source = merklize_source_memory(prefixed, at);
  CHECK_OK(merklize_log_leaves(device, &source, "length-prefixed", &leaves));
  CHECK(merklize_bytes_size(leaves) == 128 &&
            memcmp(merklize_bytes_data(leaves), line_leaves, 128) == 0,
        "the same entries, length-prefixed, hash to other leaves than as lines");
  merklize_bytes_free(leaves);
  source = merklize_source_memory(prefixed, at - 1);
  CHECK_FAILS(merklize_log_leaves(device, &source, "length-prefixed", &leaves),
              MERKLIZE_ERROR_ARGUMENT, "offset");
  CHECK_FAILS(merklize_log_leaves(device, &source, "csv", &leaves), MERKLIZE_ERROR_ARGUMENT,
              "lines, length-prefixed");
  printf("ok: RFC 6962 leaf hashes of lines and length-prefixed entries: OpenSSL's and merklize "
         "leaf-hash's\n");
}

/* Files of a few MiB (read at offsets by several threads) against b3sum, in every mode. */
static void against_b3sum(merklize_device *device) {
  static const uint64_t sizes[] = {0, 1, 1024, 1025, (3 << 20) + 1, 9 << 20};
  const char *path = test_path("big");
  uint8_t *data = malloc(9 << 20);
  merklize_blake3_mode keyed, derive;
  size_t s, i;
  if (system("b3sum --version > /dev/null 2>&1") != 0)
    test_skip("b3sum is not installed (Debian: apt-get install b3sum)");
  CHECK(data != NULL, "out of memory");
  for (i = 0; i < (size_t)(9 << 20); ++i)
    data[i] = (uint8_t)(i ^ (i >> 11));
  keyed.kind = MERKLIZE_BLAKE3_KEYED;
  keyed.key = (const uint8_t *)key;
  derive.kind = MERKLIZE_BLAKE3_DERIVE_KEY;
  derive.context = context;
  test_write_file(test_path("key"), key, 32);
  for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const merklize_source file = merklize_source_path(path);
    const merklize_source memory = merklize_source_memory(data, sizes[s]);
    char expected[2 * 200 + 1];
    test_write_file(path, data, sizes[s]);
    strcpy(expected, test_run("b3sum --no-names --length 200 '%s'", path));
    check_blake3(device, NULL, &file, 32, expected);
    check_blake3(device, NULL, &memory, XOF_BYTES, expected);
    strcpy(expected, test_run("b3sum --no-names --keyed '%s' < '%s'", path, test_path("key")));
    check_blake3(device, &keyed, &file, 32, expected);
    strcpy(expected, test_run("b3sum --no-names --derive-key '%s' '%s'", context, path));
    check_blake3(device, &derive, &file, 32, expected);
  }
  free(data);
  printf("ok: BLAKE3 of files up to 9 MiB is b3sum's, in its three modes and with 131 bytes of "
         "output\n");
}

int main(int argc, char **argv) {
  merklize_device *device;
  CHECK(argc == 2, "usage: test_hashing vectors|b3sum");
  device = test_device();
  if (strcmp(argv[1], "b3sum") == 0) {
    against_b3sum(device);
  } else {
    official_vectors(device);
    sha256_layers(device);
    log_leaves(device);
  }
  merklize_device_free(device);
  return 0;
}
