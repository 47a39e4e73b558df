/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* BenchmarkRoot's calls made from C, in the order `go test -benchtime 1x -count REPETITIONS` makes
 * them: one builder, an untimed merklize_root, then REPETITIONS merklize_build (every level kept,
 * the root read, the tree freed), then REPETITIONS merklize_root, each call timed whole by the
 * host's clock. bench/capi_bench times the same calls interleaved with C++'s instead (each side
 * finds the caches the other left), so this is what Go's times compare with. bench.sh builds it
 * against the installed library and runs the three.
 *
 *   root_bench LOG2 REPETITIONS HASH */
#define _POSIX_C_SOURCE 200809L

#include <merklize.h>

#include <stdio.h>
#include <stdlib.h>
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

static void check(merklize_status status, const char *what) {
  if (status == MERKLIZE_OK) return;
  fprintf(stderr, "root_bench: %s: %s\n", what, merklize_last_error());
  exit(1);
}

static void report(const char *what, double *ms, int n) {
  qsort(ms, (size_t)n, sizeof *ms, by_value);
  printf("%-38s C   %9.2f ms (fastest %9.2f)\n", what, ms[n / 2], ms[0]);
}

int main(int argc, char **argv) {
  unsigned log2;
  int reps, r;
  size_t bytes, i;
  unsigned char *data;
  double *ms;
  merklize_device *device;
  merklize_builder *builder;
  merklize_tree_config config;
  merklize_source source;
  uint8_t root[MERKLIZE_DIGEST_SIZE];
  if (argc != 4 || (log2 = (unsigned)atoi(argv[1])) > 30 || (reps = atoi(argv[2])) < 1) {
    fprintf(stderr, "usage: root_bench LOG2 (0 to 30) REPETITIONS HASH\n");
    return 2;
  }
  bytes = (size_t)MERKLIZE_DIGEST_SIZE << log2;
  data = malloc(bytes);
  if (!data) return 1;
  for (i = 0; i < bytes; ++i) data[i] = (unsigned char)(i * 7 + (i >> 12)); /* capi_bench's */
  source = merklize_source_memory(data, bytes);
  check(merklize_device_open(NULL, &device), "merklize_device_open");
  merklize_tree_config_init(&config);
  config.hash = argv[3];
  ms = malloc(sizeof *ms * 2 * (size_t)reps);
  if (!ms) return 1;
  check(merklize_builder_create(device, &config, &builder), "merklize_builder_create");
  check(merklize_root(builder, &source, root), "merklize_root"); /* programs loaded: untimed */
  for (r = 0; r < 2 * reps; ++r) {
    const double start = now_ms();
    if (r < reps) {
      merklize_tree *tree;
      check(merklize_build(builder, &source, &tree), "merklize_build");
      check(merklize_tree_root(tree, root), "merklize_tree_root");
      merklize_tree_free(tree);
    } else {
      check(merklize_root(builder, &source, root), "merklize_root");
    }
    ms[r] = now_ms() - start;
  }
  merklize_builder_free(builder);
  report("every level, in turn (merklize_build)", ms, reps);
  report("root, in turn (merklize_root)", ms + reps, reps);
  merklize_device_free(device);
  free(ms);
  free(data);
  return 0;
}
