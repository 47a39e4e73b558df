/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* merklize_build_cl with buffers of the caller's own OpenCL context (OpenCL's C API, as a C
 * program that already has a context uses it): the nodes it writes are merklize_build's levels
 * 1..depth, back to back; it waits for the caller's events, and its done event completes with the
 * tree; buffers of another context, a builder of another kind, and a buffer too small are
 * refused. */
#include "c_test.h"
#include "cl_caller.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Levels 1..depth of merklize_build's tree, back to back, as merklize_build_cl writes them. */
static uint8_t *host_nodes(merklize_builder *builder, const uint8_t *leaves, uint64_t n) {
  const merklize_source source = merklize_source_memory(leaves, n * 32);
  const uint64_t count = merklize_output_node_count(n);
  uint8_t *nodes = malloc(count * 32), *at = nodes;
  merklize_tree *tree = NULL;
  uint32_t level;
  CHECK(nodes != NULL, "out of memory");
  CHECK_OK(merklize_build(builder, &source, &tree));
  if (n == 1) memcpy(nodes, leaves, 32); /* the one node written: the root, the leaf */
  for (level = 1; level <= merklize_tree_depth(tree); ++level) {
    const uint8_t *level_nodes;
    uint64_t level_count;
    CHECK_OK(merklize_tree_level(tree, level, &level_nodes, &level_count));
    memcpy(at, level_nodes, level_count * 32);
    at += level_count * 32;
  }
  CHECK(n == 1 || at == nodes + count * 32, "merklize_output_node_count(%llu) is not the tree's",
        (unsigned long long)n);
  merklize_tree_free(tree);
  return nodes;
}

/* One tree on the caller's buffers, after a user event the caller completes later. */
static void check_build(const struct caller *c, merklize_builder *builder, const uint8_t *leaves,
                        uint64_t n) {
  const uint64_t count = merklize_output_node_count(n);
  cl_mem in = buffer(c, n * 32, leaves), out = buffer(c, count * 32, NULL);
  cl_int status, state;
  cl_event gate = clCreateUserEvent(c->context, &status), done = NULL;
  uint8_t *expected = host_nodes(builder, leaves, n), *got = malloc(count * 32);
  CL_CHECK(status);
  CHECK(got != NULL, "out of memory");
  CHECK_OK(merklize_build_cl(builder, in, n, out, 1, &gate, &done));
  CHECK(done != NULL, "no done event");
  CL_CHECK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL));
  CHECK(state != CL_COMPLETE, "the tree was built before the event it waits for");
  CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CL_CHECK(clWaitForEvents(1, &done));
  CL_CHECK(clEnqueueReadBuffer(c->queue, out, CL_TRUE, 0, count * 32, got, 0, NULL, NULL));
  CHECK(memcmp(got, expected, count * 32) == 0,
        "merklize_build_cl's nodes of %llu leaves are "
        "not merklize_build's levels",
        (unsigned long long)n);
  CL_CHECK(clReleaseEvent(done));
  CL_CHECK(clReleaseEvent(gate));
  CL_CHECK(clReleaseMemObject(in));
  CL_CHECK(clReleaseMemObject(out));
  free(expected);
  free(got);
}

static void refusals(const struct caller *c, merklize_device *own, merklize_builder *builder,
                     const uint8_t *leaves) {
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_device *other = test_device();
  merklize_builder *foreign = test_builder(other, &config), *blocks;
  cl_mem in = buffer(c, 100 * 32, leaves), small = buffer(c, 32, NULL);
  cl_event done = (cl_event)&config; /* poison */
  CHECK_FAILS(merklize_build_cl(foreign, in, 100, small, 0, NULL, &done), MERKLIZE_ERROR_ARGUMENT,
              "merklize_device_open_cl");
  CHECK_FAILS(merklize_build_cl(builder, in, 100, small, 0, NULL, &done), MERKLIZE_ERROR_ARGUMENT,
              NULL);
  CHECK_FAILS(merklize_build_cl(builder, in, 0, small, 0, NULL, &done), MERKLIZE_ERROR_ARGUMENT,
              "leaf_count");
  CHECK_FAILS(merklize_build_cl(builder, in, 100, NULL, 0, NULL, &done), MERKLIZE_ERROR_ARGUMENT,
              "nodes");
  CHECK_FAILS(merklize_build_cl(builder, in, 100, small, 1, NULL, &done), MERKLIZE_ERROR_ARGUMENT,
              "wait");
  config.leaf_size = 64;
  blocks = test_builder(own, &config);
  CHECK_FAILS(merklize_build_cl(blocks, in, 100, small, 0, NULL, &done), MERKLIZE_ERROR_ARGUMENT,
              "leaf_size");
  CHECK(done == (cl_event)&config, "a failed merklize_build_cl wrote its event");
  CHECK_FAILS(merklize_device_open_cl(c->context, NULL, &other), MERKLIZE_ERROR_ARGUMENT,
              "device_id");
  CL_CHECK(clReleaseMemObject(in));
  CL_CHECK(clReleaseMemObject(small));
  merklize_builder_free(blocks);
  merklize_builder_free(foreign);
  merklize_device_free(other);
  printf("ok: buffers of another context, a small or missing buffer, no leaves, a NULL wait "
         "list and a builder of data blocks are refused\n");
}

int main(void) {
  struct caller c = caller_context();
  static const uint64_t sizes[] = {1, 2, 3, 257, 1025, 4097};
  static const char *const hashes[][2] = {
      {"sha256", "zero"}, {"blake3", "promote"}, {"rfc6962", "promote"}, {"blake3-parent", "zero"}};
  uint8_t *leaves = malloc(4097 * 32);
  merklize_device *device = NULL;
  size_t h, s, i;
  CHECK(leaves != NULL, "out of memory");
  for (i = 0; i < 4097 * 32; ++i)
    leaves[i] = (uint8_t)(i * 17 + (i >> 9));
  CHECK_OK(merklize_device_open_cl(c.context, c.device, &device));
  for (h = 0; h < sizeof hashes / sizeof hashes[0]; ++h) {
    merklize_tree_config config = test_config(hashes[h][0], hashes[h][1]);
    merklize_builder *builder;
    if (h == 0) config.depth = 14; /* the last node written is the top stored node */
    builder = test_builder(device, &config);
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      check_build(&c, builder, leaves, sizes[s]);
    if (h == 0) refusals(&c, device, builder, leaves);
    merklize_builder_free(builder);
  }
  printf("ok: merklize_build_cl on the caller's buffers writes merklize_build's levels, after "
         "the caller's event, for four hashes at 1 to 4097 leaves\n");
  /* The handle holds the context: the caller may let go of it first. */
  CL_CHECK(clReleaseCommandQueue(c.queue));
  CL_CHECK(clReleaseContext(c.context));
  {
    merklize_tree_config config = test_config("sha256", NULL);
    merklize_builder *builder = test_builder(device, &config);
    const merklize_source source = merklize_source_memory(leaves, 64);
    uint8_t root[32], expected[32];
    merklize_device_free(device); /* and the builder holds the device */
    CHECK_OK(merklize_root(builder, &source, root));
    test_sha256_pair(-1, leaves, leaves + 32, expected);
    CHECK(memcmp(root, expected, 32) == 0, "the root after the context and device were freed");
    merklize_builder_free(builder);
  }
  free(leaves);
  printf("ok: a builder outlives its device handle and the caller's context\n");
  return 0;
}
