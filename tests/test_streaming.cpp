// SPDX-License-Identifier: Apache-2.0 OR MIT
// Host builds stream chunks of 2^s leaves through the device; what they keep depends on the
// output levels. Every combination is compared with the host reference, node for node.
#include "proof_helpers.hpp"
#include "tree_checks.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

// Chunks of a stream of n leaves in chunks of 2^s: with 4 or more, the first is split into
// quarter, quarter, half, and the last into a half and a quarter where it has more leaves
// than those, then the rest.
std::uint64_t expected_chunks(std::uint64_t n, unsigned s) {
  const std::uint64_t size = std::uint64_t(1) << s, full = (n + size - 1) / size;
  if (full < 4 || s < 3) return full;
  std::uint64_t last = n - (full - 1) * size, tail = 1;
  for (std::uint64_t piece : {size / 2, size / 4})
    if (last > piece) {
      last -= piece;
      ++tail;
    }
  return full - 2 + 3 + tail;
}

} // namespace

TEST_CASE("chunked builds match the reference for every output and shape", "[streaming]") {
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  const auto hash = options.hash;
  const auto pad = options.shape;
  const unsigned chunk_log2 = GENERATE(1u, 3u, 4u, 6u);
  for (std::uint64_t n :
       {1ull, 2ull, 3ull, 7ull, 8ull, 9ull, 54ull, 61ull, 63ull, 64ull, 65ull, 1000ull, 4097ull}) {
    const auto leaves = test::random_bytes(n * 32);
    const auto full = merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
    for (unsigned first : {0u, 1u, 2u, 5u, ~0u}) {
      INFO(merklize::to_string(hash) << " " << merklize::to_string(pad) << " n=" << n << " chunk 2^"
                                     << chunk_log2 << " levels from " << first);
      merklize::config cfg{{hash, pad}, {first}};
      cfg.chunk_log2 = chunk_log2;
      cfg.work_group_size = 4; // several launches per chunk, fused ones among them
      cfg.zero_copy = false;   // stream on CPU devices too
      merklize::merkleizer m(test::test_device(), cfg);
      test::check_kept(m.build(leaves), full, first);
      if (n > 1) CHECK(m.last_times().chunks == expected_chunks(n, chunk_log2));
    }
  }
}

TEST_CASE("a device-memory cap streams the tree in at least 4 batches", "[streaming]") {
  const std::uint64_t n = 20000; // 640 000 bytes of leaves
  const auto leaves = test::random_bytes(n * 32);
  const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {});
  merklize::config cfg;
  cfg.max_device_bytes = 256 * 1024; // well under the tree's 1.28 MB
  cfg.zero_copy = false;
  merklize::merkleizer m(test::test_device(), cfg);
  const auto built = m.build(leaves);
  CHECK(built == expected);
  CHECK(m.last_times().chunks >= 4);
  INFO("chunks " << m.last_times().chunks);

  cfg.max_device_bytes = 4 * 1024; // too small for any chunking
  merklize::merkleizer tiny(test::test_device(), cfg);
  CHECK_THROWS_WITH(tiny.build(leaves),
                    Contains("tree too large") && Contains("4096 bytes are allowed"));
}

TEST_CASE("one launch per level gives the same trees", "[streaming][dispatch]") {
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  merklize::config cfg{{merklize::hash_kind::blake3, pad}};
  cfg.levels_per_launch = 1;
  cfg.lanes = 1; // the one-node-per-work-item kernel, whatever the device
  merklize::merkleizer m(test::test_device(), cfg);
  for (std::uint64_t n : {2ull, 3ull, 1023ull, 1024ull, 1025ull, 70000ull}) {
    const auto leaves = test::random_bytes(n * 32);
    CHECK(m.build(leaves) == merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree));
    CHECK(m.last_times().kernel_launches == merklize::tree_layout(n).depth());
  }
}

TEST_CASE("page-locked host buffers in and out", "[streaming][pinned]") {
  const auto first = GENERATE(0u, 1u, ~0u);
  merklize::config cfg;
  cfg.output = {first};
  cfg.chunk_log2 = 8;
  cfg.zero_copy = false;
  merklize::merkleizer m(test::test_device(), cfg);
  for (std::uint64_t n : {1ull, 5ull, 1000ull, 5000ull}) {
    INFO("n=" << n << " levels from " << first);
    merklize::host_buffer leaves = m.allocate_host(n * 32);
    const auto random = test::random_bytes(n * 32);
    std::copy(random.begin(), random.end(), leaves.data());
    const auto full = merklize::reference_tree(random.data(), random.size(), {});

    const merklize::tree fresh = m.build(leaves);
    test::check_kept(fresh, full, first);
    if (first == 0) CHECK(fresh.level_data(0) == leaves.data()); // shared, not copied

    merklize::tree reused = m.allocate_tree(n);
    const std::uint8_t *storage = reused.nodes_data();
    for (int round = 0; round < 2; ++round) {
      std::fill(reused.nodes_data(), reused.nodes_data() + reused.nodes_size(), test::poison_byte);
      m.build(leaves, reused);
      test::check_kept(reused, full, first);
      CHECK(reused.nodes_data() == storage);
    }
    merklize::tree wrong = m.allocate_tree(n + 1);
    CHECK_THROWS_WITH(m.build(leaves, wrong), Contains("allocated for " + std::to_string(n + 1)));
  }
}

TEST_CASE("any number of chunks in flight gives the same trees", "[streaming]") {
  const std::uint64_t n = 1000; // 32 chunks of 2^5 leaves, the first and last ones split
  const auto leaves = test::random_bytes(n * 32);
  const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), {});
  for (unsigned in_flight : {1u, 2u, 5u, 40u}) {
    INFO("chunks in flight " << in_flight);
    merklize::config cfg;
    cfg.chunk_log2 = 5;
    cfg.chunks_in_flight = in_flight;
    cfg.zero_copy = false;
    merklize::merkleizer m(test::test_device(), cfg);
    CHECK(m.build(leaves) == expected);
    merklize::host_buffer pinned = m.allocate_host(leaves.size());
    std::copy(leaves.begin(), leaves.end(), pinned.data());
    CHECK(m.build(pinned) == expected);
  }
}

TEST_CASE("the timeline lists every command of the last build, on one clock", "[streaming]") {
  merklize::config cfg;
  cfg.chunk_log2 = 6;
  cfg.zero_copy = false;
  merklize::merkleizer m(test::test_device(), cfg);
  // 16 chunks of 64 leaves, ramped: 16, 16, 32, 14 of 64, then the last 40 as 32 and 8.
  const auto leaves = test::random_bytes(1000 * 32);
  REQUIRE(m.build(leaves) == merklize::reference_tree(leaves.data(), leaves.size(), {}));
  const auto spans = m.timeline();
  const auto &times = m.last_times();
  CHECK(times.chunks == 19);
  std::size_t uploads = 0, kernels = 0, downloads = 0;
  double upload_ms = 0, kernel_ms = 0, download_ms = 0, previous_start = 0;
  for (const auto &span : spans) {
    CHECK(span.start_ms >= previous_start); // ordered by start
    CHECK(span.end_ms >= span.start_ms);
    previous_start = span.start_ms;
    const double ms = span.end_ms - span.start_ms;
    switch (span.what) {
    case merklize::command_span::kind::upload:
      ++uploads, upload_ms += ms;
      break;
    case merklize::command_span::kind::kernel:
      ++kernels, kernel_ms += ms;
      break;
    case merklize::command_span::kind::download:
      ++downloads, download_ms += ms;
      break;
    }
  }
  REQUIRE_FALSE(spans.empty());
  CHECK(spans.front().start_ms == 0);
  CHECK(uploads == 19);
  CHECK(kernels == times.kernel_launches);
  CHECK(downloads > 19); // each chunk's lower levels, then the upper ones
  CHECK(upload_ms == Approx(times.upload_ms).margin(1e-6));
  CHECK(kernel_ms == Approx(times.kernel_ms).margin(1e-6));
  CHECK(download_ms == Approx(times.download_ms).margin(1e-6));
}
