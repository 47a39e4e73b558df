/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The C calls BenchmarkRoot (bench_test.go) makes through Go, timed without Go: merklize_root and
 * merklize_build (+ merklize_tree_free) of 2^LOG2 random leaves in host memory, one builder per
 * hash reused, the first call untimed, then the minimum, median and mean of RUNS calls by the
 * host's clock around each call (on a shared machine the minimum is the least disturbed). bench.sh builds it against the installed library and runs both.
 *
 *   root_bench LOG2 RUNS */
#define _POSIX_C_SOURCE 200809L

#include <merklize.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void fail(const char *what) {
  fprintf(stderr, "%s: %s\n", what, merklize_last_error());
  exit(1);
}

static void report(const char *what, const char *hash, unsigned log2, double *ms, int runs) {
  double sum = 0;
  int i;
  for (i = 0; i < runs; ++i) sum += ms[i];
  qsort(ms, (size_t)runs, sizeof *ms, by_value);
  printf("C  %-6s %-7s 2^%-2u min %10.3f ms  median %10.3f ms  mean %10.3f ms  (%d runs)\n", what,
         hash, log2, ms[0], ms[runs / 2], sum / runs, runs);
}

int main(int argc, char **argv) {
  const char *hashes[] = {"sha256", "blake3"};
  unsigned log2;
  int runs, h, i;
  size_t bytes;
  unsigned char *data;
  double *ms;
  merklize_device *device;
  if (argc != 3) {
    fprintf(stderr, "usage: root_bench LOG2 RUNS\n");
    return 2;
  }
  log2 = (unsigned)atoi(argv[1]);
  runs = atoi(argv[2]);
  if (log2 > 30 || runs < 1) {
    fprintf(stderr, "root_bench: LOG2 is 0 to 30, RUNS at least 1\n");
    return 2;
  }
  bytes = (size_t)32 << log2;
  data = malloc(bytes);
  ms = malloc(sizeof *ms * (size_t)runs);
  if (!data || !ms) return 1;
  srand(1);
  for (i = 0; (size_t)i < bytes; ++i) data[i] = (unsigned char)(rand() >> 7);
  if (merklize_device_open(NULL, &device) != MERKLIZE_OK) fail("merklize_device_open");
  for (h = 0; h < 2; ++h) {
    merklize_tree_config config;
    merklize_builder *builder;
    merklize_tree *tree;
    const merklize_source source = merklize_source_memory(data, bytes);
    uint8_t root[32];
    merklize_tree_config_init(&config);
    config.hash = hashes[h];
    if (merklize_builder_create(device, &config, &builder) != MERKLIZE_OK) fail("builder");
    if (merklize_root(builder, &source, root) != MERKLIZE_OK) fail("merklize_root");
    for (i = 0; i < runs; ++i) {
      const double start = now_ms();
      if (merklize_root(builder, &source, root) != MERKLIZE_OK) fail("merklize_root");
      ms[i] = now_ms() - start;
    }
    report("Root", hashes[h], log2, ms, runs);
    for (i = 0; i < runs; ++i) {
      const double start = now_ms();
      if (merklize_build(builder, &source, &tree) != MERKLIZE_OK) fail("merklize_build");
      merklize_tree_free(tree);
      ms[i] = now_ms() - start;
    }
    report("Build", hashes[h], log2, ms, runs);
    merklize_builder_free(builder);
  }
  merklize_device_free(device);
  free(ms);
  free(data);
  return 0;
}
