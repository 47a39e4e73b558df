/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* dm-verity, fs-verity and Bao through the C ABI, from memory, paths and descriptors: the root
 * (or fs-verity's file digest) and the hash tree, file digest's tree or outboard are those
 * `merklize root --format` prints and writes (--hash-output, --tree-output, --outboard), which
 * its own tests hold against veritysetup, fsverity and bao; Bao's root is also BLAKE3's. */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum format { DM_VERITY, FS_VERITY, BAO };

static merklize_status run(enum format format, merklize_device *device,
                           const merklize_verity_config *config, const merklize_source *source,
                           uint8_t root[32], merklize_bytes **bytes) {
  if (format == DM_VERITY) return merklize_dm_verity(device, config, source, root, bytes);
  if (format == FS_VERITY) return merklize_fs_verity(device, config, source, root, bytes);
  return merklize_bao_outboard(device, source, root, bytes);
}

/* The format of `size` bytes of `data`, through each source, against the CLI's line (its root
 * or digest, `hex` of `expected_root`) and the file it wrote (`expected`). */
static void check_format(enum format format, merklize_device *device,
                         const merklize_verity_config *config, const uint8_t *data, size_t size,
                         const char *line, const uint8_t *expected, size_t expected_size) {
  const char *path = test_path("data");
  merklize_source sources[3];
  uint8_t root[32];
  char hex[65];
  int s, fd;
  fd = open(path, O_RDONLY);
  CHECK(fd >= 0, "cannot open %s", path);
  sources[0] = merklize_source_memory(data, size);
  sources[1] = merklize_source_path(path);
  sources[2] = merklize_source_fd(fd);
  for (s = 0; s < 3; ++s) {
    merklize_bytes *bytes = NULL;
    CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    test_poison(root, sizeof root);
    CHECK_OK(run(format, device, config, &sources[s], root, &bytes));
    test_hex(root, 32, hex);
    CHECK(strstr(line, hex) != NULL, "format %d, source %d, %zu bytes: %s, the CLI printed %s",
          (int)format, s, size, hex, line);
    CHECK(merklize_bytes_size(bytes) == expected_size &&
              (expected_size == 0 ||
               memcmp(merklize_bytes_data(bytes), expected, expected_size) == 0),
          "format %d, source %d, %zu bytes: %zu bytes of tree, the CLI wrote %zu others",
          (int)format, s, size, merklize_bytes_size(bytes), expected_size);
    merklize_bytes_free(bytes);
    CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
    test_poison(root, sizeof root);
    CHECK_OK(run(format, device, config, &sources[s], root, NULL)); /* the root alone */
    CHECK(strstr(line, hex) != NULL && !test_is_poisoned(root, 32), "without the tree: other root");
  }
  close(fd);
}

static void dm_verity(merklize_device *device, const uint8_t *data) {
  static const struct {
    uint32_t data_block, hash_block;
    int salted;
    size_t blocks[4];
  } cases[] = {{4096, 4096, 0, {1, 2, 128, 129}}, {512, 1024, 1, {1, 31, 32, 33}}};
  static const uint8_t salt[4] = {0x01, 0x23, 0x45, 0x67};
  size_t c, b;
  for (c = 0; c < 2; ++c)
    for (b = 0; b < 4; ++b) {
      const size_t size = cases[c].blocks[b] * cases[c].data_block;
      merklize_verity_config config;
      uint8_t *expected;
      size_t expected_size;
      char line[2048];
      merklize_verity_config_init(&config);
      config.data_block_size = cases[c].data_block;
      config.hash_block_size = cases[c].hash_block;
      if (cases[c].salted) {
        config.salt = salt;
        config.salt_size = sizeof salt;
      }
      test_write_file(test_path("data"), data, size);
      snprintf(
          line, sizeof line, "%s",
          test_cli(
              "root --format dm-verity --no-superblock --data-block-size %u --hash-block-size %u "
              "--salt %s --hash-output '%s' '%s'",
              cases[c].data_block, cases[c].hash_block, cases[c].salted ? "01234567" : "-",
              test_path("tree"), test_path("data")));
      expected = test_read_file(test_path("tree"), &expected_size);
      check_format(DM_VERITY, device, &config, data, size, line, expected, expected_size);
      free(expected);
    }
  printf("ok: dm-verity's root hash and hash device are the CLI's (4096/4096, and 512/1024 with "
         "a salt)\n");
}

static void fs_verity(merklize_device *device, const uint8_t *data) {
  static const size_t sizes[] = {0, 1, 1024, 1025, 4096 * 33 + 7};
  static const uint8_t salt[2] = {0xab, 0xcd};
  size_t s, b;
  for (b = 0; b < 2; ++b)
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      merklize_verity_config config;
      uint8_t *expected;
      size_t expected_size;
      char line[2048];
      merklize_verity_config_init(&config);
      config.hash_block_size = b ? 1024 : 4096;
      config.salt = b ? salt : NULL;
      config.salt_size = b ? sizeof salt : 0;
      test_write_file(test_path("data"), data, sizes[s]);
      snprintf(line, sizeof line, "%s",
               test_cli("root --format fs-verity --block-size %u --salt %s --tree-output '%s' '%s'",
                        config.hash_block_size, b ? "abcd" : "-", test_path("tree"),
                        test_path("data")));
      expected = test_read_file(test_path("tree"), &expected_size);
      check_format(FS_VERITY, device, &config, data, sizes[s], line, expected, expected_size);
      free(expected);
    }
  printf("ok: fs-verity's file digest and Merkle tree are the CLI's (blocks of 4096, and 1024 "
         "with a salt), of 0 bytes to 132 KiB\n");
}

static void bao(merklize_device *device, const uint8_t *data) {
  static const size_t sizes[] = {0, 1, 1024, 1025, 2048, 2049, (1 << 20) + 1};
  size_t s;
  for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const merklize_source memory = merklize_source_memory(data, sizes[s]);
    uint8_t *expected, blake3[32];
    size_t expected_size;
    char line[256], hex[65];
    test_write_file(test_path("data"), data, sizes[s]);
    strcpy(line, test_cli("root --format bao-outboard --outboard '%s' '%s'", test_path("tree"),
                          test_path("data")));
    expected = test_read_file(test_path("tree"), &expected_size);
    check_format(BAO, device, NULL, data, sizes[s], line, expected, expected_size);
    CHECK_OK(merklize_blake3(device, NULL, &memory, blake3, 32));
    test_hex(blake3, 32, hex);
    CHECK(strcmp(line, hex) == 0, "Bao's root %s is not BLAKE3's %s", line, hex);
    free(expected);
  }
  printf("ok: Bao outboards are the CLI's, their roots BLAKE3's, of 0 bytes to 1 MiB + 1\n");
}

static void refusals(merklize_device *device, const uint8_t *data) {
  merklize_verity_config config;
  const merklize_source partial = merklize_source_memory(data, 4097);
  const merklize_source missing = merklize_source_path("/nonexistent/merklize-c-test");
  uint8_t root[32];
  merklize_bytes *bytes = (merklize_bytes *)root;
  merklize_verity_config_init(&config);
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_dm_verity(device, &config, &partial, root, &bytes), MERKLIZE_ERROR_ARGUMENT,
              "not a whole number");
  CHECK_FAILS(merklize_fs_verity(device, &config, &missing, root, &bytes), MERKLIZE_ERROR_IO,
              "/nonexistent/merklize-c-test");
  config.hash_block_size = 1000;
  CHECK_FAILS(merklize_fs_verity(device, &config, &partial, root, &bytes), MERKLIZE_ERROR_ARGUMENT,
              "1000");
  config.size = 3;
  CHECK_FAILS(merklize_dm_verity(device, &config, &partial, root, &bytes), MERKLIZE_ERROR_ARGUMENT,
              "config->size");
  CHECK(test_is_poisoned(root, sizeof root) && bytes == (merklize_bytes *)root,
        "a failed call wrote its outputs");
  printf("ok: partial blocks, a missing file, a bad block size and an uninitialised config are "
         "refused, outputs untouched\n");
}

int main(void) {
  merklize_device *device = test_device();
  uint8_t *data = malloc((1 << 20) + 1);
  size_t i;
  CHECK(data != NULL, "out of memory");
  for (i = 0; i < (1 << 20) + 1; ++i)
    data[i] = (uint8_t)(i * 13 + (i >> 10));
  dm_verity(device, data);
  fs_verity(device, data);
  bao(device, data);
  refusals(device, data);
  free(data);
  merklize_device_free(device);
  return 0;
}
