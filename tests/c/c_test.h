/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the C tests of libmerklize share (C99, -pedantic): checks that stop the test with the place
 * and a message, the skip status ctest knows (77), temporary files, the merklize command-line
 * tool run as the oracle it already is (its tests hold it against tests/vectors and OpenSSL),
 * OpenSSL's SHA-256 and the trees made of it, and a tiny reader of the JSON vector files.
 *
 * Each test program is C99 using only merklize.h and libmerklize (and OpenSSL, OpenCL's C API
 * and POSIX where it says so), as a user's C program is. */
#ifndef MERKLIZE_C_TEST_H
#define MERKLIZE_C_TEST_H

#include <merklize.h>

#include <stddef.h>
#include <stdint.h>

#define SKIP_STATUS 77

/* Stops the test: "file:line: message" on stderr, exit status 1. */
void test_fail(const char *file, int line, const char *format, ...);
#define FAIL(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)
#define CHECK(condition, ...)                                                                      \
  do {                                                                                             \
    if (!(condition)) test_fail(__FILE__, __LINE__, __VA_ARGS__);                                  \
  } while (0)
/* A call that must succeed: on failure, its status and merklize_last_error(). */
#define CHECK_OK(call)                                                                             \
  do {                                                                                             \
    merklize_status check_ok_status = (call);                                                      \
    if (check_ok_status != MERKLIZE_OK)                                                            \
      test_fail(__FILE__, __LINE__, "%s: %s: %s", #call, merklize_status_name(check_ok_status),    \
                merklize_last_error());                                                            \
  } while (0)
/* A call that must fail with `status` and a message holding `part` (NULL: any message). */
#define CHECK_FAILS(call, status, part)                                                            \
  test_check_fails((call), (status), (part), #call, __FILE__, __LINE__)
void test_check_fails(merklize_status got, merklize_status want, const char *part, const char *call,
                      const char *file, int line);

/* Ends the test with status 77 (ctest's SKIP_RETURN_CODE), saying why. */
void test_skip(const char *format, ...);

/* The default device, or a skip where none is installed. */
merklize_device *test_device(void);

/* A fresh directory for the test's files, removed at exit; the path of `name` in it. */
const char *test_path(const char *name);
void test_write_file(const char *path, const void *data, size_t size);
/* The file's bytes (malloc'd, *size set); fails the test if it cannot be read. */
uint8_t *test_read_file(const char *path, size_t *size);

/* Runs the merklize tool (MERKLIZE_CLI) with `arguments` (a shell command line's words, quoted
 * where needed) and returns its standard output, its last newline removed; fails the test if it
 * exits other than 0. The result is static, valid until the next call. */
const char *test_cli(const char *format, ...);
/* Any command, the same way. */
const char *test_run(const char *format, ...);

/* Lowercase hex of `size` bytes into `out` (2 * size + 1 chars); and back (returns the bytes). */
void test_hex(const uint8_t *bytes, size_t size, char *out);
size_t test_unhex(const char *hex, uint8_t *out, size_t capacity);
/* Compares 32 bytes with 64 hex digits. */
int test_digest_is(const uint8_t *digest, const char *hex);
/* Fills with 0xAA: outputs the call must not write when it fails. */
void test_poison(void *memory, size_t size);
int test_is_poisoned(const void *memory, size_t size);

/* OpenSSL's SHA-256 of bytes; of prefix || left || right (prefix < 0: none). */
void test_sha256(const void *data, size_t size, uint8_t out[32]);
void test_sha256_pair(int prefix, const uint8_t *left, const uint8_t *right, uint8_t out[32]);
/* The root of the sha256 tree (prefix -1) or RFC 6962's (prefix 1, RFC 6962 2.1's MTH) of n
 * leaves, computed here: shape promote, or zero (padded with zero leaves to 2^depth, depth -1
 * the natural one). n = 0: the empty tree's root where there is one. */
void test_sha256_root(const uint8_t *leaves, uint64_t n, int prefix, int zero, int depth,
                      uint8_t out[32]);

/* leaf[i] = HASH(i as 8 bytes little-endian) as tests/vectors/merkle.json makes its leaves:
 * sha256 here, blake3 on `device` (merklize_blake3, whose results the vectors check through
 * the roots). malloc'd, n * 32 bytes. */
uint8_t *test_vector_leaves(merklize_device *device, int blake3, uint64_t n);

/* The string value of the first "key" at or after *at in a JSON text, copied into out; *at moves
 * past it. 0 where there is none. The vector files are flat enough for that. */
int test_json_string(const char **at, const char *key, char *out, size_t capacity);
/* The same for an unsigned number. */
int test_json_number(const char **at, const char *key, uint64_t *out);

/* A builder of `hash` and `shape` (NULL: the defaults), other fields as config_init sets them. */
merklize_builder *test_builder(merklize_device *device, const merklize_tree_config *config);
merklize_tree_config test_config(const char *hash, const char *shape);

/* Fails unless the proofs are the same: kind, leaf count, indices and nodes. */
void test_same_proof(const merklize_proof *got, const merklize_proof *want, const char *what);
/* Fails unless the device tree's root, leaf count, depth, every level read back (into `nodes`,
 * room for its largest level) and its last leaf's proof are those of `fresh`, a merklize_build
 * of the same leaves. */
void test_same_device_tree(merklize_device_tree *t, const merklize_tree *fresh, uint8_t *nodes);

#endif
