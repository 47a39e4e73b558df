// SPDX-License-Identifier: Apache-2.0 OR MIT
// RFC 6962 on the device: leaf hashes of entries of any length against OpenSSL, the prefixed
// layer primitive, consistency proofs gathered from device-resident trees against the host
// prover, and empty inputs (N = 0) through the streamed path. The tree kernels themselves are
// checked node for node in test_level_kernel.cpp, test_levels_kernel.cpp and test_random.cpp.
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <openssl/sha.h>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;

digest openssl_prefixed(std::uint8_t prefix, const std::uint8_t *data, std::size_t size) {
  std::vector<std::uint8_t> message(1, prefix);
  message.insert(message.end(), data, data + size);
  digest d;
  SHA256(message.data(), message.size(), d.data());
  return d;
}

struct queue_on_device {
  cl::Device device = test::test_device();
  cl::CommandQueue queue = merklize::device_queue(device);
  cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
};

cl::Buffer device_copy(const merklize::merkleizer &m, const void *data, std::size_t bytes) {
  cl::Buffer b(m.context(), CL_MEM_READ_ONLY, bytes);
  m.queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, data);
  return b;
}

} // namespace

TEST_CASE("device_queue is an in-order, profiled queue in the library's shared context",
          "[device][queue]") {
  const queue_on_device d;
  CHECK(d.context() == merklize::detail::shared_context(d.device)());
  CHECK(d.queue.getInfo<CL_QUEUE_DEVICE>()() == d.device());
  const cl_command_queue_properties properties = d.queue.getInfo<CL_QUEUE_PROPERTIES>();
  CHECK((properties & CL_QUEUE_PROFILING_ENABLE) != 0);
  CHECK((properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0);
}

TEST_CASE("hash_entries matches OpenSSL for entries of every length across block edges",
          "[rfc6962][entries]") {
  queue_on_device d;
  // Lengths 0..200 (messages of 1..201 bytes: every padding case of 1 to 4 blocks), in one
  // buffer at odd offsets.
  std::vector<std::uint8_t> data;
  std::vector<merklize::entry_span> spans;
  for (std::uint64_t length = 0; length <= 200; ++length) {
    const auto entry = test::random_bytes(length);
    data.push_back(0x5a); // a byte between entries, so none starts aligned to the last's end
    spans.push_back({data.size(), length});
    data.insert(data.end(), entry.begin(), entry.end());
  }
  for (const std::uint8_t prefix : {std::uint8_t(0x00), std::uint8_t(0x01), std::uint8_t(0xff)}) {
    const auto hashed = merklize::hash_entries(d.queue, data.data(), data.size(), spans, prefix);
    REQUIRE(hashed.size() == spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
      INFO("prefix " << int(prefix) << " length " << spans[i].size);
      REQUIRE(hashed[i] == openssl_prefixed(prefix, data.data() + spans[i].first, spans[i].size));
    }
  }
  CHECK(merklize::hash_entries(d.queue, data.data(), 0, {}).empty());
  CHECK_THROWS_WITH(merklize::hash_entries(d.queue, data.data(), 10, {{5, 6}}),
                    Contains("runs past the 10 bytes given"));
}

TEST_CASE("hash_entries splits a batch into launches of bounded bytes, in any span order",
          "[rfc6962][entries]") {
  queue_on_device d;
  const auto data = test::random_bytes(1000);
  // Out of order, overlapping, one larger than the limit, an empty one at the end.
  const std::vector<merklize::entry_span> spans = {{900, 100}, {0, 10},  {5, 30},  {40, 300},
                                                   {350, 1},   {351, 0}, {10, 20}, {1000, 0}};
  for (const std::uint64_t limit : {1, 64, 200, 1000}) {
    const auto hashed = merklize::detail::hash_entries_in_launches(
        d.queue, data.data(), data.size(), spans, merklize::rfc6962_leaf_prefix, limit);
    REQUIRE(hashed.size() == spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
      INFO("limit " << limit << " entry " << i);
      CHECK(hashed[i] == openssl_prefixed(0x00, data.data() + spans[i].first, spans[i].size));
    }
  }
  // Launches hold consecutive spans within the limit, or one span alone.
  const auto first = merklize::detail::next_entries_launch(spans, 0, 200);
  CHECK(first.begin == 0);
  CHECK(first.end == 1); // {0, 10} would widen the range to 1000 bytes
  const auto second = merklize::detail::next_entries_launch(spans, 1, 200);
  CHECK(second.end == 3); // {0, 10} and {5, 30}; {40, 300} would reach 340
  CHECK(second.low == 0);
  CHECK(second.high == 35);
}

TEST_CASE("the prefixed layer is SHA-256(prefix || block), on device buffers, host memory and "
          "the host",
          "[rfc6962][layer]") {
  queue_on_device d;
  for (const std::uint64_t count : {1, 2, 3, 255, 256, 257, 1000}) {
    INFO("count " << count);
    const auto blocks = test::random_bytes(count * 64);
    std::vector<std::uint8_t> expected;
    for (std::uint64_t i = 0; i < count; ++i) {
      const digest e = openssl_prefixed(0x01, blocks.data() + 64 * i, 64);
      expected.insert(expected.end(), e.begin(), e.end());
    }
    cl::Buffer in(d.context, CL_MEM_READ_ONLY, blocks.size());
    d.queue.enqueueWriteBuffer(in, CL_TRUE, 0, blocks.size(), blocks.data());
    cl::Buffer out = test::poisoned_buffer(d.context, d.queue, (count + 1) * 32);
    merklize::hash_layer_prefixed(d.queue, out, in, count, 0x01).wait();
    const auto written = test::read_buffer(d.queue, out, (count + 1) * 32);
    REQUIRE(std::equal(expected.begin(), expected.end(), written.begin()));
    CHECK(std::all_of(written.end() - 32, written.end(),
                      [](std::uint8_t b) { return b == test::poison_byte; }));
    std::vector<std::uint8_t> memory(count * 32), host(count * 32);
    merklize::hash_layer_prefixed(d.queue, memory.data(), memory.size(), blocks.data(),
                                  blocks.size(), 0x01);
    merklize::hash_layer_prefixed_host(host.data(), host.size(), blocks.data(), blocks.size(),
                                       0x01);
    CHECK(memory == expected);
    CHECK(host == expected);
  }
}

TEST_CASE("consistency proofs gathered from a device-resident tree are the host prover's",
          "[rfc6962][consistency][device]") {
  for (const auto hash :
       {merklize::hash_kind::rfc6962, merklize::hash_kind::sha256, merklize::hash_kind::blake3}) {
    merklize::merkleizer m(test::test_device(), merklize::config{{hash}});
    merklize::device_prover prover(m);
    for (const std::uint64_t n : {1, 2, 3, 7, 8, 9, 100, 1025}) {
      const auto leaves = test::random_bytes(n * 32);
      const auto t = merklize::reference_tree(leaves.data(), leaves.size(), {hash});
      const cl::Buffer in = device_copy(m, leaves.data(), leaves.size());
      cl::Buffer nodes(m.context(), CL_MEM_READ_WRITE,
                       merklize::merkleizer::output_node_count(n) * 32);
      const auto built = m.enqueue_build(in, n, nodes);
      for (const std::uint64_t old_size : std::set<std::uint64_t>{0, 1, n / 3, n - 1, n}) {
        INFO(merklize::to_string(hash) << " " << old_size << " -> " << n);
        const auto proof = prover.gather_consistency(in, nodes, n, old_size, {built.back()});
        REQUIRE(proof == merklize::prove_consistency(t, old_size));
        CHECK(prover.last_times().kernel_launches == (proof.nodes.empty() ? 0u : 1u));
      }
    }
  }
  merklize::merkleizer parent(test::test_device(),
                              merklize::config{{merklize::hash_kind::blake3_parent}});
  merklize::device_prover refusing(parent);
  const auto leaves = test::random_bytes(4 * 32);
  const cl::Buffer in = device_copy(parent, leaves.data(), leaves.size());
  CHECK_THROWS_WITH(refusing.gather_consistency(in, in, 4, 2),
                    Contains("blake3-parent has no consistency proofs"));
}

TEST_CASE("an empty input is the empty tree where the tree has one, and refused elsewhere",
          "[rfc6962][ssz][input]") {
  const auto empty = test::write_file("empty", {});
  const auto root_of = [&](const merklize::tree_options &options) {
    merklize::merkleizer m(test::test_device(), merklize::config{options});
    merklize::input in(empty.string());
    return m.root(in);
  };
  CHECK(merklize::to_hex(root_of({merklize::hash_kind::rfc6962})) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const auto zeros = merklize::zero_subtree_roots(merklize::hash_kind::sha256, 12);
  CHECK(root_of({merklize::hash_kind::sha256, merklize::shape::zero, 12}) == zeros[12]);
  CHECK_THROWS_WITH(root_of({merklize::hash_kind::sha256}), Contains("no leaves"));
  CHECK_THROWS_WITH(root_of({merklize::hash_kind::blake3, merklize::shape::zero}),
                    Contains("no leaves"));
  merklize::merkleizer m(test::test_device(), merklize::config{{merklize::hash_kind::rfc6962}});
  merklize::input in(empty.string());
  CHECK_THROWS_WITH(m.prove(in, 0), Contains("leaf index 0 out of range: the tree has 0 leaves"));
  // A pipe's end is known only once it is read.
  const auto root =
      test::run_shell("printf '' | " + test::merklize_word() + " root --hash rfc6962 -");
  CHECK(root.status == 0);
  CHECK(root.out == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n");
}

TEST_CASE("rfc6962 trees refuse shape zero before any work", "[rfc6962][errors]") {
  merklize::config cfg{{merklize::hash_kind::rfc6962, merklize::shape::zero}};
  CHECK_THROWS_WITH(merklize::merkleizer(test::test_device(), cfg),
                    Contains("rfc6962 has shape promote only"));
}
