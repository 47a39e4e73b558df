/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Trees kept on the device fed from the caller's own device buffers through the C ABI
 * (merklize_device_tree_append_cl, merklize_device_tree_update_cl), the buffers written on the
 * caller's queue without blocking and their writes' events given to wait for. SHA-256 and
 * rfc6962 trees grow by appends through the sizes 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 up to 257 (the
 * device memory regrown on the way), then take updates (a repeated index: the last wins), each
 * root against the SHA-256 tree of OpenSSL made here over the host's copy, and the tree's levels
 * against merklize_build's; the done event is given and complete. Poseidon2's leaves are read
 * back and checked: a canonical append equals merklize_device_tree_append's, a non-canonical one
 * is refused. Then the refusals (NULL buffers, a NULL wait list, a buffer too small or of another
 * context, an index past the tree, an append past a fixed depth), each leaving the tree, the root
 * and the event as they were. */
#include "c_test.h"
#include "cl_caller.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t sizes[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 255, 256, 257};
#define SIZES (sizeof sizes / sizeof sizes[0])
#define MAX_LEAVES 257

static uint32_t seed = 34;
static void random_bytes(uint8_t *bytes, uint64_t count) {
  uint64_t i;
  for (i = 0; i < count; ++i) {
    seed = seed * 1103515245u + 12345u;
    bytes[i] = (uint8_t)(seed >> 16);
  }
}

/* A buffer of `bytes` bytes written from `from` on the caller's queue without blocking, its
 * write's event in *written. */
static cl_mem written(const struct caller *c, const void *from, size_t bytes, cl_event *written) {
  cl_mem b = buffer(c, bytes, NULL);
  CL_CHECK(clEnqueueWriteBuffer(c->queue, b, CL_FALSE, 0, bytes, from, 0, NULL, written));
  CL_CHECK(clFlush(c->queue));
  return b;
}

/* The done event given, and complete. */
static void check_done(cl_event done) {
  cl_int state = -1;
  CHECK(done != NULL, "no done event");
  CL_CHECK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL));
  CHECK(state == CL_COMPLETE, "the done event is not complete on return: %d", state);
  CL_CHECK(clReleaseEvent(done));
}

/* The tree's roots, levels and last proof equal the oracle's and merklize_build's over `leaves`. */
static void check_tree(merklize_device_tree *t, merklize_builder *builder, const uint8_t *leaves,
                       uint64_t n, int prefix, const uint8_t *returned) {
  static uint8_t nodes[MAX_LEAVES * 32 * 2];
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  merklize_tree *fresh = NULL;
  uint8_t expected[32], root[32];
  test_sha256_root(leaves, n, prefix, 0, -1, expected);
  CHECK(memcmp(returned, expected, 32) == 0, "the root of %llu leaves differs from the oracle",
        (unsigned long long)n);
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, expected, 32) == 0, "merklize_device_tree_root differs from the oracle");
  CHECK(merklize_device_tree_leaf_count(t) == n, "leaf count %llu, expected %llu",
        (unsigned long long)merklize_device_tree_leaf_count(t), (unsigned long long)n);
  CHECK_OK(merklize_build(builder, &source, &fresh));
  test_same_device_tree(t, fresh, nodes);
  merklize_tree_free(fresh);
}

/* Appends through `sizes` from the caller's buffers, then updates, for one hash. */
static void grow_and_update(const struct caller *c, merklize_device *device, const char *hash,
                            uint8_t *leaves) {
  merklize_tree_config config = test_config(hash, "promote");
  merklize_builder *builder = test_builder(device, &config);
  merklize_device_tree *t = NULL;
  const int prefix = strcmp(hash, "rfc6962") == 0 ? 1 : -1;
  const uint64_t indices[] = {0, 256, 100, 0};
  uint8_t root[32];
  size_t s;
  cl_event write_indices, write_leaves, done;
  cl_mem in, at;
  random_bytes(leaves, MAX_LEAVES * 32);
  CHECK_OK(merklize_device_tree_create(builder, leaves, sizes[0] * 32, &t));
  for (s = 1; s < SIZES; ++s) {
    const uint64_t count = sizes[s] - sizes[s - 1];
    in = written(c, leaves + sizes[s - 1] * 32, count * 32, &write_leaves);
    test_poison(root, sizeof root);
    done = NULL;
    CHECK_OK(merklize_device_tree_append_cl(t, in, count, 1, &write_leaves, &done, root));
    check_done(done);
    check_tree(t, builder, leaves, sizes[s], prefix, root);
    CL_CHECK(clReleaseEvent(write_leaves));
    CL_CHECK(clReleaseMemObject(in));
  }
  {
    uint8_t values[4 * 32];
    cl_event both[2];
    random_bytes(values, sizeof values);
    at = written(c, indices, sizeof indices, &write_indices);
    in = written(c, values, sizeof values, &write_leaves);
    both[0] = write_indices;
    both[1] = write_leaves;
    for (s = 0; s < 4; ++s) /* in order: index 0 ends with its last value */
      memcpy(leaves + indices[s] * 32, values + s * 32, 32);
    done = NULL;
    CHECK_OK(merklize_device_tree_update_cl(t, at, in, 4, 2, both, &done, root));
    check_done(done);
    check_tree(t, builder, leaves, MAX_LEAVES, prefix, root);
    CL_CHECK(clReleaseEvent(write_indices));
    CL_CHECK(clReleaseEvent(write_leaves));
    CL_CHECK(clReleaseMemObject(at));
    CL_CHECK(clReleaseMemObject(in));
  }
  merklize_device_tree_free(t);
  merklize_builder_free(builder);
  printf("ok: %s: appends from the caller's buffers through 1 .. 257 leaves and an update equal "
         "the oracle\n",
         hash);
}

/* The tree as it was: root, leaf count and leaves; a refused call's root and event unwritten. */
static void check_unchanged(merklize_device_tree *t, const uint8_t *leaves, uint64_t n,
                            const uint8_t *root_before, const uint8_t *written_root, cl_event done,
                            cl_event poison) {
  static uint8_t nodes[MAX_LEAVES * 32];
  uint8_t root[32];
  CHECK(test_is_poisoned(written_root, 32), "a refused call wrote the root");
  CHECK(done == poison, "a refused call wrote its event");
  CHECK_OK(merklize_device_tree_root(t, root));
  CHECK(memcmp(root, root_before, 32) == 0, "a refused call changed the root");
  CHECK(merklize_device_tree_leaf_count(t) == n, "a refused call changed the leaf count");
  CHECK_OK(merklize_device_tree_read_level(t, 0, 0, n, nodes));
  CHECK(memcmp(nodes, leaves, n * 32) == 0, "a refused call changed the leaves");
}

static void refusals(const struct caller *c, merklize_device *device, const uint8_t *leaves) {
  merklize_tree_config config = test_config("sha256", "zero");
  merklize_builder *builder, *elsewhere_builder;
  merklize_device *elsewhere = test_device();
  merklize_device_tree *t = NULL, *foreign = NULL;
  const uint64_t past[] = {2, 5};
  uint8_t root[32], before[32];
  cl_event poison = (cl_event)&config, done = poison;
  cl_mem in = buffer(c, 4 * 32, leaves + 5 * 32), small = buffer(c, 32, NULL),
         at = buffer(c, sizeof past, past);
  config.depth = 3;
  builder = test_builder(device, &config);
  elsewhere_builder = test_builder(elsewhere, &config);
  CHECK_OK(merklize_device_tree_create(builder, leaves, 5 * 32, &t));
  CHECK_OK(merklize_device_tree_create(elsewhere_builder, leaves, 5 * 32, &foreign));
  CHECK_OK(merklize_device_tree_root(t, before));
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_append_cl(t, NULL, 1, 0, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT, "leaves");
  CHECK_FAILS(merklize_device_tree_append_cl(t, in, 1, 1, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT, "wait");
  CHECK_FAILS(merklize_device_tree_append_cl(t, small, 2, 0, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT, "too small");
  CHECK_FAILS(merklize_device_tree_append_cl(t, in, 4, 0, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT, "would pass its 8 leaves (a fixed depth of 3)");
  CHECK_FAILS(merklize_device_tree_update_cl(t, at, in, 2, 0, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT,
              "update 1 of 2: leaf index 5 out of range: the tree has 5 leaves");
  CHECK_FAILS(merklize_device_tree_update_cl(t, NULL, in, 1, 0, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT, "indices");
  CHECK_FAILS(merklize_device_tree_update_cl(t, at, small, 2, 0, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT, "too small");
  check_unchanged(t, leaves, 5, before, root, done, poison);
  CHECK_FAILS(merklize_device_tree_append_cl(foreign, in, 1, 0, NULL, &done, root),
              MERKLIZE_ERROR_ARGUMENT, "another OpenCL context");
  check_unchanged(foreign, leaves, 5, before, root, done, poison);
  /* count 0 reads no buffer: NULL is fine, and the root comes back. */
  done = NULL;
  CHECK_OK(merklize_device_tree_append_cl(t, NULL, 0, 0, NULL, &done, root));
  CHECK(memcmp(root, before, 32) == 0, "an empty append's root");
  CHECK(done != NULL, "no done event for an empty append");
  CL_CHECK(clWaitForEvents(1, &done)); /* flushed, not waited for: no work of the call's */
  CL_CHECK(clReleaseEvent(done));
  CL_CHECK(clReleaseMemObject(in));
  CL_CHECK(clReleaseMemObject(small));
  CL_CHECK(clReleaseMemObject(at));
  merklize_device_tree_free(t);
  merklize_device_tree_free(foreign);
  merklize_builder_free(builder);
  merklize_builder_free(elsewhere_builder);
  merklize_device_free(elsewhere);
  printf("ok: NULL buffers and wait lists, small and foreign buffers, an index past the tree and "
         "an append past a fixed depth are refused, changing nothing\n");
}

/* Poseidon2's leaves from a buffer are checked as the host's are. */
static void poseidon2(const struct caller *c, merklize_device *device, uint8_t *leaves) {
  merklize_tree_config config = test_config("poseidon2-babybear", "promote");
  merklize_builder *builder = test_builder(device, &config);
  merklize_device_tree *t = NULL, *twin = NULL;
  uint8_t root[32], expected[32];
  cl_mem in;
  size_t i;
  for (i = 0; i < 9 * 32; ++i) /* canonical: every 4-byte limb below 2^29 */
    leaves[i] = i % 4 == 3 ? leaves[i] & 0x1f : leaves[i];
  CHECK_OK(merklize_device_tree_create(builder, leaves, 3 * 32, &t));
  CHECK_OK(merklize_device_tree_create(builder, leaves, 3 * 32, &twin));
  in = buffer(c, 6 * 32, leaves + 3 * 32);
  CHECK_OK(merklize_device_tree_append_cl(t, in, 6, 0, NULL, NULL, root));
  CHECK_OK(merklize_device_tree_append(twin, leaves + 3 * 32, 6, expected));
  CHECK(memcmp(root, expected, 32) == 0, "poseidon2: an append from a buffer differs");
  CL_CHECK(clReleaseMemObject(in));
  memset(leaves + 9 * 32 + 28, 0xff, 4);
  in = buffer(c, 32, leaves + 9 * 32);
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_append_cl(t, in, 1, 0, NULL, NULL, root),
              MERKLIZE_ERROR_ARGUMENT, "leaves: leaf 0");
  CHECK(test_is_poisoned(root, 32), "a refused call wrote the root");
  CHECK(merklize_device_tree_leaf_count(t) == 9, "a refused append changed the leaf count");
  CL_CHECK(clReleaseMemObject(in));
  merklize_device_tree_free(t);
  merklize_device_tree_free(twin);
  merklize_builder_free(builder);
  printf("ok: poseidon2-babybear leaves from a buffer are checked: canonical taken, others "
         "refused\n");
}

int main(void) {
  struct caller c = caller_context();
  uint8_t *leaves = malloc(MAX_LEAVES * 32);
  merklize_device *device = NULL;
  CHECK(leaves != NULL, "out of memory");
  CHECK_OK(merklize_device_open_cl(c.context, c.device, &device));
  grow_and_update(&c, device, "sha256", leaves);
  grow_and_update(&c, device, "rfc6962", leaves);
  refusals(&c, device, leaves);
  poseidon2(&c, device, leaves);
  merklize_device_free(device);
  CL_CHECK(clReleaseCommandQueue(c.queue));
  CL_CHECK(clReleaseContext(c.context));
  free(leaves);
  return 0;
}
