/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A caller with an OpenCL context of its own (OpenCL's C API, as a C program that already has one
 * uses it), for the tests of the C ABI's calls on device buffers; skipped (77) with the reason
 * where there is no OpenCL device. Include after c_test.h. */
#ifndef MERKLIZE_TEST_CL_CALLER_H
#define MERKLIZE_TEST_CL_CALLER_H

#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>

#define CL_CHECK(call)                                                                             \
  do {                                                                                             \
    cl_int cl_check_status = (call);                                                               \
    CHECK(cl_check_status == CL_SUCCESS, "%s: OpenCL error %d", #call, cl_check_status);           \
  } while (0)

struct caller {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
};

static inline struct caller caller_context(void) {
  struct caller c;
  cl_platform_id platforms[8];
  cl_uint count = 0, p;
  cl_int status;
  if (clGetPlatformIDs(8, platforms, &count) != CL_SUCCESS || count == 0)
    test_skip("no OpenCL platform (install pocl-opencl-icd)");
  for (p = 0; p < count; ++p)
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &c.device, NULL) == CL_SUCCESS) break;
  if (p == count) test_skip("no OpenCL device (install pocl-opencl-icd)");
  c.context = clCreateContext(NULL, 1, &c.device, NULL, NULL, &status);
  CL_CHECK(status);
  c.queue = clCreateCommandQueue(c.context, c.device, 0, &status);
  CL_CHECK(status);
  return c;
}

/* A buffer of the caller's context of `bytes` bytes, a copy of `from` where it is not NULL. */
static inline cl_mem buffer(const struct caller *c, size_t bytes, const void *from) {
  cl_int status;
  cl_mem b = clCreateBuffer(c->context,
                            from ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                            bytes, (void *)from, &status);
  CL_CHECK(status);
  return b;
}

#endif
