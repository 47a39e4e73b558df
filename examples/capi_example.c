/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The root of a file of 32-byte leaves, and the proof of one leaf, checked:
 *   cc -std=c99 capi_example.c $(pkg-config --cflags --libs merklize) && ./a.out leaves.bin 5 */
#include <merklize.h>

#include <stdio.h>
#include <stdlib.h>

static int failed(const char *what) {
  fprintf(stderr, "%s: %s\n", what, merklize_last_error());
  return 1;
}

int main(int argc, char **argv) {
  merklize_device *device = NULL;
  merklize_builder *builder = NULL;
  merklize_proof *proof = NULL;
  merklize_bytes *json = NULL;
  merklize_tree_config config;
  merklize_source file;
  uint8_t root[MERKLIZE_DIGEST_SIZE], leaf[MERKLIZE_DIGEST_SIZE];
  unsigned long long index;
  int i, valid = 0;
  FILE *f;
  if (argc != 3) {
    fprintf(stderr, "usage: %s FILE INDEX\n", argv[0]);
    return 2;
  }
  file = merklize_source_path(argv[1]); /* streamed: a few chunks in memory, whatever its size */
  index = strtoull(argv[2], NULL, 10);
  merklize_tree_config_init(&config);
  config.hash = "sha256"; /* and shape "promote", the natural depth, arity 2: the defaults */

  if (merklize_device_open(NULL, &device) != MERKLIZE_OK) return failed("device");
  if (merklize_builder_create(device, &config, &builder) != MERKLIZE_OK) return failed("config");
  if (merklize_root(builder, &file, root) != MERKLIZE_OK) return failed(argv[1]);
  for (i = 0; i < MERKLIZE_DIGEST_SIZE; ++i)
    printf("%02x", root[i]);
  printf("\n");

  if (merklize_prove_source(builder, &file, index, &proof) != MERKLIZE_OK ||
      merklize_proof_encode(proof, MERKLIZE_ENCODING_JSON, &json) != MERKLIZE_OK)
    return failed("proof");
  printf("%.*s\n", (int)merklize_bytes_size(json), (const char *)merklize_bytes_data(json));

  /* A verifier needs the leaf, the proof and the root; here the leaf is read from the file. */
  f = fopen(argv[1], "rb");
  if (!f || fseek(f, (long)(index * MERKLIZE_DIGEST_SIZE), SEEK_SET) != 0 ||
      fread(leaf, 1, sizeof leaf, f) != sizeof leaf) {
    fprintf(stderr, "%s: cannot read leaf %llu\n", argv[1], index);
    return 1;
  }
  fclose(f);
  if (merklize_proof_verify(proof, leaf, 1, root, &valid) != MERKLIZE_OK) return failed("verify");
  printf("%s\n", valid ? "valid" : merklize_last_error());

  merklize_bytes_free(json);
  merklize_proof_free(proof);
  merklize_builder_free(builder); /* in any order: each handle holds what it needs */
  merklize_device_free(device);
  return valid ? 0 : 1;
}
