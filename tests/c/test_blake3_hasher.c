/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* BLAKE3 in pieces on the host (merklize_blake3_hasher_*), no device: the official vectors
 * (tests/vectors/blake3_official.json: hash, keyed_hash, derive_key, 131 bytes of output) with
 * the input given in pieces of 1, 63, 64, 1023, 1024 and 1025 bytes, output read from every seek
 * to 131, copies that go their own way, reset, and the refusals. */
#include "c_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XOF_BYTES 131

static const char key[] = "whats the Elvish word for friend";
static const char context[] = "BLAKE3 2019-12-27 16:29:52 test vectors context";

static void check_output(merklize_blake3_hasher *h, const char *hex, const char *what) {
  uint8_t out[XOF_BYTES + 8];
  char got[2 * XOF_BYTES + 1];
  size_t seek;
  for (seek = 0; seek < XOF_BYTES; seek += 1 + seek / 3) {
    test_poison(out, sizeof out);
    CHECK_OK(merklize_blake3_hasher_finalize(h, seek, out, XOF_BYTES - seek));
    test_hex(out, XOF_BYTES - seek, got);
    CHECK(strncmp(got, hex + 2 * seek, 2 * (XOF_BYTES - seek)) == 0, "%s, seek %zu: %s", what,
          seek, got);
    CHECK(test_is_poisoned(out + XOF_BYTES - seek, 8 + seek), "%s: written past out_size", what);
  }
}

static void one_case(const merklize_blake3_mode *mode, const uint8_t *input, size_t length,
                     const char *hex) {
  static const size_t pieces[] = {1, 63, 64, 1023, 1024, 1025, 102400};
  size_t p, at;
  for (p = 0; p < sizeof pieces / sizeof pieces[0]; ++p) {
    merklize_blake3_hasher *h = NULL, *copy = NULL;
    CHECK_OK(merklize_blake3_hasher_create(mode, &h));
    for (at = 0; at < length; at += pieces[p])
      CHECK_OK(merklize_blake3_hasher_update(h, input + at,
                                             length - at < pieces[p] ? length - at : pieces[p]));
    check_output(h, hex, "in pieces");
    /* A copy is its own state: more input to the original leaves the copy's output alone. */
    CHECK_OK(merklize_blake3_hasher_copy(h, &copy));
    CHECK_OK(merklize_blake3_hasher_update(h, "x", 1));
    check_output(copy, hex, "the copy");
    CHECK_OK(merklize_blake3_hasher_reset(h));
    CHECK_OK(merklize_blake3_hasher_update(h, input, length));
    check_output(h, hex, "after reset");
    merklize_blake3_hasher_free(copy);
    merklize_blake3_hasher_free(h);
  }
}

static void refusals(void) {
  merklize_blake3_hasher *h = NULL;
  merklize_blake3_mode bad;
  uint8_t out[4];
  bad.kind = MERKLIZE_BLAKE3_KEYED;
  bad.key = NULL;
  bad.context = NULL;
  CHECK_FAILS(merklize_blake3_hasher_create(&bad, &h), MERKLIZE_ERROR_ARGUMENT, "mode->key");
  CHECK(h == NULL, "a refused create wrote its handle");
  bad.kind = (merklize_blake3_kind)7;
  CHECK_FAILS(merklize_blake3_hasher_create(&bad, &h), MERKLIZE_ERROR_ARGUMENT, "mode->kind");
  CHECK_OK(merklize_blake3_hasher_create(NULL, &h));
  CHECK_FAILS(merklize_blake3_hasher_update(h, NULL, 3), MERKLIZE_ERROR_ARGUMENT, "data");
  CHECK_FAILS(merklize_blake3_hasher_finalize(h, UINT64_MAX, out, 4), MERKLIZE_ERROR_ARGUMENT,
              "2^64");
  CHECK_FAILS(merklize_blake3_hasher_finalize(NULL, 0, out, 4), MERKLIZE_ERROR_ARGUMENT, "hasher");
  merklize_blake3_hasher_free(h);
  merklize_blake3_hasher_free(NULL);
}

int main(void) {
  size_t size, cases = 0, i, m;
  char *text = (char *)test_read_file(MERKLIZE_TEST_VECTOR_DIR "/blake3_official.json", &size);
  const char *at;
  static uint8_t input[102400];
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
    CHECK(length <= sizeof input, "an input of %llu bytes", (unsigned long long)length);
    for (m = 0; m < 3; ++m) {
      char hex[2 * XOF_BYTES + 1];
      CHECK(test_json_string(&at, names[m], hex, sizeof hex), "no %s", names[m]);
      one_case(&modes[m], input, length, hex);
    }
    ++cases;
  }
  CHECK(cases == 35, "%zu cases read from blake3_official.json, expected 35", cases);
  free(text);
  refusals();
  printf("ok: BLAKE3's %zu official vectors in pieces on the host, every seek, copies, reset\n",
         cases);
  return 0;
}
