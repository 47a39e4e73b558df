/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Plonky3's MerkleTreeMmcs through the C ABI (merklize_mmcs_*) against tests/mmcs_model.py, the
 * independent Python model of Plonky3's rules (the oracle of the host reference and the CLI too):
 * for BabyBear, KoalaBear and Goldilocks, on one row, widths 1, 7, 8, 9, 24 and 25, several
 * matrices of different heights and cap heights 0, 1, 2 and past the depth, the cap and the
 * openings of every row (rows and paths) are the model's, printed in its format and compared as
 * text; each opening verifies, and fails once an element or a sibling is changed. Then the
 * refusals (an element at or above p, heights Plonky3 refuses, a hash with no MMCS, rows of
 * another width, an index out of range, a cap buffer too small), each leaving the outputs as
 * they were. */
#include "c_test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MATRICES 4

struct mmcs_case {
  const char *field; /* the model's name; the hash is "poseidon2-" field */
  uint32_t cap_height;
  size_t count;
  uint64_t heights[MAX_MATRICES], widths[MAX_MATRICES];
};

static const struct mmcs_case cases[] = {
    {"babybear", 0, 1, {1}, {1}},         {"babybear", 1, 3, {8, 8, 8}, {7, 8, 9}},
    {"babybear", 0, 2, {9, 5}, {1, 24}},  {"koalabear", 2, 3, {16, 8, 2}, {24, 25, 1}},
    {"koalabear", 0, 1, {3}, {25}},       {"goldilocks", 10, 3, {5, 3, 1}, {8, 9, 7}},
    {"goldilocks", 1, 2, {2, 1}, {4, 5}},
};

static uint64_t prime_of(const char *field) {
  return strcmp(field, "babybear") == 0    ? 2013265921u
         : strcmp(field, "koalabear") == 0 ? 2130706433u
                                           : 18446744069414584321u;
}

static uint64_t seed = 34;
static uint64_t random_below(uint64_t p) {
  seed = seed * 6364136223846793005u + 1442695040888963407u;
  return (seed >> 1) % p;
}

static void put_element(uint8_t *out, uint64_t value, size_t size) {
  size_t b;
  for (b = 0; b < size; ++b)
    out[b] = (uint8_t)(value >> (8 * b));
}

static uint64_t get_element(const uint8_t *in, size_t size) {
  uint64_t v = 0;
  size_t b;
  for (b = 0; b < size; ++b)
    v |= (uint64_t)in[b] << (8 * b);
  return v;
}

/* Appends printf-formatted text to a malloc'd string that grows. */
struct text {
  char *data;
  size_t used, capacity;
};
static void append(struct text *t, const char *format, ...) {
  va_list args;
  int need;
  va_start(args, format);
  need = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (t->used + (size_t)need + 1 > t->capacity) {
    t->capacity = 2 * (t->used + (size_t)need + 1);
    t->data = realloc(t->data, t->capacity);
    CHECK(t->data != NULL, "out of memory");
  }
  va_start(args, format);
  vsprintf(t->data + t->used, format, args);
  va_end(args);
  t->used += (size_t)need;
}

/* The case's matrices, random elements below p (one malloc'd run each). */
static void make_matrices(const struct mmcs_case *c, size_t element, merklize_matrix *m) {
  size_t i, e;
  for (i = 0; i < c->count; ++i) {
    uint8_t *data = malloc((size_t)(c->heights[i] * c->widths[i]) * element + 1);
    CHECK(data != NULL, "out of memory");
    for (e = 0; e < c->heights[i] * c->widths[i]; ++e)
      put_element(data + e * element, random_below(prime_of(c->field)), element);
    m[i].data = data;
    m[i].height = c->heights[i];
    m[i].width = c->widths[i];
  }
}

/* The model's answer for the case, every row index opened. */
static const char *model_answer(const struct mmcs_case *c, const merklize_matrix *m, size_t element,
                                uint64_t tallest) {
  struct text request = {NULL, 0, 0};
  const char *path = test_path("mmcs_model.json");
  size_t i, e;
  append(&request, "{\"field\": \"%s\", \"cap_height\": %u, \"matrices\": [", c->field,
         (unsigned)c->cap_height);
  for (i = 0; i < c->count; ++i) {
    append(&request, "%s{\"height\": %llu, \"width\": %llu, \"elements\": [", i ? ", " : "",
           (unsigned long long)m[i].height, (unsigned long long)m[i].width);
    for (e = 0; e < m[i].height * m[i].width; ++e)
      append(&request, "%s%llu", e ? ", " : "",
             (unsigned long long)get_element((const uint8_t *)m[i].data + e * element, element));
    append(&request, "]}");
  }
  append(&request, "], \"open\": [");
  for (e = 0; e < tallest; ++e)
    append(&request, "%s%llu", e ? ", " : "", (unsigned long long)e);
  append(&request, "]}");
  test_write_file(path, request.data, request.used);
  free(request.data);
  return test_run("python3 '%s/../mmcs_model.py' '%s' < '%s'", MERKLIZE_TEST_VECTOR_DIR,
                  MERKLIZE_TEST_VECTOR_DIR, path);
}

/* The commitment's cap and the openings of every row, in the model's format. */
static void library_answer(const merklize_mmcs *mmcs, const merklize_matrix *m, size_t count,
                           size_t element, const merklize_bytes *rows, const merklize_bytes *paths,
                           struct text *out) {
  const uint64_t caps = merklize_mmcs_cap_count(mmcs), tallest = merklize_mmcs_height(mmcs);
  const uint32_t length = merklize_mmcs_path_length(mmcs);
  const uint8_t *row = merklize_bytes_data(rows), *path = merklize_bytes_data(paths);
  uint8_t *cap = malloc((size_t)caps * 32 + 1);
  char hex[65];
  uint64_t i, k, e;
  size_t j;
  CHECK(cap != NULL, "out of memory");
  CHECK_OK(merklize_mmcs_cap(mmcs, cap, (size_t)caps * 32));
  for (i = 0; i < caps; ++i) {
    test_hex(cap + i * 32, 32, hex);
    append(out, "%scap %s", i ? "\n" : "", hex);
  }
  free(cap);
  for (i = 0; i < tallest; ++i) {
    for (j = 0; j < count; ++j) {
      append(out, "\nrow %llu %u ", (unsigned long long)i, (unsigned)j);
      for (e = 0; e < m[j].width; ++e, row += element)
        append(out, "%s%llu", e ? " " : "", (unsigned long long)get_element(row, element));
    }
    append(out, "\npath %llu ", (unsigned long long)i);
    for (k = 0; k < length; ++k, path += 32) {
      test_hex(path, 32, hex);
      append(out, "%s%s", k ? " " : "", hex);
    }
  }
}

static int verifies(const char *hash, const struct mmcs_case *c, const uint8_t *cap, uint64_t caps,
                    uint64_t index, const uint8_t *rows, size_t rows_size, const uint8_t *path,
                    size_t path_size) {
  merklize_matrix_shape shapes[MAX_MATRICES];
  int valid = -1;
  size_t i;
  for (i = 0; i < c->count; ++i) {
    shapes[i].height = c->heights[i];
    shapes[i].width = c->widths[i];
  }
  CHECK_OK(merklize_mmcs_verify(hash, c->cap_height, cap, caps, shapes, c->count, index, rows,
                                rows_size, path, path_size, &valid));
  CHECK(valid == 0 || valid == 1, "merklize_mmcs_verify wrote %d", valid);
  CHECK(valid || strstr(merklize_last_error(), "invalid opening") != NULL,
        "no reason for a refused opening: %s", merklize_last_error());
  return valid;
}

/* Every opening verifies; a changed element or sibling does not. */
static void check_openings(const char *hash, const struct mmcs_case *c, const merklize_mmcs *mmcs,
                           size_t element, const merklize_bytes *rows,
                           const merklize_bytes *paths) {
  const uint64_t caps = merklize_mmcs_cap_count(mmcs), tallest = merklize_mmcs_height(mmcs);
  const size_t row_size = (size_t)merklize_mmcs_row_size(mmcs);
  const size_t path_size = (size_t)merklize_mmcs_path_length(mmcs) * 32;
  uint8_t *cap = malloc((size_t)caps * 32), row[4096], path[64 * 32];
  uint64_t i, value;
  CHECK(cap != NULL && row_size <= sizeof row && path_size <= sizeof path, "test too large");
  CHECK_OK(merklize_mmcs_cap(mmcs, cap, (size_t)caps * 32));
  for (i = 0; i < tallest; ++i) {
    memcpy(row, merklize_bytes_data(rows) + i * row_size, row_size);
    memcpy(path, merklize_bytes_data(paths) + i * path_size, path_size);
    CHECK(verifies(hash, c, cap, caps, i, row, row_size, path, path_size),
          "%s: row %llu's opening does not verify: %s", hash, (unsigned long long)i,
          merklize_last_error());
    value = get_element(row, element); /* of matrix 0, a tallest one: its row is replayed */
    put_element(row, (value + 1) % prime_of(c->field), element);
    CHECK(!verifies(hash, c, cap, caps, i, row, row_size, path, path_size),
          "%s: row %llu verifies with a changed element", hash, (unsigned long long)i);
    put_element(row, value, element);
    if (path_size == 0) continue;
    path[path_size - 1] ^= 1;
    CHECK(!verifies(hash, c, cap, caps, i, row, row_size, path, path_size),
          "%s: row %llu verifies with a changed sibling", hash, (unsigned long long)i);
  }
  free(cap);
}

static int same_bytes(const merklize_bytes *a, const merklize_bytes *b) {
  return merklize_bytes_size(a) == merklize_bytes_size(b) &&
         (merklize_bytes_size(a) == 0 ||
          memcmp(merklize_bytes_data(a), merklize_bytes_data(b), merklize_bytes_size(a)) == 0);
}

/* A commitment keeping only the layers from the cap's down to drop, for every drop: the same
 * openings; one above the cap's layer refused. */
static void check_dropped(merklize_device *device, const char *hash, const struct mmcs_case *c,
                          const merklize_matrix *m, const uint64_t *indices,
                          const merklize_mmcs *full, const merklize_bytes *rows,
                          const merklize_bytes *paths) {
  const uint32_t top = merklize_mmcs_path_length(full);
  const uint64_t count = merklize_mmcs_height(full);
  merklize_mmcs *dropped = NULL;
  merklize_bytes *r = NULL, *p = NULL;
  uint32_t drop;
  for (drop = 1; drop <= top; ++drop) {
    CHECK_OK(
        merklize_mmcs_commit_dropping(device, hash, m, c->count, c->cap_height, drop, &dropped));
    CHECK_OK(merklize_mmcs_open(dropped, indices, count, &r, &p));
    CHECK(same_bytes(r, rows) && same_bytes(p, paths),
          "%s, cap height %u: the openings with %u layers dropped differ", hash,
          (unsigned)c->cap_height, (unsigned)drop);
    merklize_bytes_free(r);
    merklize_bytes_free(p);
    merklize_mmcs_free(dropped);
  }
  dropped = NULL;
  CHECK_FAILS(
      merklize_mmcs_commit_dropping(device, hash, m, c->count, c->cap_height, top + 1, &dropped),
      MERKLIZE_ERROR_ARGUMENT, "keeps its cap's layer");
  CHECK(dropped == NULL, "%s: a refused commitment wrote its handle", hash);
}

static void check_case(merklize_device *device, const struct mmcs_case *c) {
  merklize_matrix m[MAX_MATRICES];
  merklize_mmcs *mmcs = NULL;
  merklize_bytes *rows = NULL, *paths = NULL;
  struct text got = {NULL, 0, 0};
  uint64_t *indices, i;
  size_t element = 0;
  char hash[32];
  const char *want;
  sprintf(hash, "poseidon2-%s", c->field);
  CHECK_OK(merklize_mmcs_element_size(hash, &element));
  make_matrices(c, element, m);
  CHECK_OK(merklize_mmcs_commit(device, hash, m, c->count, c->cap_height, &mmcs));
  indices = malloc((size_t)merklize_mmcs_height(mmcs) * sizeof *indices);
  CHECK(indices != NULL, "out of memory");
  for (i = 0; i < merklize_mmcs_height(mmcs); ++i)
    indices[i] = i;
  CHECK_OK(merklize_mmcs_open(mmcs, indices, merklize_mmcs_height(mmcs), &rows, &paths));
  CHECK(merklize_bytes_size(rows) == merklize_mmcs_height(mmcs) * merklize_mmcs_row_size(mmcs) &&
            merklize_bytes_size(paths) ==
                merklize_mmcs_height(mmcs) * merklize_mmcs_path_length(mmcs) * 32,
        "%s: the openings have %zu and %zu bytes", hash, merklize_bytes_size(rows),
        merklize_bytes_size(paths));
  library_answer(mmcs, m, c->count, element, rows, paths, &got);
  want = model_answer(c, m, element, merklize_mmcs_height(mmcs));
  CHECK(strcmp(got.data, want) == 0, "%s, cap height %u: the library's\n%s\nthe model's\n%s", hash,
        (unsigned)c->cap_height, got.data, want);
  check_openings(hash, c, mmcs, element, rows, paths);
  check_dropped(device, hash, c, m, indices, mmcs, rows, paths);
  printf("%s, %zu matrices, cap height %u: cap of %llu, %llu openings as the model's\n", hash,
         c->count, (unsigned)c->cap_height, (unsigned long long)merklize_mmcs_cap_count(mmcs),
         (unsigned long long)merklize_mmcs_height(mmcs));
  for (i = 0; i < c->count; ++i)
    free((void *)m[i].data);
  free(indices);
  free(got.data);
  merklize_bytes_free(rows);
  merklize_bytes_free(paths);
  merklize_mmcs_free(mmcs);
}

/* Refused commitments: the handle is not written. */
static void check_commit_refusals(merklize_device *device) {
  static uint8_t sentinel;
  merklize_mmcs *const untouched = (merklize_mmcs *)(void *)&sentinel;
  merklize_mmcs *mmcs = untouched;
  uint8_t bytes[4 * 16];
  merklize_matrix m[2];
  size_t size = 77;
  memset(bytes, 0, sizeof bytes);
  m[0].data = bytes;
  m[0].height = 8;
  m[0].width = 2;
  m[1] = m[0];
  m[1].height = 7;
  put_element(bytes + 4 * 5, 2013265921u, 4); /* p: row 2, column 1 */
  CHECK_FAILS(merklize_mmcs_commit(device, "poseidon2-babybear", m, 1, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "matrix 0, row 2, column 1");
  put_element(bytes + 4 * 5, 2013265920u, 4); /* p - 1: canonical */
  CHECK_FAILS(merklize_mmcs_commit(device, "poseidon2-babybear", m, 2, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "matrix 1 has height 7");
  CHECK_FAILS(merklize_mmcs_commit(device, "poseidon2-bn254", m, 1, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "poseidon2-bn254 has no matrix commitment");
  CHECK_FAILS(merklize_mmcs_commit(device, "sha256", m, 1, 0, &mmcs), MERKLIZE_ERROR_ARGUMENT,
              "sha256 is not a hash over field elements");
  CHECK_FAILS(merklize_mmcs_commit(device, "nope", m, 1, 0, &mmcs), MERKLIZE_ERROR_ARGUMENT,
              "hash: ");
  CHECK_FAILS(merklize_mmcs_commit(device, NULL, m, 1, 0, &mmcs), MERKLIZE_ERROR_ARGUMENT,
              "`hash` is NULL");
  CHECK_FAILS(merklize_mmcs_commit(device, "poseidon2-koalabear", m, 0, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "no matrices");
  m[0].data = NULL;
  CHECK_FAILS(merklize_mmcs_commit(device, "poseidon2-koalabear", m, 1, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "`matrices[0].data` is NULL");
  CHECK_FAILS(merklize_mmcs_element_size("poseidon2-bn254", &size), MERKLIZE_ERROR_ARGUMENT,
              "no matrix commitment");
  CHECK(mmcs == untouched && size == 77, "a refused call wrote its output");
}

/* Refused openings, caps and verifications: their outputs are not written. */
static void check_use_refusals(merklize_device *device) {
  static uint8_t sentinel;
  merklize_bytes *const untouched = (merklize_bytes *)(void *)&sentinel;
  merklize_bytes *rows = untouched, *paths = untouched;
  uint8_t bytes[8 * 6], cap[2 * 32], row[8 * 3];
  merklize_matrix m[2] = {{NULL, 4, 1}, {NULL, 2, 2}};
  merklize_matrix_shape shapes[2] = {{4, 1}, {2, 2}};
  merklize_mmcs *mmcs = NULL;
  uint64_t index = 4;
  int valid = -1;
  memset(bytes, 7, sizeof bytes);
  m[0].data = bytes;
  m[1].data = bytes + 8 * 4;
  CHECK_OK(merklize_mmcs_commit(device, "poseidon2-goldilocks", m, 2, 1, &mmcs));
  CHECK_FAILS(merklize_mmcs_open(mmcs, &index, 1, &rows, &paths), MERKLIZE_ERROR_ARGUMENT,
              "row index 4 is out of range");
  CHECK(rows == untouched && paths == untouched, "a refused opening wrote its output");
  test_poison(cap, sizeof cap);
  CHECK_FAILS(merklize_mmcs_cap(mmcs, cap, 32), MERKLIZE_ERROR_ARGUMENT, "cap_size is 32 bytes");
  CHECK(test_is_poisoned(cap, sizeof cap), "a refused cap was written");
  CHECK_OK(merklize_mmcs_cap(mmcs, cap, sizeof cap));
  memcpy(row, bytes, 8);
  memcpy(row + 8, bytes + 8 * 4, 16);
  CHECK_FAILS(merklize_mmcs_verify("poseidon2-goldilocks", 1, cap, 2, shapes, 2, 0, row, 16, NULL,
                                   0, &valid),
              MERKLIZE_ERROR_ARGUMENT, "rows_size is 16 bytes");
  CHECK_FAILS(merklize_mmcs_verify("poseidon2-goldilocks", 1, cap, 2, shapes, 2, 0, row, 24, cap,
                                   31, &valid),
              MERKLIZE_ERROR_ARGUMENT, "path_size is 31 bytes");
  CHECK_FAILS(
      merklize_mmcs_verify("poseidon2-bn254", 1, cap, 2, shapes, 2, 0, row, 24, cap, 32, &valid),
      MERKLIZE_ERROR_ARGUMENT, "no matrix commitment");
  CHECK(valid == -1, "a refused verification wrote its output");
  CHECK_OK(merklize_mmcs_open(mmcs, &index, 0, &rows, &paths));
  merklize_bytes_free(rows);
  merklize_bytes_free(paths);
  index = 1;
  CHECK_OK(merklize_mmcs_open(mmcs, &index, 1, &rows, &paths));
  CHECK_OK(merklize_mmcs_verify("poseidon2-goldilocks", 1, cap, 2, shapes, 2, 1,
                                merklize_bytes_data(rows), 24, merklize_bytes_data(paths), 32,
                                &valid));
  CHECK(valid == 1, "the opening of row 1 does not verify: %s", merklize_last_error());
  shapes[1].height = 3; /* off the ladder beside 4 */
  CHECK_OK(merklize_mmcs_verify("poseidon2-goldilocks", 1, cap, 2, shapes, 2, 1,
                                merklize_bytes_data(rows), 24, merklize_bytes_data(paths), 32,
                                &valid));
  CHECK(valid == 0 && strstr(merklize_last_error(), "height 3") != NULL,
        "an opening verified for heights Plonky3 refuses: %s", merklize_last_error());
  shapes[1].height = 2;
  shapes[0].width = 2; /* the widths of another commitment: the same bytes, split otherwise */
  shapes[1].width = 1;
  CHECK_OK(merklize_mmcs_verify("poseidon2-goldilocks", 1, cap, 2, shapes, 2, 1,
                                merklize_bytes_data(rows), 24, merklize_bytes_data(paths), 32,
                                &valid));
  CHECK(valid == 0 && strstr(merklize_last_error(), "does not match the cap") != NULL,
        "an opening verified for other widths: %s", merklize_last_error());
  merklize_bytes_free(rows);
  merklize_bytes_free(paths);
  merklize_mmcs_free(mmcs);
}

int main(void) {
  merklize_device *device = test_device();
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    check_case(device, &cases[i]);
  check_commit_refusals(device);
  check_use_refusals(device);
  merklize_device_free(device); /* the commitments need no device: freed last to show it */
  printf("merklize_mmcs: all cases as the model's, refusals change nothing\n");
  return 0;
}
