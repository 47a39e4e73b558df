// SPDX-License-Identifier: Apache-2.0 OR MIT
// A Merkle tree over memory CUDA allocated, without a copy: CUDA's driver API makes an
// exportable allocation (cuMemCreate, POSIX file descriptor handles) and exports it as an
// opaque file descriptor; merklize imports that into the OpenCL context of the same GPU
// (runtime/external_memory.hpp) and builds the tree there. Two ways to order the two APIs:
// - by default at the host: CUDA fills the memory and synchronises, then OpenCL builds;
// - with --semaphores, on the GPU (runtime/external_semaphore.hpp): OpenCL makes two binary
//   semaphores and exports them, CUDA imports both; each round CUDA writes the leaves on its
//   stream and signals `ready`, OpenCL waits on `ready`, acquires, builds, releases and signals
//   `done`, and CUDA waits on `done` before it overwrites the leaves for the next round. All
//   rounds are enqueued before the host waits on anything, so a round whose leaves were
//   overwritten early would give a wrong root.
// Every root is checked against the host reference. CUDA's driver library is loaded at run
// time, so the program also runs where there is none: it then exits 77 (ctest's "skipped"),
// saying why, as it does where the GPU's OpenCL driver lacks the extensions.
//   cuda_external_memory [--semaphores] [LOG2_LEAVES]   (default 20)
#include <merklize/merklize.hpp>
#include <merklize/runtime/external_memory.hpp>
#include <merklize/runtime/external_semaphore.hpp>

#include <cuda.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int skipped = 77;

struct skip : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// cuda.h maps most entry points to versioned symbols (cuMemcpyHtoD -> cuMemcpyHtoD_v2): the
// macro's expansion, made a string, is the symbol to look up.
#define MERKLIZE_TEXT(x) #x
#define MERKLIZE_SYMBOL(x) MERKLIZE_TEXT(x)
#define MERKLIZE_CUDA(fn) fn##_ = load<decltype(&fn)>(MERKLIZE_SYMBOL(fn))

struct cuda_driver {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  decltype(&cuInit) cuInit_;
  decltype(&cuDeviceGet) cuDeviceGet_;
  decltype(&cuDeviceGetUuid) cuDeviceGetUuid_;
  decltype(&cuDevicePrimaryCtxRetain) cuDevicePrimaryCtxRetain_;
  decltype(&cuCtxSetCurrent) cuCtxSetCurrent_;
  decltype(&cuMemGetAllocationGranularity) cuMemGetAllocationGranularity_;
  decltype(&cuMemCreate) cuMemCreate_;
  decltype(&cuMemAddressReserve) cuMemAddressReserve_;
  decltype(&cuMemMap) cuMemMap_;
  decltype(&cuMemSetAccess) cuMemSetAccess_;
  decltype(&cuMemcpyHtoD) cuMemcpyHtoD_;
  decltype(&cuCtxSynchronize) cuCtxSynchronize_;
  decltype(&cuMemExportToShareableHandle) cuMemExportToShareableHandle_;
  decltype(&cuMemAllocHost) cuMemAllocHost_;
  decltype(&cuStreamCreate) cuStreamCreate_;
  decltype(&cuStreamSynchronize) cuStreamSynchronize_;
  decltype(&cuMemcpyHtoDAsync) cuMemcpyHtoDAsync_;
  decltype(&cuImportExternalSemaphore) cuImportExternalSemaphore_;
  decltype(&cuSignalExternalSemaphoresAsync) cuSignalExternalSemaphoresAsync_;
  decltype(&cuWaitExternalSemaphoresAsync) cuWaitExternalSemaphoresAsync_;

  cuda_driver() {
    if (!library) throw skip(std::string("no CUDA driver (libcuda.so.1): ") + dlerror());
    MERKLIZE_CUDA(cuInit);
    MERKLIZE_CUDA(cuDeviceGet);
    MERKLIZE_CUDA(cuDeviceGetUuid);
    MERKLIZE_CUDA(cuDevicePrimaryCtxRetain);
    MERKLIZE_CUDA(cuCtxSetCurrent);
    MERKLIZE_CUDA(cuMemGetAllocationGranularity);
    MERKLIZE_CUDA(cuMemCreate);
    MERKLIZE_CUDA(cuMemAddressReserve);
    MERKLIZE_CUDA(cuMemMap);
    MERKLIZE_CUDA(cuMemSetAccess);
    MERKLIZE_CUDA(cuMemcpyHtoD);
    MERKLIZE_CUDA(cuCtxSynchronize);
    MERKLIZE_CUDA(cuMemExportToShareableHandle);
    MERKLIZE_CUDA(cuMemAllocHost);
    MERKLIZE_CUDA(cuStreamCreate);
    MERKLIZE_CUDA(cuStreamSynchronize);
    MERKLIZE_CUDA(cuMemcpyHtoDAsync);
    MERKLIZE_CUDA(cuImportExternalSemaphore);
    MERKLIZE_CUDA(cuSignalExternalSemaphoresAsync);
    MERKLIZE_CUDA(cuWaitExternalSemaphoresAsync);
  }

  template <class F> F load(const char *name) {
    if (void *f = dlsym(library, name)) return reinterpret_cast<F>(f);
    throw skip(std::string("the CUDA driver has no ") + name);
  }
};

void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: CUresult " +
                             std::to_string(static_cast<int>(r)));
}

// CUDA's memory on `dev` of `bytes` (rounded up to the granularity), mapped at `ptr` and
// exported as the opaque file descriptor `fd`.
struct exported_memory {
  CUdeviceptr ptr;
  int fd;
};

exported_memory exportable_allocation(cuda_driver &cu, CUdevice dev, std::size_t bytes) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  std::size_t granularity = 0;
  check(cu.cuMemGetAllocationGranularity_(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
        "cuMemGetAllocationGranularity");
  const std::size_t size = (bytes + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle handle;
  check(cu.cuMemCreate_(&handle, size, &prop, 0), "cuMemCreate");
  CUdeviceptr ptr;
  check(cu.cuMemAddressReserve_(&ptr, size, 0, 0, 0), "cuMemAddressReserve");
  check(cu.cuMemMap_(ptr, size, 0, handle, 0), "cuMemMap");
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  check(cu.cuMemSetAccess_(ptr, size, &access, 1), "cuMemSetAccess");
  int fd = -1;
  check(cu.cuMemExportToShareableHandle_(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemExportToShareableHandle");
  return {ptr, fd};
}

// The OpenCL GPU whose UUID (cl_khr_device_uuid) is CUDA's device's.
cl::Device same_gpu(const CUuuid &uuid) {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  for (const cl::Platform &p : platforms) {
    std::vector<cl::Device> devices;
    p.getDevices(CL_DEVICE_TYPE_GPU, &devices);
    for (const cl::Device &d : devices) {
      cl_uchar id[CL_UUID_SIZE_KHR] = {};
      if (clGetDeviceInfo(d(), CL_DEVICE_UUID_KHR, sizeof id, id, nullptr) == CL_SUCCESS &&
          std::memcmp(id, uuid.bytes, sizeof id) == 0)
        return d;
    }
  }
  throw skip("no OpenCL GPU has the UUID of CUDA's device 0");
}

// CUDA's device 0, made current in this thread, and the OpenCL device of the same GPU.
struct same_gpus {
  CUdevice cuda;
  cl::Device opencl;
};

same_gpus open_gpus(cuda_driver &cu) {
  if (cu.cuInit_(0) != CUDA_SUCCESS) throw skip("cuInit failed: no CUDA GPU here");
  CUdevice dev;
  check(cu.cuDeviceGet_(&dev, 0), "cuDeviceGet");
  CUuuid uuid;
  check(cu.cuDeviceGetUuid_(&uuid, dev), "cuDeviceGetUuid");
  CUcontext ctx;
  check(cu.cuDevicePrimaryCtxRetain_(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cu.cuCtxSetCurrent_(ctx), "cuCtxSetCurrent");
  const cl::Device device = same_gpu(uuid);
  if (const std::string why = merklize::why_no_external_memory(device); !why.empty())
    throw skip(why);
  return {dev, device};
}

void fill_random(std::uint8_t *bytes, std::size_t size, unsigned seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::uint8_t>(rng());
}

// Whether the root in `nodes` (a tree of `n` leaves, read on `queue`) is the host reference's
// root of `leaves`; says which.
bool root_matches(const cl::CommandQueue &queue, const cl::Buffer &nodes, std::uint64_t n,
                  const std::uint8_t *leaves, const std::string &what) {
  const std::uint64_t node_count = merklize::merkleizer::output_node_count(n);
  merklize::digest root;
  queue.enqueueReadBuffer(nodes, CL_TRUE, (node_count - 1) * 32, 32, root.data());
  const merklize::digest expected = merklize::reference_tree(leaves, n * 32, {}).root();
  std::printf("%s, root %s (%s the host reference)\n", what.c_str(), merklize::to_hex(root).c_str(),
              root == expected ? "equals" : "DIFFERS FROM");
  return root == expected;
}

// CUDA writes, synchronises; then OpenCL imports and builds.
int host_ordered(cuda_driver &cu, const same_gpus &gpus, unsigned log2) {
  const std::uint64_t n = std::uint64_t(1) << log2, bytes = n * 32;
  std::vector<std::uint8_t> leaves(bytes);
  fill_random(leaves.data(), bytes, log2);
  const exported_memory memory = exportable_allocation(cu, gpus.cuda, bytes);
  check(cu.cuMemcpyHtoD_(memory.ptr, leaves.data(), bytes), "cuMemcpyHtoD");
  check(cu.cuCtxSynchronize_(), "cuCtxSynchronize"); // CUDA's writes done before OpenCL reads

  const cl::Context context(gpus.opencl);
  merklize::merkleizer m(context, gpus.opencl);
  merklize::external_buffer imported(context, gpus.opencl, memory.fd, bytes);
  const cl::Buffer nodes(context, CL_MEM_READ_WRITE,
                         merklize::merkleizer::output_node_count(n) * 32);
  const cl::Event acquired = imported.acquire(m.queue());
  const std::vector<cl::Event> built = m.enqueue_build(imported.buffer(), n, nodes, {acquired});
  imported.release(m.queue(), {built.back()}).wait();
  return root_matches(m.queue(), nodes, n, leaves.data(),
                      merklize::device_name(gpus.opencl) + ": tree of 2^" + std::to_string(log2) +
                          " leaves from CUDA memory")
             ? 0
             : 1;
}

// `semaphore` as CUDA's: CUDA's import takes the exported descriptor over.
CUexternalSemaphore cuda_import(cuda_driver &cu, const merklize::external_semaphore &semaphore) {
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = semaphore.export_fd();
  CUexternalSemaphore imported;
  const CUresult r = cu.cuImportExternalSemaphore_(&imported, &desc);
  if (r != CUDA_SUCCESS) close(desc.handle.fd); // a refused import leaves it ours
  check(r, "cuImportExternalSemaphore");
  return imported;
}

void cuda_signal(cuda_driver &cu, CUexternalSemaphore semaphore, CUstream stream) {
  const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS params{};
  check(cu.cuSignalExternalSemaphoresAsync_(&semaphore, &params, 1, stream),
        "cuSignalExternalSemaphoresAsync");
}

void cuda_wait(cuda_driver &cu, CUexternalSemaphore semaphore, CUstream stream) {
  const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS params{};
  check(cu.cuWaitExternalSemaphoresAsync_(&semaphore, &params, 1, stream),
        "cuWaitExternalSemaphoresAsync");
}

// Rounds of CUDA writing the leaves and OpenCL building over them, ordered by two semaphores
// on the GPU; the host waits only once all are enqueued.
int semaphore_ordered(cuda_driver &cu, const same_gpus &gpus, unsigned log2) {
  if (const std::string why = merklize::why_no_external_semaphore(gpus.opencl); !why.empty())
    throw skip(why);
  constexpr unsigned rounds = 3;
  const std::uint64_t n = std::uint64_t(1) << log2, bytes = n * 32;
  void *staging = nullptr; // pinned, so that CUDA's copies do not wait for its stream
  check(cu.cuMemAllocHost_(&staging, rounds * bytes), "cuMemAllocHost");
  auto *leaves = static_cast<std::uint8_t *>(staging);
  fill_random(leaves, rounds * bytes, log2);
  const exported_memory memory = exportable_allocation(cu, gpus.cuda, bytes);

  const cl::Context context(gpus.opencl);
  merklize::merkleizer m(context, gpus.opencl);
  merklize::external_buffer imported(context, gpus.opencl, memory.fd, bytes);
  merklize::external_semaphore ready(context, gpus.opencl), done(context, gpus.opencl);
  const CUexternalSemaphore cuda_ready = cuda_import(cu, ready), cuda_done = cuda_import(cu, done);
  CUstream stream;
  check(cu.cuStreamCreate_(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  std::vector<cl::Buffer> nodes;
  for (unsigned r = 0; r < rounds; ++r) {
    if (r > 0) cuda_wait(cu, cuda_done, stream); // OpenCL's last build has read the leaves
    check(cu.cuMemcpyHtoDAsync_(memory.ptr, leaves + r * bytes, bytes, stream),
          "cuMemcpyHtoDAsync");
    cuda_signal(cu, cuda_ready, stream);
    const std::uint64_t node_bytes = merklize::merkleizer::output_node_count(n) * 32;
    nodes.emplace_back(context, CL_MEM_READ_WRITE, node_bytes);
    m.queue().enqueueFillBuffer(nodes.back(), cl_uchar(0xa5), 0, node_bytes); // poisoned
    const cl::Event acquired = imported.acquire(m.queue(), {ready.enqueue_wait(m.queue())});
    const std::vector<cl::Event> built =
        m.enqueue_build(imported.buffer(), n, nodes.back(), {acquired});
    done.enqueue_signal(m.queue(), {imported.release(m.queue(), {built.back()})});
    m.queue().flush(); // CUDA's stream waits on that signal
  }
  cuda_wait(cu, cuda_done, stream); // the last signal consumed: both semaphores end unsignalled
  bool all = true;
  for (unsigned r = 0; r < rounds; ++r)
    all &= root_matches(m.queue(), nodes[r], n, leaves + r * bytes,
                        merklize::device_name(gpus.opencl) + ": round " + std::to_string(r + 1) +
                            ", tree of 2^" + std::to_string(log2) +
                            " leaves CUDA wrote, ordered by semaphores");
  check(cu.cuStreamSynchronize_(stream), "cuStreamSynchronize");
  return all ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  try {
    const bool semaphores = argc > 1 && std::strcmp(argv[1], "--semaphores") == 0;
    const int log2_at = semaphores ? 2 : 1;
    const auto log2 = argc > log2_at ? static_cast<unsigned>(std::atoi(argv[log2_at])) : 20u;
    cuda_driver cu;
    const same_gpus gpus = open_gpus(cu);
    return semaphores ? semaphore_ordered(cu, gpus, log2) : host_ordered(cu, gpus, log2);
  } catch (const skip &e) {
    std::printf("SKIPPED: %s\n", e.what());
    return skipped;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "cuda_external_memory: %s\n", e.what());
    return 1;
  }
}
