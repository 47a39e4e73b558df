// SPDX-License-Identifier: Apache-2.0 OR MIT
// The hashtree baseline (github:prysmaticlabs/hashtree, fetched and built outside the project with
// its Makefile): the root of the SHA-256 promote tree of a file of 32-byte leaves on T threads,
// reading included. cc -O2 -Ihashtree/src bench/hashtree_tree.c hashtree/build/lib/libhashtree.a
//   -lpthread -o ht_tree && ./ht_tree leaves.bin T
#include "hashtree.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct job { unsigned char *out; const unsigned char *in; uint64_t count; };
static void *run(void *p) { struct job *j = p; hashtree_hash(j->out, j->in, j->count); return 0; }
int main(int argc, char **argv) {
  int T = argc > 2 ? atoi(argv[2]) : 2;
  hashtree_init(NULL);
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long size = ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char *a = malloc(size), *b = malloc(size / 2 + 64);
  if (fread(a, 1, size, f) != (size_t)size) return 1;
  uint64_t n = size / 32;
  while (n > 1) {
    uint64_t pairs = n / 2; pthread_t th[64]; struct job jobs[64];
    uint64_t per = (pairs + T - 1) / T;
    int started = 0;
    for (int t = 0; t < T; ++t) {
      uint64_t from = t * per; if (from >= pairs) break;
      uint64_t cnt = pairs - from < per ? pairs - from : per;
      jobs[t] = (struct job){b + 32 * from, a + 64 * from, cnt};
      if (pairs < 4096) { run(&jobs[t]); continue; }
      pthread_create(&th[t], 0, run, &jobs[t]); started = t + 1;
    }
    for (int t = 0; t < started; ++t) pthread_join(th[t], 0);
    if (n % 2) memcpy(b + 32 * pairs, a + 32 * (n - 1), 32);
    n = (n + 1) / 2;
    unsigned char *s = a; a = b; b = s;
  }
  for (int i = 0; i < 32; ++i) printf("%02x", a[i]);
  printf("\n");
  return 0;
}
