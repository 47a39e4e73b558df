// SPDX-License-Identifier: Apache-2.0 OR MIT
// The BN254 Poseidon2 kernel (kernels/poseidon2_bn254.cl) on the test device: poseidon2_permute
// against the known answer copied from HorizenLabs/poseidon2
// (tests/vectors/commitments/poseidon2/bn254_w3.json) and against the host reference
// (core/poseidon2_bn254.hpp) on states that reach the Montgomery arithmetic's corners (0, 1,
// p - 1, p, 2^256 - 1: values of p or more are taken mod p) and random ones, outputs poisoned past
// the states asked for. The trees over its node are in tests/test_poseidon2_tree.cpp.
#include "bn254_decimal.hpp"
#include "helpers.hpp"

#include <merklize/core/poseidon2_bn254.hpp>
#include <merklize/runtime/kernels.hpp>
#include <merklize/runtime/runtime.hpp>

#include <catch2/catch.hpp>

#include <cstring>

namespace bn = merklize::poseidon2::bn254;

namespace {

// count states of 3 elements: the known answer's input first, then corners and random values.
std::vector<bn::limbs> test_states(const json::value &input, std::size_t count) {
  const bn::limbs p = bn::prime;
  bn::limbs p1 = p;
  p1[0] -= 1; // p's low limb is odd
  const bn::limbs corners[] = {{0, 0, 0, 0}, {1, 0, 0, 0}, p1, p, {~0ull, ~0ull, ~0ull, ~0ull}};
  std::vector<bn::limbs> states;
  for (const json::value &v : input.items)
    states.push_back(test::bn254_from_decimal(v.str));
  const auto noise = test::random_bytes(count * 3 * 32);
  for (std::size_t s = 1; s < count; ++s)
    for (std::size_t i = 0; i < 3; ++i) {
      bn::limbs r;
      std::memcpy(r.data(), noise.data() + 32 * (3 * s + i), 32);
      states.push_back(s % 3 == 1 ? corners[(s + i) % 5] : r);
    }
  return states;
}

std::vector<std::uint8_t> as_bytes(const std::vector<bn::limbs> &v) {
  std::vector<std::uint8_t> out;
  for (const bn::limbs &e : v) {
    const merklize::digest d = bn::digest_of(e);
    out.insert(out.end(), d.begin(), d.end());
  }
  return out;
}

} // namespace

TEST_CASE("poseidon2 bn254 kernel: the permutation against its known answer and the host",
          "[poseidon2][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  const json::value v =
      json::parse_file(test::vector_path("commitments/poseidon2/bn254_w3.json"))["vectors"]
          .items.at(0);
  const cl::Program program = merklize::detail::tuned_program(
      context, device, merklize::detail::poseidon2_program("bn254", 3));
  cl::Kernel kernel(program, "poseidon2_permute");
  for (const cl_uint rounds : {1u, 2u})
    for (const std::size_t count : {1u, 2u, 3u, 33u}) {
      INFO("rounds " << rounds << " states " << count);
      const std::vector<bn::limbs> states = test_states(v["input"], count);
      const std::vector<std::uint8_t> in = as_bytes(states);
      const std::size_t bytes = in.size(), extra = 3 * 96; // poisoned states past count
      const cl::Buffer buffer = test::poisoned_buffer(context, queue, bytes + extra);
      queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, in.data());
      kernel.setArg(0, buffer);
      kernel.setArg(1, cl_ulong(count));
      kernel.setArg(2, rounds);
      queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(count + 3)); // 3 idle items
      const std::vector<std::uint8_t> got = test::read_buffer(queue, buffer, bytes + extra);
      std::vector<bn::limbs> want;
      for (std::size_t s = 0; s < count; ++s) {
        bn::state x{states[3 * s], states[3 * s + 1], states[3 * s + 2]};
        for (cl_uint r = 0; r < rounds; ++r)
          bn::permute(x);
        want.insert(want.end(), x.begin(), x.end());
      }
      if (rounds == 1) {
        std::vector<bn::limbs> known;
        for (const json::value &o : v["output"].items)
          known.push_back(test::bn254_from_decimal(o.str));
        REQUIRE(std::vector<bn::limbs>(want.begin(), want.begin() + 3) == known);
      }
      const std::vector<std::uint8_t> want_bytes = as_bytes(want);
      CHECK(std::equal(want_bytes.begin(), want_bytes.end(), got.begin()));
      CHECK(std::all_of(got.begin() + bytes, got.end(),
                        [](std::uint8_t b) { return b == test::poison_byte; }));
    }
}
