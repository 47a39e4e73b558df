/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A program written for hashtree (OffchainLabs/hashtree: its header, its calls, its own test
 * vectors and the cases of its src/test.c: test_hash, test_hash_generic, test_hashtree_init),
 * built against libmerklize's <merklize/hashtree.h> and linked with -lmerklize alone, unchanged:
 * it names nothing of merklize. OpenSSL's SHA-256 is the oracle at every count to 300, in place
 * and apart, the output poisoned. */
#include <hashtree.h>

#include "hashtree_vectors.h"

#include <openssl/sha.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(condition, what)                                                                    \
  do {                                                                                             \
    if (!(condition)) {                                                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, what);                                   \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

static void test_hash(void) {
  unsigned char digest[960];
  hashtree_hash(digest, test_32_block, 30);
  EXPECT(memcmp(digest, test_32_digests, sizeof digest) == 0, "hashtree_hash of its 30 blocks");
}

static void test_hash_generic(void) {
  unsigned char digest[960];
  hashtree_sha256_generic(digest, test_32_block, 30);
  EXPECT(memcmp(digest, test_32_digests, sizeof digest) == 0, "hashtree_sha256_generic");
}

/* Every count to 300, the digests against OpenSSL's, the bytes past them untouched; and in place,
 * the parents over the level's first half. */
static void test_counts_against_openssl(void) {
  enum { most = 300 };
  static unsigned char input[most * 64], output[most * 32 + 64], level[most * 64];
  uint64_t count;
  size_t i;
  for (i = 0; i < sizeof input; ++i)
    input[i] = (unsigned char)(i * 131 + 7);
  for (count = 0; count <= most; ++count) {
    unsigned char expected[32];
    memset(output, 0xa5, sizeof output);
    hashtree_hash(output, input, count);
    memcpy(level, input, count * 64);
    hashtree_hash(level, level, count);
    for (i = 0; i < count; ++i) {
      SHA256(input + 64 * i, 64, expected);
      EXPECT(memcmp(output + 32 * i, expected, 32) == 0, "a digest differs from OpenSSL's");
      EXPECT(memcmp(level + 32 * i, expected, 32) == 0, "a digest hashed in place differs");
    }
    for (i = count * 32; i < sizeof output; ++i)
      EXPECT(output[i] == 0xa5, "a byte past the digests was written");
  }
}

static int override_called;
static void test_override(unsigned char *digest, const unsigned char *chunks, uint64_t count) {
  (void)digest, (void)chunks, (void)count;
  override_called += 1;
}

/* Last, as in hashtree's tests: the override stays for the process (NULL gives it back). */
static void test_hashtree_init(void) {
  unsigned char digest[960];
  EXPECT(!override_called, "the override ran before hashtree_init");
  hashtree_init(test_override);
  hashtree_hash(digest, test_32_block, 30);
  EXPECT(override_called == 1, "hashtree_init's override did not run");
  hashtree_init(NULL);
  hashtree_hash(digest, test_32_block, 30);
  EXPECT(override_called == 1 && memcmp(digest, test_32_digests, sizeof digest) == 0,
         "hashtree_init(NULL) did not give the hash back");
}

int main(void) {
  hashtree_init(NULL);
  test_hash();
  test_hash_generic();
  test_counts_against_openssl();
  test_hashtree_init();
  if (failures) return 1;
  printf("ok: hashtree's calls, vectors and cases against libmerklize\n");
  return 0;
}
