// SPDX-License-Identifier: Apache-2.0 OR MIT
// Memory another API exported, imported as a buffer (runtime/external_memory.hpp), and semaphores
// shared with it (runtime/external_semaphore.hpp): where the device's driver lacks
// cl_khr_external_memory_opaque_fd or cl_khr_external_semaphore_opaque_fd (PoCL), the import or
// the semaphore is refused with the reason, before any descriptor is touched. Both at work with
// CUDA are examples/cuda_external_memory.cpp (ctests cuda_external_memory and
// cuda_external_semaphore, on the GPU machine).
#include "block_helpers.hpp"

#include <merklize/runtime/external_memory.hpp>
#include <merklize/runtime/external_semaphore.hpp>

#include <catch2/catch.hpp>

#include <unistd.h>

using Catch::Matchers::Contains;

TEST_CASE("importing external memory says why a device cannot", "[external]") {
  const cl::Device device = test::hasher().device();
  const std::string why = merklize::why_no_external_memory(device);
  if (why.empty()) {
    WARN("SKIPPED: " << merklize::device_name(device)
                     << " offers cl_khr_external_memory_opaque_fd: the refusal is not reachable");
    return;
  }
  CHECK_THAT(why, Contains(merklize::device_name(device)));
  const cl::Context context(device);
  int pipe_ends[2];
  REQUIRE(pipe(pipe_ends) == 0); // a descriptor that is open, which the refusal must leave so
  CHECK_THROWS_WITH(merklize::external_buffer(context, device, pipe_ends[0], 4096),
                    Contains("cannot import external memory: " + why));
  CHECK(close(pipe_ends[0]) == 0);
  CHECK(close(pipe_ends[1]) == 0);
}

TEST_CASE("sharing a semaphore says why a device cannot", "[external]") {
  const cl::Device device = test::hasher().device();
  const std::string why = merklize::why_no_external_semaphore(device);
  const std::string why_import =
      merklize::why_no_external_semaphore(device, merklize::semaphore_share::imported);
  if (why.empty() && why_import.empty()) {
    WARN("SKIPPED: " << merklize::device_name(device)
                     << " exports and imports semaphores as opaque file descriptors: no "
                        "refusal is reachable");
    return;
  }
  const cl::Context context(device);
  if (!why.empty()) { // PoCL: no extension; NVIDIA's driver 580: no export handle type
    CHECK_THAT(why, Contains(merklize::device_name(device)));
    CHECK_THAT(why, Contains("opaque file descriptor"));
    CHECK_THROWS_WITH(merklize::external_semaphore(context, device),
                      Contains("cannot make an external semaphore: " + why));
  }
  int pipe_ends[2];
  REQUIRE(pipe(pipe_ends) == 0); // a descriptor that is open, which the refusal must leave so
  if (!why_import.empty()) {
    CHECK_THAT(why_import, Contains(merklize::device_name(device)));
    CHECK_THROWS_WITH(merklize::external_semaphore::imported(context, device, pipe_ends[0]),
                      Contains("cannot import a semaphore: " + why_import));
  }
  CHECK_THROWS_WITH(merklize::external_semaphore::imported(context, device, -1),
                    Contains("-1 is not a file descriptor"));
  CHECK(close(pipe_ends[0]) == 0);
  CHECK(close(pipe_ends[1]) == 0);
}
