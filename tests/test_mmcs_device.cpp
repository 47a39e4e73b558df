// SPDX-License-Identifier: Apache-2.0 OR MIT
// Plonky3's MMCS on the test device (engine/mmcs.hpp) against the host reference (core/mmcs.hpp,
// itself checked against tests/mmcs_model.py by test_mmcs_host.cpp): every digest layer and the
// cap, for BabyBear, KoalaBear and Goldilocks, on awkward shapes (one row, widths 0, 1, 7, 8, 9,
// 24, 25, several matrices sharing a height, heights that are not powers of two) and cap heights
// 0, 1, 2, 5, from host memory (in pieces as small as a row) and from device buffers; the MMCS
// kernels alone with their outputs poisoned around what they write; and the refusals: shapes
// before the device is used, elements once it has read them, in the host check's words.
#include "helpers.hpp"

#include <merklize/engine/mmcs.hpp>

#include "mmcs_helpers.hpp"

#include <catch2/catch.hpp>

#include <random>

namespace mmcs = merklize::mmcs;
namespace p2 = merklize::poseidon2;
using Catch::Matchers::Contains;
using test::owned_matrix;
using test::random_matrix;
using test::views;

namespace {

const p2::instance *const instances[] = {&p2::babybear_16, &p2::koalabear_16, &p2::goldilocks_8};

} // namespace

TEST_CASE("the device MMCS equals the host reference, layer by layer", "[mmcs][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  std::mt19937_64 rng(36);
  for (const p2::instance *in : instances)
    for (const auto &shape : test::mmcs_shapes)
      for (const unsigned cap_height : {0u, 1u, 2u, 5u}) {
        std::vector<owned_matrix> ms;
        std::ostringstream what;
        for (const auto &[h, w] : shape) {
          ms.push_back(random_matrix(h, w, *in, rng));
          what << h << 'x' << w << ' ';
        }
        INFO(in->name << " matrices " << what.str() << "cap height " << cap_height);
        const mmcs::tree host(views(ms), *in, cap_height);
        const mmcs::device_commitment got =
            mmcs::commit_on(queue, views(ms), *in, cap_height, true);
        CHECK(got.cap == host.cap());
        CHECK(got.layers == host.layers());
        const unsigned cap_at = mmcs::cap_layer(host.tallest(), cap_height);
        const mmcs::device_commitment kept =
            mmcs::commit_on(queue, views(ms), *in, cap_height, true, cap_at);
        CHECK(kept.dropped == cap_at);
        CHECK(kept.layers == std::vector<std::vector<merklize::digest>>(
                                 host.layers().begin() + cap_at, host.layers().end()));
        CHECK_THROWS_WITH(mmcs::commit_on(queue, views(ms), *in, cap_height, true, cap_at + 1),
                          Contains("a commitment keeps its cap's layer"));
        CHECK(mmcs::commit_on(queue, views(ms), *in, cap_height).layers.empty());
      }
}

TEST_CASE("the MMCS kernels write what they are asked and nothing past it", "[mmcs][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  const p2::instance &in = p2::babybear_16;
  const cl::Program program = merklize::detail::tuned_program(
      context, device, merklize::detail::poseidon2_program("babybear", 16));
  std::mt19937_64 rng(37);
  for (const std::uint64_t count : {1u, 2u, 3u, 31u}) {
    INFO("count " << count);
    const owned_matrix below = random_matrix(2 * count, 8, in, rng); // 2 count digests
    const owned_matrix rows = random_matrix(count, 11, in, rng);
    const cl::Buffer below_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  below.bytes.size(),
                                  const_cast<std::uint8_t *>(below.bytes.data()));
    const cl::Buffer rows_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 rows.bytes.size(), const_cast<std::uint8_t *>(rows.bytes.data()));
    const std::size_t out_bytes = (count + 2) * 32; // poisoned past the last digest
    const cl::Buffer states(context, CL_MEM_READ_WRITE, count * 16 * 4);
    queue.enqueueFillBuffer(states, cl_uchar(0), 0, count * 16 * 4);
    const cl::Buffer refused = test::poisoned_buffer(context, queue, 4);
    cl::Kernel absorb(program, "poseidon2_absorb"), squeeze(program, "poseidon2_squeeze");
    merklize::detail::set_args(absorb, rows_buffer, cl_ulong(count), cl_ulong(11), states,
                               cl_ulong(0), cl_uint(0), refused);
    queue.enqueueNDRangeKernel(absorb, cl::NullRange, cl::NDRange(count + 3));
    CHECK(test::read_buffer(queue, refused, 4) == std::vector<std::uint8_t>(4, test::poison_byte));
    const cl::Buffer sponged = test::poisoned_buffer(context, queue, out_bytes);
    merklize::detail::set_args(squeeze, states, cl_ulong(count), cl_uint(11 % 8), sponged);
    queue.enqueueNDRangeKernel(squeeze, cl::NullRange, cl::NDRange(count + 3));
    const cl::Buffer up = test::poisoned_buffer(context, queue, out_bytes);
    cl::Kernel layer(program, "poseidon2_mmcs_layer");
    merklize::detail::set_args(layer, below_buffer, cl_ulong(count), sponged, cl_uint(1), up);
    queue.enqueueNDRangeKernel(layer, cl::NullRange, cl::NDRange(count + 3));
    const auto got_sponged = test::read_buffer(queue, sponged, out_bytes);
    const auto got_up = test::read_buffer(queue, up, out_bytes);
    const auto digest_at = [](const std::vector<std::uint8_t> &bytes, std::size_t i) {
      merklize::digest d;
      std::copy(bytes.begin() + 32 * i, bytes.begin() + 32 * (i + 1), d.begin());
      return d;
    };
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<std::vector<std::uint64_t>> row(1);
      for (std::size_t c = 0; c < 11; ++c)
        row[0].push_back(mmcs::element(rows.bytes.data(), i * 11 + c, in));
      const merklize::digest leaf = mmcs::hash_rows(row, in);
      CHECK(digest_at(got_sponged, i) == leaf);
      const merklize::digest node =
          p2::compress(digest_at(below.bytes, 2 * i), digest_at(below.bytes, 2 * i + 1), in);
      CHECK(digest_at(got_up, i) == p2::compress(node, leaf, in));
    }
    const auto poisoned = [](std::uint8_t b) { return b == test::poison_byte; };
    CHECK(std::all_of(got_sponged.begin() + 32 * count, got_sponged.end(), poisoned));
    CHECK(std::all_of(got_up.begin() + 32 * count, got_up.end(), poisoned));
  }
}

TEST_CASE("the device MMCS reads host matrices in pieces and device matrices in place",
          "[mmcs][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  std::mt19937_64 rng(39);
  for (const p2::instance *in : instances)
    for (const auto &shape : test::mmcs_shapes) {
      std::vector<owned_matrix> ms;
      std::vector<mmcs::device_matrix> on_device;
      std::vector<mmcs::detail::matrix_source> sources;
      for (const auto &[h, w] : shape) {
        ms.push_back(random_matrix(h, w, *in, rng));
        std::vector<std::uint8_t> &bytes = ms.back().bytes;
        const cl::Buffer b(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           std::max<std::size_t>(bytes.size(), 1), bytes.data());
        on_device.push_back({b, h, w});
        sources.push_back({bytes.data(), cl::Buffer(), h, w});
      }
      const mmcs::tree host(views(ms), *in, 1);
      INFO(in->name << ", " << shape.size() << " matrices, the first " << shape[0].first << "x"
                    << shape[0].second);
      CHECK(mmcs::commit_on(queue, on_device, *in, 1, true).layers == host.layers());
      // Pieces of one byte hold one row each; of 3 rows' bytes, the last piece is short.
      for (const std::uint64_t piece : {1u, 100u})
        CHECK(mmcs::detail::commit_sources(queue, sources, *in, 1, true, 0, piece).layers ==
              host.layers());
    }
}

TEST_CASE("the device MMCS refuses a device matrix's element as the host check names it",
          "[mmcs][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  std::mt19937_64 rng(40);
  const p2::instance &in = p2::babybear_16;
  owned_matrix m = random_matrix(9, 5, in, rng);
  m.bytes[4 * 43 + 3] = 0x78; // element 43 (row 8, column 3) to 0x78...: p = 0x78000001
  const std::vector<std::uint8_t> before = m.bytes;
  const cl::Buffer b(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m.bytes.size(),
                     m.bytes.data());
  const std::vector<mmcs::device_matrix> ms{{b, 9, 5}};
  CHECK_THROWS_WITH(mmcs::commit_on(queue, ms, in, 0),
                    Contains("matrix 0, row 8, column 3: ") &&
                        Contains("is not a canonical BabyBear element"));
  CHECK(test::read_buffer(queue, b, m.bytes.size()) == before);
  const std::vector<mmcs::device_matrix> short_buffer{{b, 10, 5}};
  CHECK_THROWS_WITH(mmcs::commit_on(queue, short_buffer, in, 0),
                    Contains("matrix 0: its buffer holds 180 bytes, not the 200"));
}

TEST_CASE("the device MMCS refuses what the host reference refuses", "[mmcs][device]") {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  std::mt19937_64 rng(38);
  const p2::instance &in = p2::goldilocks_8;
  std::vector<owned_matrix> ms{random_matrix(8, 3, in, rng), random_matrix(7, 3, in, rng)};
  CHECK_THROWS_WITH(mmcs::commit_on(queue, views(ms), in, 0), Contains("matrix 1 has height 7"));
  ms[1] = random_matrix(4, 3, in, rng);
  for (int b = 0; b < 8; ++b)
    ms[1].bytes[8 * 5 + b] = 0xff; // element 5: row 1, column 2
  CHECK_THROWS_WITH(mmcs::commit_on(queue, views(ms), in, 0),
                    Contains("matrix 1, row 1, column 2: 18446744073709551615 is not a canonical "
                             "Goldilocks element"));
}
