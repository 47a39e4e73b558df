// SPDX-License-Identifier: Apache-2.0 OR MIT
// A Merkle tree over memory CUDA allocated, without a copy: CUDA's driver API makes an
// exportable allocation (cuMemCreate, POSIX file descriptor handles), fills it, exports it as an
// opaque file descriptor; merklize imports that into the OpenCL context of the same GPU
// (runtime/external_memory.hpp) and builds the tree there. The root is checked against the host
// reference. CUDA's driver library is loaded at run time, so the program also runs where there
// is none: it then exits 77 (ctest's "skipped"), saying why, as it does where the GPU's OpenCL
// driver lacks cl_khr_external_memory_opaque_fd.
//   cuda_external_memory [LOG2_LEAVES]   (default 20)
#include <merklize/merklize.hpp>
#include <merklize/runtime/external_memory.hpp>

#include <cuda.h>
#include <dlfcn.h>

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

// CUDA device 0's memory of `bytes`, holding `data`, exported as an opaque file descriptor.
int exported_copy(cuda_driver &cu, CUdevice dev, const void *data, std::size_t bytes) {
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
  check(cu.cuMemcpyHtoD_(ptr, data, bytes), "cuMemcpyHtoD");
  check(cu.cuCtxSynchronize_(), "cuCtxSynchronize"); // CUDA's writes done before OpenCL reads
  int fd = -1;
  check(cu.cuMemExportToShareableHandle_(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemExportToShareableHandle");
  return fd;
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

int run(unsigned log2) {
  cuda_driver cu;
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
  const std::uint64_t n = std::uint64_t(1) << log2, bytes = n * 32;
  std::vector<std::uint8_t> leaves(bytes);
  std::mt19937_64 rng(log2);
  for (auto &b : leaves)
    b = static_cast<std::uint8_t>(rng());
  const int fd = exported_copy(cu, dev, leaves.data(), bytes);

  const cl::Context context(device);
  merklize::merkleizer m(context, device);
  merklize::external_buffer imported(context, device, fd, bytes);
  const cl::Buffer nodes(context, CL_MEM_READ_WRITE,
                         merklize::merkleizer::output_node_count(n) * 32);
  const cl::Event acquired = imported.acquire(m.queue());
  const std::vector<cl::Event> built = m.enqueue_build(imported.buffer(), n, nodes, {acquired});
  imported.release(m.queue(), {built.back()}).wait();
  merklize::digest root;
  m.queue().enqueueReadBuffer(nodes, CL_TRUE, (merklize::merkleizer::output_node_count(n) - 1) * 32,
                              32, root.data());
  const merklize::digest expected = merklize::reference_tree(leaves.data(), bytes, {}).root();
  std::printf("%s: tree of 2^%u leaves from CUDA memory, root %s (%s the host reference)\n",
              merklize::device_name(device).c_str(), log2, merklize::to_hex(root).c_str(),
              root == expected ? "equals" : "DIFFERS FROM");
  return root == expected ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 20);
  } catch (const skip &e) {
    std::printf("SKIPPED: %s\n", e.what());
    return skipped;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "cuda_external_memory: %s\n", e.what());
    return 1;
  }
}
