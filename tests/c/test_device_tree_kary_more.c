/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Trees of arity k kept on the device, through the C ABI, take what binary ones take beyond
 * updates and appends from host memory: update batches filled in place
 * (merklize_device_tree_batch_create, _update_batch), updates and appends from the caller's
 * device buffers written without blocking, their events waited for
 * (merklize_device_tree_update_cl, _append_cl), and
 * snapshots rolled back to after updates and appends past the room (merklize_device_tree_snapshot,
 * _rollback). sha256 and blake3, shapes promote and zero, arities 4 and 16, at 1, k - 1, k, k + 1
 * and k^2 + 1 leaves: after each call the returned root, merklize_device_tree_root, every level
 * read back and the last leaf's proof equal a fresh merklize_build's of the host's copy (repeats:
 * the last value wins). Then the refusals (an index out of range in a device buffer or a batch, a
 * count past the batch's room or a buffer's, another tree's snapshot), each leaving the tree as it
 * was. */
#include "c_test.h"
#include "cl_caller.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hashes[] = {"sha256", "blake3"};
static const char *const shapes[] = {"promote", "zero"};
static const uint32_t arities[] = {4, 16};
#define MAX_LEAVES (16 * 16 + 1 + 17)

static uint32_t seed = 38;
static void random_leaf(uint8_t *leaf) {
  int i;
  for (i = 0; i < 32; ++i) {
    seed = seed * 1103515245u + 12345u;
    leaf[i] = (uint8_t)(seed >> 16);
  }
}

/* The device tree equal to a fresh build of `leaves`; `returned` (if not NULL) its root. */
static void check_tree(merklize_builder *builder, merklize_device_tree *t, const uint8_t *leaves,
                       uint64_t n, const uint8_t *returned) {
  static uint8_t nodes[MAX_LEAVES * 32];
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  merklize_tree *fresh = NULL;
  uint8_t expected[32];
  CHECK_OK(merklize_build(builder, &source, &fresh));
  CHECK_OK(merklize_tree_root(fresh, expected));
  if (returned) CHECK(memcmp(returned, expected, 32) == 0, "the returned root differs");
  CHECK(merklize_device_tree_leaf_count(t) == n, "the leaf count");
  test_same_device_tree(t, fresh, nodes);
  merklize_tree_free(fresh);
}

/* Random values for `indices`, applied in order to the host's copy (the last value wins). */
static void values_for(uint8_t *leaves, const uint64_t *indices, size_t count, uint8_t *values) {
  size_t i;
  for (i = 0; i < count; ++i) {
    random_leaf(values + i * 32);
    memcpy(leaves + indices[i] * 32, values + i * 32, 32);
  }
}

/* The updates `indices` through a batch of room for `room`, reused. */
static void update_batch(merklize_builder *builder, merklize_device_tree *t,
                         merklize_update_batch *batch, uint8_t *leaves, uint64_t n,
                         const uint64_t *indices, size_t count) {
  uint8_t root[32];
  memcpy(merklize_update_batch_indices(batch), indices, count * sizeof *indices);
  values_for(leaves, indices, count, merklize_update_batch_leaves(batch));
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_update_batch(t, batch, count, root));
  check_tree(builder, t, leaves, n, root);
}

/* A buffer of the caller's written from `from` without blocking, its write's event in *event. */
static cl_mem written(const struct caller *c, const void *from, size_t bytes, cl_event *event) {
  cl_mem b = buffer(c, bytes, NULL);
  CL_CHECK(clEnqueueWriteBuffer(c->queue, b, CL_FALSE, 0, bytes, from, 0, NULL, event));
  CL_CHECK(clFlush(c->queue));
  return b;
}

/* The updates `indices` from the caller's buffers, their writes waited for; the done event
 * complete on return. */
static void update_cl(const struct caller *c, merklize_builder *builder, merklize_device_tree *t,
                      uint8_t *leaves, uint64_t n, const uint64_t *indices, size_t count) {
  static uint8_t values[MAX_LEAVES * 32];
  cl_event writes[2], done = NULL;
  cl_int state = -1;
  cl_mem at, in;
  uint8_t root[32];
  values_for(leaves, indices, count, values);
  at = written(c, indices, count * sizeof *indices, &writes[0]);
  in = written(c, values, count * 32, &writes[1]);
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_update_cl(t, at, in, count, 2, writes, &done, root));
  CHECK(done != NULL, "no done event");
  CL_CHECK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL));
  CHECK(state == CL_COMPLETE, "the done event is not complete on return: %d", state);
  check_tree(builder, t, leaves, n, root);
  CL_CHECK(clReleaseEvent(done));
  CL_CHECK(clReleaseEvent(writes[0]));
  CL_CHECK(clReleaseEvent(writes[1]));
  CL_CHECK(clReleaseMemObject(at));
  CL_CHECK(clReleaseMemObject(in));
}

/* leaves[n .. n + count) appended from the caller's buffer, its write waited for; the done
 * event complete on return. */
static void append_cl(const struct caller *c, merklize_builder *builder, merklize_device_tree *t,
                      const uint8_t *leaves, uint64_t n, uint64_t count) {
  cl_event write, done = NULL;
  cl_int state = -1;
  cl_mem in = written(c, leaves + n * 32, count * 32, &write);
  uint8_t root[32];
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_append_cl(t, in, count, 1, &write, &done, root));
  CHECK(done != NULL, "no done event");
  CL_CHECK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL));
  CHECK(state == CL_COMPLETE, "the done event is not complete on return: %d", state);
  check_tree(builder, t, leaves, n + count, root);
  CL_CHECK(clReleaseEvent(done));
  CL_CHECK(clReleaseEvent(write));
  CL_CHECK(clReleaseMemObject(in));
}

/* Refused calls leave the tree of `leaves` as it was and write no root. */
static void check_refusals(const struct caller *c, merklize_builder *builder,
                           merklize_device_tree *t, merklize_device_tree *other,
                           merklize_update_batch *batch, const uint8_t *leaves, uint64_t n) {
  const uint64_t bad[2] = {0, n};
  uint8_t values[2 * 32], root[32];
  merklize_tree_snapshot *theirs = NULL;
  cl_mem at = buffer(c, sizeof bad, bad), in;
  random_leaf(values);
  random_leaf(values + 32);
  in = buffer(c, sizeof values, values);
  test_poison(root, sizeof root);
  CHECK_FAILS(merklize_device_tree_update_cl(t, at, in, 2, 0, NULL, NULL, root),
              MERKLIZE_ERROR_ARGUMENT, "out of range");
  CHECK_FAILS(merklize_device_tree_append_cl(t, in, 3, 0, NULL, NULL, root),
              MERKLIZE_ERROR_ARGUMENT, "too small");
  memcpy(merklize_update_batch_indices(batch), bad, sizeof bad);
  CHECK_FAILS(merklize_device_tree_update_batch(t, batch, 2, root), MERKLIZE_ERROR_ARGUMENT,
              "out of range");
  CHECK_FAILS(
      merklize_device_tree_update_batch(t, batch, merklize_update_batch_capacity(batch) + 1, root),
      MERKLIZE_ERROR_ARGUMENT, "room for");
  CHECK_OK(merklize_device_tree_snapshot(other, &theirs));
  CHECK_FAILS(merklize_device_tree_rollback(t, theirs, root), MERKLIZE_ERROR_ARGUMENT,
              "another tree");
  CHECK(test_is_poisoned(root, sizeof root), "a refused call wrote the root");
  check_tree(builder, t, leaves, n, NULL);
  merklize_tree_snapshot_free(theirs);
  CL_CHECK(clReleaseMemObject(at));
  CL_CHECK(clReleaseMemObject(in));
}

static void check_case(const struct caller *c, merklize_device *device, const char *hash,
                       const char *shape, uint32_t k, uint64_t n) {
  static uint8_t leaves[MAX_LEAVES * 32], at_snapshot[MAX_LEAVES * 32];
  const uint64_t ends[] = {0, n - 1, 0}, middle[] = {n - 1, n / 2, n - 1, 0};
  merklize_tree_config config = test_config(hash, shape);
  merklize_builder *builder;
  merklize_device_tree *t = NULL, *other = NULL;
  merklize_update_batch *batch = NULL;
  merklize_tree_snapshot *s = NULL;
  uint8_t root[32], before[32];
  uint64_t i;
  printf("%s %s arity %u, %llu leaves\n", hash, shape, k, (unsigned long long)n);
  config.arity = k;
  builder = test_builder(device, &config);
  for (i = 0; i < n; ++i)
    random_leaf(leaves + i * 32);
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &t));
  CHECK_OK(merklize_device_tree_create(builder, leaves, n * 32, &other));
  CHECK_OK(merklize_device_tree_snapshot(t, &s));
  CHECK(merklize_tree_snapshot_leaf_count(s) == n, "the snapshot's leaf count");
  CHECK_OK(merklize_device_tree_root(t, before));
  memcpy(at_snapshot, leaves, n * 32);
  CHECK_OK(merklize_device_tree_batch_create(t, 4, &batch));
  update_batch(builder, t, batch, leaves, n, ends, 3);
  update_cl(c, builder, t, leaves, n, middle, 4);
  check_refusals(c, builder, t, other, batch, leaves, n);
  for (i = n; i < n + k + 1; ++i)
    random_leaf(leaves + i * 32);
  CHECK_OK(merklize_device_tree_append(t, leaves + n * 32, 2, root));
  check_tree(builder, t, leaves, n + 2, root);
  append_cl(c, builder, t, leaves, n + 2, k - 1); /* past the room at the small sizes */
  update_cl(c, builder, t, leaves, n + k + 1, ends, 3);
  test_poison(root, sizeof root);
  CHECK_OK(merklize_device_tree_rollback(t, s, root));
  CHECK(memcmp(root, before, 32) == 0, "the rollback's root is not the snapshot's");
  check_tree(builder, t, at_snapshot, n, root);
  memcpy(leaves, at_snapshot, n * 32);
  update_batch(builder, t, batch, leaves, n, middle, 4); /* on from the snapshot */
  merklize_update_batch_free(batch);
  merklize_tree_snapshot_free(s);
  merklize_device_tree_free(other);
  merklize_device_tree_free(t);
  merklize_builder_free(builder);
}

int main(void) {
  struct caller c = caller_context();
  merklize_device *device = NULL;
  size_t h, s, a, i;
  CHECK_OK(merklize_device_open_cl(c.context, c.device, &device));
  for (h = 0; h < sizeof hashes / sizeof hashes[0]; ++h)
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
      for (a = 0; a < sizeof arities / sizeof arities[0]; ++a) {
        const uint64_t k = arities[a];
        const uint64_t sizes[] = {1, k - 1, k, k + 1, k * k + 1};
        for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
          check_case(&c, device, hashes[h], shapes[s], arities[a], sizes[i]);
      }
  merklize_device_free(device);
  CL_CHECK(clReleaseCommandQueue(c.queue));
  CL_CHECK(clReleaseContext(c.context));
  printf("ok\n");
  return 0;
}
