// SPDX-License-Identifier: Apache-2.0 OR MIT
// Program build time by the form the program comes from: JIT (the embedded OpenCL C source
// compiled), AOT (the SPIR-V or SPIR bitcode that `make aot` wrote, whichever the device loads
// best) and the disk cache of device binaries.
//
//   build/bench/merklize_build_bench                  merkle-blake3 on the default device
//   build/bench/merklize_build_bench --all-programs   every program variant
//   MERKLIZE_DEVICE=nvidia MERKLIZE_KERNEL_DIR=build/kernels build/bench/merklize_build_bench
//
// Each iteration builds one program in a context of its own through detail::load_program,
// bypassing the in-memory cache; the wall-clock time of that call is the manual time (a build
// has no OpenCL event to profile). Drivers keep compiler caches of their own, which make repeated
// JIT builds fast: POCL_KERNEL_CACHE=0 (PoCL) and CUDA_CACHE_DISABLE=1 (NVIDIA) turn them off for
// cold builds. The AOT kernels are read from MERKLIZE_KERNEL_DIR, else from the folder the build
// wrote with MERKLIZE_AOT=ON.
#include <merklize/merklize.hpp>

#include <merklize/runtime/kernels.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using merklize::program_form;
namespace fs = std::filesystem;

std::string aot_kernel_dir() {
  const char *env = std::getenv("MERKLIZE_KERNEL_DIR");
  return env && *env ? env : MERKLIZE_AOT_DIR;
}

std::string env_or(const char *name, const char *fallback) {
  const char *value = std::getenv(name);
  return value ? value : fallback;
}

// Times load_program in new contexts with the given folders ("" for off); fails the benchmark
// when the program comes from another form than `expected` or anything was warned about.
void program_build(benchmark::State &state, const merklize::detail::program_spec &spec,
                   program_form expected, const std::string &kernel_dir,
                   const std::string &cache_dir) {
  const cl::Device device = merklize::default_device();
  std::string warnings;
  merklize::set_warning_handler([&](const std::string &w) { warnings += w + "; "; });
  merklize::set_kernel_dir(kernel_dir);
  merklize::set_cache_dir(cache_dir);
  if (expected == program_form::cache) // fill the cache once, untimed
    merklize::detail::load_program(cl::Context(device), device, spec);
  for (auto _ : state) {
    const cl::Context context(device);
    const auto start = std::chrono::steady_clock::now();
    const auto built = merklize::detail::load_program(context, device, spec);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(took.count());
    if (built.form != expected || !warnings.empty()) {
      state.SkipWithError(("built from " + std::string(merklize::to_string(built.form)) + ", not " +
                           merklize::to_string(expected) + ": " + warnings)
                              .c_str());
      break;
    }
  }
  state.SetLabel(merklize::to_string(expected));
  merklize::set_warning_handler({});
}

void register_benchmarks(const merklize::detail::program_spec &spec, const fs::path &cache_dir) {
  const cl::Device device = merklize::default_device();
  const auto aot_forms = merklize::aot_forms(device);
  const std::string aot_dir = aot_kernel_dir();
  const std::string prefix = "program_build/" + spec.name + "/";
  benchmark::RegisterBenchmark((prefix + "jit").c_str(), program_build, spec, program_form::jit, "",
                               "")
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  if (aot_forms.empty() || aot_dir.empty()) {
    benchmark::RegisterBenchmark((prefix + "aot").c_str(), [=](benchmark::State &state) {
      for (auto _ : state)
        state.SkipWithError(aot_dir.empty() ? "no AOT kernels: run `make aot` or set "
                                              "MERKLIZE_KERNEL_DIR"
                                            : "the device loads neither SPIR-V nor SPIR");
    });
  } else {
    benchmark::RegisterBenchmark((prefix + "aot").c_str(), program_build, spec, aot_forms.front(),
                                 aot_dir, "")
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark((prefix + "cache").c_str(), program_build, spec, program_form::cache,
                               "", cache_dir.string())
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

// Removes `flag` from the arguments; true if it was there.
bool take_flag(int &argc, char **argv, const char *flag) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], flag) == 0) {
      std::copy(argv + i + 1, argv + argc, argv + i);
      --argc;
      return true;
    }
  return false;
}

} // namespace

int main(int argc, char **argv) {
  const bool all_programs = take_flag(argc, argv, "--all-programs");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    const cl::Device device = merklize::default_device();
    benchmark::AddCustomContext("device", merklize::device_name(device));
    benchmark::AddCustomContext(
        "driver", merklize::detail::device_info<CL_DRIVER_VERSION, std::string>(device));
    benchmark::AddCustomContext("AOT forms the device loads", [&] {
      std::string forms;
      for (const auto form : merklize::aot_forms(device))
        forms += (forms.empty() ? "" : ", ") + std::string(merklize::to_string(form));
      return forms.empty() ? std::string("none") : forms;
    }());
    benchmark::AddCustomContext("POCL_KERNEL_CACHE", env_or("POCL_KERNEL_CACHE", "(unset)"));
    benchmark::AddCustomContext("CUDA_CACHE_DISABLE", env_or("CUDA_CACHE_DISABLE", "(unset)"));
    const fs::path cache_dir =
        fs::temp_directory_path() / ("merklize-build-bench-" + std::to_string(::getpid()));
    const auto specs = merklize::detail::all_program_specs();
    for (const auto &spec : specs) {
      register_benchmarks(spec, cache_dir);
      if (!all_programs) break;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    fs::remove_all(cache_dir);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "merklize_build_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
