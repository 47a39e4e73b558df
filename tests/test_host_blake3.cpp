// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine's full BLAKE3 (host_blake3.hpp) and Bao outboards (host_bao.hpp): chunks in
// every ISA's lanes against the portable compression; BLAKE3 of inputs in its three modes and at
// extended lengths against the official vectors and the portable hasher, at awkward sizes (0, 1,
// a chunk and either side, 2^k chunks and either side, a piece of 1 MiB and either side, several
// pieces), from files (read at offsets past 1 MiB) and pipes written in awkward pieces; against
// b3sum; outboards against formats/bao.hpp's host reference and tests/bao_model.py.
#include "format_oracles.hpp"
#include "json.hpp"
#include "pipe_input.hpp"

#include <merklize/engine/host_bao.hpp>
#include <merklize/engine/host_blake3.hpp>

#include <catch2/catch.hpp>

namespace {

namespace b3 = merklize::blake3;
using merklize::detail::blake3_isa;

constexpr std::uint64_t chunk = 1024, piece = std::uint64_t(1) << 20;

std::vector<std::uint64_t> input_sizes() {
  std::vector<std::uint64_t> sizes{0, 1, 63, 64, 65, chunk - 1, chunk, chunk + 1, 2 * chunk};
  for (const std::uint64_t chunks : {3, 16, 17, 31, 32, 33})
    for (const std::int64_t delta : {-1, 0, 1})
      sizes.push_back(chunks * chunk + delta);
  for (const std::uint64_t base : {piece, 2 * piece, 3 * piece + 5 * chunk})
    for (const std::int64_t delta : {-1, 0, 1})
      sizes.push_back(base + delta);
  return sizes;
}

std::vector<std::uint8_t> output_of(merklize::input &in, const merklize::blake3_mode &mode,
                                    std::uint64_t length, unsigned threads) {
  std::vector<std::uint8_t> out;
  merklize::host_blake3(
      in, mode,
      [&](const std::uint8_t *bytes, std::size_t size) {
        out.insert(out.end(), bytes, bytes + size);
      },
      length, threads);
  return out;
}

std::vector<std::uint8_t> portable_output(b3::hasher h, const std::vector<std::uint8_t> &data,
                                          std::size_t length) {
  h.update(data.data(), data.size());
  std::vector<std::uint8_t> out(length);
  h.finalize(out.data(), out.size());
  return out;
}

} // namespace

TEST_CASE("host BLAKE3 chunks in lanes: the portable chaining values", "[host][blake3]") {
  const std::uint32_t *key = b3::iv;
  for (const blake3_isa isa : {blake3_isa::portable, blake3_isa::avx2, blake3_isa::avx512}) {
    if (!merklize::detail::cpu_has_blake3_isa(isa)) {
      WARN("this CPU does not run the " << merklize::detail::to_string(isa) << " code");
      continue;
    }
    for (const std::uint64_t chunks : {1, 7, 8, 9, 15, 16, 17, 33}) {
      const auto data = test::random_bytes(chunks * chunk);
      const std::uint64_t counter = (std::uint64_t(1) << 32) - 3; // the high word changes inside
      std::vector<std::uint8_t> got(chunks * 32, 0xAA), want(chunks * 32);
      merklize::detail::blake3_chunks_of(isa)(data.data(), chunks, key, counter,
                                              b3::keyed_hash_mode, got.data());
      merklize::detail::portable_blake3_chunks(data.data(), chunks, key, counter,
                                               b3::keyed_hash_mode, want.data());
      INFO(merklize::detail::to_string(isa) << ", " << chunks << " chunks");
      CHECK(got == want);
    }
  }
}

TEST_CASE("host BLAKE3 of inputs: the official vectors in all three modes", "[host][blake3]") {
  const json::value vectors = json::parse_file(test::vector_path("blake3_official.json"));
  const std::string key = vectors["key"].str;
  const std::string context = vectors["context_string"].str;
  const merklize::blake3_mode modes[] = {
      merklize::blake3_mode::hash(),
      merklize::blake3_mode::keyed(reinterpret_cast<const std::uint8_t *>(key.data())),
      merklize::blake3_mode::derive_key(context)};
  const char *names[] = {"hash", "keyed_hash", "derive_key"};
  for (const auto &c : vectors["cases"].items) {
    std::vector<std::uint8_t> data(static_cast<std::size_t>(c["input_len"].u64()));
    for (std::size_t i = 0; i < data.size(); ++i)
      data[i] = static_cast<std::uint8_t>(i % 251);
    const auto path = test::write_file("official.bin", data);
    for (int m = 0; m < 3; ++m) {
      const std::string want = c[names[m]].str;
      merklize::input in(path.string());
      INFO(data.size() << " bytes, " << names[m]);
      const auto got = output_of(in, modes[m], want.size() / 2, 2);
      CHECK(merklize::to_hex(got.data(), got.size()) == want);
    }
  }
}

TEST_CASE("host BLAKE3 of inputs: the portable hasher's at awkward sizes, files and pipes",
          "[host][blake3]") {
  for (const std::uint64_t size : input_sizes()) {
    INFO(size << " bytes");
    const auto data = test::random_bytes(size);
    const auto want = portable_output(b3::hasher(), data, 32);
    merklize::input file(test::write_file("b3.bin", data).string());
    CHECK(output_of(file, merklize::blake3_mode::hash(), 32, 3) == want);
    test::pipe_input pipe(data, true);
    CHECK(output_of(pipe.get(), merklize::blake3_mode::hash(), 32, 2) == want);
  }
  // An output longer than one piece of output, keyed.
  const auto data = test::random_bytes(3 * chunk + 1);
  const auto key = test::random_bytes(32);
  merklize::input in(test::write_file("b3.bin", data).string());
  CHECK(output_of(in, merklize::blake3_mode::keyed(key.data()), 200001, 2) ==
        portable_output(b3::hasher::keyed(key.data()), data, 200001));
}

TEST_CASE("host BLAKE3 of inputs is b3sum's", "[host][blake3]") {
  if (!test::have_tool("/usr/bin/b3sum", "b3sum")) return;
  for (const std::uint64_t size : {std::uint64_t(0), chunk + 1, 3 * piece + 7}) {
    const auto path = test::write_file("b3sum.bin", test::random_bytes(size));
    merklize::input in(path.string());
    const auto run = test::run_program({"/usr/bin/b3sum", "--no-names", path.string()});
    REQUIRE(run.status == 0);
    CHECK(merklize::to_hex(merklize::host_blake3(in, 2)) + "\n" == run.out);
  }
}

TEST_CASE("host Bao outboards: the host reference's and the model's", "[host][blake3][bao]") {
  const bool model = test::have_python();
  for (const std::uint64_t size : input_sizes()) {
    INFO(size << " bytes");
    const auto data = test::random_bytes(size);
    const auto want = merklize::bao_outboard_of(data.data(), data.size());
    const auto path = test::write_file("bao.bin", data);
    merklize::input file(path.string());
    const auto got = merklize::host_bao_outboard(file, 3);
    CHECK(got.root == want.root);
    CHECK(got.bytes == want.bytes);
    test::pipe_input pipe(data, true);
    const auto streamed = merklize::host_bao_outboard(pipe.get(), 2);
    CHECK(streamed.bytes == want.bytes);
    if (!model || (size > 4 * chunk && size != 3 * piece + 5 * chunk)) continue;
    const auto real = test::run_bao_model(path);
    CHECK(merklize::to_hex(got.root) == real.root);
    CHECK(test::as_text(got.bytes) == real.outboard);
  }
}
