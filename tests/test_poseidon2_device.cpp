// SPDX-License-Identifier: Apache-2.0 OR MIT
// The Poseidon2 kernels (kernels/poseidon2_31.cl, kernels/poseidon2_goldilocks.cl) on the test
// device: each permutation against the known answers copied from Plonky3
// (tests/vectors/commitments/poseidon2/) and against the host reference (core/poseidon2.hpp) on
// states that reach the reductions' corners (0, 1, p - 1, limbs of p or more), outputs poisoned
// past the states asked for.
#include "helpers.hpp"

#include <merklize/core/poseidon2.hpp>
#include <merklize/runtime/kernels.hpp>
#include <merklize/runtime/runtime.hpp>

#include <catch2/catch.hpp>

#include <cstring>

namespace p2 = merklize::poseidon2;

namespace {

struct case_row {
  const char *field;
  const char *file;
  const p2::instance &instance;
};

const case_row cases[] = {
    {"babybear", "babybear_w16.json", p2::babybear_16},
    {"babybear", "babybear_w24.json", p2::babybear_24},
    {"koalabear", "koalabear_w16.json", p2::koalabear_16},
    {"koalabear", "koalabear_w24.json", p2::koalabear_24},
    {"goldilocks", "goldilocks_w8.json", p2::goldilocks_8},
    {"goldilocks", "goldilocks_w12.json", p2::goldilocks_12},
};

std::vector<std::uint64_t> numbers(const json::value &list) {
  std::vector<std::uint64_t> out;
  for (const json::value &v : list.items)
    out.push_back(std::stoull(v.str));
  return out;
}

// The states: the known answer's input first, then states of corner and random elements; the
// 31-bit fields' limbs may be any u32 and Goldilocks' any u64 (the kernels take them mod p).
std::vector<std::uint64_t> test_states(const case_row &c, const std::vector<std::uint64_t> &kat,
                                       std::size_t count) {
  const std::uint64_t p = c.instance.prime, w = c.instance.width;
  const std::uint64_t limb_max = p >> 32 ? ~0ull : 0xffffffffull;
  const std::uint64_t corners[] = {0, 1, 2, p - 1, p - 2, p, limb_max};
  std::vector<std::uint64_t> states(kat);
  const auto noise = test::random_bytes(count * w * 8);
  for (std::size_t s = 1; s < count; ++s)
    for (std::size_t i = 0; i < w; ++i) {
      std::uint64_t r;
      std::memcpy(&r, noise.data() + 8 * (s * w + i), 8);
      states.push_back(s % 3 == 1 ? corners[(s + i) % 7] : r & limb_max);
    }
  return states;
}

std::vector<std::uint8_t> as_limbs(const std::vector<std::uint64_t> &v, unsigned limb_bytes) {
  std::vector<std::uint8_t> out(v.size() * limb_bytes);
  for (std::size_t i = 0; i < v.size(); ++i)
    std::memcpy(&out[i * limb_bytes], &v[i], limb_bytes);
  return out;
}

} // namespace

TEST_CASE("poseidon2 kernels: every permutation against its known answer and the host",
          "[poseidon2][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  for (const case_row &c : cases) {
    const unsigned w = c.instance.width, limb = c.instance.prime >> 32 ? 8 : 4;
    const json::value v = json::parse_file(test::vector_path(std::string("commitments/poseidon2/") +
                                                             c.file))["vectors"]
                              .items.at(0);
    const cl::Program program = merklize::detail::tuned_program(
        context, device, merklize::detail::poseidon2_program(c.field, w));
    cl::Kernel kernel(program, limb == 8 ? "poseidon2_goldilocks_permute" : "poseidon2_31_permute");
    for (const cl_uint rounds : {1u, 2u})
      for (const std::size_t count : {1u, 2u, 3u, 33u}) {
        INFO(c.file << " rounds " << rounds << " states " << count);
        const std::vector<std::uint64_t> states = test_states(c, numbers(v["input"]), count);
        const std::vector<std::uint8_t> in = as_limbs(states, limb);
        const std::size_t bytes = in.size(), extra = 3 * w * limb; // poisoned states past count
        const cl::Buffer buffer = test::poisoned_buffer(context, queue, bytes + extra);
        queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, in.data());
        kernel.setArg(0, buffer);
        kernel.setArg(1, cl_ulong(count));
        kernel.setArg(2, rounds);
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(count + 3)); // 3 idle items
        const std::vector<std::uint8_t> got = test::read_buffer(queue, buffer, bytes + extra);
        std::vector<std::uint64_t> want;
        for (std::size_t s = 0; s < count; ++s) {
          p2::state x{};
          for (unsigned i = 0; i < w; ++i)
            x[i] = states[s * w + i] % c.instance.prime;
          for (cl_uint r = 0; r < rounds; ++r)
            p2::permute(x, c.instance);
          want.insert(want.end(), x.begin(), x.begin() + w);
        }
        if (rounds == 1)
          REQUIRE(std::vector<std::uint64_t>(want.begin(), want.begin() + w) ==
                  numbers(v["output"]));
        const std::vector<std::uint8_t> want_bytes = as_limbs(want, limb);
        CHECK(std::equal(want_bytes.begin(), want_bytes.end(), got.begin()));
        CHECK(std::all_of(got.begin() + bytes, got.end(),
                          [](std::uint8_t b) { return b == test::poison_byte; }));
      }
  }
}
