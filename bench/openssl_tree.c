// SPDX-License-Identifier: Apache-2.0 OR MIT
// A CPU baseline: the root of the SHA-256 tree (merklize's sha256 nodes, shape promote)
// of a file of 32-byte leaves by one thread, SHA256_Init/Update/Final per node (OpenSSL's code,
// on the SHA extensions where the CPU has them), reading the file included. Prints the root.
//   cc -O2 bench/openssl_tree.c -lcrypto -o openssl_tree && ./openssl_tree leaves.bin
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LEAVES\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (size <= 0 || size % 32) {
    fprintf(stderr, "%s: not N >= 1 leaves of 32 bytes\n", argv[1]);
    return 1;
  }
  uint8_t *nodes = malloc((size_t)size);
  if (!nodes || fread(nodes, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 1;
  }
  fclose(f);
  // Levels in place: node i of the next level from nodes 2i and 2i + 1; a lone last moves up.
  for (size_t n = (size_t)size / 32; n > 1; n = (n + 1) / 2) {
    for (size_t i = 0; i < n / 2; ++i) {
      SHA256_CTX c;
      SHA256_Init(&c);
      SHA256_Update(&c, nodes + 64 * i, 64);
      SHA256_Final(nodes + 32 * i, &c);
    }
    if (n % 2) {
      for (int b = 0; b < 32; ++b)
        nodes[32 * (n / 2) + b] = nodes[32 * (n - 1) + b];
    }
  }
  for (int b = 0; b < 32; ++b)
    printf("%02x", nodes[b]);
  printf("\n");
  free(nodes);
  return 0;
}
