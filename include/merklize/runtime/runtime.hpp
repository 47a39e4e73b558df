// SPDX-License-Identifier: Apache-2.0 OR MIT
// The runtime layer every device class of the library stands on (merkleizer, blake3_device,
// device_prover; hash_layer uses its free functions): one device and its context, what the
// library reads off the device and the device's tuning row, read once, queues made one way (both
// public: read_device_facts, device_queue), programs from the process-wide cache, kernels checked
// against their work-group limit, and buffers checked or grown one way. Kernel arguments and
// launches: kernel_call.hpp; profiling: profiling.hpp.
#pragma once

#include "../plan/tuning.hpp"
#include "buffers.hpp"
#include "device.hpp"
#include "kernel_call.hpp"
#include "program_cache.hpp"

#include <cstdlib>
#include <string>

namespace merklize {
namespace detail {

inline device_type type_of(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return device_type::gpu;
  if (type & CL_DEVICE_TYPE_CPU) return device_type::cpu;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return device_type::accelerator;
  return device_type::other;
}

} // namespace detail

// What the library reads off `device` (its name, type, compute units, memory), the facts its
// planners take (plan/tuning.hpp): public so that a caller weighs a device as the library does
// (tuning_for, device_estimate) without building anything on it.
inline device_facts read_device_facts(const cl::Device &device) {
  using namespace detail;
  return in_step(
      [&] { return "reading the properties of " + name_in_message(device); },
      [&] {
        const cl::Platform platform(device_info<CL_DEVICE_PLATFORM, cl_platform_id>(device), true);
        device_facts f;
        f.name = device_name(device);
        f.vendor = trimmed(device_info<CL_DEVICE_VENDOR, std::string>(device));
        f.platform = platform_info<CL_PLATFORM_NAME>(platform);
        f.type = type_of(device_info<CL_DEVICE_TYPE, cl_device_type>(device));
        f.compute_units = device_info<CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint>(device);
        f.max_work_group_size = device_info<CL_DEVICE_MAX_WORK_GROUP_SIZE, std::size_t>(device);
        f.preferred_int_vector_width =
            device_info<CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint>(device);
        f.global_memory_bytes = device_info<CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong>(device);
        f.max_buffer_bytes = device_info<CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong>(device);
        f.unified_memory = device_info<CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool>(device) != CL_FALSE;
        return f;
      });
}

namespace detail {

// A queue on `device`, in order, with profiling (see device_runtime::make_queue).
inline cl::CommandQueue make_queue(const cl::Context &context, const cl::Device &device) {
  return in_step([&] { return "creating a command queue on " + name_in_message(device); },
                 [&] {
                   return create("clCreateCommandQueue", [&](cl_int *err) {
                     return cl::CommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, err);
                   });
                 });
}

} // namespace detail

// An in-order queue with profiling on `device`, in the context the library's builders share for
// it, so programs compiled for the device are reused: for the calls that take a queue
// (hash_entries, hash_layer, mmcs::commit_on) where no builder's queue is at hand.
inline cl::CommandQueue device_queue(const cl::Device &device) {
  return detail::make_queue(detail::shared_context(device), device);
}

namespace detail {

// The build options the device's tuning row adds to every program (tuning::kernel_options), or
// the environment's MERKLIZE_KERNEL_OPTIONS where it is set, even to nothing: benches compare
// kernel variants with it in one build.
inline std::string kernel_options_of(const tuning &row) {
  if (const char *options = std::getenv("MERKLIZE_KERNEL_OPTIONS")) return options;
  return row.kernel_options;
}

// The spec with those options; one that gets any is only ever compiled, as with_extra_options
// says (ahead-of-time kernels are built without them).
inline program_spec tuned_spec(const program_spec &spec, const tuning &row) {
  return with_extra_options(spec, kernel_options_of(row));
}

// The spec's program for the device, with its tuning row's options (for callers that hold no
// device_runtime).
inline built_program tuned_program(const cl::Context &context, const cl::Device &device,
                                   const program_spec &spec) {
  return get_program(context, device, tuned_spec(spec, tuning_for(read_device_facts(device))));
}

class device_runtime {
public:
  // `device` must belong to `context`. Refuses big-endian devices: the kernels load BLAKE3 and
  // SHA-256 words little-endian.
  device_runtime(const cl::Context &context, const cl::Device &device)
      : context_(context), device_(device), facts_(read_device_facts(device)),
        tuning_(&tuning_for(facts_)) {
    const bool little =
        in_step([&] { return "reading the properties of " + facts_.name; },
                [&] { return device_info<CL_DEVICE_ENDIAN_LITTLE, cl_bool>(device_); });
    if (!little)
      throw error(facts_.name +
                  " is big-endian; merklize's kernels load their words little-endian");
  }

  const cl::Context &context() const { return context_; }
  const cl::Device &device() const { return device_; }
  const device_facts &facts() const { return facts_; }
  const tuning &tuning_row() const { return *tuning_; }
  // Whether the device works on the host's own memory (a CPU): kernels can read host memory in
  // place, with no copy.
  bool shares_host_memory() const { return facts_.is_cpu() && facts_.unified_memory; }

  // In order, with profiling. In-order queues: a build's launches depend on each other anyway,
  // and on an H200 an out-of-order kernel queue held a chunk's launches back until the download
  // queue had finished the chunk before (0.07 ms a chunk; 24.16 against 23.39 ms end to end for
  // 2^25 leaves, dev/PERFORMANCE_LOG.md).
  cl::CommandQueue make_queue() const { return detail::make_queue(context_, device_); }

  // The spec's program for this device with its tuning row's options, built once per process
  // and context (program_cache.hpp).
  built_program program(const program_spec &spec) const {
    return get_program(context_, device_, tuned_spec(spec, *tuning_));
  }

  // Kernel `name` of the spec's program, refused if it cannot run work-groups of local_size.
  cl::Kernel kernel(const program_spec &spec, const char *name, std::size_t local_size) const {
    const built_program built = program(spec);
    return in_step([&] { return "creating kernel " + std::string(name) + " on " + facts_.name; },
                   [&] {
                     cl::Kernel kernel = create("clCreateKernel", [&](cl_int *err) {
                       return cl::Kernel(built.program, name, err);
                     });
                     check_work_group_size(kernel, device_, local_size);
                     return kernel;
                   });
  }

  // A device buffer of `bytes` bytes, refused with a message naming `what` where the device
  // allows no buffer that large.
  cl::Buffer buffer(std::uint64_t bytes, const std::string &what,
                    cl_mem_flags flags = CL_MEM_READ_WRITE) const {
    if (bytes > facts_.max_buffer_bytes)
      throw error(what + " take " + std::to_string(bytes) + " bytes, but " + facts_.name +
                  " allows buffers of at most " + std::to_string(facts_.max_buffer_bytes));
    return in_step(
        [&] {
          return "allocating " + std::to_string(bytes) + " bytes on " + facts_.name + " for " +
                 what;
        },
        [&] {
          return create("clCreateBuffer", [&](cl_int *err) {
            return cl::Buffer(context_, flags, bytes, nullptr, err);
          });
        });
  }

  // A read-only device buffer holding a copy of `bytes` bytes of host memory.
  cl::Buffer copy_of(const void *data, std::uint64_t bytes) const {
    return create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                        const_cast<void *>(data), err);
    });
  }

  // Refuses a buffer of the caller's of another context, or smaller than `needed` bytes.
  void check_buffer(const cl::Buffer &buffer, const char *what, std::uint64_t needed,
                    const char *owner, const char *purpose) const {
    detail::check_buffer(context_, buffer, what, needed, owner, purpose);
  }

  // Makes `buffer` hold at least `needed` bytes, reallocating only to grow.
  void grow(cl::Buffer &buffer, std::uint64_t &capacity, std::uint64_t needed) const {
    grow_buffer(context_, buffer, capacity, needed);
  }

private:
  cl::Context context_;
  cl::Device device_;
  device_facts facts_;
  const tuning *tuning_;
};

} // namespace detail
} // namespace merklize
