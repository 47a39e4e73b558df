/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A call that fails leaves the caller's outputs as they were, whichever OpenCL call fails under
 * it. Run under the fault shim (tests/faults/fault_shim.c, LD_PRELOAD): each OpenCL call that
 * merklize_blake3 (32 bytes from memory, two pieces of output, 32 bytes of a file),
 * merklize_sha256_layer and merklize_root make on a fresh device handle is failed in turn
 * (merklize_fault_arm), and the call must then fail with its output as poisoned as before, or
 * succeed with the output it gives without a fault. Skipped (77) without the shim. */
#include "c_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shim's own functions, NULL where it is not loaded. */
extern int64_t merklize_fault_calls(const char *call) __attribute__((weak));
extern int merklize_fault_arm(const char *call, uint64_t nth) __attribute__((weak));

/* The entry points the shim wraps and merklize calls (fault_shim.c's list). */
static const char *const entry_points[] = {
    "clGetPlatformIDs",         "clGetPlatformInfo",        "clGetDeviceIDs",
    "clGetDeviceInfo",          "clCreateContext",          "clGetContextInfo",
    "clCreateCommandQueue",     "clGetCommandQueueInfo",    "clCreateBuffer",
    "clGetMemObjectInfo",       "clCreateProgramWithSource", "clCreateProgramWithBinary",
    "clBuildProgram",           "clGetProgramInfo",         "clGetProgramBuildInfo",
    "clCreateKernel",           "clSetKernelArg",           "clGetKernelInfo",
    "clGetKernelWorkGroupInfo", "clWaitForEvents",          "clGetEventInfo",
    "clGetEventProfilingInfo",  "clFlush",                  "clFinish",
    "clEnqueueReadBuffer",      "clEnqueueWriteBuffer",     "clEnqueueCopyBuffer",
    "clEnqueueFillBuffer",      "clEnqueueMapBuffer",       "clEnqueueUnmapMemObject",
    "clEnqueueNDRangeKernel",   "clEnqueueMarkerWithWaitList", "clEnqueueBarrierWithWaitList"};
enum { entry_point_count = sizeof entry_points / sizeof *entry_points, scenarios = 5 };

#define PIECE (16u << 20) /* a piece of BLAKE3 output the device makes at once */
static const size_t sizes[scenarios] = {32, PIECE + 64, 32, 4 * 32, 32};
static const char *const names[scenarios] = {
    "merklize_blake3 (32 bytes)", "merklize_blake3 (two pieces)", "merklize_blake3 (a file)",
    "merklize_sha256_layer", "merklize_root"};
static const char *file_path;

/* Scenario `which` on a device handle and a builder opened for it (their engines are made by
 * the call), its output into `out`; the fault (if `entry_point`) armed at its nth call. */
static merklize_status run(int which, uint8_t *out, const char *entry_point, int64_t nth) {
  static uint8_t data[4096], chunks[4 * 64];
  const merklize_source memory = merklize_source_memory(data, sizeof data);
  const merklize_source file = merklize_source_path(file_path);
  const merklize_source leaves = merklize_source_memory(data, 5 * 32);
  merklize_tree_config config = test_config("sha256", NULL);
  merklize_device *device = test_device();
  merklize_builder *builder = test_builder(device, &config);
  merklize_status status;
  if (entry_point)
    CHECK(merklize_fault_arm(entry_point, (uint64_t)nth) == 0, "cannot arm %s", entry_point);
  if (which == 0) status = merklize_blake3(device, NULL, &memory, out, sizes[0]);
  else if (which == 1) status = merklize_blake3(device, NULL, &memory, out, sizes[1]);
  else if (which == 2) status = merklize_blake3(device, NULL, &file, out, sizes[2]);
  else if (which == 3) status = merklize_sha256_layer(device, out, chunks, 4);
  else status = merklize_root(builder, &leaves, out);
  if (entry_point) merklize_fault_arm(entry_point, 0);
  merklize_builder_free(builder);
  merklize_device_free(device);
  return status;
}

/* Each call of each entry point that scenario `which` makes, failed in turn; the number of them. */
static size_t sweep(int which, uint8_t *expected, uint8_t *got) {
  int64_t calls[entry_point_count];
  size_t e, runs = 0;
  CHECK_OK(run(which, expected, NULL, 0)); /* whatever a first use does once is done */
  for (e = 0; e < entry_point_count; ++e) calls[e] = merklize_fault_calls(entry_points[e]);
  CHECK_OK(run(which, expected, NULL, 0));
  for (e = 0; e < entry_point_count; ++e) calls[e] = merklize_fault_calls(entry_points[e]) - calls[e];
  for (e = 0; e < entry_point_count; ++e) {
    int64_t nth;
    for (nth = 1; nth <= calls[e]; ++nth, ++runs) {
      merklize_status status;
      test_poison(got, sizes[which]);
      status = run(which, got, entry_points[e], nth);
      if (status == MERKLIZE_OK)
        CHECK(memcmp(got, expected, sizes[which]) == 0,
              "%s succeeded with call %lld of %s failed, and with another output", names[which],
              (long long)nth, entry_points[e]);
      else
        CHECK(test_is_poisoned(got, sizes[which]),
              "%s failed with call %lld of %s failed (%s: %s) and wrote its output", names[which],
              (long long)nth, entry_points[e], merklize_status_name(status),
              merklize_last_error());
    }
  }
  return runs;
}

int main(void) {
  static uint8_t data[10000];
  uint8_t *expected = malloc(PIECE + 64), *got = malloc(PIECE + 64);
  size_t runs = 0;
  int which;
  if (!merklize_fault_calls || !merklize_fault_arm)
    test_skip("run under the fault shim (LD_PRELOAD=libmerklize_fault_shim.so), as ctest does");
  CHECK(expected && got, "out of memory");
  file_path = test_path("data");
  test_write_file(file_path, data, sizeof data);
  for (which = 0; which < scenarios; ++which) runs += sweep(which, expected, got);
  printf("ok: %zu OpenCL calls failed in turn, every failed call's output left as it was\n", runs);
  free(expected);
  free(got);
  return 0;
}
