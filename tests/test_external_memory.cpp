// SPDX-License-Identifier: Apache-2.0 OR MIT
// Memory another API exported, imported as a buffer (runtime/external_memory.hpp): where the
// device's driver lacks cl_khr_external_memory_opaque_fd (PoCL), the import is refused with the
// reason, before any descriptor is touched. The import itself, from CUDA, is
// examples/cuda_external_memory.cpp (ctest cuda_external_memory, on the GPU machine).
#include "block_helpers.hpp"

#include <merklize/runtime/external_memory.hpp>

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
