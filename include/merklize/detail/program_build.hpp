// SPDX-License-Identifier: Apache-2.0 OR MIT
// Creating and building programs from each form: OpenCL C source, SPIR-V, and binaries (SPIR
// bitcode or a device's own), and reading a built program's binary back.
#pragma once

#include "../programs.hpp"

#include <string>
#include <vector>

namespace merklize {
namespace detail {

// A built program and the form it was built from.
struct built_program {
  cl::Program program;
  program_form form;
  // Lets a caller that only wants the program take the result as one.
  operator const cl::Program &() const { return program; }
};

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

// clBuildProgram for one device; a failure is a build_error carrying the build log.
inline void build_for(cl::Program &program, const cl::Context &context, const cl::Device &device,
                      const std::string &options) {
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
}

inline cl::Program build_program(const cl::Context &context, const cl::Device &device,
                                 const std::string &source, const std::string &options) {
  cl::Program program = create("clCreateProgramWithSource", [&](cl_int *err) {
    return cl::Program(context, source, false, err);
  });
  build_for(program, context, device, options);
  return program;
}

// A SPIR bitcode module or a binary of the device's own, built with `options`.
inline cl::Program build_binary(const cl::Context &context, const cl::Device &device,
                                const std::vector<unsigned char> &binary,
                                const std::string &options) {
  cl::Program program = create("clCreateProgramWithBinary", [&](cl_int *err) {
    return cl::Program(context, {device}, cl::Program::Binaries{binary}, nullptr, err);
  });
  build_for(program, context, device, options);
  return program;
}

inline cl::Program build_spirv(const cl::Context &context, const cl::Device &device,
                               const std::vector<unsigned char> &il) {
  const auto create_with_il = il_entry_point(device);
  if (!create_with_il) throw error(device_name(device) + " takes no SPIR-V");
  cl_int err = CL_SUCCESS;
  cl::Program program(create_with_il(context(), il.data(), il.size(), &err));
  check(err, "clCreateProgramWithIL");
  build_for(program, context, device, "");
  return program;
}

// The built program's binary for `device` (CL_PROGRAM_BINARIES), in the device's own format.
inline std::vector<unsigned char> program_binary(const cl::Program &program,
                                                 const cl::Device &device) {
  std::vector<cl::Device> devices;
  call("clGetProgramInfo", [&] { return program.getInfo(CL_PROGRAM_DEVICES, &devices); });
  std::vector<std::vector<unsigned char>> binaries;
  call("clGetProgramInfo", [&] { return program.getInfo(CL_PROGRAM_BINARIES, &binaries); });
  for (std::size_t i = 0; i < devices.size() && i < binaries.size(); ++i)
    if (devices[i]() == device()) return binaries[i];
  throw error("the program has no binary for " + device_name(device));
}

} // namespace detail
} // namespace merklize
