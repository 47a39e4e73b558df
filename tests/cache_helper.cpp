// SPDX-License-Identifier: Apache-2.0 OR MIT
// Builds one tree through the program cache in a process of its own, for the tests of a process
// that dies while loading a cache entry (test_programs.cpp):
//   merklize_cache_helper CACHE_DIR [--die-in-driver | --terminated-in-driver | --stuck-loading]
// Prints the program's form and exits 0 where the tree is right, 1 on an error. It defines
// clCreateProgramWithBinary, to which the library's calls bind ahead of the OpenCL library's:
// with --die-in-driver that raises SIGSEGV, as a driver may on a damaged binary; with
// --terminated-in-driver SIGTERM, as `timeout` or kill send; otherwise it calls the OpenCL
// library's. It also defines clBuildProgram: with --stuck-loading the first call (the cache
// entry's binary) waits forever without using CPU time, as a driver stuck on a lock does.
#include "program_helpers.hpp"

#include <atomic>
#include <csignal>
#include <iostream>

#include <dlfcn.h>
#include <sys/resource.h>
#include <unistd.h>

namespace {
int signal_in_driver = 0;
bool stuck_loading = false;
} // namespace

extern "C" CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) CL_API_SUFFIX__VERSION_1_0 {
  static std::atomic<bool> first{true};
  if (stuck_loading && first.exchange(false))
    for (;;)
      ::pause();
  using function = decltype(&clBuildProgram);
  static const auto library = reinterpret_cast<function>(::dlsym(RTLD_NEXT, __func__));
  return library(program, num_devices, device_list, options, notify, user_data);
}

extern "C" CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                          const size_t *lengths, const unsigned char **binaries,
                          cl_int *binary_status, cl_int *errcode_ret) CL_API_SUFFIX__VERSION_1_0 {
  if (signal_in_driver == SIGSEGV)
    std::signal(SIGSEGV, SIG_DFL); // the OpenCL runtime may handle it, and carry on
  if (signal_in_driver) std::raise(signal_in_driver);
  using function = decltype(&clCreateProgramWithBinary);
  static const auto library = reinterpret_cast<function>(::dlsym(RTLD_NEXT, __func__));
  return library(context, num_devices, device_list, lengths, binaries, binary_status, errcode_ret);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: merklize_cache_helper CACHE_DIR [--die-in-driver | "
                 "--terminated-in-driver | --stuck-loading]\n";
    return 2;
  }
  const std::string how = argc == 3 ? argv[2] : "";
  signal_in_driver = how == "--die-in-driver"          ? SIGSEGV
                     : how == "--terminated-in-driver" ? SIGTERM
                                                       : 0;
  stuck_loading = how == "--stuck-loading";
  const rlimit no_core_file{0, 0}; // dying is what the tests ask of it
  ::setrlimit(RLIMIT_CORE, &no_core_file);
  merklize::set_kernel_dir("");
  merklize::set_cache_dir(std::string(argv[1]));
  try {
    auto m = test::fresh_merkleizer();
    std::cout << merklize::to_string(m.program_form()) << "\n";
    const std::string mismatch = test::tree_mismatch(m);
    if (mismatch.empty()) return 0;
    std::cerr << mismatch << "\n";
  } catch (const std::exception &e) {
    std::cerr << e.what() << "\n";
  }
  return 1;
}
