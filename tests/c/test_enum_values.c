/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Enum members a C caller set to values outside their enums (merklize_source's kind,
 * merklize_blake3_mode's kind): refused as MERKLIZE_ERROR_ARGUMENT naming the member and its
 * value, the outputs untouched. The program links the library's objects that read those members
 * (src/capi/sources.cpp, hashing.cpp) compiled with UBSan, which stops it (no recovery) at a
 * read of such a member as the C++ enum: the value must be read as the integer it is, before it
 * is used as the enum (tests/c/CMakeLists.txt). */
#include "c_test.h"

#include <stdio.h>
#include <string.h>

static const int bad_kinds[] = {3, 7, -1, 0x7fffffff};

static void source_kinds(merklize_device *device, merklize_builder *builder) {
  uint8_t leaves[64] = {0}, out[32];
  merklize_source source = merklize_source_memory(leaves, sizeof leaves);
  char says[64];
  size_t k;
  test_poison(out, sizeof out);
  for (k = 0; k < sizeof bad_kinds / sizeof *bad_kinds; ++k) {
    memcpy(&source.kind, &bad_kinds[k], sizeof source.kind); /* as any C caller may store it */
    snprintf(says, sizeof says, "source->kind is %d: MERKLIZE_SOURCE_MEMORY (0)", bad_kinds[k]);
    CHECK_FAILS(merklize_blake3(device, NULL, &source, out, sizeof out), MERKLIZE_ERROR_ARGUMENT,
                says);
    CHECK_FAILS(merklize_root(builder, &source, out), MERKLIZE_ERROR_ARGUMENT, says);
  }
  CHECK(test_is_poisoned(out, sizeof out), "a refused call wrote its output");
  printf("ok: merklize_source kinds outside the enum refused\n");
}

static void blake3_kinds(merklize_device *device) {
  uint8_t key[32] = {0}, out[32];
  const merklize_source source = merklize_source_memory(key, sizeof key);
  merklize_blake3_mode mode;
  char says[64];
  size_t k;
  mode.key = key;
  mode.context = "merklize enum values";
  test_poison(out, sizeof out);
  for (k = 0; k < sizeof bad_kinds / sizeof *bad_kinds; ++k) {
    memcpy(&mode.kind, &bad_kinds[k], sizeof mode.kind);
    snprintf(says, sizeof says, "mode->kind is %d: MERKLIZE_BLAKE3_HASH (0)", bad_kinds[k]);
    CHECK_FAILS(merklize_blake3(device, &mode, &source, out, sizeof out), MERKLIZE_ERROR_ARGUMENT,
                says);
  }
  CHECK(test_is_poisoned(out, sizeof out), "a refused call wrote its output");
  printf("ok: merklize_blake3_mode kinds outside the enum refused\n");
}

int main(void) {
  merklize_device *device = test_device();
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config);
  CHECK(sizeof(merklize_source_kind) == sizeof(int), "an enum of another size than int");
  source_kinds(device, builder);
  blake3_kinds(device);
  merklize_builder_free(builder);
  merklize_device_free(device);
  return 0;
}
