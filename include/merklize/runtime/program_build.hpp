// SPDX-License-Identifier: Apache-2.0 OR MIT
// Creating and building programs from each form: OpenCL C source, SPIR-V, and binaries (SPIR
// bitcode or a device's own), and reading a built program's binary back.
#pragma once

#include "address_space.hpp"
#include "programs.hpp"
#include "watched_call.hpp"

#include <chrono>
#include <memory>
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
    // An empty log says nothing: the message stays one line (a failed allocation has none).
    if (log.find_first_not_of(" \t\r\n", 0) != std::string::npos)
      logs += "--- " + name + " ---\n" + log + "\n";
  }
  return logs;
}

inline cl_int build_status(cl::Program &program, const cl::Device &device,
                           const std::string &options) {
#ifdef CL_HPP_ENABLE_EXCEPTIONS
  try {
    return program.build(std::vector<cl::Device>{device}, options.c_str());
  } catch (const cl::Error &e) {
    return e.err();
  }
#else
  return program.build(std::vector<cl::Device>{device}, options.c_str());
#endif
}

// A build stuck for this long without using CPU time is given up (watched_call.hpp).
constexpr std::chrono::milliseconds build_stall{5000};

// Gives up `program` without releasing it: after a build that failed or stalled short of address
// space, PoCL (3.1) leaves the program locked, and releasing it, or asking for its build log,
// would wait for that lock forever.
inline void abandon(cl::Program &program) {
  static_cast<void>(new cl::Program(std::move(program))); // never deleted: never released
}

// When a build runs on a watched thread (watched_call.hpp): always, for a cache entry's binary,
// whose load a driver's lock may hold up (then the program is compiled without the cache); else
// only short of address space, where PoCL deadlocks.
enum class build_watch { when_short, always };

// clBuildProgram on a thread of its own, watched, so a build the driver deadlocks in fails
// within seconds. Short of address space, a build that fails leaves its program abandoned, its
// log unread.
inline void build_watched(cl::Program &program, const cl::Context &context,
                          const cl::Device &device, const std::string &options,
                          const address_space &room) {
  const auto status = std::make_shared<cl_int>(CL_SUCCESS); // a stuck build may outlive this
  const cl_program handle = program();
  const cl_device_id id = device();
  try {
    run_watched(
        [handle, id, options, status] {
          *status = clBuildProgram(handle, 1, &id, options.c_str(), nullptr, nullptr);
        },
        build_stall, room.limit ? "clBuildProgram (" + room.text() + ")" : "clBuildProgram");
  } catch (...) {
    abandon(program);
    throw;
  }
  if (*status == CL_SUCCESS) return;
  if (!room.short_of(short_headroom_bytes))
    throw build_error(*status, build_logs(program, context));
  abandon(program);
  throw build_error(*status, "(not read: " + room.text() +
                                 ", and a driver that ran out there may not answer)");
}

// clBuildProgram for one device; a failure is a build_error carrying the build log. Watched as
// `watch` says (build_watched); with under compile_headroom_bytes free, refused.
inline void build_for(cl::Program &program, const cl::Context &context, const cl::Device &device,
                      const std::string &options, build_watch watch = build_watch::when_short) {
  const address_space room = address_space_now();
  if (room.short_of(compile_headroom_bytes))
    throw error(room.text() + ": too little to compile the kernels in (the driver's compiler "
                              "aborts the process when it runs out; raise the limit)");
  if (watch == build_watch::always || room.short_of(short_headroom_bytes))
    return build_watched(program, context, device, options, room);
  const cl_int err = build_status(program, device, options);
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
                                const std::string &options,
                                build_watch watch = build_watch::when_short) {
  cl::Program program = create("clCreateProgramWithBinary", [&](cl_int *err) {
    return cl::Program(context, {device}, cl::Program::Binaries{binary}, nullptr, err);
  });
  build_for(program, context, device, options, watch);
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
