// SPDX-License-Identifier: Apache-2.0 OR MIT
// The official BLAKE3 vectors: every mode on the host BLAKE3, and the 64-byte case through the
// device's node hash.
#include "helpers.hpp"

#include <catch2/catch.hpp>

namespace {

std::string extended(merklize::blake3::hasher h, const std::vector<std::uint8_t> &input,
                     std::size_t out_bytes) {
  h.update(input.data(), input.size());
  std::vector<std::uint8_t> out(out_bytes);
  h.finalize(out.data(), out.size());
  return merklize::to_hex(out.data(), out.size());
}

} // namespace

TEST_CASE("host BLAKE3 matches every official vector", "[blake3][host]") {
  const auto &v = test::official_vectors();
  const std::string key = v["key"].str;
  const std::string context = v["context_string"].str;
  REQUIRE(v["cases"].items.size() == 35);
  for (const auto &c : v["cases"].items) {
    const auto input = test::official_input(c["input_len"].u64());
    INFO("input_len " << input.size());
    const std::string hash = c["hash"].str, keyed = c["keyed_hash"].str,
                      derived = c["derive_key"].str;
    using merklize::blake3::hasher;
    CHECK(extended(hasher(), input, hash.size() / 2) == hash);
    CHECK(extended(hasher::keyed(reinterpret_cast<const std::uint8_t *>(key.data())), input,
                   keyed.size() / 2) == keyed);
    CHECK(extended(hasher::derive_key(context), input, derived.size() / 2) == derived);
    // The one-shot functions give the first 32 bytes of the extended output.
    CHECK(merklize::to_hex(merklize::blake3::hash(input.data(), input.size())) ==
          hash.substr(0, 64));
    CHECK(merklize::to_hex(merklize::blake3::keyed_hash(
              reinterpret_cast<const std::uint8_t *>(key.data()), input.data(), input.size())) ==
          keyed.substr(0, 64));
    CHECK(merklize::to_hex(merklize::blake3::derive_key(context, input.data(), input.size())) ==
          derived.substr(0, 64));
  }
}

TEST_CASE("host BLAKE3 gives the same digest however the input is split", "[blake3][host]") {
  const auto input = test::official_input(5000);
  const auto whole = merklize::blake3::hash(input.data(), input.size());
  for (std::size_t step : {1, 63, 64, 65, 1023, 1024, 1025}) {
    merklize::blake3::hasher h;
    for (std::size_t at = 0; at < input.size(); at += step)
      h.update(input.data() + at, std::min(step, input.size() - at));
    CHECK(h.finalize() == whole);
  }
}

TEST_CASE("device node hash matches the official 64-byte vector", "[blake3][device]") {
  const auto input = test::official_input(64);
  std::string expected;
  for (const auto &c : test::official_vectors()["cases"].items)
    if (c["input_len"].u64() == 64) expected = c["hash"].str.substr(0, 64);
  REQUIRE(expected.size() == 64);

  merklize::merkleizer m(test::test_device());
  cl::Buffer leaves(m.context(), CL_MEM_READ_WRITE, 64);
  m.queue().enqueueWriteBuffer(leaves, CL_TRUE, 0, 64, input.data());
  cl::Buffer nodes = test::poisoned_buffer(m.context(), m.queue(), 32);
  m.enqueue_build(leaves, 2, nodes).back().wait();
  const auto root = test::read_buffer(m.queue(), nodes, 32);
  CHECK(merklize::to_hex(root.data(), root.size()) == expected);
  // and through the host API
  CHECK(merklize::to_hex(m.build(input).root()) == expected);
}
