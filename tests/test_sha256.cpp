// SPDX-License-Identifier: Apache-2.0 OR MIT
// SHA-256 against OpenSSL: the host SHA-256 (FIPS 180-4 examples and random messages), the
// "sha256" node hash, and the layer primitive of layer.hpp on device buffers, on host memory
// through the device and on the host alone, at awkward block counts; then its errors.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <openssl/sha.h>

#include <functional>

using Catch::Matchers::Contains;

namespace {

merklize::digest openssl_sha256(const std::uint8_t *data, std::size_t size) {
  merklize::digest d;
  SHA256(data, size, d.data());
  return d;
}

// Every digest of a layer, by OpenSSL.
std::vector<std::uint8_t> openssl_layer(const std::vector<std::uint8_t> &blocks) {
  std::vector<std::uint8_t> digests(blocks.size() / 2);
  for (std::size_t i = 0; i < blocks.size() / 64; ++i)
    SHA256(blocks.data() + 64 * i, 64, digests.data() + 32 * i);
  return digests;
}

// 1, 2, 3, 13, 30, 2^k - 1, 2^k, 2^k + 1 (k = 2..16): 2^8 +- 1 straddles the layer kernel's
// work-group size of 256.
std::vector<std::uint64_t> layer_counts() {
  std::vector<std::uint64_t> counts{1, 2, 3, 13, 30};
  for (unsigned k = 2; k <= 16; ++k)
    for (std::uint64_t n : {(1ull << k) - 1, 1ull << k, (1ull << k) + 1})
      counts.push_back(n);
  return counts;
}

bool all_poison(const std::uint8_t *p, std::size_t size) {
  return std::all_of(p, p + size, [](std::uint8_t b) { return b == test::poison_byte; });
}

struct device_queue {
  cl::Context context{test::test_device()};
  cl::CommandQueue queue{context, test::test_device()};
};

} // namespace

TEST_CASE("host SHA-256 matches the FIPS 180-4 examples", "[sha256][host]") {
  const auto hex = [](const std::string &message) {
    return merklize::to_hex(merklize::sha256::hash(message.data(), message.size()));
  };
  CHECK(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("host SHA-256 matches OpenSSL on random messages of every length to 300",
          "[sha256][host]") {
  for (std::size_t length = 0; length <= 300; ++length) {
    INFO("length " << length);
    const auto message = test::random_bytes(length);
    CHECK(merklize::sha256::hash(message.data(), length) == openssl_sha256(message.data(), length));
    // The same message fed in uneven pieces.
    merklize::sha256::hasher h;
    for (std::size_t at = 0, step = 1; at < length; at += step, step = step * 2 + 1)
      h.update(message.data() + at, std::min(step, length - at));
    CHECK(h.finalize() == openssl_sha256(message.data(), length));
  }
}

TEST_CASE("the sha256 node hash is SHA-256(left || right)", "[sha256][host]") {
  const auto bytes = test::random_bytes(64);
  merklize::digest left, right;
  std::copy(bytes.begin(), bytes.begin() + 32, left.begin());
  std::copy(bytes.begin() + 32, bytes.end(), right.begin());
  CHECK(merklize::node_hash(merklize::hash_kind::sha256, left, right, false) ==
        openssl_sha256(bytes.data(), 64));
  CHECK(merklize::node_hash(merklize::hash_kind::sha256, left, right, true) ==
        openssl_sha256(bytes.data(), 64));
  CHECK(merklize::to_string(merklize::hash_kind::sha256) == std::string("sha256"));
  CHECK(merklize::parse_hash_kind("sha256") == merklize::hash_kind::sha256);
}

TEST_CASE("zero-subtree roots for sha256 are SSZ's zero hashes", "[sha256][host]") {
  const auto zeros = merklize::zero_subtree_roots(merklize::hash_kind::sha256, 40);
  std::uint8_t block[64] = {};
  for (unsigned k = 1; k <= 40; ++k) {
    const auto expected = openssl_sha256(block, 64);
    CHECK(zeros[k] == expected);
    std::copy(expected.begin(), expected.end(), block);
    std::copy(expected.begin(), expected.end(), block + 32);
  }
  CHECK(merklize::to_hex(zeros[1]) ==
        "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b");
}

TEST_CASE("layer on device buffers matches OpenSSL at awkward counts", "[sha256][layer]") {
  device_queue d;
  for (std::uint64_t count : layer_counts()) {
    INFO("count " << count);
    const auto blocks = test::random_bytes(count * 64);
    cl::Buffer in(d.context, CL_MEM_READ_ONLY, blocks.size());
    d.queue.enqueueWriteBuffer(in, CL_TRUE, 0, blocks.size(), blocks.data());
    // One digest more than asked: it must stay poisoned.
    const std::size_t out_bytes = (count + 1) * 32;
    cl::Buffer out = test::poisoned_buffer(d.context, d.queue, out_bytes);
    merklize::hash_layer(d.queue, out, in, count).wait();
    const auto digests = test::read_buffer(d.queue, out, out_bytes);
    REQUIRE(std::equal(digests.begin(), digests.end() - 32, openssl_layer(blocks).begin()));
    CHECK(all_poison(digests.data() + count * 32, 32));
  }
}

TEST_CASE("layer on host memory matches OpenSSL, on the device and on the host",
          "[sha256][layer]") {
  device_queue d;
  for (std::uint64_t count : layer_counts()) {
    INFO("count " << count);
    const auto blocks = test::random_bytes(count * 64);
    const auto expected = openssl_layer(blocks);
    std::vector<std::uint8_t> device(count * 32 + 32, test::poison_byte);
    merklize::hash_layer(d.queue, device.data(), device.size(), blocks.data(), blocks.size());
    REQUIRE(std::equal(expected.begin(), expected.end(), device.begin()));
    CHECK(all_poison(device.data() + count * 32, 32));
    if (count > 4097) continue; // the host is slow; its code path is the same for every count
    std::vector<std::uint8_t> host(count * 32, test::poison_byte);
    merklize::hash_layer_host(host.data(), host.size(), blocks.data(), blocks.size());
    REQUIRE(host == expected);
  }
}

TEST_CASE("layer on host memory works in place, as gohashtree's callers use it",
          "[sha256][layer]") {
  device_queue d;
  const auto blocks = test::random_bytes(1001 * 64);
  const auto expected = openssl_layer(blocks);
  auto on_device = blocks;
  merklize::hash_layer(d.queue, on_device.data(), on_device.size(), on_device.data(),
                       on_device.size());
  CHECK(std::equal(expected.begin(), expected.end(), on_device.begin()));
  auto on_host = blocks;
  merklize::hash_layer_host(on_host.data(), on_host.size(), on_host.data(), on_host.size());
  CHECK(std::equal(expected.begin(), expected.end(), on_host.begin()));
}

TEST_CASE("layer of zero blocks writes nothing and completes", "[sha256][layer]") {
  device_queue d;
  cl::Buffer in = test::poisoned_buffer(d.context, d.queue, 64);
  cl::Buffer out = test::poisoned_buffer(d.context, d.queue, 32);
  merklize::hash_layer(d.queue, out, in, 0).wait();
  CHECK(all_poison(test::read_buffer(d.queue, out, 32).data(), 32));
  std::vector<std::uint8_t> digests(32, test::poison_byte);
  merklize::hash_layer(d.queue, digests.data(), digests.size(), nullptr, 0);
  merklize::hash_layer_host(digests.data(), digests.size(), nullptr, 0);
  CHECK(all_poison(digests.data(), digests.size()));
}

TEST_CASE("layer checks of gohashtree: odd chunks and short output are errors, data untouched",
          "[sha256][layer][errors]") {
  device_queue d;
  const auto chunks = test::random_bytes(3 * 32);
  std::vector<std::uint8_t> digests(64, test::poison_byte);
  using layer_fn = std::function<void(void *, std::uint64_t, const void *, std::uint64_t)>;
  const layer_fn on_device = [&](void *o, std::uint64_t ob, const void *i, std::uint64_t ib) {
    merklize::hash_layer(d.queue, o, ob, i, ib);
  };
  for (const layer_fn &layer : {on_device, layer_fn(merklize::hash_layer_host)}) {
    CHECK_THROWS_WITH(layer(digests.data(), 64, chunks.data(), 96),
                      Contains("odd number of chunks (3)"));
    CHECK_THROWS_WITH(layer(digests.data(), 64, chunks.data(), 95),
                      Contains("95 bytes, not a whole number of 32-byte chunks"));
    CHECK_THROWS_WITH(layer(digests.data(), 31, chunks.data(), 64),
                      Contains("output too small") && Contains("31 bytes") &&
                          Contains("1 digests need 32"));
    CHECK(all_poison(digests.data(), digests.size()));
  }
}

TEST_CASE("layer on device buffers refuses bad buffers, untouched", "[sha256][layer][errors]") {
  device_queue d;
  cl::Buffer in = test::poisoned_buffer(d.context, d.queue, 4 * 64);
  cl::Buffer out = test::poisoned_buffer(d.context, d.queue, 4 * 32);
  CHECK_THROWS_WITH(merklize::hash_layer(d.queue, out, in, 5),
                    Contains("layer in buffer too small") && Contains("320"));
  cl::Buffer big_in = test::poisoned_buffer(d.context, d.queue, 5 * 64);
  CHECK_THROWS_WITH(merklize::hash_layer(d.queue, out, big_in, 5),
                    Contains("layer out buffer too small") && Contains("160"));
  CHECK_THROWS_WITH(merklize::hash_layer(d.queue, in, in, 1), Contains("same buffer"));
  cl::Context other(test::test_device());
  cl::Buffer foreign(other, CL_MEM_READ_WRITE, 4 * 64);
  CHECK_THROWS_WITH(merklize::hash_layer(d.queue, out, foreign, 1),
                    Contains("another OpenCL context"));
  CHECK_THROWS_WITH(merklize::hash_layer(d.queue, out, in, ~0ull),
                    Contains("more than 2^64 bytes"));
  CHECK(all_poison(test::read_buffer(d.queue, out, 4 * 32).data(), 4 * 32));
}
