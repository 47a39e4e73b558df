// Kernel sources and the process-wide caches of contexts and built programs.
//
// Programs are cached in memory keyed by context, device, source and build options, so each is
// built once per process (Boost.Compute's program_cache does the same). The cache holds a
// reference to the context, so a cached handle can never be reused by another context.
#pragma once

#include "../error.hpp"
#include "kernel_sources.hpp"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace merklize {
namespace detail {

inline const char *embedded_kernel_source(const std::string &name) {
  for (const auto &k : embedded_kernels)
    if (name == k.name) return k.source;
  throw error("kernel file " + name + " is not embedded in merklize/detail/kernel_sources.hpp");
}

// The program source for a list of kernel files, concatenated in order.
inline std::string kernel_program_source(const std::vector<std::string> &files) {
  std::string source;
  for (const auto &f : files)
    source += embedded_kernel_source(f) + std::string("\n");
  return source;
}

inline std::string build_logs(const cl::Program &program, const cl::Context &context) {
  std::string logs;
  std::vector<cl::Device> devices;
  call("clGetContextInfo", [&] { return context.getInfo(CL_CONTEXT_DEVICES, &devices); });
  for (const auto &device : devices) {
    std::string name, log;
    device.getInfo(CL_DEVICE_NAME, &name);
    program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
    logs += "--- " + name + " ---\n" + log + "\n";
  }
  return logs;
}

inline cl::Program build_program(const cl::Context &context, const cl::Device &device,
                                 const std::string &source, const std::string &options) {
  cl::Program program = create("clCreateProgramWithSource", [&](cl_int *err) {
    return cl::Program(context, source, false, err);
  });
  cl_int err = CL_SUCCESS;
#ifdef CL_HPP_ENABLE_EXCEPTIONS
  try {
    err = program.build(std::vector<cl::Device>{device}, options.c_str());
  } catch (const cl::Error &e) {
    err = e.err();
  }
#else
  err = program.build(std::vector<cl::Device>{device}, options.c_str());
#endif
  if (err != CL_SUCCESS) throw build_error(err, build_logs(program, context));
  return program;
}

class program_cache {
public:
  static program_cache &instance() {
    static program_cache cache;
    return cache;
  }

  cl::Program get(const cl::Context &context, const cl::Device &device, const std::string &source,
                  const std::string &options) {
    const key k{context(), device(), source, options};
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = programs_.find(k);
    if (found != programs_.end()) return found->second;
    cl::Program program = build_program(context, device, source, options);
    ++builds_;
    programs_.emplace(k, program);
    return program;
  }

  // How many programs this process has compiled: a cache hit leaves it unchanged.
  std::size_t builds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return builds_;
  }

private:
  using key = std::tuple<cl_context, cl_device_id, std::string, std::string>;
  mutable std::mutex mutex_;
  std::map<key, cl::Program> programs_;
  std::size_t builds_ = 0;
};

// One context per device for the whole process, so merkleizers on the same device share
// programs and buffers can move between them.
inline cl::Context shared_context(const cl::Device &device) {
  static std::mutex mutex;
  static std::map<cl_device_id, cl::Context> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = contexts.find(device());
  if (found != contexts.end()) return found->second;
  cl::Context context = create("clCreateContext", [&](cl_int *err) {
    return cl::Context(device, nullptr, nullptr, nullptr, err);
  });
  contexts.emplace(device(), context);
  return context;
}

} // namespace detail
} // namespace merklize
