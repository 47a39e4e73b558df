// SPDX-License-Identifier: Apache-2.0 OR MIT
/* The OpenCL platforms and devices, asked for and nothing more: what the driver does on its own,
 * beside merklize, where the process is short of address space (test_cli_memory.cpp). Exits 0
 * whatever the answers; a driver that dies on its own dies by a signal. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>

int main(void) {
  cl_uint platforms = 0;
  cl_platform_id platform = NULL;
  const cl_int listed = clGetPlatformIDs(1, &platform, &platforms);
  printf("clGetPlatformIDs: %d, %u platforms\n", listed, platforms);
  if (listed == CL_SUCCESS && platforms > 0) {
    cl_uint devices = 0;
    cl_device_id device = NULL;
    printf("clGetDeviceIDs: %d\n",
           clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &devices));
  }
  return 0;
}
