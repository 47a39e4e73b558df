// SPDX-License-Identifier: Apache-2.0 OR MIT
// Reads stdin to its end in 64 MiB reads, after widening the pipe to ARGV[1] bytes if given:
// the pipe's speed with and without the wider buffer that merklize asks for (bench/startup.sh).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc > 1 && fcntl(0, F_SETPIPE_SZ, atoi(argv[1])) < 0) perror("F_SETPIPE_SZ");
  const size_t capacity = (size_t)64 << 20;
  char *buffer = malloc(capacity);
  long long total = 0;
  ssize_t got;
  while ((got = read(0, buffer, capacity)) > 0)
    total += got;
  printf("%lld bytes\n", total);
  free(buffer);
  return got < 0;
}
