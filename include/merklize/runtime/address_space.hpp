// SPDX-License-Identifier: Apache-2.0 OR MIT
// How much address space the process may still map, where it is limited (ulimit -v, RLIMIT_AS).
// OpenCL drivers map a lot, and PoCL (3.1) does not survive running out: with too little it
// aborts setting up its threads, deadlocks or aborts in its compiler, and crashes writing a
// program's binary. The library refuses to load a driver with less than driver_headroom_bytes
// free, with less than short_headroom_bytes neither loads nor stores cached binaries and watches
// its builds (program_build.hpp), and with less than compile_headroom_bytes compiles nothing.
// Needs no OpenCL.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace merklize {
namespace detail {

constexpr std::uint64_t mib = std::uint64_t(1) << 20;
// Below this, PoCL aborts in its set-up (pthread_scheduler_init) or finds no device: measured on
// PoCL 3.1, which needed about 300 MiB.
constexpr std::uint64_t driver_headroom_bytes = 256 * mib;
// Below this, PoCL crashed in clGetProgramInfo(CL_PROGRAM_BINARIES) (about 150 MiB free) and
// deadlocked compiling without its own cache (about 100 MiB free); twice that, and more, is kept.
constexpr std::uint64_t short_headroom_bytes = 512 * mib;
// Below this, no program is compiled: the LLVM inside PoCL aborts the process ("LLVM ERROR: out
// of memory") where an allocation of its compiler fails (with about 15 MiB free).
constexpr std::uint64_t compile_headroom_bytes = 64 * mib;

struct address_space {
  std::optional<std::uint64_t> limit; // none: unlimited
  std::uint64_t used = 0;             // mapped now (VmSize)

  std::optional<std::uint64_t> free() const {
    if (!limit) return std::nullopt;
    return *limit > used ? *limit - used : 0;
  }
  bool short_of(std::uint64_t bytes) const { return limit && *free() < bytes; }

  // "the address space is limited to 390 MiB (ulimit -v 400000), 120 MiB of it free"
  std::string text() const {
    if (!limit) return "the address space is unlimited";
    return "the address space is limited to " + std::to_string(*limit / mib) + " MiB (ulimit -v " +
           std::to_string(*limit / 1024) + "), " + std::to_string(*free() / mib) +
           " MiB of it free";
  }
};

inline address_space address_space_now() {
  address_space a;
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    a.limit = static_cast<std::uint64_t>(limit.rlim_cur);
  if (std::FILE *statm = std::fopen("/proc/self/statm", "r")) {
    unsigned long long pages = 0;
    if (std::fscanf(statm, "%llu", &pages) == 1)
      a.used = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    std::fclose(statm);
  }
  return a;
}

} // namespace detail
} // namespace merklize
