/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A C program of someone else's, built against an installed libmerklize with merklize.h alone
 * (tests/consumer/run.sh: pkg-config, shared and static, and CMake's merklize::merklize_shared):
 * prints "merklize VERSION" and the root of the leaves in the file it is given, streamed from its
 * path on the default device, as the C++ consumer prints them. */
#include <merklize.h>

#include <stdio.h>

int main(int argc, char **argv) {
  merklize_device *device = NULL;
  merklize_builder *builder = NULL;
  merklize_tree_config config;
  merklize_source source;
  uint8_t root[MERKLIZE_DIGEST_SIZE];
  int i;
  if (argc != 2) {
    fprintf(stderr, "usage: consumer LEAVES_FILE\n");
    return 2;
  }
  if (merklize_abi_version() != MERKLIZE_ABI_VERSION) {
    fprintf(stderr, "libmerklize ABI %u, merklize.h's %d\n", (unsigned)merklize_abi_version(),
            MERKLIZE_ABI_VERSION);
    return 1;
  }
  merklize_tree_config_init(&config);
  config.keep = MERKLIZE_KEEP_ROOT_ONLY;
  source = merklize_source_path(argv[1]);
  if (merklize_device_open(NULL, &device) != MERKLIZE_OK ||
      merklize_builder_create(device, &config, &builder) != MERKLIZE_OK ||
      merklize_root(builder, &source, root) != MERKLIZE_OK) {
    fprintf(stderr, "consumer: %s\n", merklize_last_error());
    return 1;
  }
  printf("merklize %s\n", merklize_version());
  for (i = 0; i < MERKLIZE_DIGEST_SIZE; ++i)
    printf("%02x", root[i]);
  printf("\n");
  merklize_builder_free(builder);
  merklize_device_free(device);
  return 0;
}
