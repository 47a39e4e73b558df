/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Counts past their limits (2^32 and 2^62 updates, leaves, indices, blocks) refused at once:
 * MERKLIZE_ERROR_ARGUMENT, naming the count, before anything is copied, read or allocated. The
 * calls run under an address-space limit of 1 GiB more than the process holds once its handles
 * are made (setrlimit): a call that copied the count's worth of the caller's data first (2^32
 * updates are 160 GiB) would fail for memory (MERKLIZE_ERROR_NO_MEMORY), or read past the
 * caller's few bytes, instead. The outputs stay as they were. */
#define _POSIX_C_SOURCE 200809L

#include "c_test.h"
#include "cl_caller.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const uint64_t counts[] = {UINT64_C(1) << 32, (UINT64_C(1) << 32) + 1, UINT64_C(1) << 62};

/* The address space now, from /proc/self/statm, and a limit of 1 GiB above it. */
static void limit_address_space(void) {
  unsigned long pages = 0;
  struct rlimit limit;
  FILE *statm = fopen("/proc/self/statm", "r");
  CHECK(statm != NULL && fscanf(statm, "%lu", &pages) == 1, "cannot read /proc/self/statm");
  fclose(statm);
  limit.rlim_cur = limit.rlim_max =
      (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
  CHECK(setrlimit(RLIMIT_AS, &limit) == 0, "setrlimit");
}

static merklize_device_tree *device_tree(merklize_builder *builder, const uint8_t *leaves) {
  merklize_device_tree *tree = NULL;
  CHECK_OK(merklize_device_tree_create(builder, leaves, 4 * 32, &tree));
  return tree;
}

/* Updates and appends of a tree kept on the device, from host memory and device buffers: a
 * binary tree takes fewer than 2^32 updates (`most`), a k-ary one 2^32, and either holds 2^32
 * leaves. */
static void device_trees(merklize_device_tree *tree, cl_mem buffer, uint64_t most) {
  uint64_t indices[4] = {0, 1, 2, 3};
  uint8_t leaves[4 * 32] = {0}, root[32];
  merklize_proof *proof = NULL;
  size_t k;
  char says[128];
  test_poison(root, sizeof root);
  for (k = 0; k < sizeof counts / sizeof *counts; ++k) {
    const uint64_t n = counts[k];
    snprintf(says, sizeof says, "count is %llu: a batch of this tree holds at most %llu updates",
             (unsigned long long)n, (unsigned long long)most);
    if (n > most) { /* else a batch it takes, of more indices than the test has */
      CHECK_FAILS(merklize_device_tree_update(tree, indices, leaves, n, root),
                  MERKLIZE_ERROR_ARGUMENT, says);
      CHECK_FAILS(merklize_device_tree_update_proved(tree, indices, leaves, n, root, &proof),
                  MERKLIZE_ERROR_ARGUMENT, says);
      CHECK_FAILS(merklize_device_tree_update_cl(tree, buffer, buffer, n, 0, NULL, NULL, root),
                  MERKLIZE_ERROR_ARGUMENT, says);
    }
    CHECK_FAILS(merklize_device_tree_append(tree, leaves, n, root), MERKLIZE_ERROR_ARGUMENT,
                "would pass its 4294967296 leaves");
    CHECK_FAILS(merklize_device_tree_append_cl(tree, buffer, n, 0, NULL, NULL, root),
                MERKLIZE_ERROR_ARGUMENT, "would pass its 4294967296 leaves");
  }
  CHECK(test_is_poisoned(root, sizeof root) && proof == NULL, "a refused call wrote an output");
  CHECK(merklize_device_tree_leaf_count(tree) == 4, "a refused call changed the tree");
}

/* What is made beside the tree, and the calls of trees and proofs. */
static void beside(merklize_device *device, merklize_builder *builder, merklize_device_tree *tree,
                   const merklize_proof *proof) {
  static const char oz[] = "{\"leafEncoding\": [\"uint256\"], \"values\": [[\"1\"], [\"2\"]]}";
  uint64_t indices[3] = {0, 1, 0};
  uint8_t leaves[4 * 32] = {0}, out[64];
  merklize_device_tree *made = NULL;
  merklize_update_batch *batch = NULL;
  merklize_bytes *bytes = NULL;
  merklize_proof *decoded = NULL;
  int valid = 7;
  size_t k;
  test_poison(out, sizeof out);
  for (k = 0; k < sizeof counts / sizeof *counts; ++k) {
    const uint64_t n = counts[k];
    if (n > (UINT64_C(1) << 32)) /* 2^32 leaves it may hold: the test has fewer */
      CHECK_FAILS(merklize_device_tree_create(builder, leaves, n * 32, &made),
                  MERKLIZE_ERROR_ARGUMENT, n < (UINT64_C(1) << 59) ? "the tree may hold" : NULL);
    CHECK_FAILS(merklize_device_tree_batch_create(tree, n, &batch), MERKLIZE_ERROR_ARGUMENT,
                "capacity");
    CHECK_FAILS(merklize_device_tree_read_level(tree, 0, 0, n, out), MERKLIZE_ERROR_ARGUMENT,
                "out of range");
    CHECK_FAILS(merklize_proof_verify(proof, leaves, (size_t)n, out, &valid),
                MERKLIZE_ERROR_ARGUMENT, "leaf_count is");
    CHECK_FAILS(merklize_oz_standard_proof(device, oz, sizeof oz - 1, 1, indices, (size_t)n,
                                           &bytes),
                MERKLIZE_ERROR_ARGUMENT, "bytes of JSON text: each value is proved once");
    CHECK_FAILS(merklize_roots_many(builder, leaves, n * 64, 2, out, sizeof out),
                MERKLIZE_ERROR_ARGUMENT, NULL);
    CHECK_FAILS(merklize_proof_decode(oz, (size_t)n, MERKLIZE_ENCODING_JSON, &decoded),
                MERKLIZE_ERROR_DECODE, "bytes, more than the");
  }
  CHECK_FAILS(merklize_mmcs_verify("poseidon2-babybear", 0, out, UINT64_C(1) << 62, NULL, 0, 0,
                                   NULL, 0, NULL, 0, &valid),
              MERKLIZE_ERROR_ARGUMENT, "cap_count is too large to address");
  CHECK_FAILS(merklize_oz_standard_proof(device, oz, sizeof oz - 1, 1, indices, 3, &bytes),
              MERKLIZE_ERROR_ARGUMENT, "more than the 2 values");
  CHECK_FAILS(merklize_sha256_layer(device, out, leaves, UINT64_C(1) << 40),
              MERKLIZE_ERROR_ARGUMENT, "more than the device allocates at once");
  CHECK_FAILS(merklize_sha256_layer(device, out, leaves, UINT64_C(1) << 62),
              MERKLIZE_ERROR_ARGUMENT, "more than memory can hold");
  CHECK(made == NULL && batch == NULL && bytes == NULL && decoded == NULL && valid == 7 &&
            test_is_poisoned(out, sizeof out),
        "a refused call wrote an output");
}

/* merklize_build_cl's leaf count on the caller's buffers of 4 leaves. */
static void build_cl(merklize_builder *builder, cl_mem buffer) {
  size_t k;
  for (k = 0; k < sizeof counts / sizeof *counts; ++k)
    CHECK_FAILS(merklize_build_cl(builder, buffer, counts[k], buffer, 0, NULL, NULL),
                MERKLIZE_ERROR_ARGUMENT, counts[k] < UINT64_C(1) << 58 ? "too small" : "leaf_count");
}

int main(void) {
  const struct caller c = caller_context();
  merklize_device *device = NULL;
  merklize_tree_config binary = test_config("sha256", NULL), kary = test_config("sha256", NULL);
  merklize_builder *builder, *kary_builder;
  merklize_device_tree *tree, *kary_tree;
  merklize_tree *built = NULL;
  merklize_proof *proof = NULL;
  uint8_t leaves[4 * 32] = {1, 2, 3, 4};
  const merklize_source source = merklize_source_memory(leaves, sizeof leaves);
  cl_mem on_device = buffer(&c, sizeof leaves, leaves);
  CHECK_OK(merklize_device_open_cl(c.context, c.device, &device));
  kary.arity = 4;
  builder = test_builder(device, &binary);
  kary_builder = test_builder(device, &kary);
  tree = device_tree(builder, leaves);
  kary_tree = device_tree(kary_builder, leaves);
  CHECK_OK(merklize_build(builder, &source, &built));
  CHECK_OK(merklize_prove(built, 1, &proof));
  limit_address_space();
  device_trees(tree, on_device, (UINT64_C(1) << 32) - 1);
  device_trees(kary_tree, on_device, UINT64_C(1) << 32);
  beside(device, builder, tree, proof);
  build_cl(builder, on_device);
  printf("ok: counts of 2^32, 2^32 + 1 and 2^62 refused before anything is copied, under an "
         "address-space limit\n");
  merklize_proof_free(proof);
  merklize_tree_free(built);
  merklize_device_tree_free(kary_tree);
  merklize_device_tree_free(tree);
  merklize_builder_free(kary_builder);
  merklize_builder_free(builder);
  merklize_device_free(device);
  CL_CHECK(clReleaseMemObject(on_device));
  CL_CHECK(clReleaseCommandQueue(c.queue));
  CL_CHECK(clReleaseContext(c.context));
  return 0;
}
