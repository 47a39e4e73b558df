// SPDX-License-Identifier: Apache-2.0 OR MIT
/* A fault injector for the OpenCL ICD loader, loaded with LD_PRELOAD: it defines the loader's
 * entry points that merklize calls, so the program's calls come here first, and forwards each to
 * the loader (dlsym RTLD_NEXT), but for the one call it is told to fail, which returns an error
 * code without reaching the driver. The driver itself (PoCL) is untouched and does the real work:
 * what is tested is how the program reacts to an error the real driver could return there.
 *
 *   MERKLIZE_FAULT_CALL    the entry point to fail, e.g. clSetKernelArg (unset: fail nothing)
 *   MERKLIZE_FAULT_NTH     which call of it fails, counting from 1 (default 1)
 *   MERKLIZE_FAULT_TIMES   how many calls fail from there on, 0 for all (default 1)
 *   MERKLIZE_FAULT_CODE    the error code returned, e.g. -5 for CL_OUT_OF_RESOURCES (default -5)
 *   MERKLIZE_FAULT_COUNTS  a file where the calls of each entry point are counted as they are
 *                          made (a shared mapping: the counts survive _Exit and crashes), and
 *                          whether the fault fired
 *
 * A program may also sweep its own calls, in one process: merklize_fault_calls and
 * merklize_fault_arm (at the end of this file) count an entry point's calls and arm a fault at
 * one of the next ones.
 *
 * Functions returning an object report the error through errcode_ret and return NULL;
 * clGetExtensionFunctionAddressForPlatform returns NULL. Retain and release are not wrapped:
 * they fail only on invalid handles, and failing them here would corrupt reference counts in a
 * way no driver does. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Every wrapped entry point, in the order of the counts file's slots. */
#define FAULT_ENTRY_POINTS(X)                                                                      \
  X(clGetPlatformIDs)                                                                              \
  X(clGetPlatformInfo)                                                                             \
  X(clGetDeviceIDs)                                                                                \
  X(clGetDeviceInfo)                                                                               \
  X(clCreateContext)                                                                               \
  X(clGetContextInfo)                                                                              \
  X(clCreateCommandQueue)                                                                          \
  X(clGetCommandQueueInfo)                                                                         \
  X(clCreateBuffer)                                                                                \
  X(clGetMemObjectInfo)                                                                            \
  X(clCreateProgramWithSource)                                                                     \
  X(clCreateProgramWithBinary)                                                                     \
  X(clBuildProgram)                                                                                \
  X(clGetProgramInfo)                                                                              \
  X(clGetProgramBuildInfo)                                                                         \
  X(clCreateKernel)                                                                                \
  X(clSetKernelArg)                                                                                \
  X(clGetKernelInfo)                                                                               \
  X(clGetKernelWorkGroupInfo)                                                                      \
  X(clWaitForEvents)                                                                               \
  X(clGetEventInfo)                                                                                \
  X(clGetEventProfilingInfo)                                                                       \
  X(clFlush)                                                                                       \
  X(clFinish)                                                                                      \
  X(clEnqueueReadBuffer)                                                                           \
  X(clEnqueueWriteBuffer)                                                                          \
  X(clEnqueueCopyBuffer)                                                                           \
  X(clEnqueueFillBuffer)                                                                           \
  X(clEnqueueMapBuffer)                                                                            \
  X(clEnqueueUnmapMemObject)                                                                       \
  X(clEnqueueNDRangeKernel)                                                                        \
  X(clEnqueueMarkerWithWaitList)                                                                   \
  X(clEnqueueBarrierWithWaitList)                                                                  \
  X(clGetExtensionFunctionAddressForPlatform)

#define FAULT_ID(name) id_##name,
enum { FAULT_ENTRY_POINTS(FAULT_ID) entry_point_count };
#define FAULT_NAME(name) #name,
static const char *const entry_point_names[] = {FAULT_ENTRY_POINTS(FAULT_NAME)};

/* The counts file: a slot of 64 bytes per entry point (its name, NUL-padded to 56 bytes, then
 * its calls as a native uint64), then one for the fault: "fired" and how often it did. */
enum { slot_bytes = 64, name_bytes = 56 };

static struct {
  int ready;
  int target; /* the entry point to fail, or -1 */
  uint64_t nth, times;
  cl_int code;
  unsigned char *counts; /* the mapped counts file, or NULL */
  uint64_t calls[entry_point_count];
} fault;

static uint64_t env_number(const char *name, uint64_t fallback) {
  const char *text = getenv(name);
  return text && *text ? strtoull(text, NULL, 10) : fallback;
}

static void map_counts(const char *path) {
  const size_t bytes = (size_t)(entry_point_count + 1) * slot_bytes;
  const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
    perror("fault_shim: MERKLIZE_FAULT_COUNTS");
    abort();
  }
  void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) {
    perror("fault_shim: mmap");
    abort();
  }
  fault.counts = map;
  for (int i = 0; i < entry_point_count; ++i)
    strncpy((char *)fault.counts + i * slot_bytes, entry_point_names[i], name_bytes - 1);
  strncpy((char *)fault.counts + entry_point_count * slot_bytes, "fired", name_bytes - 1);
}

static int entry_point_id(const char *call) {
  for (int i = 0; call && i < entry_point_count; ++i)
    if (strcmp(call, entry_point_names[i]) == 0) return i;
  return -1;
}

/* Reads the settings once; the first entry point called does it (a constructor could run after
 * another library's constructor that already calls OpenCL). */
static void fault_init(void) {
  if (__atomic_load_n(&fault.ready, __ATOMIC_ACQUIRE)) return;
  static int lock;
  while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
    ;
  if (!fault.ready) {
    const char *call = getenv("MERKLIZE_FAULT_CALL");
    fault.target = entry_point_id(call);
    if (call && *call && fault.target < 0) {
      fprintf(stderr, "fault_shim: MERKLIZE_FAULT_CALL=%s is not an entry point it wraps\n", call);
      abort();
    }
    fault.nth = env_number("MERKLIZE_FAULT_NTH", 1);
    fault.times = env_number("MERKLIZE_FAULT_TIMES", 1);
    const char *code = getenv("MERKLIZE_FAULT_CODE");
    fault.code = code && *code ? (cl_int)strtol(code, NULL, 10) : CL_OUT_OF_RESOURCES;
    const char *counts = getenv("MERKLIZE_FAULT_COUNTS");
    if (counts && *counts) map_counts(counts);
    __atomic_store_n(&fault.ready, 1, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

static uint64_t *count_slot(int id) {
  return (uint64_t *)(fault.counts + (size_t)id * slot_bytes + name_bytes);
}

/* Counts the call; whether it is one to fail. */
static int fault_here(int id) {
  fault_init();
  const uint64_t n = __atomic_add_fetch(&fault.calls[id], 1, __ATOMIC_RELAXED);
  if (fault.counts) __atomic_add_fetch(count_slot(id), 1, __ATOMIC_RELAXED);
  if (id != __atomic_load_n(&fault.target, __ATOMIC_ACQUIRE) || n < fault.nth ||
      (fault.times && n >= fault.nth + fault.times))
    return 0;
  if (fault.counts) __atomic_add_fetch(count_slot(entry_point_count), 1, __ATOMIC_RELAXED);
  return 1;
}

#define REAL(name)                                                                                 \
  static __typeof__(&name) real;                                                                   \
  if (!real) real = (__typeof__(&name))dlsym(RTLD_NEXT, #name);                                    \
  if (!real) {                                                                                     \
    fprintf(stderr, "fault_shim: %s not found after the shim\n", #name);                           \
    abort();                                                                                       \
  }

/* An entry point returning cl_int. */
#define WRAP_STATUS(name, params, args)                                                            \
  CL_API_ENTRY cl_int CL_API_CALL name params {                                                    \
    REAL(name)                                                                                     \
    if (fault_here(id_##name)) return fault.code;                                                  \
    return real args;                                                                              \
  }

/* An entry point returning an object, its error through errcode_ret. */
#define WRAP_CREATE(type, name, params, args)                                                      \
  CL_API_ENTRY type CL_API_CALL name params {                                                      \
    REAL(name)                                                                                     \
    if (fault_here(id_##name)) {                                                                   \
      if (errcode_ret) *errcode_ret = fault.code;                                                  \
      return NULL;                                                                                 \
    }                                                                                              \
    return real args;                                                                              \
  }

typedef void(CL_CALLBACK *context_notify)(const char *, const void *, size_t, void *);
typedef void(CL_CALLBACK *build_notify)(cl_program, void *);

WRAP_STATUS(clGetPlatformIDs, (cl_uint n, cl_platform_id *platforms, cl_uint *count),
            (n, platforms, count))
WRAP_STATUS(clGetPlatformInfo,
            (cl_platform_id p, cl_platform_info what, size_t size, void *value, size_t *ret),
            (p, what, size, value, ret))
WRAP_STATUS(clGetDeviceIDs,
            (cl_platform_id p, cl_device_type type, cl_uint n, cl_device_id *devices,
             cl_uint *count),
            (p, type, n, devices, count))
WRAP_STATUS(clGetDeviceInfo,
            (cl_device_id d, cl_device_info what, size_t size, void *value, size_t *ret),
            (d, what, size, value, ret))
WRAP_CREATE(cl_context, clCreateContext,
            (const cl_context_properties *props, cl_uint n, const cl_device_id *devices,
             context_notify notify, void *user, cl_int *errcode_ret),
            (props, n, devices, notify, user, errcode_ret))
WRAP_STATUS(clGetContextInfo,
            (cl_context c, cl_context_info what, size_t size, void *value, size_t *ret),
            (c, what, size, value, ret))
WRAP_CREATE(cl_command_queue, clCreateCommandQueue,
            (cl_context c, cl_device_id d, cl_command_queue_properties props, cl_int *errcode_ret),
            (c, d, props, errcode_ret))
WRAP_STATUS(clGetCommandQueueInfo,
            (cl_command_queue q, cl_command_queue_info what, size_t size, void *value, size_t *ret),
            (q, what, size, value, ret))
WRAP_CREATE(cl_mem, clCreateBuffer,
            (cl_context c, cl_mem_flags flags, size_t size, void *host, cl_int *errcode_ret),
            (c, flags, size, host, errcode_ret))
WRAP_STATUS(clGetMemObjectInfo, (cl_mem m, cl_mem_info what, size_t size, void *value, size_t *ret),
            (m, what, size, value, ret))
WRAP_CREATE(cl_program, clCreateProgramWithSource,
            (cl_context c, cl_uint n, const char **strings, const size_t *lengths,
             cl_int *errcode_ret),
            (c, n, strings, lengths, errcode_ret))
WRAP_CREATE(cl_program, clCreateProgramWithBinary,
            (cl_context c, cl_uint n, const cl_device_id *devices, const size_t *lengths,
             const unsigned char **binaries, cl_int *status, cl_int *errcode_ret),
            (c, n, devices, lengths, binaries, status, errcode_ret))
WRAP_STATUS(clBuildProgram,
            (cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
             build_notify notify, void *user),
            (p, n, devices, options, notify, user))
WRAP_STATUS(clGetProgramInfo,
            (cl_program p, cl_program_info what, size_t size, void *value, size_t *ret),
            (p, what, size, value, ret))
WRAP_STATUS(clGetProgramBuildInfo,
            (cl_program p, cl_device_id d, cl_program_build_info what, size_t size, void *value,
             size_t *ret),
            (p, d, what, size, value, ret))
WRAP_CREATE(cl_kernel, clCreateKernel, (cl_program p, const char *name, cl_int *errcode_ret),
            (p, name, errcode_ret))
WRAP_STATUS(clSetKernelArg, (cl_kernel k, cl_uint index, size_t size, const void *value),
            (k, index, size, value))
WRAP_STATUS(clGetKernelInfo,
            (cl_kernel k, cl_kernel_info what, size_t size, void *value, size_t *ret),
            (k, what, size, value, ret))
WRAP_STATUS(clGetKernelWorkGroupInfo,
            (cl_kernel k, cl_device_id d, cl_kernel_work_group_info what, size_t size, void *value,
             size_t *ret),
            (k, d, what, size, value, ret))
WRAP_STATUS(clWaitForEvents, (cl_uint n, const cl_event *events), (n, events))
WRAP_STATUS(clGetEventInfo, (cl_event e, cl_event_info what, size_t size, void *value, size_t *ret),
            (e, what, size, value, ret))
WRAP_STATUS(clGetEventProfilingInfo,
            (cl_event e, cl_profiling_info what, size_t size, void *value, size_t *ret),
            (e, what, size, value, ret))
WRAP_STATUS(clFlush, (cl_command_queue q), (q))
WRAP_STATUS(clFinish, (cl_command_queue q), (q))
WRAP_STATUS(clEnqueueReadBuffer,
            (cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size, void *ptr,
             cl_uint n, const cl_event *wait, cl_event *event),
            (q, m, blocking, offset, size, ptr, n, wait, event))
WRAP_STATUS(clEnqueueWriteBuffer,
            (cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size,
             const void *ptr, cl_uint n, const cl_event *wait, cl_event *event),
            (q, m, blocking, offset, size, ptr, n, wait, event))
WRAP_STATUS(clEnqueueCopyBuffer,
            (cl_command_queue q, cl_mem from, cl_mem to, size_t from_offset, size_t to_offset,
             size_t size, cl_uint n, const cl_event *wait, cl_event *event),
            (q, from, to, from_offset, to_offset, size, n, wait, event))
WRAP_STATUS(clEnqueueFillBuffer,
            (cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size, size_t offset,
             size_t size, cl_uint n, const cl_event *wait, cl_event *event),
            (q, m, pattern, pattern_size, offset, size, n, wait, event))
WRAP_CREATE(void *, clEnqueueMapBuffer,
            (cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags, size_t offset,
             size_t size, cl_uint n, const cl_event *wait, cl_event *event, cl_int *errcode_ret),
            (q, m, blocking, flags, offset, size, n, wait, event, errcode_ret))
WRAP_STATUS(clEnqueueUnmapMemObject,
            (cl_command_queue q, cl_mem m, void *mapped, cl_uint n, const cl_event *wait,
             cl_event *event),
            (q, m, mapped, n, wait, event))
WRAP_STATUS(clEnqueueNDRangeKernel,
            (cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
             const size_t *global, const size_t *local, cl_uint n, const cl_event *wait,
             cl_event *event),
            (q, k, dims, offset, global, local, n, wait, event))
WRAP_STATUS(clEnqueueMarkerWithWaitList,
            (cl_command_queue q, cl_uint n, const cl_event *wait, cl_event *event),
            (q, n, wait, event))
WRAP_STATUS(clEnqueueBarrierWithWaitList,
            (cl_command_queue q, cl_uint n, const cl_event *wait, cl_event *event),
            (q, n, wait, event))

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id p,
                                                                        const char *name) {
  REAL(clGetExtensionFunctionAddressForPlatform)
  if (fault_here(id_clGetExtensionFunctionAddressForPlatform)) return NULL;
  return real(p, name);
}

/* The calls of entry point `call` made so far; -1 for a name the shim does not wrap. */
int64_t merklize_fault_calls(const char *call) {
  fault_init();
  const int id = entry_point_id(call);
  return id < 0 ? -1 : (int64_t)__atomic_load_n(&fault.calls[id], __ATOMIC_RELAXED);
}

/* Arms the fault at the nth call of `call` from now (once), in place of the variables' fault;
 * nth 0 disarms it. 0, or -1 for a name the shim does not wrap. Made between calls: a call in
 * flight on another thread may see the old fault or the new one. */
int merklize_fault_arm(const char *call, uint64_t nth) {
  fault_init();
  const int id = entry_point_id(call);
  if (id < 0) return -1;
  __atomic_store_n(&fault.target, -1, __ATOMIC_RELEASE);
  if (nth == 0) return 0;
  fault.nth = __atomic_load_n(&fault.calls[id], __ATOMIC_RELAXED) + nth;
  fault.times = 1;
  __atomic_store_n(&fault.target, id, __ATOMIC_RELEASE);
  return 0;
}
