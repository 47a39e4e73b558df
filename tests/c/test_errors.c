/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The contract of the C ABI where calls fail: every failure a status and a message naming the
 * problem (an unknown name lists the known ones, a bad configuration names its field, a file its
 * path), nothing written to outputs of a failed call, NULL handles refused or ignored as the
 * header says, merklize_last_error per thread, and calls of several threads on one builder
 * serialised; and the facts: versions, status names, the names lists, the device list. */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void facts(merklize_device *device) {
  size_t count = 0;
  merklize_device_info info, described;
  char expected[64];
  merklize_device *by_spec = NULL;
  CHECK(merklize_abi_version() == MERKLIZE_ABI_VERSION, "ABI %u, the header's %d",
        merklize_abi_version(), MERKLIZE_ABI_VERSION);
  snprintf(expected, sizeof expected, "merklize %s", merklize_version());
  CHECK(strcmp(test_cli("--version"), expected) == 0, "merklize_version %s is not the tool's",
        merklize_version());
  CHECK(strcmp(merklize_status_name(MERKLIZE_ERROR_DECODE), "MERKLIZE_ERROR_DECODE") == 0 &&
            strcmp(merklize_status_name(MERKLIZE_OK), "MERKLIZE_OK") == 0 &&
            strcmp(merklize_status_name(MERKLIZE_ERROR_UNUSABLE), "MERKLIZE_ERROR_UNUSABLE") == 0 &&
            strcmp(merklize_status_name((merklize_status)99), "unknown status") == 0,
        "status names");
  CHECK_OK(merklize_device_count(&count));
  CHECK(count >= 1, "no device listed, yet one opened");
  info.size = sizeof info;
  CHECK_OK(merklize_device_get_info(0, &info));
  CHECK(strcmp(info.spec, "0:0") == 0 && *info.name && *info.platform, "device 0: %s %s %s",
        info.spec, info.name, info.platform);
  CHECK(strstr(test_cli("devices"), info.name) != NULL, "merklize devices does not list %s",
        info.name);
  CHECK_OK(merklize_device_open(info.spec, &by_spec));
  described.size = sizeof described;
  CHECK_OK(merklize_device_describe(by_spec, &described));
  CHECK(memcmp(&described, &info, sizeof info) == 0, "describe differs from get_info");
  merklize_device_free(by_spec);
  test_poison(&described, sizeof described);
  described.size = sizeof described;
  CHECK_FAILS(merklize_device_get_info(count, &described), MERKLIZE_ERROR_ARGUMENT, "out of range");
  described.size = 8;
  CHECK_FAILS(merklize_device_describe(device, &described), MERKLIZE_ERROR_ARGUMENT, "info->size");
  CHECK(test_is_poisoned((char *)&described + 4, sizeof described - 4), "info written on failure");
  printf("ok: versions, status names, the device list and a device's facts\n");
}

/* Each name a list gives is accepted; an unknown one is refused, the message listing them. */
static void names(merklize_device *device) {
  char list[1024], *name, *rest; /* ten hashes take 130 bytes: room for many more */
  merklize_builder *builder = NULL;
  merklize_tree_config config = test_config(NULL, NULL);
  CHECK(strlen(merklize_hash_names()) < sizeof list, "merklize_hash_names() outgrew the test");
  strcpy(list, merklize_hash_names());
  for (name = strtok_r(list, ",", &rest); name; name = strtok_r(NULL, ",", &rest)) {
    config.hash = name;
    merklize_builder_free(test_builder(device, &config));
  }
  config = test_config(NULL, NULL);
  strcpy(list, merklize_shape_names());
  for (name = strtok_r(list, ",", &rest); name; name = strtok_r(NULL, ",", &rest)) {
    config.shape = name;
    merklize_builder_free(test_builder(device, &config));
  }
  config = test_config("sha256", NULL);
  config.leaf_size = 4096;
  strcpy(list, merklize_leaf_hash_names());
  for (name = strtok_r(list, ",", &rest); name; name = strtok_r(NULL, ",", &rest)) {
    config.leaf_hash = name;
    merklize_builder_free(test_builder(device, &config));
  }
  config = test_config("sha3", NULL);
  CHECK_FAILS(merklize_builder_create(device, &config, &builder), MERKLIZE_ERROR_ARGUMENT,
              "config.hash: unknown hash \"sha3\" (known: blake3, blake3-parent, sha256, rfc6962, "
              "keccak256, sha3-256, poseidon2-babybear, poseidon2-koalabear, "
              "poseidon2-goldilocks, poseidon2-bn254)");
  config = test_config(NULL, "pad");
  CHECK_FAILS(merklize_builder_create(device, &config, &builder), MERKLIZE_ERROR_ARGUMENT,
              "config.shape: unknown shape \"pad\" (known: promote, zero)");
  config = test_config(NULL, NULL);
  config.leaf_size = 64;
  config.leaf_hash = "md5";
  CHECK_FAILS(merklize_builder_create(device, &config, &builder), MERKLIZE_ERROR_ARGUMENT,
              "config.leaf_hash: unknown leaf hash \"md5\" (known: sha256, blake3, keccak256, "
              "sha3-256)");
  CHECK(builder == NULL, "a failed merklize_builder_create wrote its output");
  printf("ok: every listed name is accepted, an unknown one refused with the list\n");
}

/* A configuration the trees do not allow: refused, naming the field. */
static void bad_configs(merklize_device *device) {
  static const struct {
    const char *hash, *shape, *leaf_hash;
    int32_t depth;
    uint32_t arity;
    uint64_t leaf_size;
    int salted, mixed;
    const char *says;
  } cases[] = {
      {"sha256", "promote", NULL, 5, 2, 0, 0, 0,
       "config.depth: a fixed depth (5) needs shape zero"},
      {"sha256", "zero", NULL, -2, 2, 0, 0, 0, "config.depth is -2"},
      {"sha256", "zero", NULL, 65, 2, 0, 0, 0, "config.depth"},
      {"rfc6962", "zero", NULL, -1, 2, 0, 0, 0, "config.shape"},
      {"sha256", "promote", NULL, -1, 3, 0, 0, 0, "config.arity: arity 3"},
      {"sha256", "promote", NULL, -1, 0, 0, 0, 0, "config.arity: arity 0"},
      {"sha256", "zero", NULL, 8, 4, 0, 0, 0, "config.depth is 8: a fixed depth has no use"},
      {"rfc6962", "promote", NULL, -1, 4, 0, 0, 0, "config.arity: rfc6962"},
      {"blake3-parent", "promote", NULL, -1, 16, 0, 0, 0, "config.arity: blake3-parent"},
      {"sha256", "promote", NULL, -1, 2, 0, 1, 0, "config.salt needs config.leaf_size"},
      {"sha256", "promote", "sha256", -1, 2, 0, 0, 0, "config.leaf_hash needs config.leaf_size"},
      {"sha256", "promote", "blake3", -1, 2, 64, 1, 0, "salt"},
      {"sha256", "promote", NULL, -1, 2, UINT64_C(1) << 33, 0, 0, "leaf size"},
      {"blake3", "zero", NULL, -1, 2, 0, 0, 1, "config.mix_in_length"},
      {"sha256", "zero", NULL, -1, 4, 0, 0, 1, "config.mix_in_length"},
      {"sha256", "zero", NULL, -1, 2, 0, 0, 1,
       "config.mix_in_length is SSZ's list root: it needs config.depth"}};
  static const uint8_t salt[2] = {1, 2};
  merklize_builder *builder = (merklize_builder *)&builder;
  merklize_tree_config config;
  size_t c;
  for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    config = test_config(cases[c].hash, cases[c].shape);
    config.leaf_hash = cases[c].leaf_hash;
    config.depth = cases[c].depth;
    config.arity = cases[c].arity;
    config.leaf_size = cases[c].leaf_size;
    config.salt = cases[c].salted ? salt : NULL;
    config.salt_size = cases[c].salted ? sizeof salt : 0;
    config.mix_in_length = cases[c].mixed;
    CHECK_FAILS(merklize_builder_create(device, &config, &builder), MERKLIZE_ERROR_ARGUMENT,
                cases[c].says);
  }
  config = test_config(NULL, NULL);
  config.size = 4;
  CHECK_FAILS(merklize_builder_create(device, &config, &builder), MERKLIZE_ERROR_ARGUMENT,
              "config->size is 4");
  CHECK(builder == (merklize_builder *)&builder, "a failed merklize_builder_create wrote");
  printf("ok: %zu bad configurations refused, each naming its field\n",
         sizeof cases / sizeof cases[0] + 1);
}

/* NULL where a value is needed: refused, naming the argument; NULL handles freed or read as 0. */
static void null_arguments(merklize_device *device) {
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config);
  const merklize_source source = merklize_source_memory("0123456789abcdef0123456789abcdef", 32);
  merklize_tree *tree = NULL;
  merklize_proof *proof = NULL;
  uint8_t root[32];
  size_t count;
  int valid;
  CHECK_FAILS(merklize_device_count(NULL), MERKLIZE_ERROR_ARGUMENT, "`count` is NULL");
  CHECK_FAILS(merklize_device_open(NULL, NULL), MERKLIZE_ERROR_ARGUMENT, "`device` is NULL");
  CHECK_FAILS(merklize_builder_create(NULL, &config, &builder), MERKLIZE_ERROR_ARGUMENT, "device");
  CHECK_FAILS(merklize_builder_create(device, NULL, &builder), MERKLIZE_ERROR_ARGUMENT, "config");
  CHECK_FAILS(merklize_build(NULL, &source, &tree), MERKLIZE_ERROR_ARGUMENT, "`builder`");
  CHECK_FAILS(merklize_build(builder, NULL, &tree), MERKLIZE_ERROR_ARGUMENT, "`source`");
  CHECK_FAILS(merklize_build(builder, &source, NULL), MERKLIZE_ERROR_ARGUMENT, "`tree`");
  CHECK_FAILS(merklize_root(builder, &source, NULL), MERKLIZE_ERROR_ARGUMENT, "`root`");
  CHECK_FAILS(merklize_tree_root(NULL, root), MERKLIZE_ERROR_ARGUMENT, "`tree`");
  CHECK_FAILS(merklize_prove(NULL, 0, &proof), MERKLIZE_ERROR_ARGUMENT, "`tree`");
  CHECK_FAILS(merklize_proof_decode(NULL, 5, MERKLIZE_ENCODING_JSON, &proof),
              MERKLIZE_ERROR_ARGUMENT, "`data`");
  CHECK_FAILS(merklize_proof_verify(NULL, root, 1, root, &valid), MERKLIZE_ERROR_ARGUMENT,
              "`proof`");
  CHECK_FAILS(merklize_blake3(device, NULL, &source, NULL, 32), MERKLIZE_ERROR_ARGUMENT, "`out`");
  CHECK_FAILS(merklize_blake3(NULL, NULL, &source, root, 32), MERKLIZE_ERROR_ARGUMENT, "`device`");
  CHECK_FAILS(merklize_proof_indices(NULL, NULL, &count), MERKLIZE_ERROR_ARGUMENT, "`proof`");
  CHECK(merklize_tree_leaf_count(NULL) == 0 && merklize_tree_depth(NULL) == 0 &&
            merklize_proof_leaf_count(NULL) == 0 && merklize_bytes_size(NULL) == 0 &&
            merklize_bytes_data(NULL) == NULL,
        "the accessors of NULL handles are not 0");
  merklize_tree_free(NULL);
  merklize_proof_free(NULL);
  merklize_builder_free(NULL);
  merklize_device_free(NULL);
  merklize_bytes_free(NULL);
  merklize_tree_config_init(NULL);
  merklize_verity_config_init(NULL);
  CHECK(tree == NULL && proof == NULL, "a failed call wrote its output");
  merklize_builder_free(builder);
  printf("ok: NULL arguments refused, naming them; NULL handles freed and read as 0\n");
}

/* Sources that cannot be read: IO naming the path; a bad descriptor, kind or size: ARGUMENT. */
static void bad_sources(merklize_device *device) {
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config);
  merklize_source source = merklize_source_path("/nonexistent/merklize/leaves");
  uint8_t root[32], leaves[33] = {0};
  merklize_tree *tree = (merklize_tree *)root;
  const uint8_t *nodes;
  uint64_t count;
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_root(builder, &source, root), MERKLIZE_ERROR_IO,
              "cannot open /nonexistent/merklize/leaves: No such file or directory");
  CHECK_FAILS(merklize_build(builder, &source, &tree), MERKLIZE_ERROR_IO, "/nonexistent");
  source = merklize_source_fd(-1);
  CHECK_FAILS(merklize_root(builder, &source, root), MERKLIZE_ERROR_ARGUMENT, "source->fd is -1");
  source = merklize_source_fd(1000);
  CHECK_FAILS(merklize_root(builder, &source, root), MERKLIZE_ERROR_IO, "file descriptor 1000");
  source.kind = (merklize_source_kind)9;
  CHECK_FAILS(merklize_root(builder, &source, root), MERKLIZE_ERROR_ARGUMENT, "source->kind is 9");
  source = merklize_source_memory(NULL, 64);
  CHECK_FAILS(merklize_root(builder, &source, root), MERKLIZE_ERROR_ARGUMENT, "source->data");
  source = merklize_source_memory(leaves, 33);
  CHECK_FAILS(merklize_root(builder, &source, root), MERKLIZE_ERROR_ARGUMENT,
              "33 bytes, not a multiple of 32");
  test_write_file(test_path("partial"), leaves, 33);
  source = merklize_source_path(test_path("partial"));
  CHECK_FAILS(merklize_build(builder, &source, &tree), MERKLIZE_ERROR_ARGUMENT,
              test_path("partial"));
  CHECK(test_is_poisoned(root, sizeof root) && tree == (merklize_tree *)root,
        "a failed call wrote its output");
  source = merklize_source_memory(leaves, 32);
  CHECK_OK(merklize_build(builder, &source, &tree));
  CHECK_FAILS(merklize_tree_level(tree, 1, &nodes, &count), MERKLIZE_ERROR_ARGUMENT,
              "level 1 out of range");
  CHECK_FAILS(merklize_tree_node(tree, 0, 1, root), MERKLIZE_ERROR_ARGUMENT, "node 1 out of range");
  CHECK(test_is_poisoned(root, sizeof root), "a failed merklize_tree_node wrote its output");
  merklize_tree_free(tree);
  merklize_builder_free(builder);
  printf("ok: a missing file (IO, its path), bad descriptors, kinds and sizes, partial leaves "
         "and levels and nodes out of range are refused, outputs untouched\n");
}

/* A message names the function the caller called, also where two share a helper: _commit and
 * _commit_dropping share their checks, and every call of a source opens it alike. */
static void function_names(merklize_device *device) {
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_builder *builder = test_builder(device, &config);
  const merklize_matrix no_data = {NULL, 2, 2}, huge = {NULL, UINT64_C(1) << 40, 1u << 30};
  merklize_source bad = merklize_source_memory(NULL, 0);
  merklize_mmcs *mmcs = NULL;
  merklize_tree *tree = NULL;
  merklize_proof *proof = NULL;
  merklize_bytes *bytes = NULL;
  uint8_t out[32];
  const int nine = 9;
  memcpy(&bad.kind, &nine, sizeof bad.kind);
  CHECK_FAILS(merklize_mmcs_commit(NULL, "poseidon2-babybear", &no_data, 1, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "merklize_mmcs_commit: `device` is NULL");
  CHECK_FAILS(merklize_mmcs_commit(device, "sha256", &no_data, 1, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "merklize_mmcs_commit: hash sha256");
  CHECK_FAILS(merklize_mmcs_commit(device, "poseidon2-babybear", &no_data, 1, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "merklize_mmcs_commit: `matrices[0].data` is NULL");
  CHECK_FAILS(merklize_mmcs_commit_dropping(device, "poseidon2-babybear", &no_data, 1, 0, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "merklize_mmcs_commit_dropping: `matrices[0].data` is NULL");
  CHECK_FAILS(merklize_mmcs_commit_dropping(device, "poseidon2-babybear", &huge, 1, 0, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT,
              "merklize_mmcs_commit_dropping: matrices[0] is too large to address");
  CHECK_FAILS(merklize_mmcs_commit_dropping(NULL, "poseidon2-babybear", &no_data, 1, 0, 0, &mmcs),
              MERKLIZE_ERROR_ARGUMENT, "merklize_mmcs_commit_dropping: `device` is NULL");
  CHECK_FAILS(merklize_build(builder, &bad, &tree), MERKLIZE_ERROR_ARGUMENT,
              "merklize_build: source->kind is 9");
  CHECK_FAILS(merklize_prove_source(builder, &bad, 0, &proof), MERKLIZE_ERROR_ARGUMENT,
              "merklize_prove_source: source->kind is 9");
  CHECK_FAILS(merklize_blake3(device, NULL, &bad, out, 32), MERKLIZE_ERROR_ARGUMENT,
              "merklize_blake3: source->kind is 9");
  CHECK_FAILS(merklize_log_leaves(device, &bad, "lines", &bytes), MERKLIZE_ERROR_ARGUMENT,
              "merklize_log_leaves: source->kind is 9");
  CHECK_FAILS(merklize_dm_verity(device, NULL, &bad, out, NULL), MERKLIZE_ERROR_ARGUMENT,
              "merklize_dm_verity: source->kind is 9");
  CHECK_FAILS(merklize_fs_verity(device, NULL, &bad, out, NULL), MERKLIZE_ERROR_ARGUMENT,
              "merklize_fs_verity: source->kind is 9");
  CHECK_FAILS(merklize_bao_outboard(device, &bad, out, NULL), MERKLIZE_ERROR_ARGUMENT,
              "merklize_bao_outboard: source->kind is 9");
  CHECK_FAILS(merklize_bitcoin_root(device, &bad, 0, out, NULL), MERKLIZE_ERROR_ARGUMENT,
              "merklize_bitcoin_root: source->kind is 9");
  CHECK_FAILS(merklize_bitcoin_proof(device, &bad, 0, 0, &bytes), MERKLIZE_ERROR_ARGUMENT,
              "merklize_bitcoin_proof: source->kind is 9");
  CHECK_FAILS(merklize_filecoin_commitment(device, &bad, out, NULL), MERKLIZE_ERROR_ARGUMENT,
              "merklize_filecoin_commitment: source->kind is 9");
  CHECK(!mmcs && !tree && !proof && !bytes, "a refused call wrote an out-pointer");
  merklize_builder_free(builder);
  printf("ok: each message names the function called, where two share their checks too\n");
}

static void bad_devices(void) {
  merklize_device *device = (merklize_device *)&device;
  CHECK_FAILS(merklize_device_open("no-such-device-anywhere", &device), MERKLIZE_ERROR_NO_DEVICE,
              "available devices:");
  CHECK(setenv("MERKLIZE_DEVICE", "no-such-device-anywhere", 1) == 0, "setenv");
  CHECK_FAILS(merklize_device_open(NULL, &device), MERKLIZE_ERROR_NO_DEVICE, "MERKLIZE_DEVICE");
  CHECK(unsetenv("MERKLIZE_DEVICE") == 0, "unsetenv");
  CHECK(device == (merklize_device *)&device, "a failed merklize_device_open wrote its output");
  printf("ok: an unknown device spec and a bad MERKLIZE_DEVICE are MERKLIZE_ERROR_NO_DEVICE, "
         "listing the devices\n");
}

/* merklize_last_error is per thread: a failure on one thread leaves another's message. */
static pthread_barrier_t barrier;
static merklize_builder *shared_builder;
static uint8_t shared_leaves[1000 * 32];

static void *fail_then_check(void *name) {
  merklize_source source = merklize_source_path((const char *)name);
  uint8_t root[32];
  int failed = merklize_root(shared_builder, &source, root) == MERKLIZE_ERROR_IO;
  pthread_barrier_wait(&barrier); /* both threads have failed */
  failed = failed && strstr(merklize_last_error(), (const char *)name) != NULL;
  return failed ? name : NULL;
}

static void *roots(void *expected) {
  const merklize_source source = merklize_source_memory(shared_leaves, sizeof shared_leaves);
  uint8_t root[32];
  int i, right = *merklize_last_error() == '\0'; /* a new thread has no error */
  for (i = 0; i < 20; ++i) {
    right = right && merklize_root(shared_builder, &source, root) == MERKLIZE_OK &&
            memcmp(root, expected, 32) == 0;
  }
  return right ? expected : NULL;
}

static void threads(merklize_device *device) {
  merklize_tree_config config = test_config("sha256", NULL);
  pthread_t a, b;
  void *result_a, *result_b;
  uint8_t expected[32];
  size_t i;
  static char name_a[] = "/nonexistent/thread-a", name_b[] = "/nonexistent/thread-b";
  shared_builder = test_builder(device, &config);
  CHECK(pthread_barrier_init(&barrier, NULL, 2) == 0, "pthread_barrier_init");
  CHECK(pthread_create(&a, NULL, fail_then_check, name_a) == 0 &&
            pthread_create(&b, NULL, fail_then_check, name_b) == 0,
        "pthread_create");
  CHECK(pthread_join(a, &result_a) == 0 && pthread_join(b, &result_b) == 0, "pthread_join");
  CHECK(result_a == name_a && result_b == name_b,
        "a thread's merklize_last_error is not its own failure's");
  for (i = 0; i < sizeof shared_leaves; ++i)
    shared_leaves[i] = (uint8_t)(i * 3);
  test_sha256_root(shared_leaves, 1000, -1, 0, -1, expected);
  CHECK(pthread_create(&a, NULL, roots, expected) == 0 &&
            pthread_create(&b, NULL, roots, expected) == 0,
        "pthread_create");
  CHECK(pthread_join(a, &result_a) == 0 && pthread_join(b, &result_b) == 0, "pthread_join");
  CHECK(result_a == expected && result_b == expected,
        "roots built on one builder by two threads at once are wrong");
  pthread_barrier_destroy(&barrier);
  merklize_builder_free(shared_builder);
  printf("ok: merklize_last_error is per thread; two threads share a builder\n");
}

int main(void) {
  merklize_device *device = test_device();
  CHECK(*merklize_last_error() == '\0', "an error before any call failed");
  facts(device);
  names(device);
  bad_configs(device);
  null_arguments(device);
  bad_sources(device);
  function_names(device);
  bad_devices();
  threads(device);
  merklize_device_free(device);
  return 0;
}
