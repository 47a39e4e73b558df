/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <openssl/evp.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

void test_fail(const char *file, int line, const char *format, ...) {
  va_list args;
  fprintf(stderr, "%s:%d: FAILED: ", file, line);
  va_start(args, format);
  vfprintf(stderr, format, args);
  va_end(args);
  fprintf(stderr, "\n");
  exit(1);
}

void test_check_fails(merklize_status got, merklize_status want, const char *part, const char *call,
                      const char *file, int line) {
  const char *message = merklize_last_error();
  if (got != want)
    test_fail(file, line, "%s: %s, expected %s (message: %s)", call, merklize_status_name(got),
              merklize_status_name(want), message);
  if (!message || !*message) test_fail(file, line, "%s: failed with no message", call);
  if (part && !strstr(message, part))
    test_fail(file, line, "%s: the message \"%s\" does not say \"%s\"", call, message, part);
}

void test_skip(const char *format, ...) {
  va_list args;
  printf("SKIPPED: ");
  va_start(args, format);
  vprintf(format, args);
  va_end(args);
  printf("\n");
  exit(SKIP_STATUS);
}

merklize_device *test_device(void) {
  merklize_device *device = NULL;
  const merklize_status status = merklize_device_open(NULL, &device);
  if (status == MERKLIZE_ERROR_NO_DEVICE)
    test_skip("no OpenCL device (install pocl-opencl-icd): %s", merklize_last_error());
  if (status != MERKLIZE_OK)
    FAIL("merklize_device_open: %s: %s", merklize_status_name(status), merklize_last_error());
  return device;
}

static char test_dir[64];

static void remove_test_dir(void) {
  char command[128];
  snprintf(command, sizeof command, "rm -rf '%s'", test_dir);
  if (system(command) != 0) fprintf(stderr, "could not remove %s\n", test_dir);
}

const char *test_path(const char *name) {
  static char paths[8][256];
  static int next = 0;
  char *path = paths[next++ % 8];
  if (!test_dir[0]) {
    strcpy(test_dir, "/tmp/merklize-c-test-XXXXXX");
    CHECK(mkdtemp(test_dir) != NULL, "mkdtemp failed");
    atexit(remove_test_dir);
  }
  snprintf(path, sizeof paths[0], "%s/%s", test_dir, name);
  return path;
}

void test_write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL, "cannot create %s", path);
  CHECK(size == 0 || fwrite(data, 1, size, f) == size, "cannot write %s", path);
  CHECK(fclose(f) == 0, "cannot write %s", path);
}

uint8_t *test_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *data = NULL;
  size_t used = 0, capacity = 0, got;
  CHECK(f != NULL, "cannot open %s", path);
  do {
    if (used == capacity) {
      capacity = capacity ? 2 * capacity : 65536;
      data = realloc(data, capacity);
      CHECK(data != NULL, "out of memory reading %s", path);
    }
    got = fread(data + used, 1, capacity - used, f);
    used += got;
  } while (got > 0);
  CHECK(!ferror(f), "cannot read %s", path);
  fclose(f);
  *size = used;
  return data;
}

static const char *run_command(const char *command) {
  static char *output = NULL;
  static size_t capacity = 0;
  size_t used = 0, got;
  int status;
  FILE *pipe = popen(command, "r");
  CHECK(pipe != NULL, "cannot run %s", command);
  do {
    if (capacity - used < 4096) {
      capacity = capacity ? 2 * capacity : 65536;
      output = realloc(output, capacity);
      CHECK(output != NULL, "out of memory running %s", command);
    }
    got = fread(output + used, 1, capacity - used - 1, pipe);
    used += got;
  } while (got > 0);
  status = pclose(pipe);
  CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s failed (status %d)",
        command, status);
  while (used > 0 && output[used - 1] == '\n')
    --used;
  output[used] = '\0';
  return output;
}

const char *test_run(const char *format, ...) {
  static char command[8192];
  va_list args;
  va_start(args, format);
  vsnprintf(command, sizeof command, format, args);
  va_end(args);
  return run_command(command);
}

const char *test_cli(const char *format, ...) {
  static char arguments[8000], command[8192];
  va_list args;
  va_start(args, format);
  vsnprintf(arguments, sizeof arguments, format, args);
  va_end(args);
  snprintf(command, sizeof command, "'%s' %s", MERKLIZE_CLI, arguments);
  return run_command(command);
}

void test_hex(const uint8_t *bytes, size_t size, char *out) {
  static const char digits[] = "0123456789abcdef";
  size_t i;
  for (i = 0; i < size; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  out[2 * size] = '\0';
}

static int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t test_unhex(const char *hex, uint8_t *out, size_t capacity) {
  size_t n = 0;
  while (hex[2 * n] && hex[2 * n + 1] && n < capacity) {
    const int high = nibble(hex[2 * n]), low = nibble(hex[2 * n + 1]);
    CHECK(high >= 0 && low >= 0, "not hex: %s", hex);
    out[n++] = (uint8_t)(high << 4 | low);
  }
  return n;
}

int test_digest_is(const uint8_t *digest, const char *hex) {
  char text[65];
  test_hex(digest, 32, text);
  return strcmp(text, hex) == 0;
}

void test_poison(void *memory, size_t size) { memset(memory, 0xAA, size); }

int test_is_poisoned(const void *memory, size_t size) {
  const uint8_t *bytes = memory;
  size_t i;
  for (i = 0; i < size; ++i)
    if (bytes[i] != 0xAA) return 0;
  return 1;
}

void test_sha256(const void *data, size_t size, uint8_t out[32]) {
  CHECK(EVP_Digest(data, size, out, NULL, EVP_sha256(), NULL) == 1, "EVP_Digest failed");
}

void test_sha256_pair(int prefix, const uint8_t *left, const uint8_t *right, uint8_t out[32]) {
  uint8_t message[65];
  size_t at = 0;
  if (prefix >= 0) message[at++] = (uint8_t)prefix;
  memcpy(message + at, left, 32);
  memcpy(message + at + 32, right, 32);
  test_sha256(message, at + 64, out);
}

void test_sha256_root(const uint8_t *leaves, uint64_t n, int prefix, int zero, int depth,
                      uint8_t out[32]) {
  uint8_t zeros[65][32]; /* zeros[h]: the root of an all-zero subtree of height h */
  uint8_t *level;
  uint64_t size = n, i;
  int height = 0;
  memset(zeros[0], 0, 32);
  for (i = 1; i < 65; ++i)
    test_sha256_pair(prefix, zeros[i - 1], zeros[i - 1], zeros[i]);
  if (n == 0) {
    if (prefix >= 0)
      test_sha256("", 0, out); /* RFC 6962's MTH({}) */
    else
      memcpy(out, zeros[depth], 32);
    return;
  }
  level = malloc(n * 32);
  CHECK(level != NULL, "out of memory");
  memcpy(level, leaves, n * 32);
  for (; size > 1; ++height, size = (size + 1) / 2)
    for (i = 0; i < size; i += 2) {
      if (i + 1 < size)
        test_sha256_pair(prefix, level + i * 32, level + (i + 1) * 32, level + i / 2 * 32);
      else if (zero)
        test_sha256_pair(prefix, level + i * 32, zeros[height], level + i / 2 * 32);
      else
        memmove(level + i / 2 * 32, level + i * 32, 32);
    }
  for (; depth >= 0 && height < depth; ++height) /* a fixed depth above the natural one */
    test_sha256_pair(prefix, level, zeros[height], level);
  memcpy(out, level, 32);
  free(level);
}

uint8_t *test_vector_leaves(merklize_device *device, int blake3, uint64_t n) {
  uint8_t *leaves = malloc(n ? n * 32 : 1);
  uint64_t i;
  int b;
  CHECK(leaves != NULL, "out of memory");
  for (i = 0; i < n; ++i) {
    uint8_t counter[8];
    for (b = 0; b < 8; ++b)
      counter[b] = (uint8_t)(i >> (8 * b));
    if (blake3) {
      const merklize_source source = merklize_source_memory(counter, sizeof counter);
      CHECK_OK(merklize_blake3(device, NULL, &source, leaves + i * 32, 32));
    } else {
      test_sha256(counter, sizeof counter, leaves + i * 32);
    }
  }
  return leaves;
}

static const char *json_value(const char **at, const char *key) {
  char quoted[128];
  const char *p;
  snprintf(quoted, sizeof quoted, "\"%s\"", key);
  p = strstr(*at, quoted);
  if (!p) return NULL;
  p += strlen(quoted);
  while (*p == ' ' || *p == '\n' || *p == ':')
    ++p;
  return p;
}

int test_json_string(const char **at, const char *key, char *out, size_t capacity) {
  const char *p = json_value(at, key), *end;
  if (!p || *p != '"') return 0;
  end = strchr(p + 1, '"');
  CHECK(end && (size_t)(end - p - 1) < capacity, "a JSON string of \"%s\" too long", key);
  memcpy(out, p + 1, (size_t)(end - p - 1));
  out[end - p - 1] = '\0';
  *at = end + 1;
  return 1;
}

int test_json_number(const char **at, const char *key, uint64_t *out) {
  const char *p = json_value(at, key);
  char *end;
  if (!p) return 0;
  *out = strtoull(p, &end, 10);
  CHECK(end != p, "\"%s\" is not a number", key);
  *at = end;
  return 1;
}

merklize_tree_config test_config(const char *hash, const char *shape) {
  merklize_tree_config config;
  merklize_tree_config_init(&config);
  config.hash = hash;
  config.shape = shape;
  return config;
}

merklize_builder *test_builder(merklize_device *device, const merklize_tree_config *config) {
  merklize_builder *builder = NULL;
  CHECK_OK(merklize_builder_create(device, config, &builder));
  return builder;
}

void test_same_proof(const merklize_proof *got, const merklize_proof *want, const char *what) {
  const uint64_t *got_indices, *want_indices;
  const uint8_t *got_nodes, *want_nodes;
  size_t got_count, want_count, got_size, want_size;
  CHECK(merklize_proof_get_kind(got) == merklize_proof_get_kind(want), "%s: another kind", what);
  CHECK(merklize_proof_leaf_count(got) == merklize_proof_leaf_count(want), "%s: leaf count", what);
  CHECK_OK(merklize_proof_indices(got, &got_indices, &got_count));
  CHECK_OK(merklize_proof_indices(want, &want_indices, &want_count));
  CHECK(got_count == want_count && memcmp(got_indices, want_indices, got_count * 8) == 0,
        "%s: other indices (%zu, expected %zu)", what, got_count, want_count);
  CHECK_OK(merklize_proof_nodes(got, &got_nodes, &got_size));
  CHECK_OK(merklize_proof_nodes(want, &want_nodes, &want_size));
  CHECK(got_size == want_size && memcmp(got_nodes, want_nodes, got_size * 32) == 0,
        "%s: other nodes (%zu, expected %zu)", what, got_size, want_size);
}

void test_same_device_tree(merklize_device_tree *t, const merklize_tree *fresh, uint8_t *nodes) {
  const uint64_t n = merklize_tree_leaf_count(fresh);
  merklize_proof *got = NULL, *want = NULL;
  const uint8_t *level_nodes;
  uint64_t level_count, size;
  uint32_t level;
  uint8_t root[32], expected[32];
  CHECK_OK(merklize_tree_root(fresh, expected));
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, expected, 32) == 0, "merklize_device_tree_root differs from a fresh build");
  CHECK(merklize_device_tree_leaf_count(t) == n, "leaf count %llu, expected %llu",
        (unsigned long long)merklize_device_tree_leaf_count(t), (unsigned long long)n);
  CHECK(merklize_device_tree_depth(t) == merklize_tree_depth(fresh), "depth %u, expected %u",
        merklize_device_tree_depth(t), merklize_tree_depth(fresh));
  for (level = 0; level <= merklize_tree_depth(fresh); ++level) {
    CHECK_OK(merklize_tree_level(fresh, level, &level_nodes, &level_count));
    CHECK_OK(merklize_device_tree_level_size(t, level, &size));
    CHECK(size == level_count, "level %u: %llu nodes, expected %llu", level,
          (unsigned long long)size, (unsigned long long)level_count);
    test_poison(nodes, size * 32);
    CHECK_OK(merklize_device_tree_read_level(t, level, 0, size, nodes));
    CHECK(memcmp(nodes, level_nodes, size * 32) == 0, "level %u differs", level);
  }
  CHECK_OK(merklize_device_tree_prove(t, n - 1, &got));
  CHECK_OK(merklize_prove(fresh, n - 1, &want));
  test_same_proof(got, want, "merklize_device_tree_prove");
  merklize_proof_free(got);
  merklize_proof_free(want);
}
