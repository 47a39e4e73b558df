// SPDX-License-Identifier: Apache-2.0 OR MIT
// The Poseidon2 kernels (kernels/poseidon2_31.cl, kernels/poseidon2_goldilocks.cl) on the test
// device: each permutation against the known answers copied from Plonky3
// (tests/vectors/commitments/poseidon2/) and against the host reference (core/poseidon2.hpp) on
// states that reach the reductions' corners (0, 1, p - 1, limbs of p or more), outputs poisoned
// past the states asked for; and the row kernels (Plonky3's padding-free sponge, a row of field
// elements into a leaf) against the host's sponge and the answers of the Python model
// (tests/poseidon2_model.py --sponge-answers), at widths around the rate, outputs poisoned.
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
    cl::Kernel kernel(program, "poseidon2_permute");
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

namespace {

// COMPUTED by tests/poseidon2_model.py --sponge-answers (an independent model of Plonky3's
// PaddingFreeSponge, symmetric/src/sponge.rs): {file, width, row, leaf} for the rows of
// sponge_row.
struct sponge_answer {
  const char *file;
  std::uint64_t width, row;
  const char *leaf;
};
const sponge_answer sponge_answers[] = {
    {"babybear_w16.json", 1, 0, "72f44b52a5f1775db82b564515deda75ad1da607c91da42df9489f39da79c915"},
    {"babybear_w16.json", 1, 1, "ff78f5122b69d01327984221c82f723cd23b1220a7baa34b2af26c0dfc0f7e45"},
    {"babybear_w16.json", 7, 0, "c558e52869624f51758c7e2c30f46d39f6f16a1c78a2d63da6ecb3544f409130"},
    {"babybear_w16.json", 7, 1, "864e6643c96d3d6fc1f54c08717eae49e6149568fee8db5a3d093a0c3f5e361d"},
    {"babybear_w16.json", 8, 0, "68043b1601f79916fd92bc2872cc854eecb5b33c84e27958958aea769737fa5d"},
    {"babybear_w16.json", 8, 1, "bd752f3beb4b2e4f2dfa7d1ae721d942f1cd8b1aa251e862e588c836ccff083d"},
    {"babybear_w16.json", 9, 0, "30acb356617b0975218584274d40aa63853b695b551e84073a527d088558e01d"},
    {"babybear_w16.json", 9, 1, "f7472677b910af5c38f1241441a48877fdb80843d5d13f2e9d299406cf30d83c"},
    {"babybear_w16.json", 24, 0,
     "c72542305f089854e8d1a14adbb3cd071883aa6af50ec50cd7f55a6a3540f350"},
    {"babybear_w16.json", 24, 1,
     "6c957e078e51121a45dd1a687f8c0100d6698f30bf808b5dc1bc051352ec226d"},
    {"babybear_w16.json", 25, 0,
     "b779c50ffc534972586ded06ce79f7204aa7fd74d7b26b068b090d3b33f3e229"},
    {"babybear_w16.json", 25, 1,
     "240c0d76e24e9865d483f366e5db585410bd8f0a5b6caa084f0cb4588f839e11"},
    {"koalabear_w16.json", 1, 0,
     "21c45b475b404e3fa0efd70adc738111c4032b0287bc2736dbda9f66c0883113"},
    {"koalabear_w16.json", 1, 1,
     "4a099a6845afba1325f8556a42f06d6511bac14adeade31ae3501d047155b021"},
    {"koalabear_w16.json", 7, 0,
     "576d4d4ee73f32661464817dccc7e956e666e90637a2dd5cf6c2b56a5eeff257"},
    {"koalabear_w16.json", 7, 1,
     "81aa3f60d0b7373db4795e6adb65c74539a2a828f79d6e7b5b2d437852227763"},
    {"koalabear_w16.json", 8, 0,
     "ba6ca445bb876655b242cc558d77ce56743af10dbe6e082f77c251504d1eb41f"},
    {"koalabear_w16.json", 8, 1,
     "22161e44ab5aaa4ea7b0d06aa3434e15b530d967c36e5059239c9b7e06299a12"},
    {"koalabear_w16.json", 9, 0,
     "7f937d4017213050255c8308a318db1126c827192d471b2fa2aa922ade256d29"},
    {"koalabear_w16.json", 9, 1,
     "55dd932090ef12047659227691caf17d3b96d371da01c322f25b3f33c558c453"},
    {"koalabear_w16.json", 24, 0,
     "a2fe097ea9963d799fd5f02534bee36b49af58363e28cf38fd5f1b371d31b446"},
    {"koalabear_w16.json", 24, 1,
     "e395854534cda36f100561093c56dd71a2474a221cfffc6149b9a95c130e8811"},
    {"koalabear_w16.json", 25, 0,
     "a5b9d72233533d405e15f453ab8c037bcffc4544867f042e368053629cb4c739"},
    {"koalabear_w16.json", 25, 1,
     "588f4526a6a53358d388d90a8c385f49ecc90a41e035b80ca7dfb66cf3592031"},
    {"goldilocks_w8.json", 1, 0,
     "c1b8b509b6b041e1563e97187ed477bc89bec6dbace855ab01bc98cbb816905d"},
    {"goldilocks_w8.json", 1, 1,
     "414b2b1fffa668d4c259a21d626ed817545a7afc769dd8704ce0789d2e67c6f6"},
    {"goldilocks_w8.json", 7, 0,
     "12aa2eac0e005a1987d407a0b27d011543ff291787795a383f9927573c79a9a1"},
    {"goldilocks_w8.json", 7, 1,
     "c2c0c3d56e1485563914c4dda8cb9b2befecd179f25cf817e2b4493604a5494a"},
    {"goldilocks_w8.json", 8, 0,
     "bfbd9208d69d02ac7c31bc02170ca46f29e5e183dae08508a67bda5f2192c6ff"},
    {"goldilocks_w8.json", 8, 1,
     "85e536c15df2b8c5f4fc29fcf095b11cceadb0b5d056d2b52d22cf9518b1ffa1"},
    {"goldilocks_w8.json", 9, 0,
     "817d4a97a9f1a91549387a0af1a2ab8b48457fb996c49d2bdcefe6dd28387793"},
    {"goldilocks_w8.json", 9, 1,
     "bc4562b49b27b35edd255a98d9a826112b1d7046c14faa1f49d793c988426488"},
    {"goldilocks_w8.json", 24, 0,
     "87841fdec68b63794642e8c7c6217d4de28645ad8d46a1b2ed4fb25765d3429c"},
    {"goldilocks_w8.json", 24, 1,
     "75000a3b19f191f76cec60a304532b9ff28b60f8d04d1575dddeab662a874432"},
    {"goldilocks_w8.json", 25, 0,
     "2823ceb91444dbb4bddeaad63cbfc8b2074e3ef6ace836ff8598a78d09d831bd"},
    {"goldilocks_w8.json", 25, 1,
     "d6c9105994574f1614766823ca25658dec2c86f357677d1b113d373d5b6d3bd1"},
};

std::uint64_t sponge_row_element(const p2::instance &in, std::uint64_t r, std::uint64_t j) {
  return (r * 1000003 + j * 7919 + 1) % in.prime; // the model's sponge_row
}

} // namespace

TEST_CASE("poseidon2 row kernels: the padding-free sponge against the host and the model",
          "[poseidon2][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  for (const case_row &c : {cases[0], cases[2], cases[4]}) {
    const unsigned limb = p2::limb_bytes(c.instance);
    const cl::Program program = merklize::detail::tuned_program(
        context, device, merklize::detail::poseidon2_program(c.field, c.instance.width));
    cl::Kernel kernel(program, "poseidon2_rows");
    for (const std::uint64_t width : {1u, 7u, 8u, 9u, 24u, 25u})
      for (const std::uint64_t rows : {1u, 2u, 3u, 33u}) {
        INFO(c.file << " width " << width << " rows " << rows);
        std::vector<std::uint64_t> matrix;
        for (std::uint64_t r = 0; r < rows; ++r)
          for (std::uint64_t j = 0; j < width; ++j)
            matrix.push_back(r == 2 && j == 0 ? c.instance.prime + 3 // taken mod p, as the host
                                              : sponge_row_element(c.instance, r, j));
        const std::vector<std::uint8_t> in = as_limbs(matrix, limb);
        const cl::Buffer matrix_buffer(context, CL_MEM_READ_ONLY, in.size());
        queue.enqueueWriteBuffer(matrix_buffer, CL_TRUE, 0, in.size(), in.data());
        const std::size_t first = 2, out_bytes = (first + rows + 2) * 32; // poisoned both sides
        const cl::Buffer out = test::poisoned_buffer(context, queue, out_bytes);
        kernel.setArg(0, matrix_buffer);
        kernel.setArg(1, cl_ulong(rows));
        kernel.setArg(2, cl_ulong(width));
        kernel.setArg(3, out);
        kernel.setArg(4, cl_ulong(first));
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(rows + 5));
        const std::vector<std::uint8_t> got = test::read_buffer(queue, out, out_bytes);
        for (std::uint64_t r = 0; r < rows; ++r) {
          const merklize::digest want = p2::sponge(matrix.data() + r * width, width, c.instance);
          CHECK(std::equal(want.begin(), want.end(), got.begin() + 32 * (first + r)));
          for (const sponge_answer &a : sponge_answers)
            if (a.file == std::string(c.file) && a.width == width && a.row == r)
              CHECK(merklize::to_hex(want) == a.leaf);
        }
        const auto poisoned = [](std::uint8_t b) { return b == test::poison_byte; };
        CHECK(std::all_of(got.begin(), got.begin() + 32 * first, poisoned));
        CHECK(std::all_of(got.begin() + 32 * (first + rows), got.end(), poisoned));
      }
  }
  CHECK(p2::sponge(nullptr, 0, p2::babybear_16) == merklize::digest{}); // no permutation at all
}
