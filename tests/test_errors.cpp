// SPDX-License-Identifier: Apache-2.0 OR MIT
// Bad input: a clear error naming the problem, and the caller's data untouched.
#include "helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

TEST_CASE("no leaves is an error", "[errors]") {
  merklize::merkleizer m(test::test_device());
  std::vector<std::uint8_t> none;
  CHECK_THROWS_WITH(m.build(none), Contains("N = 0"));
  CHECK_THROWS_WITH(merklize::tree_layout(0), Contains("N = 0"));
  cl::Buffer buffer(m.context(), CL_MEM_READ_WRITE, 64);
  CHECK_THROWS_WITH(m.enqueue_build(buffer, 0, buffer), Contains("N = 0"));
}

TEST_CASE("a partial leaf is an error that names the size", "[errors]") {
  merklize::merkleizer m(test::test_device());
  auto leaves = test::random_bytes(33);
  const auto before = leaves;
  CHECK_THROWS_WITH(m.build(leaves), Contains("33 bytes, not a multiple of 32"));
  CHECK(leaves == before);
}

TEST_CASE("device buffers that are too small are refused, untouched", "[errors]") {
  merklize::merkleizer m(test::test_device());
  const std::uint64_t n = 100;
  const auto leaves = test::random_bytes(n * 32);
  cl::Buffer in(m.context(), CL_MEM_READ_ONLY, leaves.size());
  m.queue().enqueueWriteBuffer(in, CL_TRUE, 0, leaves.size(), leaves.data());
  const std::size_t needed = merklize::merkleizer::output_node_count(n) * 32;
  cl::Buffer small = test::poisoned_buffer(m.context(), m.queue(), needed - 32);
  CHECK_THROWS_WITH(m.enqueue_build(in, n, small),
                    Contains("nodes buffer too small") && Contains(std::to_string(needed)));
  const auto after = test::read_buffer(m.queue(), small, needed - 32);
  CHECK(std::all_of(after.begin(), after.end(), [](auto b) { return b == test::poison_byte; }));
  cl::Buffer out(m.context(), CL_MEM_READ_WRITE, needed);
  CHECK_THROWS_WITH(m.enqueue_build(in, n + 1, out), Contains("leaves buffer too small"));
}

TEST_CASE("a buffer of another context is refused", "[errors]") {
  merklize::merkleizer m(test::test_device());
  cl::Context other(test::test_device());
  cl::Buffer foreign(other, CL_MEM_READ_WRITE, 1024);
  cl::Buffer mine(m.context(), CL_MEM_READ_WRITE, 1024);
  CHECK_THROWS_WITH(m.enqueue_build(foreign, 4, mine), Contains("another OpenCL context"));
}

TEST_CASE("an unknown device spec is an error listing the devices", "[errors][device]") {
  CHECK_THROWS_WITH(merklize::select_device("no-such-device-xyz"),
                    Contains("unknown device \"no-such-device-xyz\"") &&
                        Contains("available devices"));
  CHECK_THROWS_WITH(merklize::select_device("99:0"), Contains("unknown device \"99:0\""));
}

TEST_CASE("a tree larger than the device names the sizes", "[errors]") {
  merklize::merkleizer m(test::test_device());
  const auto leaves = test::random_bytes(64);
  const auto before = leaves;
  // The size is checked before anything is read, so the claimed size is never touched.
  const std::uint64_t huge = std::uint64_t(1) << 55;
  CHECK_THROWS_WITH(m.build(leaves.data(), huge),
                    Contains("tree too large") && Contains(std::to_string(huge)));
  CHECK(leaves == before);
}

TEST_CASE("a failed kernel build carries the call, the error name and the log", "[errors]") {
  merklize::merkleizer m(test::test_device());
  try {
    merklize::detail::build_program(m.context(), m.device(),
                                    "__kernel void broken(__global int *p) { p[0] = oops; }", "");
    FAIL("the broken kernel built");
  } catch (const merklize::build_error &e) {
    CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK_THAT(e.what(), Contains("clBuildProgram") && Contains("CL_BUILD_PROGRAM_FAILURE"));
    CHECK_THAT(e.log(), Contains("oops"));
  }
}

TEST_CASE("OpenCL errors carry their name and the call", "[errors]") {
  const merklize::opencl_error e(CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer");
  CHECK_THAT(e.what(), Contains("clCreateBuffer") && Contains("CL_MEM_OBJECT_ALLOCATION_FAILURE"));
}

TEST_CASE("bad names and hex are errors", "[errors]") {
  CHECK_THROWS_WITH(merklize::parse_hash_kind("md5"), Contains("unknown hash \"md5\""));
  CHECK_THROWS_WITH(merklize::parse_shape("left"), Contains("unknown shape \"left\""));
  CHECK_THROWS_WITH(merklize::digest_from_hex("abc"), Contains("odd number"));
  CHECK_THROWS_WITH(merklize::digest_from_hex("zz"), Contains("not a hex digit"));
}

TEST_CASE("tree accessors refuse out-of-range levels and nodes", "[errors]") {
  const auto leaves = test::random_bytes(5 * 32);
  const auto t = merklize::reference_tree(leaves.data(), leaves.size(), {});
  CHECK(t.depth() == 3);
  CHECK_THROWS_WITH(t.node(4, 0), Contains("level 4 out of range"));
  CHECK_THROWS_WITH(t.node(1, 3), Contains("node 3 out of range"));
}
